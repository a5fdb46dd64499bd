"""A baseline of accepted findings (a committed JSON file of fingerprints), and the findings a
change introduced against a git revision — the two ways `curator check` passes on a store that
already has old findings."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..model.findings import Finding
from ..model.store import Store
from .diff import diff_findings, diff_records
from .identity import Recorded, fingerprints, renames_by_content

BASELINE_NAME = ".curator-baseline.json"
VERSION = 1


class BaselineError(Exception):
    """The baseline file is missing or not one curator wrote (a usage error)."""


@dataclass
class BaselineResult:
    new: list[Finding] = field(default_factory=list)  # not in the baseline: these fail
    known: list[Finding] = field(default_factory=list)  # accepted
    gone: list[dict] = field(default_factory=list)  # baseline entries no longer found (fixed)


def make_baseline(store: Recorded, findings: list[Finding]) -> dict:
    entries = []
    for f, fp in zip(findings, fingerprints(store, findings), strict=True):
        entry: dict[str, str | int] = {"fingerprint": fp, "check": f.check, "severity": f.severity.label, "path": f.path}
        rec = store.records.get(f.path)
        if rec is not None and rec.content_hash:
            entry["sha"] = rec.content_hash[:16]  # finds the file again after a rename or move
        if f.line is not None:
            entry["line"] = f.line  # for people reading the file; matching ignores it
        entry["message"] = f.message
        entries.append(entry)
    entries.sort(key=lambda e: (e["path"], e["check"], e["fingerprint"]))
    return {"version": VERSION, "tool": "curator", "findings": entries}


def write_baseline(path: Path, data: dict) -> None:
    """Atomic (temp + rename): a baseline is a repository file, not a store file."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".baseline-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_baseline(path: Path) -> list[dict]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"baseline file not found: {path} (write one with `curator baseline`)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}: not valid JSON (line {exc.lineno})") from None
    except RecursionError:  # a repository's baseline nested past Python's depth
        raise BaselineError(f"{path}: not valid JSON (nested too deep)") from None
    items = data.get("findings") if isinstance(data, dict) else None
    if not isinstance(items, list) or not all(isinstance(e, dict) and isinstance(e.get("fingerprint"), str)
                                              for e in items):
        raise BaselineError(f"{path}: not a curator baseline (expected {{\"findings\": [{{\"fingerprint\": ...}}]}})")
    return items


def compare(store: Store, findings: list[Finding], baseline: list[dict]) -> BaselineResult:
    left = Counter(e["fingerprint"] for e in baseline)
    result = BaselineResult()
    # a file renamed since the baseline: today's findings read with the names it had then
    back = {new: old for old, new in renames_by_content(store, baseline).items()}
    for f, fp in zip(findings, fingerprints(store, findings, back), strict=True):
        if left[fp]:
            left[fp] -= 1
            result.known.append(f)
        else:
            result.new.append(f)
    for e in baseline:
        if left[e["fingerprint"]]:
            left[e["fingerprint"]] -= 1
            result.gone.append(e)
    return result


def introduced_since(store: Store, findings: list[Finding], base: str = "HEAD", token_counter=None) -> list[Finding]:
    """The findings of `store` (on disk) that its state at git revision `base` did not have.
    Raises GitError (not a repository, unknown revision)."""
    import tempfile

    from ..base.git import toplevel
    from . import git
    from .sources import Source, load_source

    repo = toplevel(store.root)
    commit = git.resolve(repo, base)
    try:
        rel = store.root.resolve().relative_to(repo.resolve()).as_posix()
    except ValueError:
        raise git.GitError(f"the store is not inside the repository {repo}") from None
    with tempfile.TemporaryDirectory(prefix="curator-changed-") as tmp:
        git.stand_in(Path(tmp), git.tracked_files(repo, commit), skip=(rel,))
        folder = git.extract(repo, commit, rel, Path(tmp))
        before = load_source(folder, Source(rel, "store"), store.config, token_counter or store.counter,
                             store.meaning)
        if before is None:
            return list(findings)
        _, renames = diff_records(before, store)
        introduced, _ = diff_findings(before, store, renames, new=findings)
    return introduced

