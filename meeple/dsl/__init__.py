"""The rules language: text → AST → IR → checked game. ``read_checked`` runs the whole front end.

    parse (dsl.parse) → lower (dsl.lower) → schema (dsl.schema, for IR read as JSON)
      → variants (dsl.variants, for a file that extends another) → check (dsl.check) → CheckedGame (dsl.checked)
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any, Optional

from .diagnostics import Diagnostic, RulesError, RulesSemanticError, RulesSyntaxError

if TYPE_CHECKING:
    from .checked import CheckedGame

__all__ = ["read_checked", "check_ir", "read_ir", "ir_from_text", "RulesError", "RulesSyntaxError",
           "RulesSemanticError", "Diagnostic"]


def read_text(path: str) -> str:
    from .limits import MAX_IR_CHARS
    try:
        if not_a_file(path):  # (opening a pipe waits for a writer: for ever)
            raise RulesError([Diagnostic(path, f"cannot read the file: it is {not_a_file(path)}, not a file")])
        with open(path, "rb") as f:
            data = f.read(MAX_IR_CHARS + 1)  # no more: a rules or IR file is never larger
        if len(data) > MAX_IR_CHARS:
            raise RulesSyntaxError([Diagnostic(path, f"file too large (more than {MAX_IR_CHARS:,} bytes)", 1, 1)])
    except OSError as e:
        raise RulesError([Diagnostic(path, f"cannot read the file: {e.strerror or e}")]) from None
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(data) > 1 and b"\x00" in data[:2]):
        raise RulesSyntaxError([Diagnostic(path, "the file is UTF-16 text, not UTF-8 (save the file as UTF-8)", 1, 1)])
    try:
        return data.decode("utf-8-sig")  # a byte-order mark some editors write is not part of the rules
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise RulesSyntaxError([Diagnostic(path, f"the file is not UTF-8 text: byte {e.start} is 0x{data[e.start]:02x} "
                                                 f"(save the file as UTF-8)", line, col, line, col + 1)]) from None


def not_a_file(path: str) -> str | None:
    """What ``path`` is when it is a pipe or a socket ("a pipe", "a socket"), else None."""
    import stat
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None  # (the open that follows says why it cannot be read)
    return "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else None


def ir_from_text(text: str, file: str) -> dict[str, Any]:
    """Parse and lower rules text (no semantic checks)."""
    from .lower import lower
    from .parse import parse
    try:
        return lower(parse(text, file), file)
    except RulesSemanticError as e:  # a part declared twice: the IR of the rest, to check it too
        if getattr(e, "partial", None) is not None:
            e.partial_ir = lower(e.partial, file)  # type: ignore[attr-defined]
        raise


def cached_ir_from_text(text: str, file: str) -> dict[str, Any]:
    """``ir_from_text``, skipped when the same text was lowered before (see dsl/cache.py)."""
    from .cache import cached_ir
    return cached_ir(text, file, ir_from_text)


def ir_from_json(text: str, file: str) -> dict[str, Any]:
    """Read an IR document and validate it against the schema. Every problem names its
    JSON path (or, for text that is not JSON, its line and column)."""
    from .limits import MAX_IR_CHARS, MAX_IR_DEPTH, too_deep
    if len(text) > MAX_IR_CHARS:
        raise RulesSyntaxError([Diagnostic(file, f"file too large ({len(text):,} characters; "
                                                 f"the limit is {MAX_IR_CHARS:,})", 1, 1)], text)
    from .text import a_record
    record = a_record(text, file)
    if record is not None:
        raise RulesSyntaxError([record], text)
    try:  # a number of thousands of digits stays text here (Python refuses to read it): _ir_limits reports it
        doc = json.loads(text, parse_int=lambda s: int(s) if len(s) < 100 else _Digits(s),
                         object_pairs_hook=object_once)
    except json.JSONDecodeError as e:
        if not text.strip():
            raise RulesSyntaxError([Diagnostic(file, "the file is empty: an IR document is a JSON object "
                                                     "(make one with `meeple ir RULES_FILE`)", 1, 1)], text) from None
        raise RulesSyntaxError([Diagnostic(file, f"not valid JSON: {e.msg}", e.lineno, e.colno)], text) from None
    except RecursionError:
        line, col = too_deep(text, "[{", "]}", MAX_IR_DEPTH) or (1, 1)
        raise RulesSyntaxError([Diagnostic(file, f"JSON nested deeper than {MAX_IR_DEPTH} levels", line, col)],
                               text) from None
    except RepeatedKey:
        found = repeated_keys(text, REPEATED_KEYS_SHOWN + 1) or [("?", 1, 1)]
        said = [Diagnostic(file, f"key {json.dumps(key)[:60]} appears twice in one object (JSON would keep only "
                                 f"the last)", line, col) for key, line, col in found[:REPEATED_KEYS_SHOWN]]
        if len(found) > REPEATED_KEYS_SHOWN:
            said.append(Diagnostic(file, f"and more keys named twice (the first {REPEATED_KEYS_SHOWN} are shown)",
                                   *found[-1][1:]))
        raise RulesSyntaxError(said, text) from None
    problems = _ir_limits(doc, file, len(text))
    if not problems:
        problems = _ir_version(doc, file)
    if not problems:
        from .lower import IR_VERSION, upgrade, without_defaults
        if doc["meeple"] != IR_VERSION and isinstance(doc.get("at"), dict):  # (version 1's "at" is a list)
            said = Diagnostic(file, f"the document says \"meeple\": {doc['meeple']}, but it is written in version "
                                    f"{IR_VERSION}'s form (its \"at\" is an object): set \"meeple\": {IR_VERSION}",
                              path="$.meeple")
            problems = [said, *_schema_problems(without_defaults(dict(doc, meeple=IR_VERSION)), file)]
        else:
            doc = without_defaults(upgrade(doc))  # an older document: the same game in today's form
            problems = _schema_problems(doc, file)
            if problems and isinstance(doc.get("at"), list) \
                    and not _schema_problems(without_defaults(upgrade(dict(doc, meeple=1))), file):
                problems = [Diagnostic(file, f"the document says \"meeple\": {IR_VERSION}, but it is written in "
                                             f"version 1's form (its \"at\" is a list): set \"meeple\": 1",
                                       path="$.meeple")]
    if problems:
        raise RulesSemanticError(problems, None)
    return doc


def _schema_problems(doc: Any, file: str) -> list[Diagnostic]:
    """What the schema says of a document of today's form."""
    from .limits import MAX_IR_DEPTH
    from .schema import validate_ir
    try:  # the validator recurses about a dozen frames per level of the document
        with _recursion_room(12 * MAX_IR_DEPTH + 200):
            return validate_ir(doc, file)
    except RecursionError:
        return [Diagnostic(file, f"IR nested deeper than {MAX_IR_DEPTH} levels", path="$")]


