"""Text from a repository, made safe where it is printed.

File names, import targets, journal titles and messages come from the repository: an escape
sequence in one would clear the user's screen, write their clipboard or forge a line, and a
newline would start a GitHub workflow command. So:

- `visible(text)`: every control character (C0 with newline and tab, DEL, C1) and bidirectional
  override shown as a `\\x1b`-style escape — for one name or title placed in text output or a
  widget (a newline in it no longer starts a line);
- `picture(text)`: each control character left in rendered text drawn as its Unicode control
  picture (␛, ␇, …) — the safety net under every report: the CLI's console
  (`cli.common.VisibleConsole`) and the app's line filter (`tui.escape_filter`) apply it to
  whatever they draw (Rich's and Textual's own styling is not text, untouched);
- `workflow_data` / `workflow_property`: GitHub's workflow-command escapes (`%`, CR, LF; in a
  property also `:` and `,`), other controls made visible;
- `json_text`: JSON as it is (every value exact) with DEL, C1 and bidi controls as `\\u` escapes.
"""

from __future__ import annotations

import re

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI}]")  # in rendered text: \t and \n are layout
ANY_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
PICTURES = str.maketrans({**{chr(i): chr(0x2400 + i) for i in range(0x20) if chr(i) not in "\t\n"},
                          "\x7f": "\u2421", **dict.fromkeys(map(chr, range(0x80, 0xA0)), "\ufffd"),
                          **dict.fromkeys(BIDI, "\ufffd")})


def _escape(m: re.Match) -> str:
    c = m.group()
    return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def visible(text: str) -> str:
    """`text` with every control character shown as an escape (`\\x1b`, `\\n`, `\\u202e`)."""
    return ANY_CONTROL.sub(_escape, text) if ANY_CONTROL.search(text) else text


def picture(text: str) -> str:
    """Each control character but tab and newline as one visible cell (␛, ␇, �)."""
    return text.translate(PICTURES) if CONTROL.search(text) else text


_COMMAND = re.compile(r"(^|\n)([ \t]*)(::|##\[)")
ZWSP = "\u200b"  # not white space to the runner: a line that holds it first is no command


def unlike_workflow_command(text: str, at_start: bool) -> tuple[str, bool]:
    """A piece of text output where no line begins — after spaces, which GitHub's runner trims —
    with `::` or `##[` (a workflow command): such a line gets an invisible zero-width space in
    front. `at_start`: the piece begins a line; returned: whether the next piece does."""
    if ("::" in text or "##[" in text) and (at_start or "\n" in text):
        src = text if at_start else "x" + text  # mid-line: its start is no line's start
        src = _COMMAND.sub(lambda m: m.group(1) + m.group(2) + ZWSP + m.group(3), src)
        text = src if at_start else src[1:]
    tail = text.rsplit("\n", 1)[-1] if "\n" in text else (text if at_start else "x")
    return text, not tail.strip(" \t")


def plain_text(text: str) -> str:
    """A whole report written as plain text (`context`, markdown): control characters drawn, no
    line a workflow command — what the console does for the Rich reports."""
    return unlike_workflow_command(picture(text), True)[0]


def workflow_data(text: str) -> str:
    """A workflow command's message: `%`, CR and LF escaped as the format requires."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return visible(text)


def workflow_property(text: str) -> str:
    """A workflow command's property value (`file=`, `title=`): also `:` and `,`."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")


_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{BIDI}]")


def json_text(text: str) -> str:
    """JSON text (from json.dumps) with DEL, C1 and bidi controls as `\\u` escapes: the same
    values, nothing a terminal acts on (json.dumps escapes C0 itself)."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
