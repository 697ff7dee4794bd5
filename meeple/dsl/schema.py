"""The JSON Schema of the IR (``dsl/schema.json``) and validation against it (``validate_ir``).

The schema is generated from the AST classes (``build_schema``) so the two cannot
drift; ``python -m meeple.dsl.schema > meeple/dsl/schema.json`` rewrites it, and a test checks that the
committed file is current.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import typing
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import Any, Union

from jsonschema import Draft202012Validator, ValidationError, validators

from . import ast as A
from .diagnostics import Diagnostic
from .lower import IR_VERSION, node_kind, optional_fields
from .walk import AT
from .walk import SPAN as SPAN_KEY

SCHEMA_PATH = Path(__file__).with_name("schema.json")
# line, col, end_line, end_col; in a merged variant, a fifth item: the index in "sources" of its file
SPAN = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 4, "maxItems": 5}
UNIONS = {"Expr": A.Expr, "Stmt": A.Stmt}


def _node_classes() -> list[type]:
    seen: list[type] = []

    def visit(cls: type) -> None:
        if cls in seen or cls in (A.Node, A.Ident, A.Span) or not dataclasses.is_dataclass(cls):
            return
        seen.append(cls)
        for hint in typing.get_type_hints(cls, vars(A)).values():
            for t in _leaf_types(hint):
                visit(t)

    visit(A.RulesFile)
    return seen


def _leaf_types(hint: Any) -> list[type]:
    args = typing.get_args(hint)
    if args:
        return [t for a in args for t in _leaf_types(a)]
    return [hint] if isinstance(hint, type) else []


def _type_schema(hint: Any) -> dict:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is int:
        return {"type": "integer"}
    if hint is str:
        return {"type": "string"}
    if hint is bool:
        return {"type": "boolean"}
    if hint is A.Text:
        return {"type": "string"}
    if origin is typing.Literal:  # a closed vocabulary
        return {"enum": list(args)}
    if hint is A.Ident:
        return {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
    if origin is list:
        return {"type": "array", "items": _type_schema(args[0])}
    for name, union in UNIONS.items():
        if hint == union:
            return {"$ref": f"#/$defs/{name.lower()}"}
    if origin is Union:
        non_null = [a for a in args if a is not type(None)]
        if set(non_null) <= {int, bool, str}:
            types = sorted({"integer": 1, "boolean": 1, "string": 1}) if len(non_null) == 3 \
                else [_type_schema(a)["type"] for a in non_null]
            return {"type": types + ["null"] if type(None) in args else types}
        inner = _type_schema(non_null[0]) if len(non_null) == 1 else {"anyOf": [_type_schema(a) for a in non_null]}
        return {"anyOf": [inner, {"type": "null"}]} if type(None) in args else inner
    if dataclasses.is_dataclass(hint):
        return {"$ref": f"#/$defs/{node_kind(hint)}"}
    raise TypeError(f"no schema for {hint!r}")


def _object_schema(cls: type, top: bool = False) -> dict:
    props: dict[str, Any] = {} if top else {"node": {"const": node_kind(cls)}}
    required = [] if top else ["node"]
    at: dict[str, Any] = {SPAN_KEY: SPAN}  # the node's positions (see dsl/walk.py)
    optional = optional_fields(cls)  # (left out when they hold their default)
    for name, hint in typing.get_type_hints(cls, vars(A)).items():
        if name == "span":
            continue
        if hint == typing.Optional[A.Span]:  # "<field>_at": the position of a plain-value field, when known
            at[name.removesuffix("_at")] = SPAN
            continue
        props[name] = _type_schema(hint)
        if name not in optional:
            required.append(name)
        if hint in (A.Ident, A.Text, typing.Optional[A.Ident], typing.Optional[A.Text]):
            at[name] = SPAN
        elif hint == list[A.Ident]:
            at[name] = {"type": "array", "items": SPAN}
    props[AT] = {"type": "object", "properties": at, "additionalProperties": False}
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def _dispatch(name: str, union: Any) -> dict:
    kinds = [node_kind(c) for c in typing.get_args(union)]
    return {
        "type": "object",
        "required": ["node"],
        "properties": {"node": {"enum": kinds}},
        # (the 'if' holds for a node of kind k only: with 'properties' alone it held for a node without
        # a "node", or not an object, and every kind's schema was applied to it, a hundred errors)
        "allOf": [{"if": {"type": "object", "required": ["node"], "properties": {"node": {"const": k}}},
                   "then": {"$ref": f"#/$defs/{k}"}} for k in kinds],
    }


def build_schema() -> dict:
    """The IR schema, Draft 2020-12."""
    defs = {node_kind(c): _object_schema(c) for c in _node_classes() if c is not A.RulesFile}
    for name, union in UNIONS.items():
        defs[name.lower()] = _dispatch(name, union)
    top = _object_schema(A.RulesFile, top=True)
    top["properties"] = {"meeple": {"const": IR_VERSION}, "source": {"type": "string"},
                         "sources": {"type": "array", "items": {"type": "string"}}, **top["properties"]}
    top["required"] = ["meeple", *top["required"]]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "meeple-ir.schema.json",
        "title": "meeple rules IR",
        "description": "A game as plain JSON: the output of `meeple ir`, the input every command accepts.",
        **top,
        "$defs": dict(sorted(defs.items())),
    }


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    """The schema's validator. A union's ``allOf`` of ``if node is K then K's schema`` is applied
    by looking at the node's kind once, not by trying every ``if`` (the same errors, two to three times
    faster: each ``if`` that fails builds an error)."""
    fast = validators.extend(Draft202012Validator, {"allOf": _all_of, "pattern": _pattern})
    return fast(json.loads(SCHEMA_PATH.read_text()))


_PLAIN_ALL_OF = Draft202012Validator.VALIDATORS["allOf"]  # the keyword as jsonschema applies it


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict) -> Any:
    """``pattern`` as JSON Schema means it (ECMA-262): ``$`` is the end of the text. (Python's
    ``re`` lets ``$`` match before a last newline too, so a name "ruby\n" would pass.)"""
    if validator.is_type(instance, "string") and not re.search(_ecma_end(pattern), instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")  # (jsonschema's own words)


@lru_cache(maxsize=None)
def _ecma_end(pattern: str) -> str:
    return re.sub(r"(?<!\\)\$", r"\\Z", pattern)


def _all_of(validator: Any, all_of: list, instance: Any, schema: dict) -> Any:
    if not (isinstance(instance, dict) and "node" in instance):  # (no 'if' holds: the plain way is as quick)
        yield from _PLAIN_ALL_OF(validator, all_of, instance, schema)
        return
    for index, sub in enumerate(all_of):
        kind = _dispatch_kind(sub)
        if kind is None:
            yield from validator.descend(instance, sub, schema_path=index)
        elif kind == instance["node"]:
            yield from validator.descend(instance, sub["then"], schema_path=index)


def _dispatch_kind(sub: Any) -> Any:
    """K, for ``{"if": {"type": "object", "required": ["node"], "properties": {"node": {"const": K}}},
    "then": ...}``."""
    if isinstance(sub, dict) and set(sub) == {"if", "then"} and set(sub["if"]) == {"type", "required", "properties"} \
            and sub["if"]["type"] == "object" and sub["if"]["required"] == ["node"] \
            and set(sub["if"]["properties"]) == {"node"} and set(sub["if"]["properties"]["node"]) == {"const"}:
        return sub["if"]["properties"]["node"]["const"]
    return None


SCHEMA_ERRORS_SHOWN = 100  # a document that breaks the schema everywhere: the first ones, then a count


def validate_ir(doc: Any, file: str) -> list[Diagnostic]:
    """The schema violations of ``doc`` (the first ``SCHEMA_ERRORS_SHOWN`` found), each naming its
    JSON path, in the document's order."""
    out = []
    found = list(islice(validator().iter_errors(doc), SCHEMA_ERRORS_SHOWN + 1))
    more = len(found) > SCHEMA_ERRORS_SHOWN
    for err in sorted(found[:SCHEMA_ERRORS_SHOWN], key=lambda e: [(0, p, "") if isinstance(p, int) else (1, 0, str(p))
                                                                  for p in e.absolute_path]):
        best = err
        if err.context:  # an if/then dispatch: report the innermost failure
            best = min(err.context, key=lambda e: -len(e.absolute_path))
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in best.absolute_path)
        message = best.message
        if len(message) > 200:
            message = message[:200] + "..."
        out.append(Diagnostic(file, f"IR does not match the schema: {message}", path=path))
    if more:
        out.append(Diagnostic(file, f"IR does not match the schema in more places: the first {SCHEMA_ERRORS_SHOWN} "
                                    f"are shown (is it an IR document made by `meeple ir`?)", path="$"))
    return out


if __name__ == "__main__":  # pragma: no cover
    json.dump(build_schema(), sys.stdout, indent=1)
    sys.stdout.write("\n")
