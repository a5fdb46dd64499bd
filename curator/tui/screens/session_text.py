"""The Sessions screen's words and its two curation actions: a turn folded into one row, a turn
shown whole, and mining a passage (m, M) or pruning what no session read (U) — each a plan the
app previews as a diff (`Propose`)."""

from __future__ import annotations

from rich.text import Text

from ..flows.curation import planned
from ..messages import Propose


def folded(t) -> Text:
    """A turn in one row: a tool's results summed up, a call named after the text."""
    if t.role == "tool":
        errs = sum(r.is_error for r in t.results)
        first = " ".join((t.results[0].text if t.results else "").split())[:80]
        return Text(f"▸ result{'s' if len(t.results) > 1 else ''}{' ✖ error' if errs else ''}: {first}",
                    style="error" if errs else "dim", no_wrap=True, overflow="ellipsis")
    text = Text(" ".join(t.text.split())[:200], no_wrap=True, overflow="ellipsis")
    if t.calls:
        first = t.calls[0]
        more = f" +{len(t.calls) - 1}" if len(t.calls) > 1 else ""
        text.append(f"{'  ' if t.text else ''}▸ {first.name} {first.summary}{more}", style="info")
    return text


def turn_detail(t, mark: int | None) -> Text:
    """The highlighted turn whole (below the conversation), and where a marked passage starts."""
    out = Text()
    out.append(f"{t.timestamp.replace('T', ' ')[:19]} · {t.role} · {t.uuid}", style="dim")
    if mark is not None:
        out.append(f" · passage from turn {mark + 1}", style="warning")
    out.append("\n")
    if t.text:
        out.append(t.text + "\n")
    for c in t.calls:
        out.append(f"▸ {c.name} {c.summary}\n", style="info")
    for r in t.results:
        out.append(r.text[:1200] + "\n", style="error" if r.is_error else "dim")
    return out


def mine(screen, kind: str) -> None:
    """The highlighted turn (or the marked passage) as a record of `kind`, previewed."""
    from ...curation.mine import Passage, plan_mine
    from ...transcripts.conversation import turn_text

    i = screen._cursor_turn()
    ws = screen.app.workspace
    if i is None or ws is None or screen.session is None:
        screen.notify("Open a session and highlight the turn to mine", severity="warning")
        return
    a, b = (min(screen.mark, i), max(screen.mark, i)) if screen.mark is not None else (i, i)
    chosen = screen.turns[a: b + 1]
    s = screen.session
    passage = Passage(s.session_id, chosen[0].uuid, chosen[0].timestamp, [(t.role, turn_text(t)) for t in chosen],
                      uuid_to=chosen[-1].uuid if b > a else "", task=s.title, branch=s.main.branch)
    plan = planned(screen, plan_mine, ws.store, passage, kind)
    if plan is not None:
        screen.mark = None
        screen.post_message(Propose(plan))


def prune_unused(screen, days: int = 90) -> None:
    """Archive the transient records no session read in `days` days, previewed."""
    from ...curation import plan_prune_paths
    from ...curation.prune import unused_candidates

    svc, ws = screen.app.transcripts, screen.app.workspace
    usage = svc.usage if svc is not None else None
    if ws is None or usage is None:
        screen.notify("The transcripts are still being read", severity="warning")
        return
    if not usage.has_evidence:
        screen.notify("No transcripts for this repository: nothing can be called unread", severity="warning")
        return
    last = {p: u.last for p, u in usage.by_path.items()}
    paths = planned(screen, unused_candidates, ws.store, last, days)
    if paths is not None and not paths:
        screen.notify(f"Every transient record at least {days} days old was read in the last {days} days", timeout=4)
    elif paths:
        plan = planned(screen, plan_prune_paths, ws.store, paths, True)
        if plan is not None:
            screen.post_message(Propose(plan))
