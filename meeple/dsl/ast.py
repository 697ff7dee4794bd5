"""AST nodes of a rules file: one frozen dataclass per construct.

Each node keeps its source position in ``span``, apart from its child fields, as
CPython's ``ast`` does. Lowering (``dsl.lower``) turns a node into a JSON object
whose ``"node"`` is the class name in snake_case and whose other keys are the
fields, so the field names and type hints here *are* the shape of the IR; the
JSON Schema is generated from them (``dsl.schema``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal, NewType, Optional, Union


@dataclass(frozen=True, slots=True)
class Span:
    """A 1-based source range: ``line:col`` up to ``end_line:end_col`` (exclusive)."""

    line: int
    col: int
    end_line: int
    end_col: int


NOWHERE = Span(0, 0, 0, 0)

# The closed vocabularies: the schema makes each an enum, so an IR document with any other word
# is refused with its JSON path.
BinaryOperator = Literal["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "and", "or"]
UnaryOperator = Literal["not", "-"]
Aggregate = Literal["sum", "max", "min", "count", "any", "all", "first"]
ZoneQuery = Literal["count"]  # the queries that take 'where' over a zone's cards
Visibility = Literal["public", "private", "hidden"]
EdgeName = Literal["N", "E", "S", "W"]
ChangeAction = Literal["replace", "remove"]
RuleAction = Literal["replace", "remove", "before", "after"]
ExtendedPart = Literal["setup", "turn", "phase", "cards", "pieces"]


# A node class: a frozen dataclass whose ``==``, hash and repr are Node's (the dataclass ones,
# written once rather than generated per class: generating them was most of the time it took to
# import this module, which every ``meeple validate`` pays).
node = dataclass(frozen=True, slots=True, repr=False, eq=False)
_compared: dict[type, tuple[str, ...]] = {}  # a node class → its fields that ``==`` compares


@node
class Node:
    """Base of all nodes; ``span`` is where the construct stands in the file."""

    span: Span = field(default=NOWHERE, kw_only=True, compare=False, repr=False)

    def _values(self) -> tuple:
        names = _compared.get(self.__class__)
        if names is None:
            names = _compared[self.__class__] = tuple(f.name for f in fields(self) if f.compare)
        return tuple(getattr(self, n) for n in names)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
        return f"{self.__class__.__qualname__}({shown})"


@node
class Ident(Node):
    """A name as written, with its own position (for carets under the name)."""

    text: str


# A quoted text standing where a name may (a base file's path, a report's label): an ``Ident``
# whose text need not be a name (the schema gives it no name pattern).
Text = NewType("Text", Ident)


@node
class Named(Node):
    """A rule that may have a name, ``[name]`` before it: a statement, an option, an ``end when``.
    A variant changes a named rule of its base by that name (``RuleChange``)."""

    rule: Optional[Ident] = field(default=None, kw_only=True)  # (since 0.4: left out of the IR when none)


# ---- expressions -----------------------------------------------------------


@node
class Int(Node):
    """An integer literal."""

    value: int


@node
class Bool(Node):
    """``true`` or ``false``."""

    value: bool


@node
class NoneValue(Node):
    """``none``: no tile, no player, no value (a var's start before anything is chosen)."""


@node
class Name(Node):
    """A reference to a param, local, loop variable, define, enum value or built-in."""

    id: str


@node
class Call(Node):
    """``func(args...)``: a built-in query or a define with arguments."""

    func: str
    args: list[Expr]


@node
class Filtered(Node):
    """``func(zone where test)``: a zone query over the cards for which ``test`` holds."""

    func: ZoneQuery
    zone: Expr
    where: Expr


@node
class Comprehension(Node):
    """``func(body for var in domain while test where test)``: sum, max, min, any, all, count
    or first; ``while_`` stops the run over the domain at the first item for which it fails."""

    func: Aggregate
    body: Expr
    var: Ident
    domain: Domain
    where: Optional[Expr]
    while_: Optional[Expr] = None  # (since 0.3: left out of the IR when there is none)


@node
class CaseArm(Node):
    """``match: value`` inside a ``case``."""

    match: Expr
    value: Expr


@node
class Case(Node):
    """``case subject { m1: v1, m2: v2, else: default }``."""

    subject: Expr
    arms: list[CaseArm]
    default: Optional[Expr]


@node
class Attr(Node):
    """``obj.name``: an attribute of a card."""

    obj: Expr
    name: str


@node
class BinOp(Node):
    """``left op right``; ``op`` is the operator or keyword as written."""

    op: BinaryOperator
    left: Expr
    right: Expr


@node
class UnOp(Node):
    """``op operand``: ``not`` or unary minus."""

    op: UnaryOperator
    operand: Expr


@node
class Cond(Node):
    """``if test then then_ else else_``."""

    test: Expr
    then_: Expr
    else_: Expr


@node
class Domain(Node):
    """What a loop runs over: a kind of piece or enum value, a zone's cards,
    the range ``lo..hi``, or, with ``players`` set, the seats in turn order
    starting from the current player."""

    lo: Optional[Expr]
    hi: Optional[Expr]
    players: bool


Expr = Union[Int, Bool, Name, NoneValue, Call, Filtered, Comprehension, Case, Attr, BinOp, UnOp, Cond]


# ---- statements ------------------------------------------------------------


@node
class Let(Named):
    """``let name = value``: a local for the rest of the block."""

    name: Ident
    value: Expr


@node
class Set(Named):
    """``set var = value`` or ``set var(player) = value``; ``current`` sets the player to move."""

    target: Ident
    index: Optional[Expr]
    value: Expr


@node
class SetRandom(Named):
    """``set var = random domain``: a chance event, each value of the domain equally likely."""

    target: Ident
    index: Optional[Expr]
    domain: Domain


@node
class Weight(Node):
    """``value: weight`` in ``random { ... }``."""

    value: Expr
    weight: Expr


@node
class SetWeighted(Named):
    """``set var = random { a: 3, b: 1 }``: a chance event, each value as likely as its weight
    (a number) against the others' sum."""

    target: Ident
    index: Optional[Expr]
    choices: list[Weight]


@node
class Roll(Named):
    """``roll n dice of s into var``: n chance events, each die's face 1..s equally likely; the
    var gets their sum."""

    count: Expr
    sides: Expr
    target: Ident
    index: Optional[Expr]


@node
class If(Named):
    """If ``test`` holds, ``body`` runs, else ``else_``."""

    test: Expr
    body: list[Stmt]
    else_: list[Stmt]


@node
class For(Named):
    """``for var in domain while test where test { body }``: ``while_``, tested before each
    item, ends the loop at the first item for which it fails."""

    var: Ident
    domain: Domain
    where: Optional[Expr]
    body: list[Stmt]
    while_: Optional[Expr] = None  # (since 0.3: left out of the IR when there is none)


@node
class Move(Named):
    """``move piece by steps [stopping at tag]``: forward along the piece's track."""

    piece: Expr
    steps: Expr
    stop_at: Optional[Ident]


@node
class MoveTo(Named):
    """``move piece to progress``: the piece is put at that progress along its track (0: back
    to the start, or to its player's reserve)."""

    piece: Expr
    to: Expr


@node
class MoveAll(Named):
    """``move all from source to dest``: every card of one zone into another."""

    source: Expr
    dest: Expr


@node
class MoveCards(Named):
    """``move amount variety from source to dest``: that many cards of one variety (fewer if
    the source holds fewer)."""

    amount: Expr
    variety: Ident
    source: Expr
    dest: Expr


@node
class MoveWhere(Named):
    """``move amount from source to dest where test``: that many cards whose attributes pass the
    test (fewer if the source holds fewer), the varieties taken in the order they are declared."""

    amount: Expr
    source: Expr
    dest: Expr
    where: Expr


@node
class Reveal(Named):
    """``reveal what [to player]``: one card a loop or an option took from a zone, or every card
    of a zone, shown to one player (to every player without ``to``). A player who may not see
    that zone knows the cards from then on, until they leave it."""

    what: Expr
    to: Optional[Expr]


@node
class Reset(Named):
    """``reset var``: the var back to its start value (every player's, every cell's), worked out
    again as it stands."""

    var: Ident


@node
class Deal(Named):
    """``deal amount from source to dest [reshuffling pile]``: one chance draw per card."""

    amount: Expr
    source: Expr
    dest: Expr
    reshuffle: Optional[Expr]


@node
class Refill(Named):
    """``refill zone to size from source [reshuffling pile]``: draw until ``zone`` holds ``size``."""

    zone: Expr
    size: Expr
    source: Expr
    reshuffle: Optional[Expr]


@node
class Choose(Named):
    """``choose label [by player]: lo..hi cards [of one attr] from source to dest [keeping test]``.

    A decision: each distinct multiset of cards that satisfies the constraints is
    one legal action; ``keeping`` is judged as if the cards had moved."""

    label: Ident
    chooser: Optional[Expr]
    lo: Expr
    hi: Expr
    same: Optional[Ident]
    source: Expr
    dest: Expr
    keeping: Optional[Expr]


@node
class Place(Named):
    """``place label [by player]: lo..hi card from source onto grid [within d] [matching]
    [joining] as var [where test]``.

    A decision: each distinct (tile card, empty square, rotation) is one action, the
    squares being those within ``d`` steps (default 1) of a placed tile, or the
    origin on an empty grid. With ``matching``, on every side that touches a tile a
    path end meets a path end and no path end meets a side without one; with
    ``joining``, at least one path end meets one. ``var`` names the new tile in
    ``where`` (judged as if it were placed) and in the rest of the block (``none``
    when nothing was placed). When no placement is possible at all, ``otherwise`` runs
    instead of the decision (without it, the game is stuck there)."""

    label: Ident
    chooser: Optional[Expr]
    lo: Expr
    hi: Expr
    source: Expr
    grid: Ident
    within: Optional[Expr]
    matching: bool
    joining: bool
    var: Ident
    where: Optional[Expr]
    otherwise: list[Stmt]


@node
class Binding(Node):
    """``var in domain`` in an option of ``choose ... { }``."""

    var: Ident
    domain: Domain


@node
class Option(Named):
    """``name [var in domain, ...] [where test] { body }``: one kind of move in a choice."""

    name: Ident
    bindings: list[Binding]
    where: Optional[Expr]
    body: list[Stmt]


@node
class ChooseOne(Named):
    """``choose label [by player] { options }``: a decision among options; each binding of
    an option's variables for which its ``where`` holds is one action, and its body runs."""

    label: Ident
    chooser: Optional[Expr]
    options: list[Option]


@node
class Run(Named):
    """``run phase``: the phase's statements run here."""

    phase: Ident


@node
class EndGame(Named):
    """``end game``: the game ends now and is scored; ``end game with no winner``: a draw."""

    no_winner: bool


Stmt = Union[Let, Set, SetRandom, SetWeighted, Roll, If, For, Move, MoveTo, MoveAll, MoveCards, MoveWhere, Reveal,
             Reset, Deal, Refill, Choose, Place, ChooseOne, Run, EndGame]


# ---- declarations ----------------------------------------------------------


@node
class Param(Node):
    """``param name = default in lo..hi "doc"``: a number a variant or the fuzzer may turn.
    A variant sets a base param's default with ``param name = default``."""

    name: Ident
    default: int
    lo: Optional[int]  # None only in a variant that sets a base param's default (it keeps the range)
    hi: Optional[int]
    doc: str


@node
class Enum(Node):
    """``enum name { values }``: a kind of value cards can carry."""

    name: Ident
    values: list[Ident]


@node
class TileCount(Node):
    """``count tag`` in a track's tiles."""

    count: Expr
    tag: Ident


@node
class FixedTag(Node):
    """``tag at space, space, ...`` in a track: those spaces carry ``tag`` from the start."""

    tag: Ident
    spaces: list[Expr]


@node
class Track(Node):
    """A linear track: space 0 is the start, ``spaces`` follow, then the finish.

    With ``tiles``, each space gets a tag drawn at random from the listed tiles
    at the start of the game (one chance event per space); the spaces of ``fixed``
    carry their tags from the start, and get no tile."""

    name: Ident
    spaces: Expr
    tiles: list[TileCount]
    fixed: list[FixedTag] = field(default_factory=list)  # (since 0.2: left out of the IR when empty)
    loop: bool = False  # ``circuit``: after the last space comes the first (since 0.3)


@node
class Pieces(Node):
    """``pieces kind on track { values }``: one piece per value, all on the start. ``per player``:
    each player has a piece of each name (``a`` of seat 2 is the value ``a_2``), in reserve at the
    start; ``entering`` gives each seat's entry space (its piece at ``pos`` 1 stands there), and
    ``home`` the spaces of each seat's own home stretch, after a whole lap."""

    name: Ident
    track: Ident
    values: list[Ident]
    per_player: bool = False  # (since 0.3, as the fields below: left out of the IR when so)
    entering: list[Expr] = field(default_factory=list)
    home: Optional[Expr] = None


@node
class Grid(Node):
    """``grid name { tiles kind paths attr }``: an unbounded square grid on which cards of
    ``kind`` are placed as tiles; the edge sets of ``attr`` are each tile's paths."""

    name: Ident
    tiles: Ident
    paths: Ident


@node
class Board(Node):
    """``board name { columns C rows R }``: a bounded board of C × R cells, addressed by
    ``x`` (0..C-1, growing to the east) and ``y`` (0..R-1, growing to the north)."""

    name: Ident
    columns: Expr
    rows: Expr


@node
class RouteClause(Node):
    """``name[(params)] = value`` inside a ``route`` declaration."""

    name: Ident
    params: list[Ident]
    value: Expr


@node
class Route(Node):
    """``route name(params) on grid { clauses }``: a query, the longest walk along paths
    from a start, in distinct tiles; the clauses say where it starts and what stops it."""

    name: Ident
    params: list[Ident]
    grid: Ident
    clauses: list[RouteClause]


@node
class Zone(Node):
    """A container of cards, shared or one per player, ``public``, ``private`` (its owner
    sees it) or ``hidden`` (nobody sees its cards, everybody sees how many)."""

    name: Ident
    per_player: bool
    visibility: Visibility


@node
class AttrValue(Node):
    """``name = value`` on a card variety; a bare ``name`` means ``true``; ``[N S] [E W]``
    is a list of edge sets (a tile's paths, or edges it marks)."""

    name: Ident
    value: Union[int, bool, str, list[list[EdgeName]]]


@node
class Variety(Node):
    """``count name { attrs }``: identical cards of one variety."""

    count: Expr
    name: Ident
    attrs: list[AttrValue]


@node
class VarietyLoop(Node):
    """``for s in suit, r in 7..14 { 1 card { suit = s, rank = r } }`` in a ``cards`` block: the
    varieties below, once for each combination of the loops' values (``dsl/decks.py``)."""

    vars: list[Ident]
    domains: list[Domain]
    varieties: list[Variety]


@node
class Cards(Node):
    """``cards kind in zone { varieties }``: the cards of a kind and where they start."""

    name: Ident
    zone: Ident
    varieties: list[Union[Variety, VarietyLoop]]


@node
class Var(Node):
    """``var name [per player | per grid] [public | private | hidden] = init``: a value the rules
    set and read, shared, one per player, or one per tile placed on ``grid``; who sees it as a
    zone says (``private``: each player their own; ``hidden``: nobody)."""

    name: Ident
    per_player: bool
    grid: Optional[Ident]
    init: Expr
    visibility: Visibility = "public"  # (since 0.4: left out when public)


@node
class Define(Node):
    """``define name(params) = body``: a named expression, inlined where used."""

    name: Ident
    params: list[Ident]
    body: Expr


@node
class Phase(Node):
    """``phase name { body }``: statements that ``run name`` executes."""

    name: Ident
    body: list[Stmt]


@node
class PlayerExpr(Node):
    """``score(p) = expr`` and ``tiebreak(p) = expr``: a number per player."""

    player: Ident
    expr: Expr


@node
class Returns(Node):
    """``[zero_sum] returns(p) = expr``: what each player gets from a finished game (chips won or
    lost), instead of a share of the win; ``zero_sum``: the rules say they add up to 0."""

    player: Ident
    expr: Expr
    zero_sum: bool = False


@node
class Report(Node):
    """``report "label" = expr``: a statistic of a finished game, tallied by ``simulate``."""

    label: str
    expr: Expr


@node
class Show(Node):
    """``show "label" = expr`` or ``show "label"(p) = expr``: a value ``meeple play`` shows during
    play (for each player with ``player``). Display only: no observation nor bot sees more."""

    label: str
    player: Optional[Ident]
    expr: Expr


@node
class Label(Node):
    """``label name "text"``: how ``meeple play`` names a var, a card variety, a decision or an
    option (``decision.option``); ``label var hidden``: a var ``meeple play`` never shows."""

    target: Text
    text: Optional[str]


@node
class Invariant(Node):
    """``invariant name: test``: a statement about every state of every game that fuzzing
    checks after each step; ``was(e)`` in it is the value of ``e`` before the step."""

    name: Ident
    test: Expr


@node
class EndWhen(Named):
    """``end when test``: checked after every step; the game ends once it holds."""

    test: Expr


@node
class RangeDecl(Node):
    """``players lo..hi``."""

    lo: int
    hi: int


@node
class Change(Node):
    """In a variant: ``replace <declaration>`` (``action`` "replace"; the declaration itself is in its
    list as usual) or ``remove <kind> <name>`` ("remove"). ``kind`` is the declaration's keyword;
    ``name`` is None for what a game has one of (``setup``, ``turn``, ``players``, ...)."""

    action: ChangeAction
    kind: str
    name: Optional[Text]


@node
class RuleChange(Node):
    """In a variant: ``replace [name] ...``, ``remove [name]``, ``insert before [name] ...`` or
    ``insert after [name] ...`` of the base's rule of that name (a statement, an option or an
    ``end when``; a decision is named by its label, an option also by ``decision.option``). What
    comes in its place, or beside it, is ``body`` (statements), ``options`` or ``end`` (the test of
    an ``end when``). ``rule`` None: the base's only ``end when`` (``replace end when ...``,
    ``remove end when``)."""

    action: RuleAction
    rule: Optional[Text]  # (a name, or decision.option)
    body: list[Stmt]
    options: list[Option]
    end: Optional[Expr]


@node
class Extension(Node):
    """In a variant: ``extend setup|turn { ... }``, ``extend phase name { ... }`` (statements after
    the block's own), ``extend cards kind { varieties }``, ``extend pieces kind { values }`` (after
    the base's)."""

    part: ExtendedPart
    name: Optional[Ident]
    body: list[Stmt]
    varieties: list[Union[Variety, VarietyLoop]]
    values: list[Ident]


@node
class RulesFile(Node):
    """A whole rules file; list fields keep declaration order. A variant names its base in
    ``extends`` and lists its replacements and removals in ``changes``."""

    extends: Optional[Text]
    changes: list[Change]
    title: str
    players: Optional[RangeDecl]
    max_steps: int
    params: list[Param]
    enums: list[Enum]
    tracks: list[Track]
    pieces: list[Pieces]
    grids: list[Grid]
    routes: list[Route]
    zones: list[Zone]
    cards: list[Cards]
    vars: list[Var]
    defines: list[Define]
    setup: list[Stmt]
    turn: list[Stmt]
    phases: list[Phase]
    end: list[EndWhen]
    score: Optional[PlayerExpr]
    tiebreak: Optional[PlayerExpr]
    reports: list[Report]
    invariants: list[Invariant]
    # where `max_steps N` stands (a plain number has no node of its own): "max_steps" in the document's "at"
    max_steps_at: Optional[Span] = field(default=None, kw_only=True, compare=False, repr=False)
    # where `turn { ... }` stands (a block is a list, with no node of its own): "turn" in the document's "at"
    turn_at: Optional[Span] = field(default=None, kw_only=True, compare=False, repr=False)
    boards: list[Board] = field(default_factory=list, kw_only=True)  # (since 0.3: left out when empty)
    returns: Optional[Returns] = field(default=None, kw_only=True)  # (since 0.4: left out when none)
    rule_changes: list[RuleChange] = field(default_factory=list, kw_only=True)  # (since 0.4: left out when empty)
    extensions: list[Extension] = field(default_factory=list, kw_only=True)  # (since 0.4: left out when empty)
    shows: list[Show] = field(default_factory=list, kw_only=True)  # (since 0.4: left out when empty)
    labels: list[Label] = field(default_factory=list, kw_only=True)  # (since 0.4: left out when empty)
