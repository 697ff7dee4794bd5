"""The rules language: text → AST → IR, checked. ``read_ir`` runs the whole front end.

    parse (dsl.parse) → lower (dsl.lower) → schema (dsl.schema, for IR read as JSON) → check (dsl.check)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from .diagnostics import Diagnostic, RulesError, RulesSemanticError, RulesSyntaxError

__all__ = ["read_ir", "ir_from_text", "RulesError", "RulesSyntaxError", "RulesSemanticError", "Diagnostic"]


def read_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise RulesError([Diagnostic(path, f"cannot read the file: {e.strerror or e}")]) from None
    try:
        return data.decode("utf-8-sig")  # a byte-order mark some editors write is not part of the rules
    except UnicodeDecodeError as e:
        raise RulesSyntaxError([Diagnostic(path, f"the file is not UTF-8 text (byte {e.start})")]) from None


def ir_from_text(text: str, file: str) -> dict[str, Any]:
    """Parse and lower rules text (no semantic checks)."""
    from .lower import lower
    from .parse import parse
    return lower(parse(text, file), file)


def cached_ir_from_text(text: str, file: str) -> dict[str, Any]:
    """``ir_from_text``, skipped when the same text was lowered before (see dsl/cache.py)."""
    from .cache import cached_ir
    return cached_ir(text, file, ir_from_text)


def ir_from_json(text: str, file: str) -> dict[str, Any]:
    """Read an IR document and validate it against the schema."""
    from .schema import validate_ir
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise RulesSyntaxError([Diagnostic(file, f"not valid JSON: {e.msg}", e.lineno, e.colno)], text) from None
    except RecursionError:
        raise RulesSyntaxError([Diagnostic(file, "JSON nested too deeply")], text) from None
    try:
        problems = validate_ir(doc, file)
    except RecursionError:
        problems = [Diagnostic(file, "IR nested too deeply")]
    if problems:
        raise RulesSemanticError(problems, None)
    return doc


def read_ir(path: str, params: Optional[dict[str, int]] = None) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The checked IR of a ``.rules`` file or an IR ``.json`` file, and its warnings.

    Raises ``RulesError`` carrying every problem found. IR that comes from text
    is valid against the schema by construction (a test holds the lowering to
    that); IR read as JSON is validated against the schema first."""
    from .check import check
    text = read_text(path)
    is_json = path.endswith(".json") or text.lstrip().startswith("{")
    ir = ir_from_json(text, path) if is_json else cached_ir_from_text(text, path)
    texts: dict[str, str] = {}
    if ir.get("extends"):
        from .variants import resolve
        try:
            ir, texts = resolve(ir, path)
        except RulesError as e:
            raise type(e)(e.diagnostics, text, e.texts) from None
    unknown = sorted(set(params or {}) - {p["name"] for p in ir["params"]})
    diags = [Diagnostic(path, f"unknown param '{n}'") for n in unknown]
    diags += check(ir, path, params)
    if is_json:
        diags = [_json_diagnostic(d, path, ir.get("source", "")) for d in diags]
    errors = [d for d in diags if d.kind == "error"]
    if errors:
        raise RulesSemanticError(diags, None if is_json else text, texts)
    return ir, [d for d in diags if d.kind != "error"]


def _json_diagnostic(d: Diagnostic, path: str, source: str) -> Diagnostic:
    """For IR read as JSON, the JSON path leads; the rules line is a note."""
    from dataclasses import replace
    note = f"from {source}:{d.line}:{d.col}" if d.line and source else ""
    return replace(d, file=path, line=0, col=0, end_line=0, end_col=0,
                   message=d.message + (f" ({note})" if note else ""))
