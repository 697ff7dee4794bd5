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


def shell_word(path: str) -> str:
    """``path`` as one word a shell reads back as ``path``, to paste into a command; one with control
    characters in bash's ``$'...'`` quoting, its characters escaped, never sent to the terminal raw."""
    import shlex
    if path.isprintable():
        return shlex.quote(path)
    def char(c: str) -> str:
        if c in "\\'":
            return "\\" + c
        if c.isprintable():
            return c
        if 0xDC80 <= ord(c) <= 0xDCFF:  # a byte of a name that is not UTF-8 (surrogateescape): that byte
            return f"\\x{ord(c) - 0xDC00:02x}"
        return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}"
    return "$'" + "".join(map(char, path)) + "'"


def file_name(path: str) -> str:
    """A file name for a message: as it is, or quoted with its control characters escaped."""
    return path if path.isprintable() else repr(path)
