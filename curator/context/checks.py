"""Checks that look across files and agents: copies that drifted apart, paths named in
instructions that do not exist, and agent-requested items whose descriptions collide.

(Import, cap, glob, frontmatter and skill checks are made where the adapters read the files.)
Each is tuned for precision: a finding a maintainer would dismiss is a bug, so only certain
cases are reported (see each function).
"""

from __future__ import annotations

import re
from itertools import combinations

from ..agents import rules_for
from ..model.findings import Repath
from .builder import Builder
from .fs import Text
from .model import AgentContext
from .moved import Moved, moved_to
from .parse import code_free_lines

COPY_NAMES = ("CLAUDE.md", "AGENTS.md", "GEMINI.md", ".cursorrules", ".windsurfrules", ".clinerules",
              ".github/copilot-instructions.md", ".claude/CLAUDE.md")
COPY_MIN_LINES = 8
COPY_SHARE = 0.6  # share of the smaller file's lines the other holds: they were one text
COLLISION_SHARE, COLLISION_MIN = 0.6, 4
_STOP = frozenset("""a an the and or of to in on for with by from at as is are be this that it its use used using
when what which who how any all into your you our their can will should must not no do does if then than
via per about such these those over also only more most other each so may has have had was were been file files
skill skills rule rules agent agents""".split())


def repository_checks(b: Builder, built: dict[str, AgentContext]) -> None:
    drifted_copies(b)
    missing_paths(b, built)
    description_collisions(b, built)


# -- copies -------------------------------------------------------------------------------

def _lines(text: str) -> set[str]:
    out = set()
    for line in text.splitlines():
        s = " ".join(line.strip().lower().split())
        if len(s) >= 4 and not re.fullmatch(r"[-#*>=`|_ ]+", s):
            out.add(s)
    return out


def drifted_copies(b: Builder) -> None:
    """Two agents' files in one folder sharing most lines, each holding lines the other lacks
    (a symbolic link or an exact copy is no drift; a file that only adds to the other is an
    extension, not a drift)."""
    fs = b.fs
    folders: dict[str, list[str]] = {}
    for rel in fs.files:
        folder, _, name = rel.rpartition("/")
        for cand in COPY_NAMES:
            if rel == cand or (("/" not in cand) and name == cand and not folder.startswith(".")):
                folders.setdefault(folder if rel != cand or "/" not in cand else "", []).append(rel)
    for group in folders.values():
        texts, reals = [], set()
        for rel in sorted(set(group)):
            t = fs.read(rel)
            if isinstance(t, Text) and t.real not in reals:  # a symbolic link is the file it names
                reals.add(t.real)
                texts.append((rel, t))
        for (ra, ta), (rb, tb) in combinations(texts, 2):
            if ta.real == tb.real:
                continue
            la, lb = _lines(ta.text), _lines(tb.text)
            small = min(len(la), len(lb))
            if small < COPY_MIN_LINES:
                continue
            shared = la & lb
            only_a, only_b = la - lb, lb - la
            if len(shared) / small < COPY_SHARE or not only_a or not only_b:
                continue
            first = _first_line(tb.text, only_b)
            b.add("instructions.drifted-copy", ra,
                  f"{ra} and {rb} were copies ({len(shared)} of {small} lines shared) and have drifted: "
                  f"{len(only_a)} lines only in {ra}, {len(only_b)} only in {rb}"
                  + (f" (first: {rb}:{first})" if first else ""), target=rb)


def _first_line(text: str, wanted: set[str]) -> int | None:
    for no, line in enumerate(text.splitlines(), 1):
        s = " ".join(line.strip().lower().split())
        if s in wanted and not s.startswith(("#", "@")):  # a title or an import differs by design
            return no
    return None


# -- paths named in instructions -----------------------------------------------------------

