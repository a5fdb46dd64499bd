"""Services stay headless: importing them must not import Textual."""

import subprocess
import sys

HEADLESS = ["curator.base", "curator.base.kept", "curator.demo.sample_copy", "curator.model", "curator.base.config", "curator.base.tokens", "curator.cli", "curator.live.workspace", "curator.reports", "curator.tui.themes"]
OPTIONAL = ["curator.checks", "curator.retrieval", "curator.curation", "curator.budgets", "curator.review", "curator.transcripts"]


def _imports_textual(module: str) -> bool:
    code = f"import importlib, sys; importlib.import_module({module!r}); print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if out.returncode != 0:
        if "ModuleNotFoundError" in out.stderr and module in out.stderr:
            return False
        raise AssertionError(out.stderr)
    return out.stdout.strip() == "True"


def test_core_does_not_import_textual():
    for module in HEADLESS:
        assert not _imports_textual(module), module


def test_services_do_not_import_textual():
    import importlib.util

    for module in OPTIONAL:
        if importlib.util.find_spec(module) is None:
            continue
        assert not _imports_textual(module), module


def test_importing_curator_is_cheap():
    code = "import sys, curator; print(sorted(m for m in ('rich', 'yaml', 'tiktoken', 'textual') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


MACHINE_COMMANDS = [
    ["check", "{store}", "--format", "json"],
    ["check", "--list"],
    ["tokens", "{store}"],
    ["retrieve", "git rebase", "{store}", "--format", "json"],
    ["review", "{store}"],
    ["tiers", "{store}"],
    ["history", "{store}"],
    ["fix", "{store}", "--dry-run"],
]


def test_the_cli_machine_commands_never_import_textual(sample_repo_copy):
    """The commands scripts and CI run stay headless: none of them imports Textual (only the
    bare `curator`, which opens the app, does)."""
    import os
    import shutil

    env = dict(os.environ, CURATOR_NO_REPLAY="1", CURATOR_NO_FAST="1")
    commands = MACHINE_COMMANDS
    if shutil.which("git"):  # review compares with a git revision
        for git in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
            subprocess.run(["git", *git], cwd=sample_repo_copy, check=True, capture_output=True)
    else:
        commands = [c for c in commands if c[0] != "review"]
    code = ("import sys\nfrom curator.__main__ import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('TEXTUAL' if 'textual' in sys.modules else 'HEADLESS', file=sys.stderr)")
    for args in commands:
        argv = [a.format(store=sample_repo_copy) for a in args]
        out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env)
        assert "Traceback" not in out.stderr and "error:" not in out.stderr, (argv, out.stderr)
        assert out.stderr.rstrip().endswith("HEADLESS"), (argv, out.stderr[-500:])
