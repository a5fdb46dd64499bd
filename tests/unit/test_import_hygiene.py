"""Services stay headless: importing them must not import Textual."""

import subprocess
import sys

HEADLESS = ["curator.model", "curator.config", "curator.tokens", "curator.cli", "curator.workspace", "curator.reports", "curator.themes"]
OPTIONAL = ["curator.checks", "curator.retrieval", "curator.curation", "curator.budgets", "curator.review"]


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