def _ir_version(doc: Any, file: str) -> list[Diagnostic]:
    """A document of a version this meeple reads (1 is converted), else one clear error."""
    from .lower import IR_VERSION
    if not isinstance(doc, dict) or "meeple" not in doc:
        what = "a JSON object" if isinstance(doc, dict) else f"JSON {type(doc).__name__.replace('dict', 'object')}"
        return [Diagnostic(file, f"not a meeple IR document ({what} without \"meeple\": {IR_VERSION}); "
                                 f"make one with `meeple ir RULES_FILE`", path="$")]
    version = doc["meeple"]
    if isinstance(version, bool) or version not in (1, IR_VERSION):  # (true == 1 in Python)
        return [Diagnostic(file, f"IR version {json.dumps(version)[:40]} is not one this meeple reads (it reads 1 and "
                                 f"{IR_VERSION}): regenerate it with `meeple ir RULES_FILE`", path="$.meeple")]
    return []


REPEATED_KEYS_SHOWN = 20  # keys named twice in an IR document, said one by one


class RepeatedKey(ValueError):
    """An object of a JSON text names a key twice (``repeated_keys`` finds where)."""


def object_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for ``json.loads``: the object, unless it names a key twice."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        raise RepeatedKey()
    return obj


def repeated_keys(text: str, most: int = 20) -> list[tuple[str, int, int]]:
    """Each key of a JSON text named again in the same object (the first ``most``), with the line
    and column of its second naming: a plain scan of the strings and brackets, which takes the
    text as it comes (the parser stops at the first repeated key, before what follows is read)."""
    found: list[tuple[str, int, int]] = []
    keys: list[Optional[set[str]]] = []  # per open bracket: the keys of an object so far, None in an array
    line, line_start, counted_to = 1, 0, 0
    for m in _JSON_TOKEN.finditer(text):
        token = m.group()
        if token in "{[":
            keys.append(set() if token == "{" else None)
        elif token in "}]":
            if keys:
                keys.pop()
        elif token.endswith(":") and keys and keys[-1] is not None:
            key = json.loads(token[:-1].rstrip())
            if key in keys[-1]:
                newlines = text.count("\n", counted_to, m.start())  # (counted on from the last one found)
                if newlines:
                    line, line_start = line + newlines, text.rfind("\n", counted_to, m.start()) + 1
                counted_to = m.start()
                found.append((key, line, m.start() - line_start + 1))
                if len(found) >= most:
                    break
            keys[-1].add(key)
    return found


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"\s*:|"(?:[^"\\]|\\.)*"|[{}\[\]]')


class _Digits(str):
    """An integer too long to read, as its digits."""


def _ir_limits(doc: Any, file: str, chars: int) -> list[Diagnostic]:
    """The IR holds at most MAX_IR_VALUES values (counted as they are met, so a larger one is
    refused before it is walked whole), numbers in it are integers within MAX_NUMBER, and it nests
    at most MAX_IR_DEPTH levels: each problem (the first ten) with its JSON path."""
    from .limits import MAX_IR_DEPTH, MAX_IR_VALUES, MAX_NUMBER
    out: list[Diagnostic] = []
    stack: list[tuple[Any, tuple, int]] = [(doc, (), 0)]
    values = 1
    while stack and len(out) < 10:
        x, path, depth = stack.pop()
        problem = None
        if depth > MAX_IR_DEPTH:
            if not any(d.message.startswith("IR nested") for d in out):  # once: the rest is as deep
                problem = f"IR nested deeper than {MAX_IR_DEPTH} levels"
        elif isinstance(x, (dict, list)):
            values += len(x)
            if values > MAX_IR_VALUES:
                return [_too_many_values(doc, file, chars)]
            if isinstance(x, dict):
                stack.extend((v, (*path, k), depth + 1) for k, v in x.items())
                stack.extend((k, (*path, k), depth + 1) for k in x if not is_text(k))  # (a key: said as a value)
            else:
                stack.extend((v, (*path, i), depth + 1) for i, v in enumerate(x))
        elif isinstance(x, str) and not isinstance(x, _Digits) and not is_text(x):
            problem = "a string holds half of a UTF-16 surrogate pair (a '\\ud800' escape alone): it is no text"
        elif isinstance(x, _Digits) or (isinstance(x, int) and not isinstance(x, bool) and abs(x) > MAX_NUMBER):
            problem = f"a number of {len(str(x).lstrip('-')):,} digits is too large (at most {MAX_NUMBER:,})"
        elif isinstance(x, float):
            problem = f"the number {x!r} is not a whole number (the IR holds integers)"
        if problem:
            where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
            out.append(Diagnostic(file, problem, path=where))
    return out


def _too_many_values(doc: Any, file: str, chars: int) -> Diagnostic:
    """An IR document past MAX_IR_VALUES: the limit, the document's size and its longest list."""
    from .limits import MAX_IR_VALUES
    longest = max(((len(v), k) for k, v in doc.items() if isinstance(v, list)), default=None) \
        if isinstance(doc, dict) else None
    most = f", its {json.dumps(longest[1])[:40]} lists {longest[0]:,} items" if longest else ""
    return Diagnostic(file, f"IR document too large: it holds more than {MAX_IR_VALUES:,} values (objects, lists, "
                            f"strings and numbers; a real game holds some thousands): this one is {chars:,} "
                            f"characters{most}", path="$")


def is_text(s: str) -> bool:
    """Is ``s`` text, as a file or a terminal can hold it? (JSON lets a string hold half of a
    UTF-16 surrogate pair, ``"\\ud800"``, which no UTF-8 text can.)"""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _recursion_room:
    """Room for at least ``frames`` more Python frames (the limit is raised if need be, then restored)."""

    def __init__(self, frames: int):
        self.frames = frames

    def __enter__(self) -> None:
        import sys
        self.saved = sys.getrecursionlimit()
        frame, depth = sys._getframe(), 0
        while frame is not None:
            frame, depth = frame.f_back, depth + 1
        sys.setrecursionlimit(max(self.saved, depth + self.frames))

    def __exit__(self, *exc: Any) -> None:
        import sys
        sys.setrecursionlimit(self.saved)


def read_checked(path: str, params: Optional[dict[str, int]] = None) -> "CheckedGame":
    """The whole front end: the checked game of a ``.rules`` file or an IR ``.json`` file.

    Raises ``RulesError`` carrying every problem found. IR that comes from text is valid
    against the schema by construction (a test holds the lowering to that); IR read as
    JSON is validated against the schema first."""
    if not isinstance(path, str):
        raise TypeError(f"read_checked takes the path of a rules or IR file as a str, not {type(path).__name__}")
    given_params(params)
    text = read_text(path)
    is_json = looks_like_ir(path, text)
    from .limits import MAX_SOURCE_BYTES
    if not is_json and len(text) <= MAX_SOURCE_BYTES:
        from .text import a_record, empty_file
        wrong = empty_file(text, path) or a_record(text, path)
        if wrong is not None:
            raise RulesSyntaxError([wrong], text)
    try:
        ir = ir_from_json(text, path) if is_json else cached_ir_from_text(text, path)
    except RulesSemanticError as e:
        partial = getattr(e, "partial_ir", None)
        if partial is None:
            raise
        try:  # all errors at once: the checker's too
            check_ir(partial, path, params, text)
        except RulesError as more:
            e.diagnostics = [*e.diagnostics, *more.diagnostics]
            e.texts = {**more.texts, **e.texts}
        raise e from None
    game = check_ir(ir, path, params, None if is_json else text)
    if not is_json:
        from .text import text_warnings
        game.warnings = [*text_warnings(text, path), *game.warnings]
    return game


def given_params(params: Any) -> None:
    """Params given from Python are a dict of param names to whole numbers, or None: anything else
    is the caller's mistake, a ``TypeError`` (a value outside a param's range, or a name the rules do
    not declare, is the rules' answer: a ``RulesError``)."""
    if params is None:
        return
    if not isinstance(params, dict):
        raise TypeError(f"params is a dict of param names (str) to whole numbers, not {type(params).__name__}")
    for name, value in params.items():
        if not isinstance(name, str):
            raise TypeError(f"params is a dict of param names (str) to whole numbers: {name!r} is no name")
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"params is a dict of param names (str) to whole numbers: {name!r} is {value!r}")


def looks_like_ir(path: str, text: str) -> bool:
    """Is this file an IR document (else rules text)? A ``.json`` file is; so is any file that is a
    JSON object with a "meeple" key (an IR file saved under another name). A rules file that
    starts with '{' by mistake is still read as rules."""
    if path.endswith(".json"):
        return True
    if not text.lstrip().startswith("{"):
        return False
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "meeple" in doc


def check_ir(ir: dict[str, Any], path: str, params: Optional[dict[str, int]] = None,
             text: Optional[str] = None) -> "CheckedGame":
    """The checked game of an IR document read from ``path`` (``text``: its rules text, None
    for IR read as JSON, whose problems then name JSON paths). Raises ``RulesError``."""
    from .check import checked_game
    given_params(params)
    is_json = text is None
    texts: dict[str, str] = {}
    extends = None  # (a variant's 'extends': where a problem found in its base is noted)
    if ir.get("extends") is not None:  # ("" too: said to name no file)
        from .variants import resolve
        from .walk import span
        extends = (ir["extends"], span(ir, "extends"))
        removed = [(c["kind"], c["name"], span(c), c["action"]) for c in ir.get("changes", ())
                   if c.get("action") in ("remove", "replace") and isinstance(c.get("name"), str)]
        try:
            ir, texts = resolve(ir, path)
        except RulesError as e:
            diags = e.diagnostics
            if is_json:  # the variant's own problems: at its 'extends', by JSON path
                from dataclasses import replace
                diags = [replace(_json_diagnostic(d, path, ir.get("source", "")), path=d.path or "$.extends")
                         if d.file == path else d for d in diags]
            raise type(e)(diags, text, e.texts) from None
    declared = [p["name"] for p in ir["params"]]
    unknown = sorted(set(params or {}) - set(declared))
    from .diagnostics import did_you_mean
    diags = [Diagnostic(path, f"unknown param '{n}'{did_you_mean(n, declared)}; the rules declare "
                              f"{', '.join(declared) if declared else 'no params'}", param=n) for n in unknown[:20]]
    if len(unknown) > 20:  # (each is looked up among the declared: a long list would take a long time)
        diags.append(Diagnostic(path, f"and {len(unknown) - 20:,} more unknown params", param=unknown[20]))
    game, found = checked_game(ir, path, params)
    diags += found
    if extends is not None and not is_json and any(d.kind == "error" and d.file != path for d in diags):
        line, col, end_line, end_col = (extends[1] or [0, 0, 0, 0])[:4]
        diags.append(Diagnostic(path, f"'{extends[0]}', extended here, has errors in the game this file makes",
                                line, col, end_line, end_col, kind="note"))
        for kind, name, at, action in removed:  # (the base's errors over what this removes or replaces: said here)
            uses: dict[str, set[int]] = {}
            for d in diags:
                if d.kind == "error" and d.file != path and d.line and f"'{name}'" in d.message:
                    uses.setdefault(d.file, set()).add(d.line)
            if uses and at:
                places = "; ".join(f"{file} line{'s' * (len(lines) > 1)} "
                                   + ", ".join(map(str, sorted(lines)[:10])) + (", ..." if len(lines) > 10 else "")
                                   for file, lines in sorted(uses.items()))
                said = f"this removes {kind} '{name}', which the base still uses ({places})" if action == "remove" \
                    else f"this replaces {kind} '{name}', and the base's uses of it no longer fit ({places})"
                diags.append(Diagnostic(path, said, at[0], at[1], at[2], at[3], kind="note"))
    if is_json:
        diags = [_json_diagnostic(d, path, ir.get("source", "")) for d in diags]
    else:  # (a base that is an IR document: its positions are of the rules it was made from, not of its JSON)
        bases = {f: _source_of(t) for f, t in texts.items() if f != path and looks_like_ir(f, t)}
        diags = [_json_diagnostic(d, d.file, bases[d.file]) if d.file in bases and d.line else d for d in diags]
    if game is None or any(d.kind == "error" for d in diags):
        raise RulesSemanticError(diags, text, texts)
    game.warnings = [d for d in diags if d.kind != "error"]
    game.texts = {**texts, **({path: text} if text is not None else {})}
    return game


def read_ir(path: str, params: Optional[dict[str, int]] = None) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The checked IR of a ``.rules`` file or an IR ``.json`` file, and its warnings
    (``read_checked`` gives the whole checked game). Raises ``RulesError``."""
    game = read_checked(path, params)
    return (game.written if game.written is not None else game.ir), game.warnings


def _source_of(text: str) -> str:
    """The rules file an IR document names as its "source" ("" if none)."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return ""
    source = doc.get("source") if isinstance(doc, dict) else None
    return source if isinstance(source, str) else ""


def _json_diagnostic(d: Diagnostic, path: str, source: str) -> Diagnostic:
    """For IR read as JSON, the JSON path leads; the rules line is a note."""
    from dataclasses import replace
    note = f"from {source}:{d.line}:{d.col}" if d.line and source else ""
    return replace(d, file=path, line=0, col=0, end_line=0, end_col=0,
                   message=d.message + (f" ({note})" if note else ""))
