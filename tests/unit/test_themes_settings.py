"""Theme files load as Textual themes; bad files are reported, not fatal; the theme is remembered."""

from __future__ import annotations

from curator.base.locations import bundled_themes
from curator.tui.settings import Settings, load_settings, save_settings
from curator.tui.themes import load_theme_files


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


def test_a_theme_of_one_colour_still_tells_severities_apart(tmp_path):
    (tmp_path / "mono.yaml").write_text("name: mono\nprimary: '#336699'\n")
    (theme,), _ = load_theme_files(tmp_path)
    made = theme.to_textual()
    signals = {made.error, made.warning, made.success, made.primary}
    assert len(signals) == 4 and None not in signals  # Textual alone would draw all four in primary
    (tmp_path / "mono.yaml").write_text("name: mono\nprimary: '#336699'\nerror: '#ff0000'\n")
    (theme,), _ = load_theme_files(tmp_path)
    assert theme.to_textual().error == "#ff0000"  # a colour the file gives wins


def test_role_styles_are_each_bundled_themes_own_colours():
    from curator.reports.styles import ROLES, role_styles

    themes, _ = load_theme_files(bundled_themes())
    seen = set()
    for theme in themes:
        made = theme.to_textual()
        styles = role_styles(made)
        assert styles["error"] == made.error and styles["bold error"] == f"bold {made.error}"
        assert styles["warning"] == made.warning and styles["info"] == made.primary
        assert len({styles[r] for r in ROLES}) == len(ROLES), theme.name  # every role distinct
        seen.add(styles["error"])
    assert len(seen) == len(themes)  # no two themes share an error colour: they really come from the theme


def test_the_faces_name_roles_never_colours():
    """Colours come from the theme: CSS uses $variables, Rich styles name a role (reports/styles.py
    maps them) — in the app, the CLI and the renderers both share."""
    import re
    from pathlib import Path

    import curator

    root = Path(curator.__file__).parent
    pkg = root / "tui"
    literal = re.compile(r"#[0-9a-fA-F]{3,8}\b(?![-\w])|\b(red|green|yellow|blue|magenta|cyan|white|black)\b")
    code = re.compile(r"""["'][^"']*["']""")  # only inside string literals: comments and names may say "red"
    found = []
    files = [pkg / "app.tcss", *pkg.rglob("*.py"), *(root / "cli").rglob("*.py"),
             *(p for p in (root / "reports").glob("*.py") if p.name != "styles.py")]
    for path in files:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith("#") and path.suffix == ".py":
                continue
            strings = line if path.suffix == ".tcss" else " ".join(code.findall(line))
            for m in literal.finditer(strings):
                if m.group(0).startswith("#") and path.suffix == ".py" and not re.search(r"color|background|style", line):
                    continue  # a widget id ("#tree"), not a colour
                found.append(f"{path.name}:{n}: {m.group(0)}")
    assert found == []


def test_the_diff_names_roles_and_the_cli_prints_them_in_the_terminals_colours(monkeypatch):
    from io import StringIO

    from rich.console import ColorSystem
    from rich.text import Text

    from curator.cli.common import console
    from curator.reports.diff_report import STYLES
    from curator.reports.styles import ROLES

    assert {s for _, s in STYLES} - {"bold"} <= set(ROLES)  # the app's preview takes the theme's colours
    for name in ("NO_COLOR", "COLORTERM", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm")
    out = StringIO()
    con = console(file=out)
    assert con.color_system == ColorSystem.STANDARD.name.lower()
    con.print(Text.assemble(("added", "success"), " ", ("gone", "bold error"), " ", ("hunk", "info")))
    printed = out.getvalue()
    assert "\x1b[32madded" in printed and "\x1b[1;31mgone" in printed and "\x1b[36mhunk" in printed
