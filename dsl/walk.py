"""Walking IR expressions (``nodes``), and the names and calls found in them."""

from __future__ import annotations

from typing import Any, Iterator


def nodes(e: Any) -> Iterator[dict]:
    """Every IR node inside ``e`` (a node, a list of nodes, or a plain value), ``e`` first;
    positions (``at``, ``*_at``) are not walked."""
    if isinstance(e, list):
        for v in e:
            yield from nodes(v)
    elif isinstance(e, dict):
        yield e
        for k, v in e.items():
            if k != "at" and not k.endswith("_at"):
                yield from nodes(v)


def names(e: Any) -> set[str]:
    """The plain names an expression uses (``x`` in ``x + 1``)."""
    return {n["id"] for n in nodes(e) if n.get("node") == "name"}


def calls(e: Any) -> set[str]:
    """The queries and defines an expression calls (``f`` in ``f(x)``)."""
    return {n["func"] for n in nodes(e) if n.get("node") in ("call", "filtered") and isinstance(n.get("func"), str)}
