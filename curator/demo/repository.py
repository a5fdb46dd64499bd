"""The demo repository's history and sessions, made when the sample is copied for the user.

The bundled sample is plain files; a demo of review, drift and growth needs git history, and a
demo of sessions, usage and mining needs transcripts. Both are built here at copy time from what
the package ships — no network, the same commits and ids every time (fixed dates and author):

- `build_history(repo)`: a few commits that grow the sample to what it is now. Each commit holds
  the files of the folders it names (a prefix of the always-loaded indexes, so the start-up load
  grows commit by commit); the newest records (dated from `UNCOMMITTED_FROM` on) stay out of
  every commit, so `curator review` has work-tree changes to show. Files that others add to the
  sample later simply join the last commit.
- `write_transcripts(repo, projects)`: the four Claude Code sessions of `demo_transcripts`, with
  the copy's own path as their `cwd`, where `sessions.discover` finds them.

Never raises: returns a sentence saying what is missing (git not installed, git failed) or None.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from ..base.git import GitError, run

AUTHOR = ("Ledgerline Agent Team", "agents@ledgerline.example")
UNCOMMITTED_FROM = "2026-11-18"  # records dated from here on are work-tree changes to review
L0_FILES = (".serena/memories/memory-index.md", ".claude/memory/MEMORY.md")

# (commit date, subject, folders whose files it adds, share of each always-loaded index's lines)
COMMITS = (
    ("2026-09-01T10:00:00+00:00", "Serena store: project knowledge and the database and API memories",
     (".serena/memories/knowledge/", ".serena/memories/db/", ".serena/memories/api/",
      ".serena/memories/memory-index.md", ".serena/memories/database-index.md", ".serena/memories/README.md",
      ".serena/memories/.curator.yaml",
      "README.md", "CLAUDE.md"), 0.4),
    ("2026-09-24T16:30:00+00:00", "Serena: git and CI skills with their domain indexes",
     (".serena/memories/git/", ".serena/memories/ci/", ".serena/memories/skills-", ".serena/memories/reflexion/"), 0.55),
    ("2026-10-09T09:15:00+00:00", "Claude Code memory: MEMORY.md and the first topic files",
     (".claude/memory/",), 0.7),
    ("2026-10-27T14:45:00+00:00", "Experience entries and their summaries",
     ("docs/",), 0.85),
    ("2026-11-16T11:20:00+00:00", "Review and front-end memories; transient records; indexes grown",
     ("",), 1.0),
)
_DATE = re.compile(r"(20\d\d-\d\d-\d\d)")


def _files(repo: Path) -> list[str]:
    out = []
    for folder, dirs, names in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if d not in (".git", ".curator"))
        for name in sorted(names):
            out.append(Path(folder, name).relative_to(repo).as_posix())
    return out


def _uncommitted(rel: str) -> bool:
    m = _DATE.search(rel.rsplit("/", 1)[-1])
    return m is not None and m.group(1) >= UNCOMMITTED_FROM


def _git(repo: Path, *args: str, env: dict) -> None:
    run(repo, *args, env=env, timeout=20)


def build_history(repo: Path) -> str | None:
    """Make `repo` a git repository whose commits grow the sample to its current files. None when
    done, else why not (the demo then has no history: review, drift and growth say so)."""
    if shutil.which("git") is None:
        return "git is not installed, so the demo has no history (review, drift and growth need one)"
    if (repo / ".git").exists():
        return None
    name, email = AUTHOR
    base = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    base.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email, GIT_COMMITTER_NAME=name,
                GIT_COMMITTER_EMAIL=email, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
                LC_ALL="C")
    final = {rel: (repo / rel).read_bytes() for rel in L0_FILES if (repo / rel).is_file()}
    everything = [rel for rel in _files(repo) if not _uncommitted(rel)]
    added: set[str] = set()
    try:
        _git(repo, "init", "-q", "-b", "main", env=base)
        (repo / ".git" / "info").mkdir(parents=True, exist_ok=True)
        (repo / ".git" / "info" / "exclude").write_text(".curator/\n")
        for when, subject, prefixes, share in COMMITS:
            added |= {rel for rel in everything if any(rel.startswith(p) for p in prefixes)}
            for rel, data in final.items():  # an earlier, shorter always-loaded index
                lines = data.splitlines(keepends=True)
                (repo / rel).write_bytes(b"".join(lines[: max(1, round(len(lines) * share))]))
            _git(repo, "add", "--", *sorted(added), env=base)
            env = {**base, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
            _git(repo, "commit", "-q", "--no-gpg-sign", "--allow-empty", "-m", subject, env=env)
    except (OSError, GitError) as exc:
        return f"the demo's git history could not be made ({exc})"
    finally:
        for rel, data in final.items():
            (repo / rel).write_bytes(data)
    return None


def write_transcripts(repo: Path, projects: Path) -> str | None:
    """The demo's four Claude Code sessions, run (as their `cwd` says) in `repo`."""
    from .transcripts import transcripts

    folder = projects / re.sub(r"[^A-Za-z0-9]", "-", str(repo))  # Claude Code's slug of the cwd
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, lines in transcripts(str(repo)).items():
            path = folder / f"{name}.jsonl"
            if not path.exists():
                path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    except OSError as exc:
        return f"the demo's sessions could not be written ({exc})"
    return None
