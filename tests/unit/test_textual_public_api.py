"""curator uses only Textual's public API: no `textual._…` module, no private attribute of a
Textual object, no override of a private Textual method. (Private names change without notice
between Textual releases; that is what pinned Textual to one release.)"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import textual

import curator
import curator.tui

CURATOR = Path(curator.__file__).parent
TEXTUAL = Path(textual.__file__).parent

PRIVATE_DEF = re.compile(r"\bdef (_[a-z]\w*)|self\.(_[a-z]\w*)\s*[:=]|^\s+(_[a-z]\w*)\s*[:=]", re.M)
PRIVATE_USE = re.compile(r"\.(_[a-z]\w*)\b")


def _defined(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for m in PRIVATE_DEF.finditer(path.read_text(encoding="utf-8")):
            names.add(next(g for g in m.groups() if g))
    return names


def _sources(folder: Path = CURATOR):
    return [(p, p.read_text(encoding="utf-8")) for p in sorted(folder.rglob("*.py"))]


def test_no_private_textual_module_is_imported():
    bad = [f"{p.relative_to(CURATOR)}:{n}" for p, text in _sources()
           for n, line in enumerate(text.splitlines(), 1)
           if re.search(r"\btextual(\.\w+)*\._\w", line)]
    assert not bad, bad


def test_no_private_textual_attribute_is_used():
    """In the Textual face, a `._name` that Textual defines and curator does not is Textual's
    private state."""
    textual_private = _defined(TEXTUAL)
    ours = _defined(CURATOR / "tui")
    bad = []
    for path, text in _sources(CURATOR / "tui"):
        for n, line in enumerate(text.splitlines(), 1):
            for m in PRIVATE_USE.finditer(line):
                name = m.group(1)
                if name in textual_private and name not in ours:
                    bad.append(f"{path.relative_to(CURATOR)}:{n}: {name}")
    assert not bad, bad


def test_no_private_textual_method_is_overridden():
    overrides = []
    for info in pkgutil.walk_packages(curator.tui.__path__, "curator.tui."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            bases = [b for b in cls.__mro__ if b.__module__.startswith("textual")]
            for name, value in vars(cls).items():
                if name.startswith("_") and not name.startswith("__") and inspect.isfunction(value) \
                        and any(name in vars(b) for b in bases):
                    overrides.append(f"{cls.__module__}.{cls.__name__}.{name}")
    assert overrides == [], overrides


def test_the_check_finds_a_private_use(tmp_path):
    """The scan is not vacuous: the app's old hand-off (Textual's loop and exit flags) is caught."""
    textual_private = _defined(TEXTUAL)
    old = "loop = self._loop\nif self._exit or self._closing:\n    from textual._callback import invoke\n"
    used = {m.group(1) for m in PRIVATE_USE.finditer(old)}
    assert {"_loop", "_exit", "_closing"} <= used & textual_private
    assert re.search(r"\btextual(\.\w+)*\._\w", old)
