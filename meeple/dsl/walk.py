"""The one walk over IR: which fields of a node hold child nodes (``child_fields``, read from the
schema, which is generated from the AST classes), every node inside a tree (``nodes``), and the positions kept in
a node's ``at`` member (``span``, ``positionless``, ``same``).

In IR version 2 every position of a node is in its ``at`` object, apart from its fields:
``"at": {"span": [line, col, end_line, end_col], "name": [...], ...}``: ``span`` is where the
whole construct stands, the others where one field's text stands (a name, a list of names, a
plain number such as ``max_steps``). A merged variant's positions carry a fifth number, the
index in ``"sources"`` of the file they are in.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Optional

AT = "at"  # the member holding a node's positions
SPAN = "span"  # in it: where the whole node stands


def node_kind(cls: type) -> str:
    """``CaseArm`` → ``case_arm``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _holds_nodes(schema: Any) -> bool:
    """Does a field's schema take a node (a ``$ref``), or a list or choice of them?"""
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:
        return True
    return _holds_nodes(schema.get("items")) or any(_holds_nodes(s) for s in schema.get("anyOf", ()))


@lru_cache(maxsize=1)
def _tables() -> dict[str, tuple[str, ...]]:
    """Node kind → its fields that hold nodes, read from the schema (which is generated from the
    AST classes, ``dsl/schema.py``): reading a JSON file is much quicker than importing the AST."""
    schema = json.loads(Path(__file__).with_name("schema.json").read_text(encoding="utf-8"))
    kinds = {k: d for k, d in schema["$defs"].items() if "node" in d.get("properties", {})
             and "const" in d["properties"]["node"]}
    kinds["rules_file"] = schema
    return {k: tuple(f for f, s in d["properties"].items() if f != AT and _holds_nodes(s)) for k, d in kinds.items()}


def child_fields(kind: str) -> tuple[str, ...]:
    """The fields of a node of ``kind`` that hold nodes or lists of nodes (the top-level
    document is a ``rules_file``)."""
    return _tables().get(kind, ())


def kind_of(node: dict) -> str:
    return node.get("node", "rules_file")


def children(node: dict) -> Iterator[tuple[str, Any]]:
    """(field, value) for each field of ``node`` that holds a node or a list of nodes."""
    for f in child_fields(kind_of(node)):
        value = node.get(f)
        if isinstance(value, (dict, list)):
            yield f, value


def nodes(e: Any) -> Iterator[dict]:
    """Every IR node inside ``e`` (a node, a list of nodes, or a plain value), ``e`` first."""
    if isinstance(e, list):
        for v in e:
            yield from nodes(v)
    elif isinstance(e, dict):
        yield e
        for _, v in children(e):
            yield from nodes(v)


def names(e: Any) -> set[str]:
    """The plain names an expression uses (``x`` in ``x + 1``)."""
    return {n["id"] for n in nodes(e) if n.get("node") == "name"}


def calls(e: Any) -> set[str]:
    """The queries and defines an expression calls (``f`` in ``f(x)``)."""
    return {n["func"] for n in nodes(e) if n.get("node") in ("call", "filtered") and isinstance(n.get("func"), str)}


def span(node: Any, field: Optional[str] = None) -> Optional[list[int]]:
    """Where ``node`` stands (``field`` None) or where its field ``field`` is written, if known."""
    if not isinstance(node, dict):
        return None
    at = node.get(AT)
    return at.get(field or SPAN) if isinstance(at, dict) else None


def at_span(position: Optional[list[int]]) -> dict[str, Any]:
    """A stand-in node that stands at ``position`` (to point a message there)."""
    return {AT: {SPAN: position}} if position else {}


def positionless(doc: Any) -> Any:
    """A copy of IR ``doc`` without its source positions (the ``at`` members)."""
    if isinstance(doc, dict):
        return {k: positionless(v) for k, v in doc.items() if k != AT}
    if isinstance(doc, list):
        return [positionless(v) for v in doc]
    return doc


def unnamed(doc: Any) -> Any:
    """A copy of IR ``doc`` without the names of its rules (``[name]``) and what ``meeple play``
    shows (``show``, ``label``): neither changes the game."""
    if isinstance(doc, dict):
        return {k: unnamed(v) for k, v in doc.items()
                if not (k == "rule" and doc.get("node") != "rule_change") and not (k in ("shows", "labels")
                                                                                  and "meeple" in doc)}
    if isinstance(doc, list):
        return [unnamed(v) for v in doc]
    return doc


def same(a: Any, b: Any) -> bool:
    """Structural equality of IR, source positions aside."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = {k for k in a if k != AT}
        return keys == {k for k in b if k != AT} and all(same(a[k], b[k]) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b