_SPAN = re.compile(r"`([^`\s]+)`")
# a target stops at `(`: on a line of `[a](` repeated, each try ends at the next one (linear, not quadratic)
_LINK = re.compile(r"\]\(([^)\s#(]+)(?:#[^)(]*)?\)")
_PATH = re.compile(r"^[A-Za-z0-9_@.-]+(?:/[A-Za-z0-9_@.+-]+)+$")
_FILE_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
_GENERATED = frozenset({"dist", "build", "out", "target", "node_modules", "coverage", ".next", "generated",
                        "__generated__", "tmp", "temp", ".venv", "venv", "vendor", "bin", "obj", ".cache", "logs"})
# A line that gives a path as an example, a file to make, or one that may not be there. (`e.g.`
# ends in a dot, so it needs no word boundary after it: `\b` never held after "e.g.," or "e.g. ".)
_HYPOTHETICAL = re.compile(r"(?<![\w.])(?:e\.g\.|eg\.)|\b(example|create|creating|add|adding|new|generate[sd]?|"
                           r"will|would|should be|such as|like|rename|move|moved|renamed|output|write|writes|"
                           r"placeholder|if (it|you)|if (present|any|available|applicable)|if (it |they |one )?exists?|"
                           r"when|your|my|foo|bar|xxx|yyyy)\b", re.I)


# Serena's initial prompt is instructions too (the memories under `.serena/` are not)
_PROMPT_FILES = frozenset(rules_for("serena").value("project.initial-prompt")["files"])


def missing_paths(b: Builder, built: dict[str, AgentContext]) -> None:
    """A path in backticks or a relative link whose folder exists but whose file does not —
    the file was renamed or deleted — on a line that does not describe a file to create."""
    fs = b.fs
    seen: set[str] = set()
    for ctx in built.values():
        for rel in [e.path for e in ctx.startup] + [o.path for o in ctx.on_demand]:
            if rel in seen or rel.startswith((".serena/", ".claude/memory/", "~")) and rel not in _PROMPT_FILES \
                    or rel not in fs.fileset and not fs.exists(rel):
                continue
            seen.add(rel)
            t = fs.read(rel)
            if not hasattr(t, "text"):
                continue
            _paths_in(b, rel, t.text)


def _paths_in(b: Builder, rel: str, text: str) -> None:
    fs = b.fs
    folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
    markdown = rel.endswith((".md", ".mdc")) or "/" not in rel and rel.startswith(".")
    fence_free = dict(code_free_lines(text))
    raw_lines = text.splitlines()
    for no, line in enumerate(raw_lines, 1):
        if no not in fence_free or _HYPOTHETICAL.search(line):
            continue
        cands = [(m.group(1), "code") for m in _SPAN.finditer(line)]
        if markdown:  # a link in an XML or text template is rendered elsewhere (a PR body)
            cands += [(m.group(1), "link") for m in _LINK.finditer(fence_free[no])]
        for token, kind in cands:
            token = token.rstrip(".,:;")
            if kind == "link" and (token.startswith(("http:", "https:", "mailto:", "/", "#")) or ":" in token):
                continue
            if kind == "code" and not _PATH.match(token):
                continue
            path = token[2:] if token.startswith("./") else token
            name = path.rsplit("/", 1)[-1]
            if not _FILE_EXT.search(name) or name.startswith(".") or any(p in _GENERATED for p in path.split("/")):
                continue
            if ".." in path.split("/") and kind == "code" or _personal(path):
                continue
            if _found(fs, path, folder, kind) or kind == "code" and _package_symbol(fs, path, folder):
                continue
            found = _parent_exists(fs, path, folder, kind)
            if found is None:
                continue
            parent, base = found
            where = moved_to(fs, b.renames(), _join(base, path), parent)
            new = _written(where.now, base, kind, token) if where.now else None
            b.add("instructions.missing-path", rel, f"`{token}` does not exist ({parent}/ does; {_said(where, new)})",
                  no, token, where.now, Repath(rel, no, token, new) if new and new != token else None)


