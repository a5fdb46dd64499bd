"""instructions.missing-path says where the file went — git's rename history, else the one file
of that name — and offers to name it there (only when that is unambiguous)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.cli import main
from curator.context import build_context

from .test_context_model import repo


def missing(root, tmp_path):
    model = build_context(root, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    return [f for f in model.findings if f.check == "instructions.missing-path"]


def test_the_one_file_of_that_name_under_the_folder_is_where_it_went(tmp_path):
    # trigger.dev: internal-packages/run-engine/CLAUDE.md names `src/locking.ts`, now src/engine/locking.ts
    root = repo(tmp_path, {"CLAUDE.md": "# Repo\n", "pkg/CLAUDE.md": "- **RunLocker** (`src/locking.ts`): locks\n",
                           "pkg/src/engine/locking.ts": "", "other/locking.ts": "", "pkg/src/index.ts": ""})
    (f,) = missing(root, tmp_path)
    assert f.message == "`src/locking.ts` does not exist (pkg/src/ does; the one file of that name there is src/engine/locking.ts)"
    assert (f.fix.old, f.fix.new, f.suggestion) == ("src/locking.ts", "src/engine/locking.ts", "pkg/src/engine/locking.ts")


def test_several_files_of_that_name_are_named_and_not_guessed(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "Run `tests/domain/test_ids.py` first.\n", "tests/domain/test_x.py": "",
                           "tests/adapters/test_ids.py": "", "tests/e2e/test_ids.py": ""})
    (f,) = missing(root, tmp_path)
    assert f.fix is None and "files of that name: tests/adapters/test_ids.py, tests/e2e/test_ids.py" in f.message


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_recorded_the_move_and_the_fix_re_points_the_line_then_undoes(tmp_path, capsys):
    text = "# Agents\n\nThe store is `src/store.py`; a second `lib/store.py` stays.\n"
    root = repo(tmp_path, {"AGENTS.md": text, "src/store.py": "x = 1\n" * 20, "src/app.py": "",
                           "lib/store.py": "", "docs/store.py": ""})

    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@e", *args], cwd=root, check=True,
                       capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "one")
    (root / "src" / "data").mkdir()
    git("mv", "src/store.py", "src/data/store.py")
    git("commit", "-qm", "move")
    (f,) = missing(root, tmp_path)  # three files named store.py: git's record decides
    assert "git recorded its move: it is src/data/store.py now" in f.message and f.fix.new == "src/data/store.py"
    assert main(["fix", str(root), "--check", "instructions.missing-path"]) == 0
    assert (root / "AGENTS.md").read_text() == text.replace("`src/store.py`", "`src/data/store.py`")
    assert missing(root, tmp_path) == []
    assert main(["undo", "--repository", str(root)]) == 0
    assert (root / "AGENTS.md").read_text() == text
    capsys.readouterr()


def test_a_go_package_and_its_exported_name_is_not_a_file(tmp_path):
    # clawker: "wrapping `pkg/whail.Engine`", "`controlplane/otelcerts.Service`", from a nested CLAUDE.md too
    root = repo(tmp_path, {"CLAUDE.md": "Middleware over `pkg/whail.Engine` and `controlplane/otelcerts.Service`.\n"
                           "The firewall is `internal/firewall.Stack`; see `pkg/whail.go`.\n",
                           "pkg/whail/engine.go": "", "controlplane/otelcerts/service.go": "",
                           "internal/agent/CLAUDE.md": "Dial with `controlplane/otelcerts.Service`.\n"})
    found = sorted(f.message.split(" does not exist")[0] for f in missing(root, tmp_path))
    # a package folder that is not there is still a stale name; a lower-case ending is a file's
    assert found == ["`internal/firewall.Stack`", "`pkg/whail.go`"]
