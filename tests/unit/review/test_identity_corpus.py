"""Review identity on the shared corpus stores (skipped where the corpus is not checked out):
renames, moves and reordered indexes are 0 new findings, one new broken link exactly 1."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from curator.bench import identity

HERE = Path(__file__).resolve()
CORPORA = next((p / "shared" / "corpora" for p in HERE.parents if (p / "shared" / "corpora").is_dir()), None)
pytestmark = [pytest.mark.skipif(CORPORA is None, reason="no shared corpus here"),
              pytest.mark.skipif(shutil.which("git") is None, reason="needs git")]

# one store of each shape: the 1,000-file tiered store, a Claude Code folder linking out of the
# store, a plain Serena store with an index, experience entries
CASES = ["tiered/skogai__ai-agents", "claude/Aleslammer__deathwatch_foundryvtt", "claude/abl030__cratedigger",
         "serena/kynesyslabs__node", "experience/cklxx__elephant.ai"]


def _no_user_git(monkeypatch, folder: Path) -> None:
    for var, value in (("GIT_CONFIG_GLOBAL", str(folder / "gitconfig")), ("GIT_CONFIG_NOSYSTEM", "1")):
        monkeypatch.setenv(var, value)


@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    """name -> (that corpus store copied into a repository and committed, a folder of its own):
    made once a module. The five kinds of change each start from a copy of it at the same place
    with the same user cache, as a maintainer reviews one repository change after change (and as
    `python -m curator.bench.identity` runs): the base commit's findings and the unchanged files'
    facts come from the store cache, which keys them by content (the first kind runs cold)."""
    made: dict[str, tuple[Path, Path]] = {}

    def base(name: str) -> tuple[Path, Path]:
        if name not in made:
            folder = tmp_path_factory.mktemp("committed")
            with pytest.MonkeyPatch.context() as mp:
                _no_user_git(mp, folder)
                identity.make_repo(CORPORA / name, folder / "base")
            made[name] = folder / "base", folder
        return made[name]

    return base


# the kinds of one store next to each other: a worker (worksteal hands out runs of neighbours)
# commits a store once for all of them
@pytest.mark.parametrize("kind", identity.KINDS)
@pytest.mark.parametrize("name", CASES)
def test_corpus_changes_give_only_real_new_findings(name, kind, tmp_path, monkeypatch, committed):
    _no_user_git(monkeypatch, tmp_path)
    base, work = committed(name)
    monkeypatch.setenv("CURATOR_CACHE_DIR", str(work / "cache"))
    out = identity.run_one(CORPORA, name, kind, 0, work, base)
    if out is None:
        pytest.skip("nothing of that kind in this store")
    what, new, _ = out
    assert len(new) == (1 if kind in ("broken", "collision") else 0), (what, [(f.check, f.path, f.message) for f in new])
