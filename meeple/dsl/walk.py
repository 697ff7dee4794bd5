"""Walking IR expressions (``nodes``), the names and calls found in them, and IR with its
positions put aside (``positionless``, ``same``)."""

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


def positionless(doc: Any) -> Any:
    """A copy of IR ``doc`` without its source positions (``at``, ``*_at``)."""
    if isinstance(doc, dict):
        return {k: positionless(v) for k, v in doc.items() if k != "at" and not k.endswith("_at")}
    if isinstance(doc, list):
        return [positionless(v) for v in doc]
    return doc


def same(a: Any, b: Any) -> bool:
    """Structural equality of IR, source positions (``at``, ``*_at``) aside."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = {k for k in a if k != "at" and not k.endswith("_at")}
        return keys == {k for k in b if k != "at" and not k.endswith("_at")} and all(same(a[k], b[k]) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b
