"""Parse rules text into an AST (``parse``), reporting every syntax error found."""

from __future__ import annotations

import hashlib
import importlib
import io
import os
import pickle
import re
import sys
import types
import typing
from copy import copy
from functools import lru_cache
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast as A
from .cache import cache_root
from .diagnostics import Diagnostic, RulesSemanticError, RulesSyntaxError, did_you_mean, normalize_newlines

from .limits import MAX_DEPTH, MAX_LINE_LENGTH, MAX_NESTING, MAX_NUMBER, MAX_SOURCE_BYTES, MAX_TOKENS, too_deep

MAX_SYNTAX_ERRORS = 10
# After a syntax error, later ones are reported only once this many tokens parse
# again (as yacc does), so one mistake does not cascade into an error per line.
RESYNC_TOKENS = 3
# Error events (reported or not) after which the parser gives up on the rest of the file.
MAX_RECOVERIES = 500
# When a token is unexpected, the parser tries inserting one of these first (then any
# other terminal) so that the token fits; a missing ')' or '}' then costs one error.
INSERT_FIRST = ("RPAR", "RBRACE", "LBRACE", "NAME", "INT", "COLON")
OPEN_ENDED = {"+", "-", "*", "/", "%", "and", "or", "not", "==", "!=", "<", "<=", ">", ">=", "=", ",", "(", "["}
# Words of the language that a name (a zone, a var, a player...) must follow.
WANTING_A_NAME = {"reshuffling", "from", "to", "into", "onto", "by"}
MISSPELT_CHOICES = 6  # words of the language a misspelt one is read as, at most, when only they may stand
_TOKEN = re.compile(r'#[^\n]*|\s+|"[^"\n]*"|[A-Za-z_0-9]+|\.\.|[=!<>]=|.')

FRIENDLY = {"NAME": "a name", "INT": "a number", "STRING": "a quoted string",
            "$END": "the end of the file", "VISIBILITY": "'public', 'private' or 'hidden'"}


@lru_cache(maxsize=1)
def grammar() -> Lark:
    """The parser of the language. Lark builds it from ``rules.lark`` (its tables kept in Lark's
    own cache); meeple keeps the whole parser as it was built, a pickle in its cache folder,
    which loads several times faster than Lark's cache is read back (``grammar_cache``)."""
    path = grammar_cache()
    if path is not None:
        try:  # (its first 32 bytes are a hash of the rest: a damaged file is never unpickled)
            data = path.read_bytes()
            if hashlib.sha256(data[32:]).digest() == data[:32]:
                found = pickle.loads(data[32:])
                if isinstance(found, Lark):
                    return found
        except Exception:  # noqa: BLE001 (a missing, damaged or foreign file: built again below)
            pass
    made = Lark.open("rules.lark", rel_to=__file__, parser="lalr", propagate_positions=True, cache=True,
                     maybe_placeholders=False,
                     # (NAME last: lark's lexer chains a NAME callback after its keyword check
                     # with a test of the type that reads the last key of this dict)
                     lexer_callbacks={**{k: _keyword_seen for k in keyword_terminals()}, "NAME": _name_seen})
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            kept = io.BytesIO()
            _GrammarPickler(kept, protocol=pickle.HIGHEST_PROTOCOL).dump(made)
            tmp.write_bytes(hashlib.sha256(kept.getvalue()).digest() + kept.getvalue())
            tmp.replace(path)
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            pass
    return made


def grammar_cache() -> Optional[Path]:
    """Where the built parser is kept: named by a hash of the grammar, of this module (the
    parser's options) and of the Lark and Python versions; None where no home folder is known."""
    try:
        root = cache_root()
    except (OSError, RuntimeError):
        return None
    here = Path(__file__).parent
    h = hashlib.sha256()
    for part in ((here / "rules.lark").read_bytes(), Path(__file__).read_bytes(), lark.__version__.encode(),
                 sys.version.encode()):
        h.update(part + b"\0")
    return root / "grammar" / f"{h.hexdigest()[:32]}.pickle"


# The objects of Lark that its parser tells apart by identity (``action is Shift``), and the
# modules it holds (which cannot be pickled): in the grammar cache, each is kept by its name.
KEPT_BY_NAME = (("lark.parsers.lalr_analysis", "Shift"), ("lark.parsers.lalr_analysis", "Reduce"),
                ("lark.utils", "NO_VALUE"), ("lark.visitors", "Discard"))


def _named(module: str, name: Optional[str]) -> Any:
    """The object ``name`` of ``module`` (the module itself for None)."""
    found = importlib.import_module(module)
    return found if name is None else getattr(found, name)


class _GrammarPickler(pickle.Pickler):
    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.names = {id(_named(m, n)): (m, n) for m, n in KEPT_BY_NAME}

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, types.ModuleType):
            return _named, (obj.__name__, None)
        found = self.names.get(id(obj))
        return (_named, found) if found is not None else NotImplemented


@lru_cache(maxsize=1)
def reserved_words() -> frozenset[str]:
    """The keywords that cannot be names: those that can start an expression (``if``, ``not``,
    ``none``, ``true`` ...), where a name of the same spelling would be read as the keyword. The
    lexer reads any other keyword as a name where no keyword can stand (a zone may be called
    ``all``), so those stay allowed, as they always were."""
    words = {t.pattern.value: t.name for t in grammar().terminals
             if t.pattern.type == "str" and t.pattern.value.isidentifier()}
    probe = grammar().parse_interactive("end when ")  # (no name in it: the lexer calls _name_seen)
    probe.exhaust_lexer()
    starts = probe.accepts()
    return frozenset(w for w, t in words.items() if t in starts)


# Terminals that start a declaration: never inside a block (so one there means a '}' is missing).
DECLARATION_STARTS = {"EXTENDS", "REPLACE", "REMOVE", "INSERT", "EXTEND", "SHOW", "LABEL", "GAME", "PLAYERS",
                      "MAX_STEPS", "PARAM", "ENUM", "TRACK", "PIECES", "GRID", "BOARD", "CIRCUIT", "ROUTE", "ZONE",
                      "CARDS", "VAR", "DEFINE", "SETUP", "TURN", "PHASE", "SCORE", "TIEBREAK", "RETURNS", "ZERO_SUM",
                      "REPORT", "INVARIANT"}
STATEMENT_STARTS = {"LET", "SET", "ROLL", "REVEAL", "RESET", "IF", "FOR", "MOVE", "PLACE", "CHOOSE", "DEAL", "REFILL",
                    "RUN"}
_reserved_seen: list[Token] = []  # names that are keywords, found while lexing the current text


def _name_seen(tok: Token) -> Token:
    """The contextual lexer reads a keyword as a name where no keyword can stand (``var if = 0``):
    note it, so that it is reported where it is instead of errors far away."""
    if tok.value in reserved_words():
        _reserved_seen.append(tok)
    return tok


def keyword_terminals() -> list[str]:
    """The terminals of the grammar that are words (``SET: "set"``, ``VISIBILITY: "public" | ...``)."""
    text = (Path(__file__).parent / "rules.lark").read_text(encoding="utf-8")
    return re.findall(r'^([A-Z_]+): "[a-z_]+"(?: \| "[a-z_]+")*$', text, flags=re.M)


_KEYWORD_TERMINALS = frozenset(keyword_terminals())
_lexing: list[str] = [""]  # the text being parsed (for ``_keyword_seen``)
_glued_seen: list[Token] = []  # keywords read at the start of a longer word ('setx', 'endgame')


def _keyword_seen(tok: Token) -> Token:
    """Where no name can stand, the contextual lexer reads the keyword at the start of a longer
    word and a name after it (``setx = 1`` as ``set x = 1``, ``endgame`` as ``end game``): note it,
    so that it is an error, as the word is to a reader."""
    text, start, end = _lexing[0], tok.start_pos, tok.end_pos
    if end is not None and end < len(text) and _in_word(text[end]) and text.startswith(tok.value, start) \
            and not (start and _in_word(text[start - 1])):  # (from the start of a word only)
        _glued_seen.append(tok)
    return tok


def _in_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _glued_diagnostic(tok: Token, file: str) -> Diagnostic:
    word = re.match(r"\w+", _lexing[0][tok.start_pos:]).group()  # type: ignore[union-attr]
    rest = word[len(tok.value):]
    meant = f" (did you mean '{tok.value} {rest}'?)" if rest[0].isalpha() else ""
    if rest == "s":  # a plural ('zones deck hidden')
        meant = f" (did you mean '{tok.value}'?)"
    return Diagnostic(file, f"unknown word '{word}'{meant}", tok.line, tok.column, tok.line, tok.column + len(word))


def describe_terminal(name: str) -> str:
    if name in FRIENDLY:
        return FRIENDLY[name]
    try:
        pattern = grammar().get_terminal(name).pattern
    except KeyError:
        return name
    return f"'{pattern.value}'" if pattern.type == "str" else name.lower()


