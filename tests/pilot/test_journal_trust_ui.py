"""Issue 29 in the app: one ctrl+z with a forged repository journal (naming a tier sibling beside
the repository) wrote outside it; now it changes nothing and says why. An entry written before
journal entries were sealed is shown as unverifiable in the history and undone only after the
person saw its diff and applied it. A control character in a file name never reaches the terminal."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from curator.curation.quarantine import entries
from curator.tui.dialogs import DiffDialog, HistoryDialog
from tests.pilot.conftest import settle, wait_until
from tests.pilot.test_live_instructions import _app, _on_context_alone

BROKEN = "# Claude\n\nSee @elsewhere/only-here.md.\n"
FIXED = "# Claude\n\nSee @notes/only-here.md.\n"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "notes").mkdir()
    (root / "notes" / "only-here.md").write_text("# Only here\n")
    (root / "CLAUDE.md").write_text(FIXED)
    return root


def _entry(root: Path, rel: str, before: bytes, after: bytes, title: str = "fix 1 instruction finding(s)") -> Path:
    entry = root / ".curator" / "journal" / "00001-fix"
    (entry / "blobs").mkdir(parents=True)
    for data in (before, after):
        (entry / "blobs" / sha(data)).write_bytes(data)
    (entry / "meta.json").write_text(json.dumps({
        "id": "00001-fix", "operation": "fix", "title": title, "created": "2026-11-19T10:00:00+00:00",
        "state": "applied", "files": [{"path": rel, "before": sha(before), "after": sha(after)}], "notes": []}))
    return entry


async def test_ctrl_z_with_a_forged_repository_entry_writes_nothing_outside(tmp_path):
    root = _repo(tmp_path)
    victim = tmp_path / "knowledge" / "victim.md"
    victim.parent.mkdir()
    victim.write_bytes(b"mine\n")
    entry = _entry(root, "../knowledge/victim.md", b"planted\n", b"mine\n")
    meta = json.loads((entry / "meta.json").read_text())
    (entry / "meta.json").write_text(json.dumps({**meta, "seal": "0" * 64}))  # a seal of someone else's key
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert victim.read_bytes() == b"mine\n"
        said = " ".join(str(n.message) for n in app.toasts)
        assert "00001-fix" in said and "quarantine" in said


async def test_an_unverifiable_entry_is_undone_only_after_its_diff_is_applied(tmp_path):
    root = _repo(tmp_path)
    _entry(root, "CLAUDE.md", BROKEN.encode(), FIXED.encode(), title="fix\x1b[2J 1 instruction finding(s)")
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        await pilot.press("ctrl+z")  # never acted on unasked
        await settle(app, pilot)
        assert (root / "CLAUDE.md").read_text() == FIXED
        app.action_history()
        await settle(app, pilot)
        assert isinstance(app.screen, HistoryDialog)
        assert [it["state"] for it in app.screen.items] == ["unverifiable"]
        assert "\x1b" not in app.export_screenshot()  # the title's escape drawn, never sent
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffDialog))
        assert "-See @notes/only-here.md.\n+See @elsewhere/only-here.md.\n" in app.screen.plan.diff()
        assert (root / "CLAUDE.md").read_text() == FIXED  # shown, not written
        await pilot.press("y")
        await wait_until(pilot, lambda: (root / "CLAUDE.md").read_text() == BROKEN)
        await settle(app, pilot)
        assert [(e.state, e.trust) for e in entries(root)] == [("undone", "sealed")]  # the person's own now


async def test_control_characters_in_names_are_drawn_never_sent(tmp_path):
    root = _repo(tmp_path)
    rules = root / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "\x1b[41mred\x07.md").write_text('---\npaths: ["nothing/**"]\n---\n# r\n')
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        for key in ("7", "2"):
            await pilot.press(key)
            await settle(app, pilot)
            shot = app.export_screenshot()
            assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", shot), key


async def test_x_y_says_which_clone_shipped_entry_it_set_aside(tmp_path):
    """Issue 29's clone flow in the app: a pending entry shipped with the clone names `.git/config`;
    X then y fixes the import, never touches `.git/`, and says the entry was set aside (the CLI's
    `fix` prints it; the app said only "applied")."""
    root = _repo(tmp_path)
    (root / "CLAUDE.md").write_text(BROKEN)
    config = root / ".git" / "config"
    config.write_bytes(b"[core]\n\tbare = false\n")
    entry = _entry(root, ".git/config", b"[core]\n\tfsmonitor = touch /tmp/pwned\n", config.read_bytes())
    meta = json.loads((entry / "meta.json").read_text())
    (entry / "meta.json").write_text(json.dumps({**meta, "state": "pending"}))
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("X")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffDialog))
        await pilot.press("y")
        await wait_until(pilot, lambda: (root / "CLAUDE.md").read_text() == FIXED)
        await settle(app, pilot)
        assert config.read_bytes() == b"[core]\n\tbare = false\n"
        said = " ".join(str(n.message) for n in app.toasts)
        assert "00001-fix" in said and "quarantine" in said and ".git/config" in said, said


async def test_a_file_a_kill_left_aside_is_named_when_the_app_cannot_put_it_back(tmp_path, monkeypatch):
    """A kill between move-aside and link, then the app opened where it cannot write (the roll-back
    refused): recovery's note — which file is missing, and the `mv` that puts it back — is shown
    (a warning the load's next toast replaced: nothing said, CLAUDE.md missing)."""
    from curator.curation import recovery
    from tests.unit.curation.test_repository_journal_attacks import _kill_mid_fix

    root = _repo(tmp_path)
    (root / "CLAUDE.md").write_text(BROKEN)
    (root / "AGENTS.md").write_text("# Agents\n")  # still a repository with instructions while CLAUDE.md is aside
    _kill_mid_fix(root)

    def refused(*_a, **_k):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(recovery, "recover_locked", refused)
    app = _app(root, layout=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _on_context_alone(app, pilot)
        said = " ".join(str(n.message) for n in app.toasts)
        assert "CLAUDE.md is missing" in said and "mv " in said, said
