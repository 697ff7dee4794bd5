"""Text of the rules (labels, titles, names) put into rich markup as plain text."""

from __future__ import annotations

from rich.markup import escape as _rich_escape


def escape(text: str) -> str:
    """``text`` as markup that shows exactly ``text``, wherever it stands in the markup.

    rich's own ``escape`` doubles a last backslash, so that it cannot escape a tag that follows;
    where no tag follows, both backslashes show. An empty tag after it makes the doubled backslash
    read as one wherever the text stands."""
    escaped = _rich_escape(text)
    return escaped + "[dim][/dim]" if escaped.endswith("\\") else escaped