def _written(now: str, base: str, kind: str, token: str) -> str:
    """The path as the line would write it: from the same folder it was written from (a code
    path outside that folder from the repository root)."""
    import posixpath

    if kind == "link" or not base or now.startswith(base + "/"):
        new = posixpath.relpath(now, base or ".")
    else:
        new = now
    return "./" + new if token.startswith("./") and not new.startswith("../") else new


def _said(where: Moved, new: str | None) -> str:
    if where.how == "git":
        return f"git recorded its move: it is {new} now"
    if where.how in ("near", "name"):
        return f"the one file of that name {'there' if where.how == 'near' else 'in the repository'} is {new}"
    if where.how == "candidates":
        return "renamed or deleted? files of that name: " + ", ".join(where.candidates)
    return "renamed or deleted?"


_DATA_EXT = (".csv", ".tsv", ".db", ".sqlite", ".log", ".env", ".pem", ".key", ".lock")
_CONFIG_EXT = (".json", ".yaml", ".yml", ".toml", ".ini")


def _personal(path: str) -> bool:
    """Files people keep out of git: local overrides, data, editor/tool config in dot folders."""
    name = path.rsplit("/", 1)[-1]
    if ".local." in name or name.endswith(_DATA_EXT):
        return True
    return name.endswith(_CONFIG_EXT) and any(p.startswith(".") for p in path.split("/")[:-1])


