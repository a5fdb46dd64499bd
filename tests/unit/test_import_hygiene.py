"""Services stay headless: importing them must not import Textual."""

import subprocess
import sys

HEADLESS = ["curator.base", "curator.base.kept", "curator.demo.sample_copy", "curator.model", "curator.base.config", "curator.base.tokens", "curator.cli", "curator.live.workspace", "curator.reports", "curator.tui.themes"]
OPTIONAL = ["curator.checks", "curator.retrieval", "curator.curation", "curator.budgets", "curator.review", "curator.transcripts"]


def _importing_textual(modules: list[str]) -> list[str]:
    """Those of `modules` whose import imports Textual, imported one after another in one fresh
    interpreter with Textual looked for after each: what a module imports stays imported, so the
    first module found is the first that brings Textual in, as a fresh process for each would say
    (one process instead of one a module: ~0.1 s of CPU each). A module that is not there (an
    optional part not installed) imports nothing."""
    code = ("import importlib, sys\n"
            "for name in sys.argv[1:]:\n"
            "    try:\n"
            "        importlib.import_module(name)\n"
            "    except ModuleNotFoundError as exc:\n"
            "        if exc.name is None or not name.startswith(exc.name):\n"
            "            raise\n"
            "    print(name, 'textual' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code, *modules], capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError(out.stderr)
    seen = dict(line.rsplit(" ", 1) for line in out.stdout.splitlines())
    assert list(seen) == modules, out.stdout
    return [m for m in modules if seen[m] == "True"]


def test_core_does_not_import_textual():
    assert _importing_textual(HEADLESS) == []


def test_services_do_not_import_textual():
    import importlib.util

    assert _importing_textual([m for m in OPTIONAL if importlib.util.find_spec(m) is not None]) == []


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
    bare `curator`, which opens the app, does). The commands run one after another through the
    entry point in one fresh interpreter, with Textual looked for after each, as
    `_importing_textual` does for modules: what a command imports stays imported, so the first
    command found is the one that brings Textual in (one process instead of one a command: ~0.35 s
    of CPU each). Each command's stderr is its own (a marker line after each)."""
    import json
    import os
    import shutil

    env = dict(os.environ, CURATOR_NO_REPLAY="1", CURATOR_NO_FAST="1")
    commands = MACHINE_COMMANDS
    if shutil.which("git"):  # review compares with a git revision
        for git in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
            subprocess.run(["git", *git], cwd=sample_repo_copy, check=True, capture_output=True)
    else:
        commands = [c for c in commands if c[0] != "review"]
    argvs = [[a.format(store=sample_repo_copy) for a in args] for args in commands]
    code = ("import json, sys\nfrom curator.__main__ import main\n"
            "for argv in json.loads(sys.argv[1]):\n"
            "    sys.argv[1:] = argv\n"
            "    try:\n        main()\n    except SystemExit:\n        pass\n"
            "    sys.stderr.write('\\n' + ('TEXTUAL' if 'textual' in sys.modules else 'HEADLESS') + ' <end of command>\\n')\n"
            "    sys.stderr.flush()\n")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(argvs)], capture_output=True, text=True, env=env)
    parts = out.stderr.split(" <end of command>\n")
    assert out.returncode == 0 and len(parts) == len(argvs) + 1, (out.returncode, out.stderr[-2000:])
    for argv, err in zip(argvs, parts, strict=False):
        assert "Traceback" not in err and "error:" not in err, (argv, err)
        assert err.rstrip().endswith("HEADLESS"), (argv, err[-500:])
