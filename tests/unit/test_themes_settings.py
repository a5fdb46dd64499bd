"""Theme files load as Textual themes; bad files are reported, not fatal; the theme is remembered."""

from __future__ import annotations

from curator.locations import bundled_themes
from curator.settings import Settings, load_settings, save_settings
from curator.themes import load_theme_files


def test_bundled_themes_load():
    themes, failures = load_theme_files(bundled_themes())
    names = {t.name for t in themes}
    assert {"curator-dark", "curator-light", "curator-high-contrast"} <= names and failures == []
    light = next(t for t in themes if t.name == "curator-light")
    assert light.dark is False and light.to_textual().name == "curator-light"


def test_bad_theme_files_are_reported_and_user_themes_override(tmp_path):
    (tmp_path / "ok.yaml").write_text("name: mine\nprimary: '#112233'\n")
    (tmp_path / "bad-colour.yaml").write_text("name: x\nprimary: not-a-colour\n")
    (tmp_path / "no-name.yaml").write_text("primary: '#112233'\n")
    (tmp_path / "broken.yaml").write_text("name: [\n")
    (tmp_path / "override.yaml").write_text("name: curator-dark\nprimary: '#ff0000'\n")
    themes, failures = load_theme_files(bundled_themes(), tmp_path)
    by_name = {t.name: t for t in themes}
    assert "mine" in by_name and by_name["curator-dark"].colours["primary"] == "#ff0000"
    reasons = {p.name: why for p, why in failures}
    assert set(reasons) == {"bad-colour.yaml", "no-name.yaml", "broken.yaml"}
    assert "not a colour" in reasons["bad-colour.yaml"] and "name" in reasons["no-name.yaml"]


def test_settings_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv("CURATOR_CONFIG", str(tmp_path / "settings.yaml"))
    assert load_settings().theme is None
    save_settings(Settings(theme="curator-light"))
    assert load_settings().theme == "curator-light"
    (tmp_path / "settings.yaml").write_text("- not a mapping\n")
    assert load_settings().theme is None