def parse(text: str, file: str = "<rules>") -> A.RulesFile:
    """Parse ``text`` into a ``RulesFile``; raise ``RulesSyntaxError`` with every error found.

    Line ends may be LF, CRLF or CR (positions and the lines shown count them alike)."""
    text = normalize_newlines(text)
    if len(text) > MAX_SOURCE_BYTES:
        raise RulesSyntaxError([Diagnostic(file, f"file too large ({len(text):,} characters; "
                                                 f"the limit is {MAX_SOURCE_BYTES:,})", 1, 1)], text)
    size_errors = _size_errors(text, file)
    if size_errors:
        raise RulesSyntaxError(size_errors, text)
    deep = too_deep(text, "({", ")}", MAX_NESTING)
    if deep:
        raise RulesSyntaxError([Diagnostic(file, f"nesting deeper than {MAX_NESTING} brackets", *deep,
                                           deep[0], deep[1] + 1)], text)
    errors: list[Diagnostic] = []
    original = text  # (the lines shown under errors are the file's own)
    char_errors, text = _foreign_characters(text, file)  # each reported once, then read as a plain letter
    last_error_end = 0
    events = 0

    def last_line() -> int:  # the line of the last error's word (a line that stops short: the word after it)
        return found_at.get(id(errors[-1]), errors[-1].line)

    def resynced(e: UnexpectedInput) -> bool:
        """Has the parser got back on track since the last error (a cascade otherwise)?"""
        nonlocal last_error_end
        if in_sync[0] and errors and getattr(e, "line", 0) > last_line():  # (the word was read as one)
            in_sync[0] = False
            last_error_end = e.token.end_pos if isinstance(getattr(e, "token", None), Token) else last_error_end
            return True
        start = getattr(e, "pos_in_stream", None) or 0
        token = getattr(e, "token", None)
        if isinstance(token, Token) and token.start_pos is not None:
            start = token.start_pos
        between = sum(1 for m in _TOKEN.finditer(text, last_error_end, max(start, last_error_end))
                      if not m.group()[0].isspace() and m.group()[0] != "#")
        last_error_end = token.end_pos if isinstance(token, Token) and token.end_pos is not None else start + 1
        return not errors or (between >= RESYNC_TOKENS and getattr(e, "line", 0) > last_line())

    found_at: dict[int, int] = {}  # id of an error → the line of the word the parser stopped at
    opened_by_recovery = [0]  # '{' the recovery inserted: their blocks end at some later '}' of the file
    in_sync = [False]  # the last error's word was read as a word of the language: the parser is on track
    in_list = [0]  # the line of a '[' where a value goes: the words up to its ']' on that line are dropped

    def recover(e: UnexpectedInput) -> bool:
        nonlocal events
        if _keyword_as_name(e):  # no mistake: a word of the language where only a name can stand (not
            return True          # counted: it takes the word, so the parser always moves on)
        events += 1
        if len(errors) >= MAX_SYNTAX_ERRORS or events > MAX_RECOVERIES:
            return False
        if in_list[0] and isinstance(e, UnexpectedToken) and e.token.line == in_list[0]:
            if e.token.type == "RSQB":  # (the first item stood for the value; the rest is the list's echo)
                in_list[0] = 0
            return True
        in_list[0] = 0
        if resynced(e) and not _cascade(e, bool(errors), opened_by_recovery):
            errors.append(_syntax_diagnostic(e, file, text))
            found_at[id(errors[-1])] = max(errors[-1].line, getattr(e, "line", 0) or 0)
        if _if_without_else(e) is not None and e.token.type != "$END":  # read on as if 'else 0' were there
            _insert_else(e)
            return True
        if isinstance(e, UnexpectedToken) and e.token.type != "$END":
            if _dice_written_short(e):  # 'roll 2d6': read on as 'roll 2 dice of 6'
                in_sync[0] = True
                return True
            if _end_if(e):  # (read as 'end when': the rest of the line as written)
                return True
            if _misspelled_word(e):  # read as the word it stands for: the lines after it are read as written
                in_sync[0] = True
                return True
            in_sync[0] = False
            if _list_for_a_value(e):  # '[0, 0, 0]' where a value goes: read as its first item
                in_list[0] = e.token.line
                return True
            if _insert_missing(e) == "LBRACE":  # else lark drops the token
                opened_by_recovery[0] += 1
        return True

    reserved_words()  # (worked out by lexing a text of its own: before this one is noted)
    _reserved_seen.clear()
    _glued_seen.clear()
    _lexing[0] = text
    tree = None
    try:
        tree = grammar().parse(text, on_error=recover)
    except UnexpectedInput as e:
        if len(errors) < MAX_SYNTAX_ERRORS and resynced(e):
            errors.append(_syntax_diagnostic(e, file, text))
    first_error = min(((d.line, d.col) for d in errors), default=None)  # (past it the lexer may be lost)
    glued = [_glued_diagnostic(t, file) for t in _glued_seen if first_error is None or (t.line, t.column) < first_error]
    said = {(d.line, d.col) for d in errors}  # (a keyword after a syntax error on its line was lexed out of step)
    keywords = [_reserved_diagnostic(t, file, text) for t in _reserved_seen
                if not any(line == t.line and col < t.column for line, col in said)] + glued
    after = glued + [k for k in keywords if k.message.startswith("an option's test")]  # (what follows is their echo)
    errors = [e for e in errors if not any(g.line == e.line and g.col < e.col for g in after)]
    _reserved_seen.clear()
    _glued_seen.clear()
    _lexing[0] = ""
    foreign = {(d.line, d.col) for d in char_errors}  # what the parser says just after one is its echo
    errors = _merged(char_errors, keywords, [e for e in errors if (e.line, e.col - 1) not in foreign])
    if errors or tree is None:
        if original.lstrip().startswith(("{", "[")) and _is_json(original):
            errors = [Diagnostic(file, "this file is JSON, not rules text: an IR document is read from a file "
                                       "named .json (make one with 'meeple ir RULES_FILE')", 1, 1)]
        raise RulesSyntaxError(errors, original)
    depth_error = _depth_error(tree, file)
    if depth_error:
        raise RulesSyntaxError([depth_error], original)
    to_ast = ToAst(file)
    try:
        rules = to_ast.transform(tree)
    except RulesSemanticError as e:
        e.source = text
        raise
    if to_ast.problems:  # a part declared twice: the rest of the file is still checked (see read_checked)
        error = RulesSemanticError(to_ast.problems, text)
        error.partial = rules  # type: ignore[attr-defined]
        raise error
    return rules


def _is_json(text: str) -> bool:
    import json
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _where(text: str, pos: int) -> tuple[int, int]:
    """The line and column of offset ``pos``, as lark counts them (lines end at '\\n')."""
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


def _size_errors(text: str, file: str) -> list[Diagnostic]:
    """A line too long, too many tokens, numbers too large: found before parsing, which
    would take long over such a file (and Python refuses to read a number of over 4300 digits)."""
    start = 0
    for length in map(len, text.split("\n")):
        if length > MAX_LINE_LENGTH:
            line, col = _where(text, start + MAX_LINE_LENGTH)
            return [Diagnostic(file, f"line too long ({length:,} characters; the limit is {MAX_LINE_LENGTH:,})",
                               line, col, line, col + 1)]
        start += length + 1
    out: list[Diagnostic] = []
    tokens = 0
    for m in _TOKEN.finditer(text):
        first = m.group()[0]
        if first.isspace() or first == "#":
            continue
        tokens += 1
        if tokens > MAX_TOKENS:
            line, col = _where(text, m.start())
            return [Diagnostic(file, f"file too long (more than {MAX_TOKENS:,} names, numbers and symbols)",
                               line, col, line, col + 1)]
        if "0" <= first <= "9":
            digits = re.match(r"[0-9]+", m.group()).group()  # as the lexer reads '12ab': 12, then ab
            if len(digits) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
                line, col = _where(text, m.start())
                shown = digits if len(digits) <= 30 else f"{digits[:12]}...{digits[-6:]} ({len(digits):,} digits)"
                out.append(Diagnostic(file, f"the number {shown} is too large (at most {MAX_NUMBER:,})",
                                      line, col, line, col + len(digits)))
                if len(out) >= MAX_SYNTAX_ERRORS:
                    break
    return out


def parse_tree(text: str) -> Tree:
    """Lark's tree of ``text``, a file that parses (``parse`` says so), with each keyword read as a
    name where only a name can stand (``_keyword_as_name``), as ``parse`` reads it."""
    return grammar().parse(text, on_error=_keyword_as_name)


def _keyword_as_name(e: UnexpectedInput) -> bool:
    """A keyword that is not reserved, lexed as the keyword where the parser then takes only a name
    (an option called 'move' or 'score' after the block of the option before it: LALR merges the
    state after a block's '}' with those where a statement or a declaration may follow, and the
    contextual lexer takes the keyword from there): feed it as the name it is and go on."""
    if not isinstance(e, UnexpectedToken) or e.interactive_parser is None:
        return False
    tok = e.token
    if tok.type in ("NAME", "$END") or not str(tok.value).isidentifier() or tok.value in reserved_words() \
            or tok.type not in _KEYWORD_TERMINALS:
        return False
    ip = e.interactive_parser
    if "NAME" not in ip.choices():
        return False
    trial = _trial(ip)
    try:
        trial.feed_token(Token.new_borrow_pos("NAME", str(tok.value), tok))
    except UnexpectedInput:
        return False
    ip.feed_token(Token.new_borrow_pos("NAME", str(tok.value), tok))
    return True


def _dice_written_short(e: UnexpectedToken) -> bool:
    """'roll 2d6 into v' (said by ``_hint``): feed 'dice of 6' for the 'd6', so that the rest of the
    file is read as written."""
    tok, ip = e.token, e.interactive_parser
    if tok.type != "NAME" or ip is None or not re.fullmatch(r"[dD]\d+", str(tok.value)) or "DICE" not in ip.choices():
        return False
    for t, v in (("DICE", "dice"), ("OF", "of"), ("INT", str(tok.value)[1:])):
        ip.feed_token(Token.new_borrow_pos(t, v, tok))
    return True


def _list_for_a_value(e: UnexpectedToken) -> bool:
    """A list in brackets where one value goes (``var v per player = [0, 0, 0]``): the language has
    no lists of values, so the '[' is dropped, its first item read as the value and the rest of
    it, up to its ']' on the same line, dropped too (else each item would be an error of its own,
    and the ']' would lead the parser astray into the next line)."""
    return e.token.type == "LSQB" and e.interactive_parser is not None \
        and {"INT", "NAME"} <= set(e.interactive_parser.choices())


def _end_if(e: UnexpectedToken) -> bool:
    """'end if TEST' where 'end when TEST' goes: read as 'end when' (the error is said), so that the
    test after it is read as written."""
    if e.interactive_parser is None or e.token.type != "IF" or "WHEN" not in e.interactive_parser.choices():
        return False
    e.interactive_parser.feed_token(Token.new_borrow_pos("WHEN", "when", e.token))
    return True


def _misspelled_word(e: UnexpectedToken) -> bool:
    """A name where only words of the language may stand ('publik' where 'public', 'private' or
    'hidden' goes): feed the closest of them instead, once the error is said (dropped, the
    parser would take what follows for the rest of the declaration, and say nothing of the next
    mistake)."""
    import difflib
    if e.token.type != "NAME" or e.interactive_parser is None:
        return False
    ip = e.interactive_parser
    choices = {t for t in ip.choices() if t.isupper() and t != "$END"}
    if choices & {"NAME", "INT", "STRING", "LPAR"} or choices & (DECLARATION_STARTS | STATEMENT_STARTS):
        return False  # (a name or an expression may stand there too; or anything: a word left out?)
    words = {w: t for t in sorted(choices) for w in _words_of(t)}
    if not words or len(words) > MISSPELT_CHOICES:
        return False
    said = str(e.token.value).lower()
    ranked = sorted(words, key=lambda w: -difflib.SequenceMatcher(None, said, w).ratio())
    if len(words) == 1 and difflib.SequenceMatcher(None, said, ranked[0]).ratio() < 0.6:
        trial = _trial(ip)  # a word left out, not misspelt ('move all table to'): the word, then the name as written
        try:
            for tok in (Token.new_borrow_pos(words[ranked[0]], ranked[0], e.token), e.token):
                trial.feed_token(tok)
        except UnexpectedInput:
            pass
        else:
            ip.feed_token(Token.new_borrow_pos(words[ranked[0]], ranked[0], e.token))
            ip.feed_token(e.token)
            return True
    after = next((m.group() for m in _TOKEN.finditer(_lexing[0], e.token.end_pos or 0)
                  if not m.group()[0].isspace() and m.group()[0] != "#"), None)
    for word in ranked:  # the closest after which the next word can stand
        trial = _trial(ip)
        trial.feed_token(Token.new_borrow_pos(words[word], word, e.token))
        if after is None or not after.isidentifier() or {after.upper(), "NAME"} & set(trial.choices()):
            break
    else:
        word = ranked[0]
    ip.feed_token(Token.new_borrow_pos(words[word], word, e.token))
    return True


@lru_cache(maxsize=None)
def _words_of(terminal: str) -> tuple[str, ...]:
    """The words a terminal of the grammar stands for ('public', 'private', 'hidden' for VISIBILITY)."""
    try:
        pattern = grammar().get_terminal(terminal).pattern
    except KeyError:
        return ()
    if pattern.type == "str":
        return (pattern.value,) if pattern.value.isidentifier() else ()
    words = re.findall(r"[a-z_]+", pattern.value)
    return tuple(words) if "|".join(words) in pattern.value.replace("(?:", "").replace(")", "") else ()