def _bases(folder: str, kind: str) -> list[str]:
    """Where a relative path may start: a link from the file's folder; a code path also from
    the root and every folder between (monorepo instructions name package-relative paths)."""
    if kind == "link":
        return [folder]
    parts = folder.split("/") if folder else []
    return [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _join(base: str, path: str) -> str:
    import posixpath

    return posixpath.normpath(f"{base}/{path}" if base else path)


def _found(fs, path: str, folder: str, kind: str) -> bool:
    for base in _bases(folder, kind):
        if fs.exists(_join(base, path)):
            return True
    return kind == "code" and fs.ends_with(path)


def _package_symbol(fs, path: str, folder: str) -> bool:
    """`controlplane/otelcerts.Service`, `pkg/whail.Engine`: a Go package's folder and one of its
    exported names (capitalised, so never a file's extension), where that folder exists."""
    package, _, symbol = path.rpartition(".")
    return symbol[:1].isupper() and any(_join(base, package) in fs.dirs for base in _bases(folder, "code"))


def _parent_exists(fs, path: str, folder: str, kind: str) -> tuple[str, str] | None:
    """(the path's folder that exists, the folder the path was written from)."""
    if "/" not in path:
        return None
    for base in _bases(folder, kind):
        parent = _join(base, path.rsplit("/", 1)[0])
        if parent and not parent.startswith("..") and parent in fs.dirs:
            return parent, base
    return None


# -- descriptions ------------------------------------------------------------------------

def _words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if len(w) < 3 or w in _STOP:
            continue
        out.add(w[:-1] if w.endswith("s") and len(w) > 4 else w)
    return out


def _item_name(path: str) -> str:
    """A skill's folder name, else the file's name without its endings (`find-docs`, `reviewer`)."""
    parts = path.split("/")
    name = parts[-2] if parts[-1] == "SKILL.md" and len(parts) > 1 else parts[-1].split(".", 1)[0]
    return name.lower()


def _names(path: str, description: str) -> bool:
    """The description names the item (a subagent that runs the `find-docs` skill)."""
    name = _item_name(path)
    return ("-" in name or "_" in name) and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", description) is not None


def _told_apart(path: str, mine: set[str], theirs: set[str]) -> bool:
    """A word of the item's name that its description has and the other's lacks (`angular` in
    agent-code-angular beside agent-code-java): the agent can tell the two apart."""
    return bool(_words(_item_name(path).replace("-", " ").replace("_", " ")) & (mine - theirs))


# what a tool-like item does, when its name says it (`profiler-start`, `package-remove`). Two names
# are told apart only by opposite actions, or when one only looks and the other changes; two words
# for changing things (write-tests / add-tests, deploy / release) still collide
_OPPOSITES = frozenset(frozenset(p.split("/")) for p in (
    "add/remove add/delete create/delete create/destroy install/uninstall start/stop begin/end enable/disable "
    "open/close connect/disconnect attach/detach mount/unmount subscribe/unsubscribe register/unregister "
    "lock/unlock show/hide import/export upload/download push/pull encode/decode enter/exit get/set "
    "read/write load/save").split())
_LOOKS = frozenset(
    "get list find search read show fetch check validate lint audit review evaluate verify analyze monitor "
    "explain research evaluator reviewer auditor validator checker linter analyzer analyst explainer "
    "researcher".split())
_CHANGES = frozenset(
    "add remove create delete destroy set modify update write save copy duplicate move rename clear refresh "
    "start stop enable disable toggle install uninstall run build deploy publish release sync push pull merge "
    "commit instantiate import export attach detach connect disconnect lock unlock hide upload download encode "
    "decode mount unmount subscribe unsubscribe register unregister begin end enter exit open close load fix "
    "debug implement refactor optimize migrate format generate translate implementer builder fixer debugger "
    "generator formatter migrator optimizer deployer writer".split())
_ONLY_CHANGES = _CHANGES - _LOOKS
_ACTION_WORDS = _LOOKS | _CHANGES


def _different_actions(pa: str, pb: str) -> bool:
    """The two names differ by what they do (`profiler-start` / `profiler-stop`, `package-add` /
    `package-remove`, a `-list-` beside an `-enable-`): an agent that picks by name and
    description does not take one for the other."""
    a, b = (_words(_item_name(p).replace("-", " ").replace("_", " ")) for p in (pa, pb))
    mine, theirs = a - b, b - a
    if any(frozenset((x, y)) in _OPPOSITES for x in mine for y in theirs):
        return True
    acts_a, acts_b = mine & _ACTION_WORDS, theirs & _ACTION_WORDS
    return bool(acts_a and acts_b) and (acts_a <= _LOOKS and acts_b <= _ONLY_CHANGES
                                        or acts_b <= _LOOKS and acts_a <= _ONLY_CHANGES)


def description_collisions(b: Builder, built: dict[str, AgentContext]) -> None:
    """Two items an agent picks by description (skills, subagents, agent-requested rules)
    whose descriptions share most words: the agent may pick either, or the wrong one. A pair
    several agents list (skills in `.claude/skills/` that Cursor and Copilot read too) is one
    finding naming them all."""
    pairs: dict[tuple[str, ...], tuple[str, str, list[str], str]] = {}
    for ctx in built.values():
        items = [(o.path, _words(o.description), o.description.lower()) for o in ctx.on_demand
                 if o.trigger == "description" and o.description]
        for (pa, wa, da), (pb, wb, db) in combinations(items, 2):
            if (_names(pa, db) or _names(pb, da) or _told_apart(pa, wa, wb) and _told_apart(pb, wb, wa)
                    or _different_actions(pa, pb)):
                continue  # one runs the other, each name says what the other's lacks, or what it does
            small = min(len(wa), len(wb))
            shared = wa & wb
            if small == 0 or len(shared) < COLLISION_MIN or len(shared) / small < COLLISION_SHARE:
                continue
            words = ", ".join(sorted(shared)[:6])
            said = (f"the descriptions of {pa} and {pb} share {len(shared)} of {small} words ({words}"
                    f"{', ...' if len(shared) > 6 else ''}): the agent may pick either")
            # one pair, whichever order an agent lists the two in (the first agent's words are kept)
            pairs.setdefault(tuple(sorted((pa, pb))), (pa, pb, [], said))[2].append(ctx.label)
    for pa, pb, labels, said in pairs.values():
        b.add("instructions.description-collision", pa, f"{', '.join(labels)}: {said}", target=pb)
