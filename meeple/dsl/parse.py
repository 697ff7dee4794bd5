"""Parse rules text into an AST (``parse``), reporting every syntax error found."""

from __future__ import annotations

import re
from copy import copy
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from .diagnostics import Diagnostic, RulesSemanticError, RulesSyntaxError

from .limits import MAX_DEPTH, MAX_LINE_LENGTH, MAX_NESTING, MAX_NUMBER, MAX_SOURCE_BYTES, MAX_TOKENS, too_deep

MAX_SYNTAX_ERRORS = 10
# After a syntax error, later ones are reported only once this many tokens parse
# again (as yacc does), so one mistake does not cascade into an error per line.
RESYNC_TOKENS = 3
# Error events (reported or not) after which the parser gives up on the rest of the file.
MAX_RECOVERIES = 500
# When a token is unexpected, the parser tries inserting one of these first (then any
# other terminal) so that the token fits; a missing ')' or '}' then costs one error.
INSERT_FIRST = ("RPAR", "RBRACE", "LBRACE", "NAME", "INT")
_TOKEN = re.compile(r'#[^\n]*|\s+|"[^"\n]*"|[A-Za-z_0-9]+|\.\.|[=!<>]=|.')

FRIENDLY = {"NAME": "a name", "INT": "a number", "STRING": "a quoted string",
            "$END": "the end of the file", "VISIBILITY": "'public', 'private' or 'hidden'"}


@lru_cache(maxsize=1)
def grammar() -> Lark:
    return Lark.open("rules.lark", rel_to=__file__, parser="lalr", propagate_positions=True, cache=True,
                     maybe_placeholders=False)


def describe_terminal(name: str) -> str:
    if name in FRIENDLY:
        return FRIENDLY[name]
    try:
        pattern = grammar().get_terminal(name).pattern
    except KeyError:
        return name
    return f"'{pattern.value}'" if pattern.type == "str" else name.lower()


def parse(text: str, file: str = "<rules>") -> A.RulesFile:
    """Parse ``text`` into a ``RulesFile``; raise ``RulesSyntaxError`` with every error found."""
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
    last_error_end = 0
    events = 0

    def resynced(e: UnexpectedInput) -> bool:
        """Has the parser got back on track since the last error (a cascade otherwise)?"""
        nonlocal last_error_end
        start = getattr(e, "pos_in_stream", None) or 0
        token = getattr(e, "token", None)
        if isinstance(token, Token) and token.start_pos is not None:
            start = token.start_pos
        between = sum(1 for m in _TOKEN.finditer(text, last_error_end, max(start, last_error_end))
                      if not m.group()[0].isspace() and m.group()[0] != "#")
        last_error_end = token.end_pos if isinstance(token, Token) and token.end_pos is not None else start + 1
        return not errors or (between >= RESYNC_TOKENS and getattr(e, "line", 0) > errors[-1].line)

    def recover(e: UnexpectedInput) -> bool:
        nonlocal events
        events += 1
        if len(errors) >= MAX_SYNTAX_ERRORS or events > MAX_RECOVERIES:
            return False
        if resynced(e):
            errors.append(_syntax_diagnostic(e, file))
        if isinstance(e, UnexpectedToken) and e.token.type != "$END":
            _insert_missing(e)  # else lark drops the token
        return True

    try:
        tree = grammar().parse(text, on_error=recover)
    except UnexpectedInput as e:
        if len(errors) < MAX_SYNTAX_ERRORS and resynced(e):
            errors.append(_syntax_diagnostic(e, file))
        raise RulesSyntaxError(errors, text) from None
    if errors:
        raise RulesSyntaxError(errors, text)
    depth_error = _depth_error(tree, file)
    if depth_error:
        raise RulesSyntaxError([depth_error], text)
    try:
        return ToAst(file).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, RulesSemanticError):
            e.orig_exc.source = text
            raise e.orig_exc from None
        raise


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


def _insert_missing(e: UnexpectedToken) -> bool:
    """If inserting one terminal lets the parser take the unexpected token, feed both
    (lark's recipe for ``on_error``) and return True."""
    ip = e.interactive_parser
    quiet = copy(ip.parser_state.parse_conf)
    quiet.callbacks = {}
    choices = {t for t in ip.choices() if t.isupper() and t != "$END"}
    for t in [t for t in INSERT_FIRST if t in choices] + sorted(choices - set(INSERT_FIRST)):
        missing = Token.new_borrow_pos(t, "", e.token)
        trial = ip.copy(deepcopy_values=False)
        trial.parser_state.parse_conf = quiet
        try:
            trial.feed_token(missing)
            trial.feed_token(e.token)
        except UnexpectedInput:
            continue
        ip.feed_token(missing)
        ip.feed_token(e.token)
        return True
    return False


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