def _insert_missing(e: UnexpectedToken) -> str:
    """If inserting one terminal lets the parser take the unexpected token, feed both
    (lark's recipe for ``on_error``) and return the terminal inserted (else ""). A declaration inside a block means its
    '}' (or several) were forgotten: as many are inserted as it takes to get out of the blocks."""
    ip = e.interactive_parser
    choices = {t for t in ip.choices() if t.isupper() and t != "$END"}
    if e.token.type == "INT" and "NAME" in choices \
            and _lexing[0][(e.token.start_pos or 1) - 1:e.token.start_pos] == ".":
        ip.feed_token(Token.new_borrow_pos("NAME", "x", e.token))  # ('2.0': the decimals read as a name, said once)
        return "NAME"
    if e.token.type == "STRING" and {"NAME", "INT"} <= choices:  # a value in quotes: read as a name, so that the
        trial = _trial(ip)                                         # rest of the line is read as written
        instead = Token.new_borrow_pos("NAME", "x", e.token)
        try:
            trial.feed_token(instead)
        except UnexpectedInput:
            pass
        else:
            ip.feed_token(instead)
            return "NAME"
    candidates: list[list[str]] = [[t] for t in INSERT_FIRST if t in choices]
    if len(choices) == 1 and not candidates:  # one word left out, and the name after it ('cards x {': 'in ZONE')
        candidates += [[*choices], [*choices, "NAME"]]
    if e.token.type in DECLARATION_STARTS and "RBRACE" in choices:
        candidates.insert(0, ["RBRACE"] * _open_blocks(ip))
    elif e.token.type == "WHEN" and "GAME" in choices:  # 'end when' ran into an open block: the 'end' was
        after_end = _trial(ip)  # read as 'end game'; close it and the blocks, then read 'end' again
        try:
            after_end.feed_token(Token.new_borrow_pos("GAME", "", e.token))
            candidates.insert(0, ["GAME", *["RBRACE"] * _open_blocks(after_end), "END"])
        except UnexpectedInput:
            pass
    if e.token.type == "GAME" and choices == {"WHEN"}:  # 'end game' where declarations go (a block closed early):
        read_as = ["WHEN", "TRUE"]  # read as 'end when true', the 'game' dropped, so the declarations after it parse
        trial = _trial(ip)
        try:
            for t in read_as:
                trial.feed_token(Token.new_borrow_pos(t, "", e.token))
        except UnexpectedInput:
            return ""
        for t in read_as:
            ip.feed_token(Token.new_borrow_pos(t, "", e.token))
        return "WHEN"
    for missing in candidates:
        trial = _trial(ip)
        try:
            for t in missing:
                trial.feed_token(Token.new_borrow_pos(t, "", e.token))
            trial.feed_token(e.token)
        except UnexpectedInput:
            continue
        for t in missing:
            ip.feed_token(Token.new_borrow_pos(t, "", e.token))
        ip.feed_token(e.token)
        return missing[0]
    if e.token.type in DECLARATION_STARTS:  # a declaration that stops short (`pieces p on t` and no names):
        missing = _completion(ip, e.token)  # end it, so the declarations after it are read as written
        if missing:
            for t in missing:
                ip.feed_token(Token.new_borrow_pos(t, "", e.token))
            ip.feed_token(e.token)
            return missing[0]
    return ""


def _completion(ip: Any, token: Token, most: int = 3) -> list[str]:
    """The shortest run of at most ``most`` filler terminals (INSERT_FIRST) after which the parser
    takes ``token`` (else []). Each run is tried only as far as the parser takes it."""
    level: list[tuple[list[str], Any]] = [([], ip)]
    for _ in range(most):
        longer = []
        for missing, parser in level:
            choices = parser.choices()
            for t in INSERT_FIRST:
                if t not in choices:
                    continue
                trial = _trial(parser)
                try:
                    trial.feed_token(Token.new_borrow_pos(t, "", token))
                except UnexpectedInput:
                    continue
                if token.type in trial.choices():
                    then = trial.copy(deepcopy_values=False)
                    try:
                        then.feed_token(token)
                        return [*missing, t]
                    except UnexpectedInput:
                        pass
                longer.append(([*missing, t], trial))
        level = longer
    return []


def _if_without_else(e: UnexpectedInput) -> Token | None:
    """The 'if' of an 'if TEST then A' that the parser found without its 'else' (only 'else' could
    come next), or None."""
    if not isinstance(e, UnexpectedToken) or set(e.accepts or e.expected) != {"ELSE"} or e.interactive_parser is None:
        return None
    stack = e.interactive_parser.parser_state.value_stack
    return next((t for t in reversed(stack) if isinstance(t, Token) and t.type == "IF"), None)


def _insert_else(e: UnexpectedToken) -> None:
    """Feed 'else 0' before the token the parser stopped at, and that token, when it then fits
    (the rest of the file is read as written); else leave the parser as it is."""
    ip = e.interactive_parser
    missing = [Token.new_borrow_pos("ELSE", "else", e.token), Token.new_borrow_pos("INT", "0", e.token)]
    trial = _trial(ip)
    try:
        for t in [*missing, e.token]:
            trial.feed_token(t)
    except UnexpectedInput:
        return
    for t in [*missing, e.token]:
        ip.feed_token(t)


def _cascade(e: UnexpectedInput, after_error: bool, opened_by_recovery: list[int]) -> bool:
    """Is this error only the echo of an earlier one? A statement where declarations go (an
    earlier mistake closed the block early), or a declaration, an 'end when' or the end of the file
    inside a block that a '{' inserted by the recovery keeps open."""
    if not after_error or not isinstance(e, UnexpectedToken):
        return False
    tok, accepts = e.token, e.accepts or e.expected
    if tok.type in STATEMENT_STARTS and tok.type not in accepts and accepts & DECLARATION_STARTS:
        return True
    if tok.type == "GAME" and set(accepts) == {"WHEN"}:  # 'end game' where declarations go: a block closed early
        return True
    if opened_by_recovery[0] and ((tok.type in DECLARATION_STARTS | {"$END"} and "RBRACE" in accepts)
                                  or (tok.type == "WHEN" and "GAME" in accepts)):
        opened_by_recovery[0] -= 1
        return True
    return False


def _trial(ip: Any) -> Any:
    """A copy of the interactive parser ``ip`` that builds nothing (its callbacks off), to try
    tokens on before feeding them to ``ip``."""
    trial = ip.copy(deepcopy_values=False)
    quiet = copy(trial.parser_state.parse_conf)
    quiet.callbacks = {}
    trial.parser_state.parse_conf = quiet
    return trial


def _open_blocks(ip: Any) -> int:
    """How many '}' the parser can take in a row here (the blocks open at this point)."""
    trial = _trial(ip)
    n = 0
    while n < MAX_NESTING and "RBRACE" in trial.choices():
        try:
            trial.feed_token(Token("RBRACE", ""))
        except UnexpectedInput:
            break
        n += 1
    return max(n, 1)


def _depth_error(tree: Tree, file: str) -> Diagnostic | None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            m = node.meta
            line, col = getattr(m, "line", 1), getattr(m, "column", 1)
            return Diagnostic(file, f"nesting deeper than {MAX_DEPTH} levels", line, col, line, col + 1)
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))
    return None


def _syntax_diagnostic(e: UnexpectedInput, file: str, text: str) -> Diagnostic:
    line, col = max(getattr(e, "line", 1) or 1, 1), max(getattr(e, "column", 1) or 1, 1)
    if isinstance(e, UnexpectedCharacters):
        msg = f"unexpected character {e.char!r}"
        if e.char == '"':
            msg += ": a string is closed by '\"' on the same line"
        elif e.char in "'`":
            msg += ': strings are written in double quotes ("...")'
        else:
            msg += CHARACTER_HINTS.get(e.char, "")
        return Diagnostic(file, msg, line, col, line, col + 1)
    notes: tuple[str, ...] = ()
    if isinstance(e, UnexpectedEOF):
        expected = _expected(e.expected, first_on_line=True)
        note = _unclosed(text, len(text))
        return Diagnostic(file, f"unexpected end of file; expected {_listed(expected)}", line, col,
                          notes=(note,) if note else ())
    assert isinstance(e, UnexpectedToken)
    tok = e.token
    accepts = e.accepts or e.expected
    opened = _if_without_else(e)
    if opened is not None:  # (the parser stops after the value: at the next word, often lines below)
        return Diagnostic(file, "an 'if' inside an expression gives a value either way, so it needs an 'else': "
                                "write 'if TEST then A else B' (to do something only when a test holds, "
                                "use the statement 'if TEST { ... }')", opened.line, opened.column, opened.line,
                          opened.column + 2)
    before = (getattr(e, "token_history", None) or [None])[-1]
    misplaced = _statement_out_of_place(before, file, text) if isinstance(before, Token) else None
    word_before = before if isinstance(before, Token) else _token_before(text, tok.start_pos)
    misplaced = misplaced or (_line_left_open(word_before, file, text) if word_before is not None else None)
    if misplaced is not None:  # (the error is after it, on a word that is not the mistake)
        return misplaced
    short = _line_cut_short(tok, set(accepts), file, text)
    if short is not None:
        return short
    if tok.type == "$END":  # lark places it on the last token: point just past that token
        line, col = tok.end_line or tok.line or 1, tok.end_column or tok.column or 1
        if tok.end_pos == 0:  # no token at all
            line, col = 1, 1
        found = "end of file"
        width = 1
        note = _unclosed(text, len(text))
        notes = (note,) if note else ()
    else:
        found = f"'{tok.value}'" if tok.type not in ("NAME", "INT", "STRING") else \
            f"{describe_terminal(tok.type).removeprefix('a ')} '{tok.value}'"
        width = max(1, len(str(tok.value)))
        if (tok.type in DECLARATION_STARTS and "RBRACE" in accepts) or (tok.type == "WHEN" and "GAME" in accepts):
            note = _unclosed(text, tok.start_pos or 0)  # ('end when' inside a block: 'end game' was expected)
            notes = (note,) if note else ()
    first = tok.type == "$END" or _first_on_line(text, tok.start_pos or 0)
    lead, hint = _hint(tok, accepts, text)
    expected = _expected(accepts, first)
    if lead:
        expected = [lead, *[e for e in expected if e != lead]][:9]
    msg = f"unexpected {found}; expected {_listed(expected)}"
    if hint.startswith(" (a decision among options"):  # the mistake is the ':' of the line before
        at = text.rfind(":", 0, tok.start_pos or 0)
        line, col = _where(text, at)
        return Diagnostic(file, "a ':' after the decision's name makes it a choice of cards" + hint, line, col,
                          line, col + 1)
    placed = re.match(r" \('per \.\.\.' comes before (the visibility|the '='): (.*)$", hint)
    if placed:  # (what the parser expected is beside the point)
        return Diagnostic(file, f"'per' is written before {placed.group(1)} (write {placed.group(2)}", line, col,
                          line, col + width)
    if hint == " (write '!=' for 'is not equal to')":  # (at the '<' of '<>')
        return Diagnostic(file, "there is no '<>'" + hint, line, col - 1, line, col + 1)
    if hint.startswith(" (nothing follows the last item"):  # (at the ',')
        line, col = _where(text, text.rfind(",", 0, tok.start_pos or 0))
        return Diagnostic(file, f"a ',' before '{tok.value}'{hint}", line, col, line, col + 1)
    if hint.startswith(" (a var per player or per cell is read"):  # (at the '[', perhaps before the word found)
        at = text.rfind("[", 0, tok.start_pos or 0) if tok.type != "LSQB" else tok.start_pos or 0
        line, col = _where(text, at)
        return Diagnostic(file, f"unexpected '['{hint}", line, col, line, col + 1)
    if hint.startswith(" ('random'") and _word_before(text, tok) == "random":  # the mistake is the word before
        at = text.rfind("random", 0, tok.start_pos or 0)
        line, col = _where(text, at)
        return Diagnostic(file, f"'random' cannot stand here{hint}", line, col, line, col + len("random"))
    return Diagnostic(file, msg + hint, line, col, line, col + width, notes=notes)


