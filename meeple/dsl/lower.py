"""Lower an AST to the JSON IR (``lower``), and bring an IR document of an older version up to
this one (``upgrade``).

The mapping is mechanical: a node becomes ``{"node": kind, field: value, ..., "at": {...}}``;
a name (``Ident``) becomes a string. Every position goes into the node's ``at`` object
(``dsl/walk.py``): ``"span"`` for the whole node, the field's name for where a name (or list of
names, or a plain number kept with its position) is written. ``RulesFile`` becomes the top-level
document with ``"meeple": IR_VERSION`` and ``"source"``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from . import ast as A
from .walk import AT, SPAN, kind_of, node_kind

__all__ = ["IR_VERSION", "lower", "upgrade", "node_kind", "span_json"]

# 1: positions beside the fields ("at", "<field>_at"); 2: all of a node's positions in its "at" object
IR_VERSION = 2


def span_json(span: A.Span) -> list[int]:
    return [span.line, span.col, span.end_line, span.end_col]


def lower(tree: A.RulesFile, source: str) -> dict[str, Any]:
    """The IR document of a parsed rules file."""
    doc = _node(tree)
    del doc["node"]
    return {"meeple": IR_VERSION, "source": source, **doc}


def _node(node: A.Node) -> dict[str, Any]:
    kind, fields = _plan(type(node))
    out: dict[str, Any] = {"node": kind}
    at: dict[str, Any] = {}
    if node.span != A.NOWHERE:
        at[SPAN] = span_json(node.span)
    optional = _OPTIONAL.get(type(node)) or {}
    for name, position_of in fields:
        value = getattr(node, name)
        if name in optional and value == optional[name]:
            continue
        if position_of:  # "<field>_at": the position of a plain-value field, when known
            if value is not None:
                at[position_of] = span_json(value)
        elif isinstance(value, A.Ident):
            out[name] = value.text
            at[name] = span_json(value.span)
        elif isinstance(value, list) and value and all(isinstance(v, A.Ident) for v in value):
            out[name] = [v.text for v in value]
            at[name] = [span_json(v.span) for v in value]
        else:
            out[name] = _value(value)
    if at:
        out[AT] = at
    return out


_PLANS: dict[type, tuple[str, list[tuple[str, str]]]] = {}


def _plan(cls: type) -> tuple[str, list[tuple[str, str]]]:
    """A node class's kind, and its fields but the span, each with the field whose position it
    holds ("" for a field of its own)."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = (node_kind(cls), [
            (f.name, f.name.removesuffix("_at") if f.type == "Optional[Span]" else "")
            for f in dataclasses.fields(cls) if f.name != "span"])
    return plan


def optional_fields(cls: type) -> dict[str, Any]:
    """The fields of a node class that the IR leaves out when they hold their default (fields
    added after a game's IR was first written: an old game's IR, and its hash, stay as they were),
    with that default."""
    return {f.name: ([] if f.default_factory is list else f.default) for f in dataclasses.fields(cls)
            if f.name != "span" and (f.default is not dataclasses.MISSING or f.default_factory is list)}


def without_defaults(doc: Any) -> Any:
    """IR ``doc`` with every optional field that holds its default left out, as ``lower`` leaves
    it out (``"fixed": []`` written into a track by hand or by another tool is the same game as
    no ``fixed``: the same IR, so the same hash, and ``meeple diff`` sees no change)."""
    if isinstance(doc, list):
        return [without_defaults(v) for v in doc]
    if not isinstance(doc, dict):
        return doc
    kind = doc.get("node")
    optional = _OPTIONAL_BY_KIND.get(kind) if isinstance(kind, str) else None
    return {k: without_defaults(v) for k, v in doc.items()
            if not (optional and k in optional and v == optional[k])}


def _value(value: Any) -> Any:
    if isinstance(value, A.Node):
        return _node(value)
    if isinstance(value, list):
        return [_value(v) for v in value]
    return value


def upgrade(doc: Any) -> Any:
    """An IR document of version 1 as version 2 (the same game; its positions moved into each
    node's ``at``). A document of this version is returned as it is. Version 1 kept a node's
    span in ``"at"`` and a name's position in ``"<field>_at"`` beside it; the fields each kind
    has are read off the AST, so a field whose own name ends in ``_at`` stays a field."""
    if not isinstance(doc, dict) or doc.get("meeple") != 1 or isinstance(doc.get("meeple"), bool):
        return doc
    out = _upgrade_node(doc)
    out["meeple"] = IR_VERSION
    return out


def _upgrade_node(node: dict) -> dict:
    kind = kind_of(node)
    kind = kind if isinstance(kind, str) else ""  # not a node kind: the schema says so afterwards
    fields = _fields(kind)
    out: dict[str, Any] = {}
    at: dict[str, Any] = {}
    for k, v in node.items():
        if k == "at" and "at" not in fields:
            at[SPAN] = v
        elif k.endswith("_at") and k not in fields and (k[:-3] in fields or k[:-3] in _PLAIN_POSITIONED.get(kind, ())):
            at[k[:-3]] = v
        else:
            out[k] = _upgrade_value(v)
    if at:
        out[AT] = at
    return out


def _upgrade_value(v: Any) -> Any:
    if isinstance(v, dict) and "node" in v:
        return _upgrade_node(v)
    if isinstance(v, list):
        return [_upgrade_value(x) for x in v]
    return v


def _fields(kind: str) -> set[str]:
    return _FIELDS.get(kind, set())


def _tables() -> tuple[dict[str, set[str]], dict[str, tuple[str, ...]]]:
    """Per node kind: its fields (and the document's own keys), and the plain fields whose
    position the AST keeps as ``<field>_at``."""
    fields: dict[str, set[str]] = {}
    plain: dict[str, tuple[str, ...]] = {}
    for cls in vars(A).values():
        if isinstance(cls, type) and issubclass(cls, A.Node) and dataclasses.is_dataclass(cls):
            own = [f for f in dataclasses.fields(cls) if f.name != "span"]
            plain[node_kind(cls)] = tuple(f.name.removesuffix("_at") for f in own if f.type == "Optional[Span]")
            fields[node_kind(cls)] = {f.name for f in own if f.type != "Optional[Span]"} | DOCUMENT_KEYS
    return fields, plain


DOCUMENT_KEYS = {"meeple", "source", "sources"}  # the top-level document's keys besides its fields
_FIELDS, _PLAIN_POSITIONED = _tables()
_OPTIONAL = {cls: optional_fields(cls) for cls in vars(A).values()
             if isinstance(cls, type) and issubclass(cls, A.Node) and dataclasses.is_dataclass(cls)}
_OPTIONAL_BY_KIND = {node_kind(cls): fields for cls, fields in _OPTIONAL.items() if fields}
