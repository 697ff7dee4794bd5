"""The canonical form of a rules file (``meeple fmt``): ``print_rules(text, file)``.

The printer works on lark's parse tree (the concrete syntax), not on the AST of
``dsl.ast``: the tree keeps every token in source order, the brackets a designer
wrote for clarity and the order of the declarations, which the AST drops. Comments
are not in the tree (the grammar ignores them); each is found in the gap between two
tokens, where only whitespace and comments can stand.

The layout is the one the bundled games (``games/*.rules``) are written in:

* One declaration or statement a line; a block's ``{`` ends its line, its
  statements are indented by two spaces, its ``}`` stands alone (``} else {``
  joins). The braces of ``track``, ``route``, ``cards`` (and ``extend cards``),
  ``choose ... { }`` and a variant's options hold one clause, variety or option a
  line, likewise; the other braces
  (``enum``, ``pieces``, ``grid``, ``tiles``, a variety's attributes, ``case``)
  stay on one line: ``{ a b }``, ``{ 1: 5, else: 0 }``.
* One space between tokens, none inside ``()`` and ``[]``, before ``,`` and
  ``:``, around ``.`` and ``..``, after a unary minus, and between a name and
  the ``(`` of its arguments or parameters.
* The varieties of a ``cards`` declaration align their ``{``.
* Lines are never wrapped by width. A line break of the source inside a
  statement is kept where a designer breaks a long line: before or after a
  binary operator, after a comma, before a clause word (``keeping``, ``where``,
  ``from``..., the ``then`` and ``else`` of an ``if`` expression) or after ``=``
  and ``:``. Elsewhere the pieces are joined. A
  continuation line lines up with the start of the construct it continues: the
  operand chain of the operator, the first item after the bracket, the body of
  ``sum(... for ...)``; a clause of a statement is indented two more than the
  statement (four when the statement opens a block, so that it is not read as
  the block's body), a value after ``=`` or ``:`` four more.
* A comment keeps its text (trailing blanks dropped). A comment on a line of its
  own stands before what follows it, at that thing's indentation (a comment
  before a ``}`` at the block's). A trailing comment stays after the code it
  followed, at the end of that line; a comment whose line break is not kept
  moves to the end of the joined line. Trailing comments line up, two spaces
  after the longest line of their group: the one-line declarations or statements
  of one block (or of the top level), blank lines and other lines between them
  notwithstanding; the lines of a statement that spans several (but for its
  ``{`` and ``}`` lines, each on its own).
* One blank line stands where the source has one or more between two
  declarations, statements or comments of one block; none after a ``{``,
  before a ``}`` or inside a statement.

Printing is idempotent, and the printed file parses to the same IR as the source
but for source positions (``tests/test_printer.py`` holds both).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional, Union

from lark import Token, Tree

from .parse import parse, parse_tree

__all__ = ["print_rules"]

INDENT = 2
COMMENT_GAP = 2  # spaces between the longest line of a group and its trailing comments
_COMMENT = re.compile(r"#[^\n]*")

# Nodes that are a line of their own: declarations and statements (``*_decl``, ``*_stmt``),
# and the lines inside structural braces.
LINES = {"route_clause", "variety", "variety_loop", "option", "tiles"}
# Nodes whose braces hold a line for each child (a block's braces always do).
STRUCTURAL = {"track_decl", "circuit_decl", "route_decl", "cards_decl", "variety_loop", "choose_one_stmt",
              "options_block", "extend_cards"}
# Words that start a clause of a statement: a kept line break may stand before them.
CLAUSE_WORDS = {"BY", "FROM", "TO", "KEEPING", "RESHUFFLING", "WHERE", "STOPPING", "ONTO", "WITHIN", "MATCHING",
                "JOINING", "AS"}
NO_SPACE_BEFORE = {"RPAR", "RSQB", "COMMA", "COLON", "DOT", "DOTDOT"}
NO_SPACE_AFTER = {"LPAR", "LSQB", "DOT", "DOTDOT"}
OPENERS = {"LPAR", "LBRACE", "LSQB"}

Node = Union[Tree, Token]


def print_rules(text: str, file: str = "<rules>") -> str:
    """``text`` in canonical form, ending with a newline ("" for a file with nothing in it).

    Raises ``dsl.diagnostics.RulesError`` (a ``RulesSyntaxError``, or a
    ``RulesSemanticError`` for a block declared twice) when ``text`` does not
    parse, with the same diagnostics as ``dsl.ir_from_text``."""
    parse(text, file)  # the parser's own diagnostics for a file that does not parse
    tree = parse_tree(text)
    printer = _Printer(_comments(text, tree))
    for item in tree.children:
        printer.unit(item, 0)
    return printer.finish()


@dataclass
class _Comment:
    pos: int
    line: int
    text: str


@dataclass
class _Line:
    indent: int
    code: str = ""
    trailing: list[str] = field(default_factory=list)
    blank_ok: bool = False  # may a blank line come before it (a line that starts a sibling)?
    comment: bool = False  # a comment on a line of its own
    group: int = 0  # lines of one group line up their trailing comments


def _comments(text: str, tree: Tree) -> list[_Comment]:
    """The comments of ``text``, in order: the ``#`` runs between the tokens of ``tree``."""
    out, start, line = [], 0, 1
    for tok in [*tree.scan_values(lambda v: isinstance(v, Token)), None]:
        end = tok.start_pos if tok is not None else len(text)
        for m in _COMMENT.finditer(text, start, end):
            out.append(_Comment(m.start(), line + text.count("\n", start, m.start()), m.group().rstrip()))
        if tok is None:
            break
        start, line = tok.end_pos, tok.end_line
    return out


