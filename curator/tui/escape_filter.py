"""The app's safety net under every widget: a control character that reached a line (a file name,
an import target, a journal title or a transcript from the repository) is drawn as its control
picture (␛, ␇, …), never sent to the terminal. A Textual line filter, applied by the app to
every widget (`CuratorApp.get_line_filters`): the line keeps its width (the pictures take cells
the control characters did not, so what they push past the edge is cut)."""

from __future__ import annotations

from rich.segment import Segment
from textual.filter import LineFilter

from ..reports.escape import CONTROL, picture


class VisibleControls(LineFilter):
    def apply(self, segments: list[Segment], background) -> list[Segment]:
        if not any(s.control is None and CONTROL.search(s.text) for s in segments):
            return segments
        width = Segment.get_line_length(segments)
        shown = [Segment(picture(s.text), s.style, s.control) if s.control is None else s for s in segments]
        return Segment.adjust_line_length(shown, width, pad=False) if Segment.get_line_length(shown) > width else shown