def _syntax_diagnostic(e: UnexpectedInput, file: str) -> Diagnostic:
    line, col = max(getattr(e, "line", 1) or 1, 1), max(getattr(e, "column", 1) or 1, 1)
    if isinstance(e, UnexpectedCharacters):
        return Diagnostic(file, f"unexpected character {e.char!r}", line, col, line, col + 1)
    if isinstance(e, UnexpectedEOF):
        expected = ", ".join(sorted({describe_terminal(t) for t in e.expected}, key=lambda d: (d[0] == "'", d)))
        return Diagnostic(file, f"unexpected end of file; expected {expected}", line, col)
    assert isinstance(e, UnexpectedToken)
    tok = e.token
    if tok.type == "$END":  # lark places it on the last token: point just past that token
        line, col = tok.end_line or tok.line or 1, tok.end_column or tok.column or 1
        if tok.end_pos == 0:  # no token at all
            line, col = 1, 1
        found = "end of file"
        width = 1
    else:
        found = f"'{tok.value}'" if tok.type not in ("NAME", "INT", "STRING") else \
            f"{describe_terminal(tok.type).removeprefix('a ')} '{tok.value}'"
        width = max(1, len(str(tok.value)))
    # "a name", "a number" first: they are what is missing most often.
    expected = sorted({describe_terminal(t) for t in e.accepts or e.expected}, key=lambda d: (d[0] == "'", d))
    if len(expected) > 8:
        expected = expected[:8] + ["..."]
    msg = f"unexpected {found}; expected {' or '.join(expected) if len(expected) <= 2 else ', '.join(expected)}"
    return Diagnostic(file, msg, line, col, line, col + width)


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
    "routes": "route", "zones": "zone", "cards": "cards", "vars": "var", "defines": "define",
    "phases": "phase", "reports": "report", "invariants": "invariant", "end": "end when",
    "setup": "setup", "turn": "turn", "score": "score", "tiebreak": "tiebreak", "players": "players",
    "max_steps": "max_steps", "title": "game"}
SINGLETONS = ("setup", "turn", "score", "tiebreak", "players", "title", "max_steps")
DECL_SLOTS = {
    A.Param: "params", A.Enum: "enums", A.Track: "tracks", A.Pieces: "pieces", A.Grid: "grids",
    A.Route: "routes", A.Zone: "zones",
    A.Cards: "cards", A.Var: "vars", A.Define: "defines", A.Phase: "phases", A.EndWhen: "end",
    A.Report: "reports", A.Invariant: "invariants",
}


def _set_block(fields: dict[str, Any], kind: str, item: Any) -> None:
    """A one-per-game part into the file's fields (a plain value comes as (value, node), and
    max_steps keeps its node's position beside it)."""
    if isinstance(item, tuple):
        item, node = item
        if kind == "max_steps":
            fields["max_steps_at"] = node.span
    fields[kind] = item


