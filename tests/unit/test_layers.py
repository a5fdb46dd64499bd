"""The layer contracts (`.importlinter`) hold, they fail when an import breaks them, ARCHITECTURE.md
draws the same six layers, and the floors drawn from the imports do not grow.

`python tests/unit/test_layers.py` prints the floors: a package of curator stands one floor above
everything it imports (function-level imports counted; a cycle between packages is one room)."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / ".importlinter"
PACKAGE = REPO / "curator"
FLOORS_AT_MOST = 10  # issue 34: 16 floors before it, 11 after its first phase


def layers() -> list[list[str]]:
    """The layers contract's layers, top first, each a list of packages."""
    parser = configparser.ConfigParser()
    parser.read(CONFIG, encoding="utf-8")
    lines = parser["importlinter:contract:layers"]["layers"].splitlines()
    return [[n.strip() for n in line.split("|")] for line in lines if line.strip() and not line.strip().startswith("#")]


def layer_line() -> str:
    """The layers as ARCHITECTURE.md writes them (`a | b` → `c`, `curator.` left out)."""
    return " → ".join(" | ".join(n.removeprefix("curator.") for n in layer) for layer in layers())


def lint(config: Path, pythonpath: Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(" \
        f"config_filename={str(config)!r}, no_cache=True))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=cwd or REPO, check=False, timeout=120)


def test_the_contracts_are_kept():
    out = lint(CONFIG)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "3 kept, 0 broken" in out.stdout


def test_six_named_layers_and_every_package_in_one():
    """A new package or loose module must be placed in the layers, or nothing judges its imports;
    no loose module but the entry point sits at the top of curator/."""
    assert len(layers()) == 6
    listed = {name for layer in layers() for name in layer}
    ours = {f"curator.{p.name}" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    loose = {f"curator.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert loose == {"curator.__main__"}
    assert ours | loose <= listed, sorted((ours | loose) - listed)


def test_architecture_draws_the_layers_of_the_contract():
    assert f"`{layer_line()}`" in (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8"), layer_line()


def test_the_ground_floor_imports_nothing_of_curator_above_it():
    import grimp

    graph = grimp.build_graph("curator", cache_dir=None)
    base = {m for m in graph.modules if m == "curator.base" or m.startswith("curator.base.")}
    out = {(m, i) for m in base for i in graph.find_modules_directly_imported_by(m)
           if i.startswith("curator") and i not in base and i != "curator"}
    assert not out, sorted(out)


def floors(package: str = "curator") -> tuple[dict[frozenset, int], list[frozenset]]:
    """Each package's floor (cycles condensed to one room) and the cycles between packages."""
    import grimp

    graph = grimp.build_graph(package, cache_dir=None)

    def room(module: str) -> str:
        return ".".join(module.split(".")[:2])

    edges: dict[str, set[str]] = {room(m): set() for m in graph.modules}
    for m in graph.modules:
        for i in graph.find_modules_directly_imported_by(m):
            if room(i) != room(m):
                edges[room(m)].add(room(i))
    # rooms that reach each other are one room (a cycle); then each stands above what it reaches
    reach = {n: _reachable(n, edges) for n in edges}
    rooms = {n: frozenset(m for m in edges if m == n or (m in reach[n] and n in reach[m])) for n in edges}
    floor: dict[frozenset, int] = {}

    def height(r: frozenset) -> int:
        if r not in floor:
            below = {rooms[i] for n in r for i in edges[n]} - {r}
            floor[r] = 1 + max((height(b) for b in below), default=0)
        return floor[r]

    for r in set(rooms.values()):
        height(r)
    return floor, [r for r in floor if len(r) > 1]


def _reachable(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen, stack = set(), [start]
    while stack:
        for nxt in edges[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def test_the_floors_do_not_grow_and_no_package_cycle():
    floor, cycles = floors()
    assert not cycles, cycles
    assert max(floor.values()) <= FLOORS_AT_MOST, sorted((n, sorted(r)) for r, n in floor.items())


@pytest.mark.parametrize(
    ("module", "bad_import", "contract"),
    [
        ("model/_upwards.py", "from curator.checks import run_checks\n", "six layers"),
        ("checks/_upwards.py", "import curator.tui.app\n", "six layers"),
        ("base/_upwards.py", "import curator.model.store\n", "six layers"),
        ("review/_sideways.py", "import curator.curation.apply\n", "six layers"),  # not a declared edge
        ("budgets_ui.py", "import rich.text\n", "nothing below the faces imports textual or rich"),
        ("model/_ui.py", "from textual.widget import Widget\n", "nothing below the faces imports textual or rich"),
    ],
)
def test_a_bad_import_breaks_a_contract(tmp_path, module, bad_import, contract):
    copy = tmp_path / "src"
    shutil.copytree(PACKAGE, copy / "curator", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "curator" / module).write_text(bad_import, encoding="utf-8")
    config = tmp_path / ".importlinter"
    text = CONFIG.read_text(encoding="utf-8")
    if module == "budgets_ui.py":  # a new module below the faces must be listed to be judged
        text = text.replace("    curator.budgets\n", "    curator.budgets\n    curator.budgets_ui\n", 1)
    config.write_text(text, encoding="utf-8")
    out = lint(config, pythonpath=copy, cwd=tmp_path)
    assert out.returncode != 0, out.stdout
    assert f"{contract}" in out.stdout and "BROKEN" in out.stdout
    assert module.replace("/", ".").removesuffix(".py") in out.stdout


if __name__ == "__main__":
    floor, cycles = floors()
    by: dict[int, list[str]] = {}
    for r, n in floor.items():
        by.setdefault(n, []).append(" | ".join(sorted(x.removeprefix("curator.") for x in r)))
    for n in sorted(by, reverse=True):
        print(f"{n:3d}  {', '.join(sorted(by[n]))}")
    print(f"floors: {max(by)}; cycles between packages: {len(cycles)}")
    print(f"layers: {layer_line()}")
