"""Lower an AST to the JSON IR (``lower``), and name the IR's node kinds.

The mapping is mechanical: a node becomes ``{"node": kind, field: value, ...,
"at": [line, col, end_line, end_col]}``; a name (``Ident``) becomes a string,
its position stored beside it as ``"<field>_at"``. ``RulesFile`` becomes the
top-level document with ``"meeple": IR_VERSION`` and ``"source"``.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from . import ast as A

IR_VERSION = 1


def node_kind(cls: type) -> str:
    """``CaseArm`` → ``case_arm``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def span_json(span: A.Span) -> list[int]:
    return [span.line, span.col, span.end_line, span.end_col]


def lower(tree: A.RulesFile, source: str) -> dict[str, Any]:
    """The IR document of a parsed rules file."""
    doc = _node(tree)
    del doc["node"]
    return {"meeple": IR_VERSION, "source": source, **doc}


def _node(node: A.Node) -> dict[str, Any]:
    out: dict[str, Any] = {"node": node_kind(type(node))}
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        value = getattr(node, f.name)
        if f.type == "Optional[Span]":  # the position of a plain-value field: kept only when known
            if value is not None:
                out[f.name] = span_json(value)
        elif isinstance(value, A.Ident):
            out[f.name] = value.text
            out[f.name + "_at"] = span_json(value.span)
        elif isinstance(value, list) and value and all(isinstance(v, A.Ident) for v in value):
            out[f.name] = [v.text for v in value]
            out[f.name + "_at"] = [span_json(v.span) for v in value]
        else:
            out[f.name] = _value(value)
    if node.span != A.NOWHERE:
        out["at"] = span_json(node.span)
    return out


def _value(value: Any) -> Any:
    if isinstance(value, A.Node):
        return _node(value)
    if isinstance(value, list):
        return [_value(v) for v in value]
    return value