@v_args(meta=True)
class ToAst(Transformer):
    """Lark parse tree → AST."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def _dup(self, what: str, node: A.Node) -> None:
        s = node.span
        raise RulesSemanticError([Diagnostic(self.file, f"{what} is declared twice", s.line, s.col,
                                             s.end_line, s.end_col)])

    # ---- file ----
    def start(self, meta, items):
        fields: dict[str, Any] = {slot: [] for slot in DECL_SLOTS.values()}
        fields.update(title="", players=None, max_steps=0, setup=[], turn=[], score=None, tiebreak=None,
                      extends=None, changes=[])
        seen_blocks: set[str] = set()
        variant = any(kind == "extends" for kind, _ in items)
        for kind, item in items:
            changed = kind == "changes"
            if changed:
                change, (kind, item) = item
                fields["changes"].append(change)
                if item is None:  # remove
                    continue
            if kind == "extends":
                if fields["extends"] is not None:
                    self._dup("'extends'", item)
                fields["extends"] = item
            elif kind in SINGLETONS:
                if changed and not variant:  # the checker says that 'replace' belongs in a variant
                    if kind not in seen_blocks:
                        _set_block(fields, kind, item)
                    continue
                if kind in seen_blocks:
                    self._dup(f"'{KEYWORDS[kind]}'", item[1] if isinstance(item, tuple) else item)
                seen_blocks.add(kind)
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
        name = A.Ident(node.label, span=node.span) if isinstance(node, A.Report) else getattr(node, "name", None)
        kind = KEYWORDS[slot]
        return ("changes", (A.Change("replace", kind, name if isinstance(name, A.Ident) else None,
                                     span=_span(meta)), (slot, item)))

    def remove_decl(self, meta, c):
        kind, name = str(c[1].children[0]), c[2]
        ident = A.Ident(name[1:-1] if name.type == "STRING" else str(name), span=_span(name))
        return ("changes", (A.Change("remove", kind, ident, span=_span(meta)), (None, None)))

    def game_decl(self, meta, c):
        node = A.Report(c[1][1:-1], A.Int(0), span=_span(meta))
        return ("title", (c[1][1:-1], node))

    def players_decl(self, meta, c):
        k = _kept(c)
        return ("players", A.RangeDecl(int(k[0]), int(k[1]), span=_span(meta)))

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
        tiles = k[2] if len(k) > 2 else []
        return self._decl(A.Track(_ident(k[0]), k[1], tiles, span=_span(meta)))

    def tiles(self, meta, c):
        return _kept(c)

    def tile_count(self, meta, c):
        return A.TileCount(c[0], _ident(c[1]), span=_span(meta))

    def pieces_decl(self, meta, c):
        k = _kept(c)
        return self._decl(A.Pieces(_ident(k[0]), _ident(k[1]), [_ident(t) for t in k[2:]], span=_span(meta)))

    def per_player(self, meta, c):
        return True

    def per_tile(self, meta, c):
        return ("grid", _ident(c[1]))

    def grid_decl(self, meta, c):
        k = _kept(c)
        return self._decl(A.Grid(_ident(k[0]), _ident(k[1]), _ident(k[2]), span=_span(meta)))

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
        return [str(t) for t in _kept(c)]

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
        return self._decl(A.Var(_ident(k[0]), per_player, grid, k[-1], span=_span(meta)))

    def define_decl(self, meta, c):
        k = _kept(c)
        params = k[1] if len(k) == 3 else []
        return self._decl(A.Define(_ident(k[0]), params, k[-1], span=_span(meta)))

    def params(self, meta, c):
        return [_ident(t) for t in _kept(c)]

    def setup_decl(self, meta, c):
        return ("setup", (c[1], A.Int(0, span=_span(meta))))

    def turn_decl(self, meta, c):
        return ("turn", (c[1], A.Int(0, span=_span(meta))))

    def phase_decl(self, meta, c):
        return self._decl(A.Phase(_ident(c[1]), c[2], span=_span(meta)))

    def end_decl(self, meta, c):
        return self._decl(A.EndWhen(c[2], span=_span(meta)))

    def score_decl(self, meta, c):
        node = A.PlayerExpr(_ident(c[2]), c[5], span=_span(meta))
        return ("score", (node, node))

    def tiebreak_decl(self, meta, c):
        node = A.PlayerExpr(_ident(c[2]), c[5], span=_span(meta))
        return ("tiebreak", (node, node))

    def report_decl(self, meta, c):
        return self._decl(A.Report(str(c[1])[1:-1], c[3], span=_span(meta)))

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

    def if_stmt(self, meta, c):
        k = _kept(c)
        else_ = []
        if len(k) > 2:
            else_ = k[2] if isinstance(k[2], list) else [k[2]]
        return A.If(k[0], k[1], else_, span=_span(meta))

    def for_stmt(self, meta, c):
        k = _kept(c)
        where = k[2] if len(k) == 4 else None
        return A.For(_ident(k[0]), k[1], where, k[-1], span=_span(meta))

    def move_stmt(self, meta, c):
        k = _kept(c)
        stop = _ident(k[2]) if len(k) > 2 else None
        return A.Move(k[0], k[1], stop, span=_span(meta))

    def move_all_stmt(self, meta, c):
        k = _kept(c)
        return A.MoveAll(k[0], k[1], span=_span(meta))

    def move_cards_stmt(self, meta, c):
        k = _kept(c)
        return A.MoveCards(k[0], _ident(k[1]), k[2], k[3], span=_span(meta))

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
        k = _kept(c)
        bindings = [b for b in k[1:] if isinstance(b, A.Binding)]
        rest = [x for x in k[1:-1] if not isinstance(x, A.Binding)]
        return A.Option(_ident(k[0]), bindings, rest[0] if rest else None, k[-1], span=_span(meta))

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

    def filtered(self, meta, c):
        return A.Filtered(str(c[0]), c[2], c[4], span=_span(meta))

    def comprehension(self, meta, c):
        k = _kept(c)
        where = k[4] if len(k) > 4 else None
        return A.Comprehension(str(k[0]), k[1], _ident(k[2]), k[3], where, span=_span(meta))

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
