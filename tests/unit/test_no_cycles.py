"""No import cycle between modules of curator: no module reaches itself again through the modules
it imports — function-level and `TYPE_CHECKING` imports counted, so a cycle cannot hide behind
an import moved into a function, a type hint, or a re-export at the bottom of a module.

(Between packages, tests/unit/test_layers.py keeps the floors; this holds inside each package.)"""

from __future__ import annotations

import sys

import pytest


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other (Tarjan's algorithm, without recursion), each
    sorted; a module alone is left out unless it imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            nxt = next(todo, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in edges.get(node, ()):
                    groups.append(sorted(group))
    return sorted(groups)


def module_cycles(package: str = "curator") -> list[list[str]]:
    """Each cycle among `package`'s modules, with the import lines that close it."""
    import grimp

    graph = grimp.build_graph(package, cache_dir=None)
    edges = {m: {i for i in graph.find_modules_directly_imported_by(m) if i.split(".")[0] == package}
             for m in graph.modules}
    out = []
    for group in strongly_connected(edges):
        lines = [f"{a} -> {b} (line {d['line_number']}: {d['line_contents']})"
                 for a in group for b in sorted(edges[a] & set(group))
                 for d in graph.get_import_details(importer=a, imported=b)]
        out.append(lines)
    return out


@pytest.mark.parametrize(
    ("edges", "groups"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"a"}}, [["a"]]),
        ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c", "a"}}, [["a", "b"], ["c", "d"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(edges, groups):
    assert strongly_connected(edges) == groups


def test_a_long_chain_needs_no_recursion():
    chain = {f"m{i}": {f"m{i + 1}"} for i in range(sys.getrecursionlimit() + 10)}
    chain["m0"] = {"m1"}
    assert strongly_connected(chain) == []


def test_no_import_cycle_between_modules():
    cycles = module_cycles()
    assert not cycles, "\n\n".join("\n".join(c) for c in cycles)


def test_a_function_level_import_back_is_a_cycle(tmp_path, monkeypatch):
    """The dodges the cycles hid behind (an import inside a function, under TYPE_CHECKING, at the
    bottom of a module) are all counted."""
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from .high import g\n    return g\n")
    (pkg / "high.py").write_text("from typing import TYPE_CHECKING\n\nfrom .low import f\n\n"
                                 "if TYPE_CHECKING:\n    from .other import X\n\ng = f\n")
    (pkg / "other.py").write_text("X = 1\n\nfrom .high import g  # noqa: E402\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = module_cycles("cyc")
    assert len(found) == 1
    assert {line.split(" ")[0] for line in found[0]} == {"cyc.low", "cyc.high", "cyc.other"}