def _first_on_line(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    return not text[start:pos].strip()


# The order expected tokens are listed in: what closes or continues the construct at hand first.
_FIRST = ("RBRACE", "RPAR", "DOTDOT", "NAME", "INT")


def _expected(terminals: set[str] | frozenset[str], first_on_line: bool) -> list[str]:
    """What the parser would take, in the user's words. A token in the middle of a line is most
    likely a mistake in that line: then the words that would start a new declaration are left out."""
    names = set(terminals)
    new_item = DECLARATION_STARTS | {"END", "$END"}  # ('end' also starts 'end when')
    if names & DECLARATION_STARTS:  # ('[' starts a rule's name there, '[podium] end when ...')
        new_item |= {"LSQB"}
    if not first_on_line and names - new_item:
        names -= new_item
    def order(t: str) -> tuple:  # names and numbers, then keywords, then operators and brackets
        d = describe_terminal(t)
        return d[0] == "'", not d.strip("'")[:1].isalpha(), d
    ordered = [t for t in _FIRST if t in names] + sorted(names - set(_FIRST), key=order)
    described = list(dict.fromkeys(describe_terminal(t) for t in ordered))
    return described[:8] + ["..."] if len(described) > 8 else described


def _listed(expected: list[str]) -> str:
    return " or ".join(expected) if len(expected) <= 2 else ", ".join(expected)


CHARACTER_HINTS = {"&": " (write 'and')", "|": " (write 'or')", "!": " (write 'not'; '!=' compares)",
                   ";": " (a statement ends with its line: no ';')", "@": "", "$": "", "?": "",
                   "^": " (there is no power operator: multiply)", "~": " (write 'not')"}
def _word_after(text: str, tok: Token) -> str:
    m = re.match(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*)", text[tok.end_pos or 0:(tok.end_pos or 0) + 100])
    return m.group(1) if m else ""


def _word_before(text: str, tok: Token) -> str:
    pos = tok.start_pos or 0
    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", text[max(0, pos - 100):pos])
    return m.group(1) if m else ""


# 'choose NAME:' then an option's name on the next line: options written as a choice of cards
_CHOOSE_COLON_OPTION = re.compile(r"\bchoose[ \t]+\w+[ \t]*:[ \t]*(#[^\n]*)?\n[ \t]*\w+[ \t]*$")


def _hint(tok: Token, accepts: set[str] | frozenset[str], text: str) -> tuple[str, str]:
    """For the mistakes people make most: the expected token to name first, and a word on it."""
    word = str(tok.value)
    if tok.type == "ASSIGN" and "EQ" in accepts:
        return "'=='", " (to compare, write '=='; '=' gives a value)"
    if tok.type == "EQ" and "ASSIGN" in accepts:
        return "'='", " ('=' gives a value; '==' compares)"
    if word == "with" and "WITH" not in accepts:
        return "", (" ('end game with no winner' is a statement, inside a block; 'end when TEST' ends the game "
                    "when TEST holds, and 'score' decides who wins)")
    before = _word_before(text, tok)
    if "random" in (word, before) and "RANDOM" not in accepts:
        return "", (" ('random' stands only in 'set VAR = random DOMAIN', the domain a range LOW..HIGH, 'player', "
                    "a kind or the grid, and in 'set VAR = random { VALUE: WEIGHT, ... }')")
    if tok.type == "NAME" and "DICE" in accepts and re.fullmatch(r"[dD]\d+", word):  # 'roll 2d6'
        count = re.search(r"([0-9]+)\s*$", text[max(0, (tok.start_pos or 0) - 20):tok.start_pos or 0])
        n = count.group(1) if count else "2"
        return "'dice'", (f" (dice are written out: 'roll N dice of SIDES into VAR', so {n}{word} is "
                          f"'roll {n} dice of {word[1:]} into VAR')")
    if word == "," and re.search(r"\brandom\s*\(\s*[^(),]*$", text[:tok.start_pos or 0]):  # 'random(1, 6)'
        return "", (" ('random' is not called: a random number is 'set VAR = random LOW..HIGH', as "
                    "'set roll = random 1..6')")
    if set(accepts) == {"LPAR"} and before in ("score", "tiebreak", "returns"):  # 'score = total'
        return "'('", f" (a {before} is worked out for each player: '{before}(p) = ...')"
    if tok.type == "NAME" and word in ("winner", "winners") and accepts & DECLARATION_STARTS:
        return "", (" (who wins is worked out from 'score(p) = ...', the highest score, then 'tiebreak(p)'; "
                    "'end game with no winner' ends a game as a draw)")
    if set(accepts) == {"COLON"} and re.search(r"\binvariant\s+\w+\s*$", text[:tok.start_pos or 0]):
        return "", " (an invariant is named, then a colon: 'invariant NAME: TEST')"
    if word in ("to", "-") and "DOTDOT" in accepts:
        return "'..'", " (a range is written LOW..HIGH)"
    if word in ("elif", "elsif", "elseif"):
        return "", " (write 'else if')"
    if tok.type == "WHILE" and "FOR" in accepts:
        return "", (" (there is no 'while' statement: a loop runs over a domain, 'for x in DOMAIN while TEST { ... }'; "
                    "to repeat while a test holds, 'for i in 1..N where TEST { ... }')")
    line_before = text[text.rfind("\n", 0, tok.start_pos or 0) + 1:tok.start_pos or 0]
    placed = re.search(r"^\s*(zone|var)\s+(\w+)\s+(public|private|hidden)\s*$", line_before)
    if tok.type == "PER" and placed:
        kind, name, seen = placed.groups()
        return "", (f" ('per ...' comes before the visibility: '{kind} {name} per "
                    f"{_word_after(text, tok) or 'player'} {seen}{' = ...' if kind == 'var' else ''}')")
    if word == ">" and text[(tok.start_pos or 1) - 1:(tok.start_pos or 0)] == "<":
        return "", " (write '!=' for 'is not equal to')"
    if tok.type == "NAME" and word == "is":
        return "", " (write '==' to compare, '!=' for 'is not')"
    if tok.type == "STRING" and "NAME" in accepts and "INT" in accepts:
        return "", (" (a value is never in quotes: a number, true, false, none, or a name as it stands, such as a "
                    "card's variety)")
    if tok.type == "NAME" and before == "phase" and re.search(r"\brun\s+phase\s*$", line_before):
        return "", f" (a phase is run by its name alone: 'run {word}')"
    if tok.type == "LPAR" and re.search(r"^\s*run\s+\w+\s*$", line_before):
        return "", f" (a phase takes nothing: 'run {before}')"
    if tok.type == "NAME" and "RUN" in accepts and _first_on_line(text, tok.start_pos or 0) \
            and re.search(rf"^[ \t]*phase[ \t]+{re.escape(word)}\b", text, re.M):
        return "'run'", f" (a phase is run by 'run {word}')"
    if tok.type == "NAME" and word in ("function", "def", "func", "fn", "procedure", "sub") \
            and set(accepts) & DECLARATION_STARTS:
        return "", (" (a value worked out from others is 'define NAME(p) = EXPRESSION'; statements kept under a "
                    "name are 'phase NAME { ... }', run by 'run NAME')")
    if tok.type in ("INT", "LPAR", "NAME") and re.search(r"[=(,+*-]\s*roll\s*$", line_before):
        return "", " (a roll is a statement of its own: 'roll N dice of S into VAR' sets VAR to their sum)"
    if tok.type == "DOTDOT" and re.search(r"\brandom\s*\([^()]*$", line_before):
        return "", " (write 'random LOW..HIGH', with no brackets)"
    statement = re.match(r"\s*(let|set|roll|reveal|reset|move|deal|refill|run|end|choose|place)\s+\w+\s*$", line_before)
    recent = text[max(0, (tok.start_pos or 0) - 5000):tok.start_pos or 0]
    if "IN" in accepts and statement and re.search(r"\bchoose\s+\w+[^:\n]*\{", recent):
        return "", (f" (this '{statement.group(1)}' stands among a choice's options, and was read as an option's "
                    f"name: a choice holds only options, 'NAME {{ ... }}' or 'NAME x in DOMAIN where TEST {{ ... }}'; "
                    f"a statement goes inside an option's block, or after the choice's '}}')")
    if tok.type == "THEN" and "LBRACE" in accepts:
        if re.match(r"\s*for\b", line_before):
            return "'{'", " (a loop is written 'for x in DOMAIN where TEST { ... }', with no 'then')"
        return "'{'", (" (an 'if' statement is written 'if TEST { ... }'; 'then' belongs to the value "
                       "'if TEST then A else B')")
    if tok.type == "LPAR" and before == "for" and "NAME" in accepts:
        return "", " (a loop is written 'for x in DOMAIN { ... }', with no brackets)"
    if tok.type in ("RBRACE", "RPAR") and text[:tok.start_pos or 0].rstrip().endswith(","):
        return "", " (nothing follows the last item of a list: no ',' after it)"
    if tok.type == "IF" and "WHEN" in accepts:
        return "'when'", (" (the game ends as soon as a test holds with 'end when TEST'; inside a block, "
                          "'if TEST { end game }')")
    if tok.type == "INT" and re.search(r"[0-9]\.$", line_before):
        return "", " (numbers are whole: there are no decimals)"
    mantissa = re.search(r"[0-9]+$", line_before)
    if tok.type == "NAME" and re.fullmatch(r"[eE][0-9]+", word) and mantissa:
        if len(mantissa.group()) <= 6 and len(word) <= 3:  # (e99 at most: the number shown stays short)
            full = int(mantissa.group()) * 10 ** int(word[1:])
            if full > MAX_NUMBER:
                return "", f" (numbers are whole and at most {MAX_NUMBER:,}: {mantissa.group()}{word} is larger)"
            return "", f" (write the number in full: {full} for {mantissa.group()}{word})"
        return "", " (write the number in full, with its digits)"
    if tok.type == "LSQB" and re.search(r"^\s*var\s+\w+\s+per\s+player\b[^=]*=\s*$", line_before):
        return "", (" (a var per player starts at one value for every player: to start them apart, set them in "
                    "the setup, 'set v(p) = ...')")
    declared = re.search(r"^\s*var\s+(\w+)\s*$", line_before)
    if declared and tok.type in ("LSQB", "LPAR"):
        return "", f" (a var with a value for each player is declared 'var {declared.group(1)} per player = ...')"
    declared = re.search(r"^\s*var\s+(\w+)\s*=.*\S\s*$", line_before)
    if declared and word == "per":
        return "", (f" ('per ...' comes before the '=': 'var {declared.group(1)} per "
                    f"{_word_after(text, tok) or 'player'} = ...')")
    if tok.type == "LET" and set(accepts) & DECLARATION_STARTS:
        return "", (" ('let' names a value inside a block; a value the game keeps is declared 'var NAME = VALUE', "
                    "one worked out from others 'define NAME = EXPRESSION')")
    if tok.type == "NAME" and word in ("const", "constant", "val", "int", "number") \
            and set(accepts) & DECLARATION_STARTS:
        return "", (" (a number the rules fix is a 'param NAME = VALUE in LOW..HIGH' or a 'define NAME = VALUE'; "
                    "one that changes, a 'var NAME = VALUE')")
    start = tok.start_pos or 0  # (a window before the word: the search stays short whatever the file)
    indexed = re.search(r"([A-Za-z_]\w*)\[[^\]\n]*\]\s*$", text[max(0, start - 200):start])
    if tok.type == "LSQB" and before and not text[:tok.start_pos or 0].endswith((" ", "\t")) \
            and "LSQB" not in accepts:
        indexed = re.match(r"()", "")
    if indexed and not _first_on_line(text, text.rfind("[", 0, tok.start_pos or 0)):
        name = indexed.group(1) or before
        return "", (f" (a var per player or per cell is read and set with round brackets: '{name}(p)', "
                    f"not '{name}[p]')")
    if tok.type in ("INT", "LPAR") and "COLON" in accepts and re.search(r"\bchoose\s+\w+\s*$", line_before):
        return "':'", " (a choice of cards is written 'choose NAME: N card from ZONE to ZONE')"
    if tok.type == "IN" and re.search(r"^\s*param\s+\w+\s*$", line_before):
        return "'='", " (a param is written 'param NAME = DEFAULT in LOW..HIGH')"
    if tok.type == "LPAR" and re.search(r"^\s*(\[\w+\]\s*)?reset\s+\w+\s*$", line_before):
        return "", (" ('reset' puts every value of a var back to its start: 'reset VAR'; to put back one "
                    "player's, 'set VAR(p) = ...')")
    if tok.type == "WHERE" and re.search(r"^\s*(\[\w+\]\s*)?move\s+all\s+from\b", line_before):
        return "", (" ('move all' moves every card of the zone; to move the cards that pass a test, "
                    "'move N from ZONE to ZONE where TEST')")
    if tok.type == "FOR" and "RPAR" in accepts and "WHERE" in accepts:
        return "", (" (an aggregate runs over one domain: for two, put one aggregate inside another, "
                    "'any(any(TEST for y in B) for x in A)')")
    if tok.type in ("PLUS", "MINUS", "STAR", "SLASH", "PERCENT") and "ASSIGN" in accepts and \
            text[(tok.end_pos or 0):(tok.end_pos or 0) + 1] == "=":
        target = re.search(r"\bset\s+([^\n]*?)\s*$", text[:tok.start_pos or 0])
        target_text = target.group(1) if target and len(target.group(1)) <= 40 else "x"
        return "'='", f" (there is no '{word}=': write 'set {target_text} = {target_text} {word} ...')"
    if tok.type == "COLON" and {"LBRACE", "WHERE"} <= set(accepts):
        return "", " (an option is written 'NAME { ... }' or 'NAME x in DOMAIN where TEST { ... }', with no ':')"
    if word == "}" and re.search(r"\bcards[ \t]+\w+[ \t]+in[ \t]+\w+[ \t]*\{\s*$", text[:tok.start_pos or 0]):
        return "", " (a cards block lists its varieties, one or more: '4 ace { rank = 1 }')"
    if set(accepts) == {"IN"} and re.search(r"\n[ \t]*(\[[\w.]*\][ \t]*)?[A-Za-z_]\w*[ \t]*(#[^\n]*)?\n[ \t]*"
                                         r"[A-Za-z_]\w*[ \t]*$", text[:tok.start_pos or 0]):
        return "", (" (an option that leaves out its block must be the last of its decision: give the one above "
                    "a block, '{ }')")
    if tok.type in ("MINUS", "PLUS", "STAR", "SLASH", "PERCENT") and set(accepts) <= {"NAME", "LBRACE"}:
        return "", " (a count made of an expression is written in brackets, e.g. (n - 2))"
    if word == "/" and (before == "" or text[(tok.start_pos or 0) + 1:][:1] in ("/", "*")):
        return "", " (a comment starts with '#')"
    if word == "*" and text[:tok.start_pos or 0].endswith("/"):  # '/* ... */' after an expression: read as '/'
        return "", " (a comment starts with '#' and runs to the end of its line: there is no '/* ... */')"
    if tok.type == "NAME" and word in ("return", "break", "continue"):
        return "", (f" (there is no '{word}': a block runs to its end; a loop stops early with 'for x in DOMAIN "
                    f"while TEST {{ ... }}', and 'end game' ends the game)")
    if tok.type == "NAME" and word == "print":
        return "", (" (there is no 'print': 'show \"TEXT\" = VALUE' shows a value in 'meeple play', and 'report "
                    "\"TEXT\" = VALUE' sums it up in 'meeple simulate')")
    if tok.type == "TURN" and before == "end" and "GAME" in accepts:
        return "", " (a turn ends where its block does: nothing says so; 'end game' ends the game)"
    if word == "{" and _CHOOSE_COLON_OPTION.search(text[:tok.start_pos or 0]):
        return "", (" (a decision among options is written 'choose NAME { OPTION { ... } ... }', with no ':'; "
                    "'choose NAME: N card from ZONE to ZONE' chooses cards)")
    if tok.type != "NAME" and word.isidentifier() and _first_on_line(text, tok.start_pos or 0) \
            and set(accepts) & DECLARATION_STARTS:
        import difflib  # a keyword where a declaration starts ('card x in deck' for 'cards')
        words = {describe_terminal(t).strip("'") for t in accepts if t in DECLARATION_STARTS}
        after = re.match(r"[ \t]+([A-Za-z_]\w*)", text[tok.end_pos or 0:])
        for joined in ((f"{word}{after.group(1)}", f"{word}_{after.group(1)}") if after else ()):
            if joined in words:  # 'set up' for 'setup'
                return f"'{joined}'", f" (did you mean '{joined}'?)"
        close = difflib.get_close_matches(word, [w for w in words if w.isidentifier()], n=1, cutoff=0.8)
        if close:
            return f"'{close[0]}'", f" (did you mean '{close[0]}'?)"
    if tok.type == "NAME":
        import difflib
        words = {describe_terminal(t).strip("'"): t for t in accepts if describe_terminal(t).startswith("'")}
        after = re.match(r"[ \t]+([A-Za-z_]\w*)", text[tok.end_pos or 0:])
        if after and f"{word}_{after.group(1)}".lower() in words:  # 'max steps' for 'max_steps'
            joined = f"{word}_{after.group(1)}".lower()
            return f"'{joined}'", f" (did you mean '{joined}'?)"
        assigned = re.match(r"[ \t]*(\([^()\n]*\))?[ \t]*=(?!=)", text[tok.end_pos or 0:])
        if "SET" in accepts and assigned:  # (before a keyword it looks like: 'space(p) = 0' is no 'place')
            return "'set'", f" (a var is given a value by 'set {word}{assigned.group(1) or ''} = ...')"
        close = difflib.get_close_matches(word.lower(), [w for w in words if w.isidentifier()], n=1, cutoff=0.7)
        if close:
            return f"'{close[0]}'", f" (did you mean '{close[0]}'?)"
        if "CHOOSE" in accepts and "FOR" in accepts and \
                re.match(r"[ \t]+[A-Za-z_]\w*[ \t]+in\b", text[tok.end_pos or 0:]):
            return "", (f" (an option, '{word} x in DOMAIN where TEST {{ ... }}', stands inside a decision: "
                        f"'choose LABEL {{ ... }}'; a loop is 'for x in DOMAIN {{ ... }}')")
        if "CHOOSE" in accepts and re.match(r"\s*(by\b|:|\{)", text[tok.end_pos or 0:]):
            return "'choose'", f" (a decision is written 'choose {word} ...')"
    return "", ""


def _unclosed(text: str, pos: int, by_indentation: bool = False) -> str:
    """A note naming the '{' that is not closed before ``pos``. Indentation tells which: a '}'
    that starts a line less indented than the line of the innermost open '{' closes an outer
    block, so the inner one was never closed; else the innermost block followed by a line
    indented no deeper than its own line (up to the one at ``pos``); else the outermost open one
    (none, ``by_indentation``)."""
    def indent(at: int) -> int:
        start = text.rfind("\n", 0, at) + 1
        return len(text[start:at]) - len(text[start:at].lstrip())

    opened: list[tuple[int, int]] = []  # (offset, indent of its line)
    suspect = None
    for m in _TOKEN.finditer(text, 0, pos):
        if m.group() == "{":
            opened.append((m.start(), indent(m.start())))
        elif m.group() == "}" and opened:
            if _first_on_line(text, m.start()):
                here = indent(m.start())
                while len(opened) > 1 and opened[-1][1] > here and opened[-2][1] >= here:
                    suspect = suspect or opened[-1][0]
                    opened.pop()
            opened.pop()
    if suspect is None and not opened:
        return ""
    chosen = suspect if suspect is not None else opened[0][0]
    if suspect is None:
        for at, own in reversed(opened):  # the innermost block whose body ends (by indentation) before pos
            line_end = text.find("\n", at)
            rest = text[line_end + 1:pos + by_indentation].split("\n") if line_end != -1 else []
            if any(line.strip() and not line.strip().startswith(("#", "}")) and
                   len(line) - len(line.lstrip()) <= own for line in rest):
                chosen = at
                break
        else:
            if by_indentation:  # (``by_indentation``: only a block the lines show unclosed)
                return ""
    line, col = _where(text, chosen)
    return f"the '{{' at line {line}, column {col} is not closed (a '}}' is missing)"


def _statement_out_of_place(tok: Token, file: str, text: str) -> Optional[Diagnostic]:
    """A statement's keyword read as a name at the start of a line, where no statement can stand
    (after the options of a 'choose', say): the block before it was not closed, if its lines say
    so by their indentation, and that is said instead of what follows from reading it as a name."""
    if tok.type != "NAME" or tok.value.upper() not in STATEMENT_STARTS | {"END"} or tok.start_pos is None \
            or not _first_on_line(text, tok.start_pos):
        return None
    brackets = [m.group() for m in _TOKEN.finditer(text) if m.group() in "{}"]
    if brackets.count("{") <= brackets.count("}"):  # (no '}' is missing in the file)
        return None
    note = _unclosed(text, tok.start_pos, by_indentation=True)
    if not note:
        return None
    return Diagnostic(file, f"'{tok.value}' starts a statement, and no statement can stand here: is a '}}' "
                            f"missing before it?", tok.line, tok.column, tok.end_line, tok.end_column, notes=(note,))


def _last_token(text: str, stop: int, start: int = 0) -> Optional[re.Match]:
    """The last word or symbol of ``text[start:stop]`` (blanks and comments passed over)."""
    last = None
    for m in _TOKEN.finditer(text, start, stop):
        if not m.group()[0].isspace() and m.group()[0] != "#":
            last = m
    return last


def _token_before(text: str, pos: Optional[int]) -> Optional[Token]:
    """The word just before ``pos`` in ``text``, as the token of a name (lark does not always keep
    the tokens it read)."""
    if not pos:
        return None
    last = _last_token(text, pos, max(0, text.rfind("\n", 0, max(0, text.rfind("\n", 0, pos)))))
    if last is None or not last.group().isidentifier():
        return None
    line, col = _where(text, last.start())
    return Token("NAME", last.group(), start_pos=last.start(), line=line, column=col, end_line=line,
                 end_column=col + len(last.group()), end_pos=last.end())


def _line_left_open(tok: Token, file: str, text: str) -> Optional[Diagnostic]:
    """A declaration's or a statement's keyword at the start of a line, read as a name that goes on
    with the line before (``var a = 1 +`` then ``var b = 2``; ``deal 1 from deck to hand(p)
    reshuffling`` then ``end game``): that line is the mistake, said where it ends."""
    if tok.type != "NAME" or tok.value.upper() not in DECLARATION_STARTS | STATEMENT_STARTS | {"END"} \
            or tok.start_pos is None or not _first_on_line(text, tok.start_pos):
        return None
    last = _last_token(text, tok.start_pos)
    if last is None or last.group() not in OPEN_ENDED | WANTING_A_NAME:
        return None
    line, col = _where(text, last.start())
    said = f"the '{tok.value}' that starts the next line was read as a name going on with it"
    if last.group() in WANTING_A_NAME:
        return Diagnostic(file, f"this line ends with '{last.group()}', which a name must follow: {said}",
                          line, col, line, col + len(last.group()))
    return Diagnostic(file, f"this line ends in the middle of an expression ('{last.group()}'): {said}",
                      line, col, line, col + len(last.group()))


CUT_SHORT_MOST = 4  # words the parser may want to go on with, at most, for a line said to stop short
CUT_SHORT_HINTS = {  # what goes on with a line that stopped short, by the words expected
    frozenset({"WHERE"}): " ('move N from ZONE to ZONE' moves the cards that pass a test, 'where TEST'; to move "
                          "N cards whatever they are, 'deal N from ZONE to ZONE')",
}


@lru_cache(maxsize=1)
def _words_of_the_language() -> frozenset[str]:
    """Every keyword of the grammar ('var', 'set', 'where', ...)."""
    return frozenset(t.pattern.value for t in grammar().terminals
                     if t.pattern.type == "str" and t.pattern.value.isidentifier())


def _line_cut_short(tok: Token, accepts: set[str], file: str, text: str) -> Optional[Diagnostic]:
    """A line the parser wanted to go on with a word or two ('where', 'per' or '{'...), none of
    which may start a line of their own, where the next line starts instead: the line before is
    the mistake (it stops short), said at its last word, rather than the next line's first word.
    (A '{' alone that a block's header wants is said at the next line, as it always was.)"""
    if tok.type == "$END" or tok.start_pos is None or not _first_on_line(text, tok.start_pos) \
            or not accepts or len(accepts) > CUT_SHORT_MOST or accepts == {"LBRACE"} \
            or accepts & (STATEMENT_STARTS | DECLARATION_STARTS | {"RBRACE", "END", "$END", "LSQB"}):
        return None
    last = _last_token(text, tok.start_pos)
    if last is None:
        return None
    line, col = _where(text, last.start())
    expected = _listed(_expected(accepts, False))
    return Diagnostic(file, f"this line stops short: after '{last.group()}', expected {expected}"
                            f"{CUT_SHORT_HINTS.get(frozenset(accepts), '')}", line, col, line, col + len(last.group()))


def _reserved_diagnostic(tok: Token, file: str, text: str = "") -> Diagnostic:
    misplaced = _statement_out_of_place(tok, file, text) if text else None
    if misplaced is not None:
        return misplaced
    option = re.search(r"(?:^|\n)[ \t]*(?:\[[\w.]*\][ \t]*)?([A-Za-z_]\w*)[ \t]+$", text[:tok.start_pos or 0])
    if tok.value == "if" and option and option.group(1).upper() not in DECLARATION_STARTS | STATEMENT_STARTS \
            and option.group(1) not in _words_of_the_language():  # 'NAME if TEST {': an option's test
        return Diagnostic(file, f"an option's test is written with 'where': '{option.group(1)} where TEST {{ ... }}' "
                                f"(the option is open when TEST holds)", tok.line, tok.column, tok.end_line,
                          tok.end_column)
    return Diagnostic(file, f"'{tok.value}' is a reserved word of the language and cannot be a name; "
                            f"choose another (e.g. '{tok.value}_')", tok.line, tok.column, tok.end_line,
                      tok.end_column)


def _merged(*groups: list[Diagnostic]) -> list[Diagnostic]:
    """The errors of the passes in line order, one per place, at most MAX_SYNTAX_ERRORS."""
    out: dict[tuple[int, int], Diagnostic] = {}
    for d in sorted((d for g in groups for d in g), key=lambda d: (d.line, d.col)):
        out.setdefault((d.line, d.col), d)
    return list(out.values())[:MAX_SYNTAX_ERRORS]


CONTROL_NAMES = {"\x00": "NULL", "\x07": "BELL", "\x08": "BACKSPACE", "\x0b": "LINE TABULATION",
                 "\x1b": "ESCAPE", "\x7f": "DELETE", "\x85": "NEXT LINE"}
# Letters that look like ASCII ones (Cyrillic and Greek), for "did you mean".
LOOK_ALIKES = dict(zip("аеорсухіјѕԁһАВЕКМНОРСТХΑΒΕΖΗΙΚΜΝΟΡΤΥΧοικνρτυχ",
                       "aeopcyxijsdhABEKMHOPCTXABEZHIKMNOPTYXoikvptux"))
_FOREIGN = re.compile(r'"[^"\n]*"|#[^\n]*|[^\t\n\x0c\x20-\x7e]')


def _foreign_characters(text: str, file: str) -> tuple[list[Diagnostic], str]:
    """Characters the language does not allow outside strings and comments (letters of other
    alphabets, look-alikes, zero-width spaces, control characters): one error each, naming the
    character, and the text with each replaced by one ASCII character (a letter inside a name,
    else a space) so that the parse goes on as if it were not there."""
    import unicodedata
    out: list[Diagnostic] = []
    pieces: list[str] = []
    last = 0
    for m in _FOREIGN.finditer(text):
        ch = m.group()
        if len(ch) != 1 or ch in '"#':
            continue
        at = m.start()
        before, after = text[at - 1:at], text[at + 1:at + 2]
        in_name = bool(re.fullmatch(r"[A-Za-z0-9_]", before or " ") or re.fullmatch(r"[A-Za-z_]", after or " "))
        name = unicodedata.name(ch, "") or CONTROL_NAMES.get(ch, "")
        code = f"U+{ord(ch):04X}{' ' + name if name else ''}"
        if unicodedata.category(ch).startswith(("L", "M", "N")):
            plain = LOOK_ALIKES.get(ch) or unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            hint = f" (did you mean '{plain}'?)" if plain and len(plain) == 1 else ""
            msg = f"the character '{ch}' ({code}) cannot be part of a name: names are written in ASCII " \
                  f"letters, digits and '_'{hint}"
            if not hint and plain == "":
                msg = f"the character '{ch}' ({code}) cannot be part of a name: names are written in ASCII " \
                      f"letters, digits and '_' (other text belongs in a \"string\" or a # comment)"
        else:
            shown = repr(ch)[1:-1] if unicodedata.category(ch)[0] in "CZ" else ch
            msg = f"unexpected character '{shown}' ({code}): rules are ASCII outside strings and comments"
        if len(out) < MAX_SYNTAX_ERRORS:  # (past them, no position: counting lines costs the file so far)
            line, col = _where(text, at)
            out.append(Diagnostic(file, msg, line, col, line, col + 1))
        pieces.append(text[last:at])
        pieces.append((LOOK_ALIKES.get(ch) or "x") if in_name else " ")
        last = at + 1
    if not pieces:
        return [], text
    pieces.append(text[last:])
    return out, "".join(pieces)


def _span(meta_or_token: Any) -> A.Span:
    if isinstance(meta_or_token, Token):
        t = meta_or_token
        return A.Span(t.line, t.column, t.end_line, t.end_column)
    m = meta_or_token
    if getattr(m, "empty", True):
        return A.NOWHERE
    return A.Span(m.line, m.column, m.end_line, m.end_column)


def _ident(tok: Token) -> A.Ident:
    return A.Ident(str(tok), span=_span(tok))


def _kept(children: list) -> list:
    """Children without keyword and punctuation tokens."""
    return [c for c in children if not (isinstance(c, Token) and c.type not in ("NAME", "INT", "STRING",
                                                                               "VISIBILITY"))]


def _decision(c: list) -> tuple[A.Ident, Any, list, dict[str, tuple]]:
    """``KEYWORD label [by chooser] ...``: (label, chooser or None, the children after them,
    the tagged parts among those by tag)."""
    rest, chooser = c[2:], None
    if isinstance(rest[0], Token) and rest[0].type == "BY":
        chooser, rest = rest[1], rest[2:]
    return _ident(c[1]), chooser, rest, {p[0]: p for p in rest if isinstance(p, tuple)}


KEYWORDS = {  # list or field of a RulesFile → the keyword that declares it
    "params": "param", "enums": "enum", "tracks": "track", "pieces": "pieces", "grids": "grid",
    "boards": "board", "routes": "route", "zones": "zone", "cards": "cards", "vars": "var", "defines": "define",
    "phases": "phase", "reports": "report", "shows": "show", "invariants": "invariant", "end": "end when",
    "setup": "setup", "turn": "turn", "score": "score", "tiebreak": "tiebreak", "returns": "returns",
    "players": "players",
    "max_steps": "max_steps", "title": "game"}
SINGLETONS = ("setup", "turn", "score", "tiebreak", "returns", "players", "title", "max_steps")
DECL_SLOTS = {
    A.Param: "params", A.Enum: "enums", A.Track: "tracks", A.Pieces: "pieces", A.Grid: "grids",
    A.Board: "boards", A.Route: "routes", A.Zone: "zones",
    A.Cards: "cards", A.Var: "vars", A.Define: "defines", A.Phase: "phases", A.EndWhen: "end",
    A.Report: "reports", A.Invariant: "invariants", A.Show: "shows", A.Label: "labels",
}


def _set_block(fields: dict[str, Any], kind: str, item: Any) -> None:
    """A one-per-game part into the file's fields (a plain value comes as (value, node), and
    max_steps and turn keep their node's position beside them)."""
    if isinstance(item, tuple):
        item, node = item
        if kind in ("max_steps", "turn"):
            fields[f"{kind}_at"] = node.span
    fields[kind] = item


class ToAst:
    """Lark parse tree → AST: each rule's method takes the node's position and its children,
    already turned into AST (a rule with no method stays a ``Tree`` for its parent to read)."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Diagnostic] = []

    def transform(self, tree: Tree) -> Any:
        """What lark's ``Transformer`` does, without its cost per node (a file may hold tens of
        thousands of declarations). The recursion is bounded: the tree's depth was checked."""
        methods: dict[str, Any] = {}

        def walk(node: Tree) -> Any:
            children = [walk(c) if isinstance(c, Tree) else c for c in node.children]
            method = methods.get(node.data)
            if method is None:
                method = methods[node.data] = getattr(self, node.data, False)
            return method(node.meta, children) if method else Tree(node.data, children, node.meta)
        return walk(tree)

    def _dup(self, what: str, node: A.Node, first: A.Node | None = None) -> None:
        s = node.span
        notes = (f"the first is at {self.file}:{first.span.line}:{first.span.col}",) if first is not None else ()
        self.problems.append(Diagnostic(self.file, f"{what} is declared twice", s.line, s.col,
                                        s.end_line, s.end_col, notes=notes))

    # ---- file ----
    def start(self, meta, items):
        fields: dict[str, Any] = {slot: [] for slot in DECL_SLOTS.values()}
        fields.update(title="", players=None, max_steps=0, setup=[], turn=[], score=None, tiebreak=None, returns=None,
                      extends=None, changes=[], rule_changes=[], extensions=[])
        seen_blocks: set[str] = set()
        firsts: dict[str, A.Node] = {}
        variant = any(kind == "extends" for kind, _ in items)
        for kind, item in items:
            changed = kind == "changes"
            if changed:
                change, (kind, item) = item
                fields["changes"].append(change)
                if item is None:  # remove
                    continue
            if kind in ("rule_changes", "extensions"):
                fields[kind].append(item)
                continue
            if kind == "extends":
                if fields["extends"] is not None:
                    self._dup("'extends'", item, fields["extends"])
                    continue
                fields["extends"] = item
            elif kind in SINGLETONS:
                if changed and not variant:  # the checker says that 'replace' belongs in a variant
                    if kind not in seen_blocks:
                        _set_block(fields, kind, item)
                    continue
                node = item[1] if isinstance(item, tuple) else item
                if kind in seen_blocks:
                    self._dup(f"'{KEYWORDS[kind]}'", node, firsts.get(kind))
                    continue
                seen_blocks.add(kind)
                firsts[kind] = node
                _set_block(fields, kind, item)
            else:
                fields[kind].append(item)
        return A.RulesFile(**fields, span=_span(meta))

    def _decl(self, node):
        return (DECL_SLOTS[type(node)], node)

    # ---- variants ----
    def extends_decl(self, meta, c):
        return ("extends", A.Ident(c[1][1:-1], span=_span(c[1])))

    def replace_decl(self, meta, c):
        slot, item = c[1]
        node = item[1] if isinstance(item, tuple) else item
        labelled = isinstance(node, (A.Report, A.Show))  # (named by their text)
        name = A.Ident(node.label, span=node.span) if labelled else getattr(node, "name", None)
        kind = KEYWORDS[slot]
        return ("changes", (A.Change("replace", kind, name if isinstance(name, A.Ident) else None,
                                     span=_span(meta)), (slot, item)))

    def remove_decl(self, meta, c):
        kind, name = str(c[1].children[0]), c[2]
        ident = A.Ident(name[1:-1] if name.type == "STRING" else str(name), span=_span(name))
        return ("changes", (A.Change("remove", kind, ident, span=_span(meta)), (None, None)))

    def rule_path(self, meta, c):
        return A.Ident(".".join(str(t) for t in c if t.type == "NAME"), span=_span(meta))

    def rule_name(self, meta, c):
        return ("rule", c[1])

    def _named(self, node: Any, rule: tuple | None) -> Any:
        """``node`` with the name ``[rule]`` written before it (a name is one word)."""
        if rule is None:
            return node
        ident = rule[1]
        if "." in ident.text:
            s = ident.span
            self.problems.append(Diagnostic(self.file, f"a rule's name is one word, not '{ident.text}' (a decision's "
                                                       f"option is named 'decision.option' only where a variant "
                                                       f"changes it)", s.line, s.col, s.end_line, s.end_col))
        elif getattr(node, "rule", None) is not None:
            s = ident.span
            self.problems.append(Diagnostic(self.file, f"a rule has one name: '[{ident.text}]' and "
                                                       f"'[{node.rule.text}]' name the same rule", s.line, s.col,
                                            s.end_line, s.end_col))
            return node
        return replace(node, rule=ident)

    def reset_stmt(self, meta, c):
        return A.Reset(_ident(c[1]), span=_span(meta))

    def named_stmt(self, meta, c):
        return self._named(c[1], c[0])

    def _rule_body(self, body: Any) -> tuple[list, list, Any]:
        """What a rule change puts in: (statements, options, an 'end when' test)."""
        if isinstance(body, tuple) and body[0] == "options":
            return [], body[1], None
        if isinstance(body, tuple) and body[0] == "end":
            return [], [], body[1]
        return (body if isinstance(body, list) else [body]), [], None

    def options_block(self, meta, c):
        return ("options", [x for x in c if isinstance(x, A.Option)])

    def end_test(self, meta, c):
        return ("end", c[2])

    def replace_rule(self, meta, c):
        body, options, end = self._rule_body(c[2])
        return ("rule_changes", A.RuleChange("replace", c[1][1], body, options, end, span=_span(meta)))

    def remove_rule(self, meta, c):
        return ("rule_changes", A.RuleChange("remove", c[1][1], [], [], None, span=_span(meta)))

    def insert_rule(self, meta, c):
        body, options, end = self._rule_body(c[3])
        where = str(c[1]).lower()
        if end is not None:
            s = _span(meta)
            self.problems.append(Diagnostic(self.file, f"'insert {where}' adds statements or options; a game's "
                                                       f"'end when' conditions are added as they are written",
                                            s.line, s.col, s.end_line, s.end_col))
        return ("rule_changes", A.RuleChange(where, c[2][1], body, options, None, span=_span(meta)))

    def replace_end(self, meta, c):
        return ("rule_changes", A.RuleChange("replace", None, [], [], c[3], span=_span(meta)))

    def remove_end(self, meta, c):
        return ("rule_changes", A.RuleChange("remove", None, [], [], None, span=_span(meta)))

    def _extension(self, meta, part: str, name: Any = None, body: list | None = None, varieties: list | None = None,
                   values: list | None = None):
        return ("extensions", A.Extension(part, _ident(name) if name is not None else None, body or [],
                                          varieties or [], values or [], span=_span(meta)))

    def extend_setup(self, meta, c):
        return self._extension(meta, "setup", body=c[2])

    def extend_turn(self, meta, c):
        return self._extension(meta, "turn", body=c[2])

    def extend_phase(self, meta, c):
        return self._extension(meta, "phase", c[2], body=c[3])

    def extend_cards(self, meta, c):
        varieties = [x for x in c if isinstance(x, (A.Variety, A.VarietyLoop))]
        return self._extension(meta, "cards", c[2], varieties=varieties)

    def extend_pieces(self, meta, c):
        return self._extension(meta, "pieces", c[2], values=[_ident(t) for t in c[4:] if isinstance(t, Token)
                                                             and t.type == "NAME"])

    def game_decl(self, meta, c):
        node = A.Report(c[1][1:-1], A.Int(0), span=_span(meta))
        return ("title", (c[1][1:-1], node))

    def players_decl(self, meta, c):
        k = _kept(c)  # 'players 3' is 'players 3..3'
        return ("players", A.RangeDecl(int(k[0]), int(k[-1]), span=_span(meta)))

    def max_steps_decl(self, meta, c):
        node = A.Int(int(c[1]), span=_span(meta))
        return ("max_steps", (int(c[1]), node))

    def signed_int(self, meta, c):
        return -int(c[1]) if len(c) == 2 else int(c[0])

    def param_decl(self, meta, c):
        k = _kept(c)
        doc = k[-1][1:-1] if isinstance(k[-1], Token) and k[-1].type == "STRING" else ""
        lo, hi = (k[2], k[3]) if len(k) >= 4 else (None, None)
        return self._decl(A.Param(_ident(k[0]), k[1], lo, hi, doc, span=_span(meta)))

    def enum_decl(self, meta, c):
        k = _kept(c)
        return self._decl(A.Enum(_ident(k[0]), [_ident(t) for t in k[1:]], span=_span(meta)))

    def track_decl(self, meta, c):
        k = _kept(c)
        blocks = [x for x in k[2:] if isinstance(x, list)]
        tiles = blocks[0] if blocks else []
        for extra in blocks[1:]:  # (the lines of a track may come in any order; its tiles are one block)
            at = extra[0].span
            self.problems.append(Diagnostic(self.file, f"track '{k[0]}' has a second 'tiles {{ }}': write all "
                                            f"its tiles in one", at.line, at.col, at.end_line, at.end_col))
        fixed = [x for x in k[2:] if isinstance(x, A.FixedTag)]
        loop = isinstance(c[0], Token) and c[0].type == "CIRCUIT"
        return self._decl(A.Track(_ident(k[0]), k[1], tiles, fixed, loop=loop, span=_span(meta)))

    circuit_decl = track_decl

    def entering(self, meta, c):
        return ("entering", _kept(c))

    def home(self, meta, c):
        return ("home", _kept(c)[0])

    def fixed_tag(self, meta, c):
        k = _kept(c)
        return A.FixedTag(_ident(k[0]), k[1:], span=_span(meta))

    def tiles(self, meta, c):
        return _kept(c)

    def tile_count(self, meta, c):
        return A.TileCount(c[0], _ident(c[1]), span=_span(meta))

    def pieces_decl(self, meta, c):
        k = _kept(c)
        parts = dict(x for x in k if isinstance(x, tuple))
        names = [_ident(t) for t in k[2:] if isinstance(t, Token)]
        return self._decl(A.Pieces(_ident(k[0]), _ident(k[1]), names, per_player=any(x is True for x in k),
                                   entering=parts.get("entering", []), home=parts.get("home"), span=_span(meta)))

    def per_player(self, meta, c):
        return True

    def per_tile(self, meta, c):
        return ("grid", _ident(c[1]))

    def grid_decl(self, meta, c):
        k = _kept(c)
        return self._decl(A.Grid(_ident(k[0]), _ident(k[1]), _ident(k[2]), span=_span(meta)))

    def board_decl(self, meta, c):
        k = _kept(c)
        return self._decl(A.Board(_ident(k[0]), k[1], k[2], span=_span(meta)))

    def while_clause(self, meta, c):
        return ("while", c[1])

    def route_decl(self, meta, c):
        k = _kept(c)
        return self._decl(A.Route(_ident(k[0]), k[1], _ident(k[2]), k[3:], span=_span(meta)))

    def route_clause(self, meta, c):
        k = _kept(c)
        params = k[1] if len(k) == 3 else []
        return A.RouteClause(_ident(k[0]), params, k[-1], span=_span(meta))

    def edge_sets(self, meta, c):
        return ("edges", c)

    def edge_set(self, meta, c):
        edges = typing.get_args(A.EdgeName)
        for t in _kept(c):
            if str(t) not in edges:  # (the IR holds edge names only: a schema enum)
                self.problems.append(Diagnostic(self.file, f"unknown edge '{t}': edges are N, E, S and W",
                                                t.line, t.column, t.end_line, t.end_column))
        return [str(t) for t in _kept(c) if str(t) in edges]

    def zone_decl(self, meta, c):
        k = _kept(c)
        per_player = any(x is True for x in k)
        return self._decl(A.Zone(_ident(k[0]), per_player, str(k[-1]), span=_span(meta)))

    def cards_decl(self, meta, c):
        k = _kept(c)
        return self._decl(A.Cards(_ident(k[0]), _ident(k[1]), k[2:], span=_span(meta)))

    def variety(self, meta, c):
        k = _kept(c)
        return A.Variety(k[0], _ident(k[1]), k[2:], span=_span(meta))

    def variety_loop(self, meta, c):
        k = _kept(c)
        loops = [x for x in k if not isinstance(x, A.Variety)]
        names, domains = [_ident(x) for x in loops[0::2]], loops[1::2]
        return A.VarietyLoop(names, domains, [x for x in k if isinstance(x, A.Variety)], span=_span(meta))

    def attr(self, meta, c):
        value: Any = True
        if len(c) > 1:
            value = c[-1]
            if isinstance(value, Token):
                value = {"true": True, "false": False}.get(str(value), str(value))
            elif isinstance(value, tuple):
                value = value[1]
        return A.AttrValue(_ident(c[0]), value, span=_span(meta))

    def var_decl(self, meta, c):
        k = _kept(c)
        per_player = any(x is True for x in k)
        grid = next((x[1] for x in k if isinstance(x, tuple)), None)
        seen = next((str(x) for x in k if isinstance(x, Token) and x.type == "VISIBILITY"), "public")
        return self._decl(A.Var(_ident(k[0]), per_player, grid, k[-1], seen, span=_span(meta)))

    def define_decl(self, meta, c):
        k = _kept(c)
        params = k[1] if len(k) == 3 else []
        return self._decl(A.Define(_ident(k[0]), params, k[-1], span=_span(meta)))

    def params(self, meta, c):
        return [_ident(t) for t in _kept(c)]

    def setup_decl(self, meta, c):
        return ("setup", (c[1], A.Int(0, span=_span(meta))))

    def turn_decl(self, meta, c):
        return ("turn", (c[1], A.Int(0, span=_span(c[0]))))  # (at the word 'turn': the block may be empty)

    def phase_decl(self, meta, c):
        return self._decl(A.Phase(_ident(c[1]), c[2], span=_span(meta)))

    def end_decl(self, meta, c):
        rule = c[0] if isinstance(c[0], tuple) else None
        return self._decl(self._named(A.EndWhen(c[-1], span=_span(meta)), rule))

    def score_decl(self, meta, c):
        node = A.PlayerExpr(_ident(c[2]), c[5], span=_span(meta))
        return ("score", (node, node))

    def tiebreak_decl(self, meta, c):
        node = A.PlayerExpr(_ident(c[2]), c[5], span=_span(meta))
        return ("tiebreak", (node, node))

    def returns_decl(self, meta, c):
        zero_sum = c[0].type == "ZERO_SUM"
        c = c[1:] if zero_sum else c
        node = A.Returns(_ident(c[2]), c[5], zero_sum, span=_span(meta))
        return ("returns", (node, node))

    def report_decl(self, meta, c):
        return self._decl(A.Report(str(c[1])[1:-1], c[3], span=_span(meta)))

    def show_decl(self, meta, c):
        player = _ident(c[3]) if len(c) > 5 else None
        return self._decl(A.Show(str(c[1])[1:-1], player, c[-1], span=_span(meta)))

    def label_decl(self, meta, c):
        word = c[2]
        if word.type == "VISIBILITY" and str(word) != "hidden":
            s = _span(word)
            self.problems.append(Diagnostic(self.file, f"a label is a \"text\", or 'hidden' for a var never shown, "
                                                       f"not '{word}'", s.line, s.col, s.end_line, s.end_col))
        text = str(word)[1:-1] if word.type == "STRING" else None
        return self._decl(A.Label(c[1], text, span=_span(meta)))

    def invariant_decl(self, meta, c):
        return self._decl(A.Invariant(_ident(c[1]), c[3], span=_span(meta)))

    # ---- statements ----
    def block(self, meta, c):
        return _kept(c)

    def let_stmt(self, meta, c):
        return A.Let(_ident(c[1]), c[3], span=_span(meta))

    def target(self, meta, c):
        k = _kept(c)
        return (_ident(k[0]), k[1] if len(k) > 1 else None)

    def set_stmt(self, meta, c):
        target, index = c[1]
        return A.Set(target, index, c[3], span=_span(meta))

    def set_random_stmt(self, meta, c):
        target, index = c[1]
        return A.SetRandom(target, index, c[4], span=_span(meta))

    def set_weighted_stmt(self, meta, c):
        target, index = c[1]
        return A.SetWeighted(target, index, [x for x in c[5:] if isinstance(x, A.Weight)], span=_span(meta))

    def weight(self, meta, c):
        return A.Weight(c[0], c[2], span=_span(meta))

    def roll_stmt(self, meta, c):
        target, index = c[6]
        return A.Roll(c[1], c[4], target, index, span=_span(meta))

    def if_stmt(self, meta, c):
        k = _kept(c)
        else_ = []
        if len(k) > 2:
            else_ = k[2] if isinstance(k[2], list) else [k[2]]
        return A.If(k[0], k[1], else_, span=_span(meta))

    def for_stmt(self, meta, c):
        k = _kept(c)
        while_ = next((x[1] for x in k if isinstance(x, tuple) and x[0] == "while"), None)
        k = [x for x in k if not (isinstance(x, tuple) and x[0] == "while")]
        where = k[2] if len(k) == 4 else None
        return A.For(_ident(k[0]), k[1], where, k[-1], while_=while_, span=_span(meta))

    def move_stmt(self, meta, c):
        k = _kept(c)
        stop = _ident(k[2]) if len(k) > 2 else None
        return A.Move(k[0], k[1], stop, span=_span(meta))

    def card_name(self, meta, c):
        return Token.new_borrow_pos("NAME", str(c[0]), c[0])

    tag_name = card_name

    def move_to_stmt(self, meta, c):
        k = _kept(c)
        return A.MoveTo(k[0], k[1], span=_span(meta))

    def move_all_stmt(self, meta, c):
        k = _kept(c)
        return A.MoveAll(k[0], k[1], span=_span(meta))

    def move_cards_stmt(self, meta, c):
        k = _kept(c)
        return A.MoveCards(k[0], _ident(k[1]), k[2], k[3], span=_span(meta))

    def move_where_stmt(self, meta, c):
        k = _kept(c)
        return A.MoveWhere(k[0], k[1], k[2], k[3], span=_span(meta))

    def reveal_stmt(self, meta, c):
        k = _kept(c)
        return A.Reveal(k[0], k[1] if len(k) > 1 else None, span=_span(meta))

    def within(self, meta, c):
        return ("within", c[1])

    def place_stmt(self, meta, c):
        label, chooser, rest, parts = _decision(c)
        _, lo, hi = parts["amount"]
        within = parts["within"][1] if "within" in parts else None
        tokens = [t for t in rest if isinstance(t, Token)]
        grid = next(tokens[i + 1] for i, t in enumerate(tokens) if t.type == "ONTO")
        var = next(tokens[i + 1] for i, t in enumerate(tokens) if t.type == "AS")
        source = rest[[i for i, t in enumerate(rest) if isinstance(t, Token) and t.type == "FROM"][0] + 1]
        where_at = [i for i, t in enumerate(rest) if isinstance(t, Token) and t.type == "WHERE"]
        where = rest[where_at[0] + 1] if where_at else None
        else_at = [i for i, t in enumerate(rest) if isinstance(t, Token) and t.type == "ELSE"]
        otherwise = rest[else_at[0] + 1] if else_at else []
        return A.Place(label, chooser, lo, hi, source, _ident(grid), within, any(t.type == "MATCHING" for t in tokens),
                       any(t.type == "JOINING" for t in tokens), _ident(var), where, otherwise, span=_span(meta))

    def choose_one_stmt(self, meta, c):
        k = _kept(c)
        chooser = k[1] if len(k) > 1 and not isinstance(k[1], A.Option) else None
        return A.ChooseOne(_ident(k[0]), chooser, [o for o in k if isinstance(o, A.Option)], span=_span(meta))

    def option(self, meta, c):
        rule = c[0] if isinstance(c[0], tuple) else None
        k = _kept(c[1:] if rule else c)
        body = k.pop() if isinstance(k[-1], list) else []  # (an option with nothing to do may leave its block out)
        bindings = [b for b in k[1:] if isinstance(b, A.Binding)]
        rest = [x for x in k[1:] if not isinstance(x, A.Binding)]
        return self._named(A.Option(_ident(k[0]), bindings, rest[0] if rest else None, body, span=_span(meta)), rule)

    def binding(self, meta, c):
        return A.Binding(_ident(c[0]), c[2], span=_span(meta))

    def reshuffling(self, meta, c):
        return ("reshuffle", c[1])

    def _reshuffle(self, k):
        if k and isinstance(k[-1], tuple) and k[-1][0] == "reshuffle":
            return k[:-1], k[-1][1]
        return k, None

    def deal_stmt(self, meta, c):
        k, pile = self._reshuffle(_kept(c))
        return A.Deal(k[0], k[1], k[2], pile, span=_span(meta))

    def refill_stmt(self, meta, c):
        k, pile = self._reshuffle(_kept(c))
        return A.Refill(k[0], k[1], k[2], pile, span=_span(meta))

    def amount(self, meta, c):
        k = _kept(c)
        return ("amount", k[0], k[1] if len(k) > 1 else k[0])

    def card_word(self, meta, c):
        return ("cards",)

    def same_attr(self, meta, c):
        return ("same", _ident(c[2]))

    def keeping(self, meta, c):
        return ("keeping", c[1])

    def choose_stmt(self, meta, c):
        label, chooser, rest, parts = _decision(c)
        plain = [p for p in _kept(rest) if not isinstance(p, tuple)]
        _, lo, hi = parts["amount"]
        same = parts["same"][1] if "same" in parts else None
        keeping = parts["keeping"][1] if "keeping" in parts else None
        return A.Choose(label, chooser, lo, hi, same, plain[0], plain[1], keeping, span=_span(meta))

    def run_stmt(self, meta, c):
        return A.Run(_ident(c[1]), span=_span(meta))

    def end_stmt(self, meta, c):
        return A.EndGame(len(c) > 2, span=_span(meta))

    def none(self, meta, c):
        return A.NoneValue(span=_span(meta))

    # ---- expressions ----
    def int(self, meta, c):
        return A.Int(int(c[0]), span=_span(meta))

    def true(self, meta, c):
        return A.Bool(True, span=_span(meta))

    def false(self, meta, c):
        return A.Bool(False, span=_span(meta))

    def name(self, meta, c):
        return A.Name(str(c[0]), span=_span(meta))

    def call(self, meta, c):
        args = c[2] if len(c) == 4 else []
        return A.Call(str(c[0]), args, span=_span(meta))

    def args(self, meta, c):
        return _kept(c)

    def _closed(self, tok: Token, vocabulary: Any, message: str) -> str:
        """A word of a closed vocabulary (the IR holds only those: a schema enum), else an error
        here and the vocabulary's first word in its place."""
        words = typing.get_args(vocabulary)
        if str(tok) in words:
            return str(tok)
        self.problems.append(Diagnostic(self.file, message, tok.line, tok.column, tok.end_line, tok.end_column))
        return words[0]

    def filtered(self, meta, c):
        func = self._closed(c[0], A.ZoneQuery, f"only count(zone where ...) takes 'where', not '{c[0]}'")
        return A.Filtered(func, c[2], c[4], span=_span(meta))

    def comprehension(self, meta, c):
        k = _kept(c)
        while_ = next((x[1] for x in k if isinstance(x, tuple) and x[0] == "while"), None)
        k = [x for x in k if not (isinstance(x, tuple) and x[0] == "while")]
        where = k[4] if len(k) > 4 else None
        aggregates = typing.get_args(A.Aggregate)
        hint = did_you_mean(str(k[0]), aggregates) or f" (the aggregates are {', '.join(aggregates)})"
        func = self._closed(k[0], A.Aggregate, f"unknown aggregate '{k[0]}'{hint}")
        return A.Comprehension(func, k[1], _ident(k[2]), k[3], where, while_=while_, span=_span(meta))

    def case_arm(self, meta, c):
        return A.CaseArm(c[0], c[2], span=_span(meta))

    def case(self, meta, c):
        k = _kept(c)
        arms = [x for x in k[1:] if isinstance(x, A.CaseArm)]
        default = k[-1] if not isinstance(k[-1], A.CaseArm) else None
        return A.Case(k[0], arms, default, span=_span(meta))

    def member(self, meta, c):
        return A.Attr(c[0], str(c[2]), span=_span(meta))

    def paren(self, meta, c):
        return c[1]

    def binop(self, meta, c):
        return A.BinOp(str(c[1]), c[0], c[2], span=_span(meta))

    def unop(self, meta, c):
        return A.UnOp(str(c[0]), c[1], span=_span(meta))

    def cond(self, meta, c):
        k = _kept(c)
        return A.Cond(k[0], k[1], k[2], span=_span(meta))

    def domain(self, meta, c):
        k = _kept(c)
        return A.Domain(k[0], k[1] if len(k) > 1 else None, False, span=_span(meta))

    def player_domain(self, meta, c):
        return A.Domain(None, None, True, span=_span(meta))
