"""Text of the rules (labels, titles, names) put into rich markup as plain text."""

from __future__ import annotations

from rich.markup import escape as _rich_escape


def escape(text: str) -> str:
    """``text`` as markup that shows exactly ``text``, wherever it stands in the markup.

    rich reads backslashes only before a ``[``: n of them there show as n // 2, and an odd one
    escapes the tag. So the backslashes that end ``text`` are written twice and followed by an
    empty tag, which makes them show as written whatever comes after them (rich's own ``escape``
    doubles a single last backslash only, and then it shows twice where no tag follows)."""
    body = text.rstrip("\\")
    ending = len(text) - len(body)
    escaped = _rich_escape(body)
    return escaped + "\\" * (2 * ending) + "[dim][/dim]" if ending else escaped
