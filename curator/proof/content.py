"""Did a session see the bytes the model counts? A recorded file's content (kept as a hash) is
held against the file on disk, and, when that differs, against the file at the commit the
session ran on (the newest commit of its branch before it started, when git has it). The agent
may strip a rule's frontmatter or a file's HTML comments before it records the content: each of
those forms counts as the same file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..transcripts.records import Load, digest

_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n.*?\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
SAME, CHANGED_SINCE, DIFFERS, UNKNOWN = "same", "changed since", "differs", "unknown"


def forms(text: str) -> set[str]:
    """The hashes of the ways an agent may record `text`."""
    out = set()
    for t in {text, _FRONTMATTER.sub("", text, count=1)}:
        for u in {t, _COMMENT.sub("", t)}:
            out |= {digest(u), digest(u.strip()), digest(u.strip() + "\n")}
    return out


@dataclass(slots=True)
class Contents:
    """The repository's files as they are, and at the commits sessions ran on (git read lazily,
    once per commit and file)."""

    root: str
    _commits: dict[tuple[str, str], str | None] = field(default_factory=dict)
    _at: dict[tuple[str, str], set[str] | None] = field(default_factory=dict)
    _now: dict[str, set[str] | None] = field(default_factory=dict)

    def now(self, rel: str, text: str | None = None) -> set[str] | None:
        if rel not in self._now:
            if text is None:
                from ..base.safeio import read_small_file

                try:
                    text = read_small_file(Path(self.root) / rel).decode("utf-8")
                except Exception:  # noqa: BLE001 - gone, unreadable, not text: nothing to compare
                    text = None
            self._now[rel] = forms(text) if text is not None else None
        return self._now[rel]

    def commit(self, started: str, branch: str) -> str | None:
        """The newest commit of `branch` (else HEAD) before `started`; None without git."""
        key = (started[:19], branch)
        if key not in self._commits:
            from ..base.git import GitError, run

            got = None
            for ref in ([branch] if branch else []) + ["HEAD"]:
                try:
                    got = run(self.root, "rev-list", "-1", f"--before={started[:19]}", ref, "--", timeout=10).strip() \
                        or None
                except GitError:
                    got = None
                if got:
                    break
            self._commits[key] = got
        return self._commits[key]

    def at(self, commit: str, rel: str) -> set[str] | None:
        key = (commit, rel)
        if key not in self._at:
            from ..base.git import GitError, run

            try:
                data = run(self.root, "show", f"{commit}:{rel}", binary=True, timeout=10)
                self._at[key] = forms(data.decode("utf-8"))
            except (GitError, UnicodeDecodeError):
                self._at[key] = None
        return self._at[key]

    def judge(self, load: Load, rel: str, text: str | None, started: str, branch: str) -> tuple[str, str]:
        """(same | changed since | differs | unknown, a sentence) for a recorded file."""
        shas = {s for s in (load.sha, load.raw_sha) if s}
        if load.differs:
            return DIFFERS, "the agent recorded that its content differed from the file on disk"
        if not shas:
            return UNKNOWN, "the record holds no content"
        now = self.now(rel, text)
        if now is not None and shas & now:
            return SAME, ""
        commit = self.commit(started, branch) if started else None
        then = self.at(commit, rel) if commit else None
        if commit is not None and then is not None and shas & then:
            return CHANGED_SINCE, f"the file changed since the session (it saw the version of {commit[:8]})"
        if commit is None:
            return DIFFERS, "its content differs from the file on disk (no commit to compare with)"
        return DIFFERS, f"its content differs from the file on disk and at {commit[:8]}"
