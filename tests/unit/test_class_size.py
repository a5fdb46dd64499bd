"""No class over 400 lines counting its mixins: a class's size is the lines of its body plus the
bodies of every base class defined in curator (mixins and bases, followed through imports), so a
class cut into mixin files is measured whole. A module's line limit (test_module_size.py) counts
files; this counts classes."""

from __future__ import annotations

import ast
from pathlib import Path

import curator

LIMIT = 400


def modules(root: Path, package: str = "curator") -> dict[str, ast.Module]:
    """Every module under `root`, by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package, *parts])] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    if not level:
        return name or ""
    base = module.split(".")
    base = base[: len(base) - level + (1 if is_package else 0)]
    return ".".join(base + ([name] if name else []))


class Classes:
    """The classes of a set of modules, and the bases each one's name leads to."""

    def __init__(self, mods: dict[str, ast.Module], packages: set[str]) -> None:
        self.mods = mods
        self.classes: dict[str, dict[str, ast.ClassDef]] = {}
        self.names: dict[str, dict[str, tuple[str, str | None]]] = {}  # module → alias → (module, name or None)
        for m, tree in mods.items():  # one walk of each tree for its classes and its imports
            classes: dict[str, ast.ClassDef] = {}
            seen: dict[str, tuple[str, str | None]] = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    classes[node.name] = node  # the last of a name, as a dict of them keeps
                elif isinstance(node, ast.ImportFrom):
                    source = _absolute(m, m in packages, node.level, node.module)
                    for a in node.names:
                        full = f"{source}.{a.name}"
                        seen[a.asname or a.name] = (full, None) if full in mods else (source, a.name)
                elif isinstance(node, ast.Import):
                    for a in node.names:
                        seen[a.asname or a.name.split(".")[0]] = (a.name if a.asname else a.name.split(".")[0], None)
            self.classes[m], self.names[m] = classes, seen

    def find(self, module: str, name: str, depth: int = 0) -> tuple[str, ast.ClassDef] | None:
        """The class `name` means in `module` (followed through re-exports), if curator defines it."""
        if depth > 10 or module not in self.mods:
            return None
        if name in self.classes[module]:
            return module, self.classes[module][name]
        target = self.names[module].get(name)
        if target is None or target[1] is None:
            return None
        return self.find(target[0], target[1], depth + 1)

    def base(self, module: str, expr: ast.expr) -> tuple[str, ast.ClassDef] | None:
        if isinstance(expr, ast.Subscript):  # App[None]
            expr = expr.value
        if isinstance(expr, ast.Name):
            return self.find(module, expr.id)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):  # msg.Notice
            target = self.names[module].get(expr.value.id)
            if target is not None and target[1] is None:
                return self.find(target[0], expr.attr)
        return None

    def size(self, module: str, node: ast.ClassDef) -> tuple[int, list[str]]:
        """Lines of the class and of every base defined here (each counted once), and their names."""
        seen: dict[tuple[str, str], int] = {}
        todo = [(module, node)]
        while todo:
            m, n = todo.pop()
            key = (m, f"{n.name}@{n.lineno}")
            if key in seen:
                continue
            seen[key] = n.end_lineno - n.lineno + 1
            todo += [b for b in (self.base(m, e) for e in n.bases) if b is not None]
        return sum(seen.values()), [f"{m}.{k.split('@')[0]}" for m, k in seen]


def oversized(mods: dict[str, ast.Module], packages: set[str], limit: int = LIMIT) -> dict[str, tuple[int, list[str]]]:
    found = Classes(mods, packages)
    out = {}
    for m, classes in found.classes.items():
        for name, node in classes.items():
            lines, parts = found.size(m, node)
            if lines > limit:
                out[f"{m}.{name}"] = (lines, parts)
    return out


def test_no_class_over_400_lines_counting_its_mixins():
    root = Path(curator.__file__).parent
    mods = modules(root)
    packages = {m for m in mods if (root / Path(*m.split(".")[1:]) / "__init__.py").exists()}
    over = oversized(mods, packages)
    assert not over, {k: f"{n} lines: {' + '.join(parts)}" for k, (n, parts) in over.items()}


def test_mixins_in_other_modules_are_counted_with_the_class(tmp_path):
    """The measure itself: a class of 30 lines over two mixins of 200 lines each, imported
    from other modules (one through a package's re-export), is 430 lines."""
    pkg = tmp_path / "pkg"
    (pkg / "parts").mkdir(parents=True)

    def body(name: str, n: int, bases: str = "") -> str:
        return f"class {name}{bases}:\n" + "".join(f"    x{i} = {i}\n" for i in range(n - 1))

    (pkg / "__init__.py").write_text("")
    (pkg / "parts" / "__init__.py").write_text("from .b import B\n")
    (pkg / "a.py").write_text(body("A", 200))
    (pkg / "parts" / "b.py").write_text(body("B", 200))
    (pkg / "app.py").write_text("from textual.app import App\nfrom .a import A\nfrom . import parts\n\n"
                                + body("Big", 30, "(A, parts.B, App[None])"))
    mods = modules(pkg, "pkg")
    over = oversized(mods, {"pkg", "pkg.parts"})
    assert over == {"pkg.app.Big": (430, ["pkg.app.Big", "pkg.parts.b.B", "pkg.a.A"])}
    assert oversized(mods, {"pkg", "pkg.parts"}, limit=430) == {}