def _first(node: Node) -> Token:
    while isinstance(node, Tree):
        node = node.children[0]
    return node


def _last(node: Node) -> Token:
    while isinstance(node, Tree):
        node = node.children[-1]
    return node


def _own_line(node: Tree, child: Node) -> bool:
    """Does ``child``, inside the braces of the structural ``node``, start a line?"""
    if isinstance(child, Token):
        return child.type == "SPACES"  # track: spaces N
    return node.data not in ("track_decl", "circuit_decl") or child.data in ("tiles", "fixed_tag")


def _space(node: Tree, prev: Token, nxt: Token) -> str:
    """The space between two tokens on one line; ``node`` is the innermost node holding both."""
    if nxt.type in NO_SPACE_BEFORE or prev.type in NO_SPACE_AFTER:
        return ""
    if nxt.type == "LPAR" and prev.type in ("NAME", "SCORE", "TIEBREAK", "RETURNS"):
        return ""  # f(x), define f(a), set hand(p) = ..., score(p) = ...
    if prev.type == "MINUS" and node.data in ("unop", "signed_int"):
        return ""
    return " "


class _Printer:
    """Lays out tokens into lines; ``finish`` aligns the trailing comments and renders."""

    def __init__(self, comments: list[_Comment], flat: bool = False):
        self.comments = comments
        self.next_comment = 0
        self.flat = flat  # one line, no kept breaks (to measure a piece)
        self.lines: list[_Line] = []
        self.cur = _Line(0)
        self.last_src_line = 0  # where the last token or comment read from the source ends
        self.last_tok_line = 0  # where the last token ends, in the source
        self.last_tok_out: Optional[_Line] = None  # and the line it went to
        self.brace_col = 0  # the column of the '{' of the varieties in the current cards
        self.group = self.groups = 0  # the block being printed; how many there have been

    # ---- lines and tokens ----
    def col(self) -> int:
        return self.cur.indent + len(self.cur.code)

    def next_col(self, space: str) -> int:
        """The column where a token written with ``space`` before it lands."""
        return self.col() + len(space) if self.cur.code else self.cur.indent

    def newline(self, indent: int, blank_ok: bool) -> None:
        if self.cur.code:
            self.lines.append(self.cur)
        self.cur = _Line(indent, blank_ok=blank_ok, group=self.group)

    def _blank_before(self, src_line: int) -> None:
        """A blank line before the line about to start if the source has one there."""
        last = self.lines[-1] if self.lines else None
        if (self.cur.blank_ok and src_line - self.last_src_line > 1 and last is not None and last.code
                and (last.comment or not last.code.endswith("{"))):
            self.lines.append(_Line(0))

    def comments_before(self, pos: float) -> None:
        while self.next_comment < len(self.comments) and self.comments[self.next_comment].pos < pos:
            c = self.comments[self.next_comment]
            self.next_comment += 1
            if c.line == self.last_tok_line and self.last_tok_out is not None:
                self.last_tok_out.trailing.append(c.text)
            elif self.cur.code:  # the break after it is not kept: it moves to the end of the line
                self.cur.trailing.append(c.text)
            else:
                self._blank_before(c.line)
                self.lines.append(_Line(self.cur.indent, c.text, comment=True))
            self.last_src_line = c.line

    def token(self, tok: Token, space: str) -> None:
        self.comments_before(tok.start_pos)
        if self.cur.code:
            self.cur.code += space
        else:
            self._blank_before(tok.line)
        self.cur.code += tok.value
        self.last_src_line = self.last_tok_line = tok.end_line
        self.last_tok_out = self.cur

    # ---- structure ----
    def unit(self, node: Node, indent: int) -> None:
        """A declaration, statement, clause, variety or option on a line of its own."""
        self.newline(indent, blank_ok=True)
        first = len(self.lines)
        self.walk(node, "", indent)
        own = [ln for ln in [*self.lines[first:], self.cur] if ln.group == self.group and ln.code and not ln.comment]
        if len(own) > 1:  # its lines align their comments apart from the block's, and a '{' or '}' line alone
            self.groups += 1
            for ln in own:
                ln.group = self.groups
                if ln.code.endswith("{") or ln.code.startswith("}"):
                    self.groups += 1
                    ln.group = self.groups

    def open(self, lbrace: Token) -> int:
        """A '{' that ends its line: the lines up to its '}' are a group of their own.
        Returns the group to go back to."""
        self.token(lbrace, " ")
        outer = self.group
        self.groups += 1
        self.group = self.groups
        return outer

    def close(self, rbrace: Token, indent: int, outer: int) -> None:
        """The '}' of a block at ``indent``, after the comments before it."""
        self.newline(indent + INDENT, blank_ok=True)
        self.comments_before(rbrace.start_pos)
        self.group = outer
        self.newline(indent, blank_ok=False)
        self.token(rbrace, "")

    def block(self, node: Tree, indent: int) -> None:
        outer = self.open(node.children[0])
        for stmt in node.children[1:-1]:
            self.unit(stmt, indent + INDENT)
        self.close(node.children[-1], indent, outer)

    def walk(self, node: Node, space: str, indent: int) -> None:
        """Print ``node`` from the current position; ``indent`` is that of its line."""
        if isinstance(node, Token):
            self.token(node, space)
            return
        if node.data in ("cards_decl", "extend_cards"):
            self.brace_col = indent + INDENT + max((self._width(v.children[:2]) for v in node.children
                                                    if isinstance(v, Tree) and len(v.children) > 2), default=0) + 1
        cols: list[int] = []  # the column of each child printed inline (-1 for the others)
        inside = False  # between the braces of a structural node
        outer = self.group
        for i, child in enumerate(node.children):
            cols.append(-1)
            if isinstance(child, Tree) and child.data == "block":
                self.block(child, indent)
            elif node.data in STRUCTURAL and isinstance(child, Token) and child.type == "LBRACE":
                inside = True
                outer = self.open(child)
            elif node.data in STRUCTURAL and isinstance(child, Token) and child.type == "RBRACE":
                inside = False
                self.close(child, indent, outer)
            elif inside and _own_line(node, child):
                self.unit(child, indent + INDENT)
            else:
                if i > 0:
                    prev = _last(node.children[i - 1])
                    space = _space(node, prev, _first(child))
                    if node.data == "variety" and isinstance(child, Token) and child.type == "LBRACE":
                        space = " " * max(1, self.brace_col - self.col())
                    if not self.flat and _first(child).line > prev.end_line:  # a line break in the source
                        align = self._continuation(node, i, cols, indent)
                        if align is not None:
                            self.newline(align, blank_ok=False)
                cols[i] = self.next_col(space)
                self.walk(child, space, indent)

    def _continuation(self, node: Tree, i: int, cols: list[int], indent: int) -> Optional[int]:
        """The column of a continuation line for a break of the source before child ``i``
        of ``node`` (``cols``: where the children before it went), or None if the break
        is not kept."""
        prev, nxt = _last(node.children[i - 1]), _first(node.children[i])
        kind = node.data
        if kind == "binop" or (kind == "cond" and nxt.type in ("THEN", "ELSE")):
            return cols[0]
        if kind in ("comprehension", "filtered") and nxt.type in ("FOR", "WHERE"):
            return cols[2]
        if prev.type == "COMMA" and kind == "fixed_tag":  # ``mud at 1, 2,`` then under the 1
            return cols[2]
        if prev.type == "COMMA":
            opener = next((j for j, c in enumerate(node.children[:i]) if isinstance(c, Token) and c.type in OPENERS),
                          None)  # (the bracket the comma is inside: one before it)
            return cols[opener + 1] if opener is not None else cols[1 if kind in ("option", "variety_loop") else 0]
        if not (kind.endswith(("_decl", "_stmt")) or kind in LINES):
            return None
        if prev.type in ("ASSIGN", "COLON"):  # the value on a line of its own
            return indent + 2 * INDENT
        if nxt.type in CLAUSE_WORDS:
            opens_block = kind in STRUCTURAL or any(isinstance(c, Tree) and c.data == "block" for c in node.children)
            return indent + (2 * INDENT if opens_block else INDENT)
        return None

    def _width(self, nodes: list[Node]) -> int:
        """How wide ``nodes`` print on one line."""
        measure = _Printer([], flat=True)
        measure.walk(Tree("piece", nodes), "", 0)
        return measure.col()

    # ---- the end ----
    def finish(self) -> str:
        self.newline(0, blank_ok=True)
        self.comments_before(float("inf"))
        self.newline(0, blank_ok=False)
        lines = self.lines
        width: dict[int, int] = {}  # the column of the trailing comments of each group
        for line in lines:
            if line.trailing:
                width[line.group] = max(width.get(line.group, 0), line.indent + len(line.code) + COMMENT_GAP)
        for line in lines:
            if line.trailing:
                line.code = line.code.ljust(width[line.group] - line.indent) + "  ".join(line.trailing)
        return "".join((" " * line.indent + line.code if line.code else "") + "\n" for line in lines)
