"""Progress reports reach the screen none in a load's quiet start, then at most one a step."""

from __future__ import annotations

import curator.tui.background as background


def test_paced_is_quiet_at_first_then_one_report_a_step(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(background.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(background, "QUIET", 0.25)
    due = background.paced(0.05)
    seen = []
    for t, last in ((0.0, False), (0.1, True), (0.24, False), (0.26, False), (0.28, False), (0.29, True),
                    (0.32, False), (0.36, False)):
        now[0] = 100.0 + t
        seen.append((t, due(last)))
    # the quiet start drops even a step's last report; then one every 0.05 s, a last one at once
    assert [t for t, ok in seen if ok] == [0.26, 0.29, 0.36]
