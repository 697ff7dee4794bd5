"""Game records: one game as JSON lines, and replaying one to check it still plays out the same.

A record is::

    {"meeple_record": 2, "rules": "games/x.rules", "rules_hash": "<sha256>", "params": {...}, "players": 4}
    {"actor": "chance", "action": "deal ..."}
    {"actor": 2, "action": "play ..."}
    {"actor": "chance", "action": "die 4 into face", "for": 1}
    ...
    {"result": {"outcome": "end", "winners": [2], "scores": [...], "turns": 54, "final_state_hash": "<sha256>"}}

A chance step that sets a per-player var (``roll 1 dice of 6 into face(p)``, ``set favourite(p) =
random quarter``) says whose it is: ``for``, the seat (its text names only the var). Records made
before meeple wrote it have none; replay checks it where it is.

``rules`` is the path as it was given when the record was made; replay looks for
it as given, then relative to the record's folder. Replay starts a state with
``chance="explicit"`` and applies every line in order, chance outcomes included,
so it needs no seed and checks the engine end to end.

A record is read as it is written: every key above (``rules_hash`` may be missing, said by a
warning at replay; a param of the rules that ``params`` leaves out is replayed with its default,
with a warning), no other, and no number that is not whole (``4.0``, which Python would take
for ``4``). A mistake in a line is told at its column, the line shown with a caret.

``final_state_hash`` is a hash of where the game stands (zones, vars, pieces, turn, ...). In
records of version 1 it also covered the engine's own bookkeeping (its program counter and
locals), which depends on how meeple compiles the rules: those records replay and are compared
on everything else, and the hash is left out of the comparison, with a warning.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meeple.dsl import RepeatedKey, is_text, object_once, repeated_keys

from .events import a_game, a_state

if TYPE_CHECKING:
    from meeple.interpreter.game import Game
    from meeple.interpreter.state import State

RECORD_VERSION = 2
READ_VERSIONS = (1, 2)  # version 1: the final state's hash covers the engine's program counter and locals
CHANCE_ACTOR = "chance"


class RecordError(Exception):
    """A record that cannot be read (missing, not JSON lines, wrong shape)."""


def _strings(doc: Any) -> list[str]:
    """The strings of a JSON document, keys included."""
    if isinstance(doc, str):
        return [doc]
    if isinstance(doc, dict):
        return [*doc, *(s for v in doc.values() for s in _strings(v))]
    if isinstance(doc, list):
        return [s for v in doc for s in _strings(v)]
    return []


@dataclass
class Record:
    rules: str
    rules_hash: str
    params: dict[str, int]
    players: int
    actions: list[tuple[int | str, str]]
    result: dict[str, Any]
    path: str = ""
    lines: list[int] = field(default_factory=list)  # the record's line of each action (1-based)
    result_line: int = 0
    version: int = RECORD_VERSION
    owners: dict[int, int] = field(default_factory=dict)  # action (0-based) → the seat a chance step is for

    def at(self, line: int) -> str:
        """``RECORD:LINE``, how a message names a place in the record."""
        return f"{self.path}:{line}" if line else self.path


@dataclass
class ReplayReport:
    """What replaying a record found. ``ok`` when every step and the final result match."""

    ok: bool
    steps: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    first_difference: int | None = None  # 1-based action line, or None (the result differed / no step)
    # the first invariant the game broke: (step, name, what, where it is declared)
    broken: tuple[int, str, str, list | None] | None = None
    finished: bool = True  # the game replayed is over (a game left in the middle is not)
    loaded: bool = True  # the rules loaded (else nothing was replayed: the problems say why)
    started: bool = True  # the record's game could start with them (its players fit the rules)


# ---- writing ----
def _writable(game: Any, state: Any, params: Any, rules: Any, then: Any) -> None:
    """The arguments of ``record_lines`` and ``write_record``, each what it should be (else a
    ``TypeError`` or ``ValueError`` that says what was expected)."""
    from meeple.dsl import given_params
    a_game(game)
    a_state(state, game)
    given_params(params)
    if rules is not None and not isinstance(rules, (str, Path)):
        raise TypeError(f"rules is the path of the rules file (str) or None, not {type(rules).__name__}")
    if not isinstance(then, (tuple, list)) or not all(
            isinstance(t, (tuple, list)) and len(t) == 2 and isinstance(t[0], (int, str)) and isinstance(t[1], str)
            for t in then):
        raise TypeError(f"then is a tuple of (actor, move text) pairs, not {then!r}"[:200])


def state_hash(state: State) -> str:
    """A hash of where the game stands: ``to_json()`` without the history, the random generator,
    the document's own format and game hash, and the engine's bookkeeping (program counter, locals),
    which depends on how meeple compiles the rules rather than on the game."""
    a_state(state)
    doc = {k: v for k, v in state.to_json().items()
           if k not in ("history", "rng", "meeple_state", "game", "program", "pc", "locals")}
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def result_of(state: State) -> dict[str, Any]:
    """The record's final line for ``state``."""
    a_state(state)
    scores = state.scores() if state.game.score is not None else []
    return {
        "outcome": state.outcome,
        "winners": list(state.winners()),
        "scores": list(scores),
        "turns": state.turns,
        "final_state_hash": state_hash(state),
    }


def record_lines(game: Game, state: State, params: dict[str, int] | None = None,
                 rules: str | None = None, then: tuple[tuple[int | str, str], ...] = ()) -> list[str]:
    _writable(game, state, params, rules, then)
    header = {
        "meeple_record": RECORD_VERSION,
        "rules": str(rules) if rules is not None else game.source_path,
        "rules_hash": game.source_hash,
        "params": dict(params if params is not None else game.params),
        "players": state.players,
    }
    lines = [json.dumps(header)]
    owners = chance_owners(game, state)
    lines.extend(json.dumps({"actor": actor, "action": text, **({"for": owners[i]} if i in owners else {})})
                 for i, (actor, text) in enumerate([*state.history(), *then]))
    lines.append(json.dumps({"result": result_of(state)}))
    return lines


def chance_owners(game: Game, state: State) -> dict[int, int]:
    """For each chance step of ``state``'s history that sets a per-player var, the seat it is for
    (``events.chance_owner``), by the step's index; the game is played again from its start to
    find them, only when its rules have such a step."""
    from meeple.dsl.diagnostics import RuleRuntimeError
    from meeple.interpreter.state import CHANCE, IllegalAction

    from .events import chance_owner, per_player_chance
    owned = per_player_chance(game)
    if not owned:
        return {}
    # (no further than the last step of such a var, when the state's log names each step's kind)
    log = getattr(state, "log", None)
    last = max((i for i, (_, kind, _) in enumerate(log) if getattr(kind, "target", None) in owned), default=-1) \
        if isinstance(log, list) else None
    owners: dict[int, int] = {}
    walk = game.new_state(state.players, chance="explicit")
    try:
        for i, (actor, text) in enumerate(state.history()):
            if last is not None and i > last:
                break
            if actor == CHANCE_ACTOR and walk.current_player() == CHANCE:
                seat = chance_owner(game, walk)
                if seat is not None:
                    owners[i] = seat
            walk.apply(text)
    except (RuleRuntimeError, IllegalAction):  # a step that fails (the game's last): the seats found so far
        pass
    return owners


def write_record(path: str | Path, game: Game, state: State, params: dict[str, int] | None = None,
                 rules: str | None = None, then: tuple[tuple[int | str, str], ...] = ()) -> None:
    """Write ``state``'s game (its whole history and result) to ``path`` as JSON lines.

    ``params`` defaults to the game's parameter values; ``rules`` to the path the game was loaded from;
    ``then`` are (actor, action) lines after the history (a move that fails: replay stops there)."""
    if not isinstance(path, (str, Path)):
        raise TypeError(f"write_record takes a path, not {type(path).__name__}")
    _writable(game, state, params, rules, then)
    Path(path).write_text("\n".join(record_lines(game, state, params, rules, then)) + "\n", encoding="utf-8")


# ---- reading ----
HEADER_KEYS = ("meeple_record", "rules", "rules_hash", "params", "players")
ACTION_KEYS = ("actor", "action", "for")  # ('for': a chance step's seat, where it has one)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# the keys of a record's result: what each holds, and how a message says it
RESULT_KEYS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "outcome": (lambda v: v is None or isinstance(v, str), "a string or null"),
    "winners": (lambda v: isinstance(v, list) and all(map(_whole, v)), "a list of seat numbers"),
    "scores": (lambda v: isinstance(v, list) and all(map(_whole, v)), "a list of whole numbers"),
    "turns": (_whole, "a whole number"),
    "final_state_hash": (lambda v: isinstance(v, str), "a string"),
}


class _BadNumber(ValueError):
    """A number no record holds (too long, or not a whole number), ``token`` as the line writes it."""

    def __init__(self, token: str, problem: str):
        super().__init__(problem)
        self.token = token


def read_record(path: str | Path) -> Record:
    """Read and check the shape of a record. Raises ``RecordError`` with a readable message that
    names the record's line and, for a mistake in a line, its column, with the line shown and a
    caret under the key or value at fault."""
    import difflib

    from meeple.dsl.diagnostics import quoted_line
    from meeple.dsl.limits import MAX_NUMBER, MAX_PLAYERS

    from .limits import MAX_RECORD_BYTES, MAX_RECORD_LINES, MAX_RECORD_PARAMS
    if not isinstance(path, (str, Path)):  # (open() takes a number as a file descriptor)
        raise TypeError(f"read_record takes a path, not {type(path).__name__}")
    where = str(path) if str(path).isprintable() else repr(str(path))  # (an escape in a name: shown, not obeyed)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)  # no more: a record is never larger
    except OSError as e:
        raise RecordError(f"{where}: cannot read the record: {e.strerror or e}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: the record is larger than {MAX_RECORD_BYTES:,} bytes; no game's record is")
    try:
        text = data.decode("utf-8-sig")  # (a byte-order mark some editors write is not part of it)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RecordError(f"{where}:{line}: the record is not UTF-8 text (byte {e.start})") from None
    lines_in_all = text.count("\n") + (not text.endswith("\n"))
    if lines_in_all > MAX_RECORD_LINES:
        raise RecordError(f"{where}: the record has {lines_in_all:,} lines; a game's record has at most "
                          f"{MAX_RECORD_LINES:,} (a header, a line per step, a result)")

    def number(digits: str) -> int:
        if len(digits.lstrip("-")) > len(str(MAX_NUMBER)):
            raise _BadNumber(digits, f"a number of {len(digits.lstrip('-')):,} digits is too large "
                                     f"(at most {MAX_NUMBER:,})")
        return int(digits)

    def not_whole(token: str) -> Any:  # (2.0, 1e3, NaN: a record's numbers are all whole)
        raise _BadNumber(token, f"{_shown_path(token, 40)} is not a whole number (a record's numbers all are)")

    def bad(n: int, line: str, message: str, at: tuple[str | int, ...] = (), key: bool = False,
            col: int = 0) -> RecordError:
        """The error ``message`` of line ``n``, whose text is ``line``, at column ``col`` or else at the
        value (``key``: the key) the JSON path ``at`` names: the line is shown, with a caret there."""
        col = col or _column(line, at, key)
        return RecordError(f"{where}:{n}:{col}: {message}\n{quoted_line(n, line.rstrip(chr(13)), col)}")

    def parsed(n: int, line: str) -> Any:
        try:
            doc = json.loads(line, parse_int=number, parse_float=not_whole, parse_constant=not_whole,
                             object_pairs_hook=object_once)
            if "\\u" in line and not all(map(is_text, _strings(doc))):  # (a lone surrogate escape, '\\ud800')
                raise RecordError(f"{where}:{n}: a string holds half of a UTF-16 surrogate pair (a '\\ud800' "
                                  f"escape alone): it is no text")
            return doc
        except RepeatedKey:
            key, _, col = (repeated_keys(line) or [("?", 1, 1)])[0]
            raise bad(n, line, f"key {json.dumps(key)[:60]} appears twice in one object (JSON would keep only "
                               f"the last)", col=col) from None
        except json.JSONDecodeError as e:
            if n == 1 and not line.lstrip().startswith("{"):
                raise RecordError(f"{where}:1: this is not a game record (JSON lines, as 'meeple simulate --records' "
                                  f"and 'meeple fuzz' write them){_looks_like(line)}") from None
            if n == 1 and line.strip() == "{":
                raise RecordError(f"{where}:1: this is not a game record but a JSON document spread over "
                                  f"lines (an IR document? 'meeple replay' takes a record, one JSON object per "
                                  f"line)") from None
            cut = " (the record was cut short?)" if n == lines_in_all and not text.endswith("\n") else ""
            raise bad(n, line, f"not a JSON line: {e.msg}{cut}", col=e.colno) from None
        except RecursionError:
            raise RecordError(f"{where}:{n}: not a JSON line: nested too deeply") from None
        except _BadNumber as e:
            at, col = next(((at, col) for at, col, token, key in _places(line) if not key and token == e.token),
                           ((), 0))
            raise bad(n, line, f"{_field(at)}: {e}" if at else str(e), col=col) from None

    def known_keys(n: int, line: str, doc: dict[str, Any], keys: tuple[str, ...], what: str,
                   at: tuple[str, ...] = ()) -> None:
        """Every key of ``doc`` (at ``at`` in line ``n``) is one of ``keys``: a key a hand added or
        misspelt is said, never passed over."""
        extra = next((k for k in doc if k not in keys), None)
        if extra is not None:
            close = difflib.get_close_matches(extra, keys, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"its keys are {', '.join(keys)}"
            raise bad(n, line, f"{what} has a key {json.dumps(extra)[:60]} that no record has ({hint})",
                      (*at, extra), key=True)

    # one line at a time, kept only as what it says (a record may have a million lines)
    numbered = ((n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip())
    first = next(numbered, None)
    if first is None:
        raise RecordError(f"{where}: the record is empty")
    n, line = first
    header = parsed(n, line)
    if not isinstance(header, dict) or header.get("meeple_record") is None:
        what = " (it is an IR document: 'meeple replay' takes a game record)" \
            if isinstance(header, dict) and "meeple" in header else ""
        raise RecordError(f"{where}:{n}: the first line is not a meeple record header "
                          f'(expected {{"meeple_record": {RECORD_VERSION}, ...}})' + what)
    if header["meeple_record"] not in READ_VERSIONS or isinstance(header["meeple_record"], bool):
        raise bad(n, line, f"record version {_cut(header['meeple_record'])} is not supported "
                           f"(this meeple reads versions {', '.join(map(str, READ_VERSIONS))})", ("meeple_record",))
    known_keys(n, line, header, HEADER_KEYS, "the header")
    missing = next((k for k in HEADER_KEYS if k not in header and k != "rules_hash"), None)  # (see _replay)
    if missing is not None:
        raise bad(n, line, f"the header has no '{missing}' (a record's header has "
                           f"{', '.join(HEADER_KEYS[:-1])} and {HEADER_KEYS[-1]})")
    rules, players, params = header["rules"], header["players"], header["params"]
    if not isinstance(rules, str) or not rules:
        raise bad(n, line, f"the header's 'rules' must be the path of the rules file, a string, not {_cut(rules)}"
                  if rules != "" else "the header's 'rules' is empty: it is the path of the rules file", ("rules",))
    if "\0" in rules:
        raise bad(n, line, "the header's 'rules' path holds a NUL character: no file has such a name", ("rules",))
    if not _whole(players):
        raise bad(n, line, "the header's 'players' is not a number", ("players",))
    if not 1 <= players <= MAX_PLAYERS:
        raise bad(n, line, f"the header's 'players' is {players}; a game has 1..{MAX_PLAYERS} players",
                  ("players",))
    if not isinstance(params, dict):
        raise bad(n, line, "the header's 'params' must map names to whole numbers", ("params",))
    wrong = next((k for k, v in params.items() if not _whole(v)), None)
    if wrong is not None:
        raise bad(n, line, f"the header's 'params' must map names to whole numbers: {_field(('params', wrong))} "
                           f"is {_cut(params[wrong])}", ("params", wrong))
    if len(params) > MAX_RECORD_PARAMS:
        raise bad(n, line, f"the header names {len(params):,} params; a record may name at most "
                           f"{MAX_RECORD_PARAMS:,}", ("params",))
    rules_hash = header.get("rules_hash", "")
    if not isinstance(rules_hash, str):
        raise bad(n, line, "the header's 'rules_hash' is not a string", ("rules_hash",))

    actions: list[tuple[int | str, str]] = []
    owners: dict[int, int] = {}
    lines: list[int] = []
    result: dict[str, Any] | None = None
    result_line = 0
    for n, line in numbered:
        doc = parsed(n, line)
        if result is not None:
            raise bad(n, line, "a line after the result line")
        if isinstance(doc, dict) and "result" in doc:
            result, result_line = doc["result"], n
            known_keys(n, line, doc, ("result",), "the result line")
            if not isinstance(result, dict):
                raise bad(n, line, "'result' is not an object", ("result",))
            known_keys(n, line, result, tuple(RESULT_KEYS), "the result", ("result",))
            for key, value in result.items():
                holds, what = RESULT_KEYS[key]
                if not holds(value):
                    raise bad(n, line, f"the result's '{key}' must be {what}", ("result", key))
            continue
        if not isinstance(doc, dict) or "actor" not in doc or not isinstance(doc.get("action"), str):
            raise bad(n, line, 'expected an action line {"actor": seat or "chance", "action": "..."}')
        known_keys(n, line, doc, ACTION_KEYS, "an action line")
        actor = doc["actor"]
        if not (actor == CHANCE_ACTOR or _whole(actor)):
            raise bad(n, line, f"the actor must be a seat number or \"chance\", not {_cut(actor)}", ("actor",))
        if isinstance(actor, int) and not 0 <= actor < players:
            raise bad(n, line, f"seat {actor} does not exist: the record is of {players} players, "
                               f"seats 0..{players - 1}", ("actor",))
        if "for" in doc:
            owner = doc["for"]
            if actor != CHANCE_ACTOR:
                raise bad(n, line, "'for' names the seat a chance step is for; a seat's own move has none",
                          ("for",), key=True)
            if not _whole(owner) or not 0 <= owner < players:
                raise bad(n, line, f"'for' is the seat the chance step is for, 0..{players - 1}, not {_cut(owner)}",
                          ("for",))
            owners[len(actions)] = owner
        actions.append((actor, doc["action"]))
        lines.append(n)
    if result is None:
        raise RecordError(f"{where}: the record has no result line (was it cut short?)")
    return Record(rules, rules_hash, dict(params), players, actions, result, where, lines, result_line,
                  header["meeple_record"], owners)


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


def _places(line: str) -> Iterator[tuple[tuple[str | int, ...], int, str, bool]]:
    """Each key and value of the JSON ``line``, in order: its JSON path, its column, its text as
    written, and whether it is a key (a plain scan, for the place a message points at)."""
    open_: list[list[Any]] = []  # per open bracket: '{' or '[', and the key or index within it
    key_next = False
    for m in _TOKEN.finditer(line):
        token, col = m.group(), m.start() + 1
        if token in "}]":
            if open_:
                open_.pop()
        elif token == ",":
            if open_ and open_[-1][0] == "[":
                open_[-1][1] += 1
            key_next = bool(open_) and open_[-1][0] == "{"
        elif token != ":":
            if key_next:
                with contextlib.suppress(ValueError):
                    open_[-1][1] = json.loads(token)
                yield tuple(at for _, at in open_), col, token, True
            else:
                yield tuple(at for _, at in open_), col, token, False
                if token in "{[":
                    open_.append([token, 0 if token == "[" else None])
            key_next = token == "{"


def _column(line: str, at: tuple[str | int, ...], key: bool = False) -> int:
    """The column of the value (``key``: the key) at the JSON path ``at`` in ``line``; else where it starts."""
    return next((col for place, col, _, is_key in _places(line) if place == at and is_key == key),
                len(line) - len(line.lstrip()) + 1)


def _field(at: tuple[str | int, ...]) -> str:
    """A JSON path of a record's line as a message names it: 'params.goal', 'result.scores[1]'."""
    from meeple.dsl.diagnostics import printable
    return "'" + printable("".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in at).lstrip(".")) + "'"


def _cut(value: Any, limit: int = 60) -> str:
    """A value of a record, as a message shows it: as JSON writes it (the record's own form), its
    control characters escaped, cut when long."""
    from meeple.dsl.diagnostics import printable
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # (a record's values are JSON's; anything else as Python shows it)
        text = repr(value)
    text = printable(text)
    return text if len(text) <= limit else text[:limit] + "..."


def _looks_like(line: str) -> str:
    """What a file given as a record seems to be instead, when its first line tells."""
    words = line.split()
    if words and words[0] in ("game", "players", "extends", "param", "zone", "cards", "var", "#"):
        return "; this looks like a rules file: 'meeple play' or 'meeple simulate' run it"
    return ""


def resolve_rules(record: Record) -> Path | None:
    """The rules file: as given, else relative to the record's folder."""
    given = Path(record.rules)
    if _exists(given):
        return given
    if not given.is_absolute() and record.path:
        beside = Path(record.path).parent / given
        if _exists(beside):
            return beside
    return None


def _exists(path: Path) -> bool:
    try:  # (a name too long for the machine, a NUL in it: no such file either)
        return path.exists()
    except (OSError, ValueError):
        return False


def _shown_path(path: Any, most: int = 200) -> str:
    """A path a record names, as a message shows it: its control characters escaped, cut short."""
    from meeple.dsl.diagnostics import printable
    text = str(path)
    if len(text) > most:
        text = f"{text[:most // 2]}...{text[-most // 2:]} ({len(text):,} characters)"
    return printable(text)


def told_apart(game: Any, before: Any, text: str, seen: dict[str, Any], seat: int) -> bool:
    """Can ``seat`` tell the step ``text`` taken from ``before`` from every other step that could
    have been taken there (the other chance outcomes, the other legal moves)? ``seen``: its view
    after the step. A card dealt to its own hand, from a hidden deck, it can: what it sees names it."""
    from meeple.interpreter.state import CHANCE
    others = [a.text for a, _ in before.chance_outcomes()] if before.current_player() == CHANCE else \
        [a.text for a in before.legal_actions()]
    if len(others) > 64:  # (each is played out on a copy: past that, said hidden)
        return False
    for other in others:
        if other == text:
            continue
        alt = before.clone(log=False)
        try:
            alt.apply(other)
        except Exception:  # noqa: BLE001 -- a step that fails there tells nothing apart
            continue
        if game.observe(alt, seat) == seen:
            return False
    return True


def _hidden_from(seat: int, actor: Any, label: str | None, text: str, game: Any, visible: dict[str, Any],
                 before: Any, seen: dict[str, Any], everything_before: dict[str, Any],
                 everything: dict[str, Any]) -> bool:
    """Is the step ``text`` (taken from ``before``) hidden from ``seat``, which sees ``seen`` after
    it? Another seat's move as ``meeple play`` judges it, by what its option or decision can do
    (``events.move_visibility``: the moves the actor could have made depend on what it holds, so
    they would tell ``seat`` more than it may know); a chance step when ``seat`` could not tell it
    from each other outcome, or when it was the only one and changed what ``seat`` cannot see."""
    from .events import move_shown
    if actor != CHANCE_ACTOR:
        return not move_shown(visible, label, text)
    return hidden_chance(game, before, text, seen, seat, everything_before, everything)


def hidden_chance(game: Any, before: Any, text: str, seen: dict[str, Any], seat: int,
                  everything_before: dict[str, Any], everything: dict[str, Any]) -> bool:
    """Is the chance step ``text``, taken from ``before``, hidden from ``seat``, which sees ``seen``
    after it? When ``seat`` could not tell it from each other outcome, or when it was the only one
    and changed what ``seat`` cannot see (``everything_before``, ``everything``: the whole game's
    observations around it)."""
    from .events import unseen_change
    if not told_apart(game, before, text, seen, seat):
        return True
    return len(before.chance_outcomes()) == 1 and unseen_change(everything_before, everything, seen)


# ---- replaying ----
def _actor_name(actor: int | str) -> str:
    return "chance" if actor == CHANCE_ACTOR else f"seat {actor}"


def replay_record(record: Record | str | Path, verbose: Callable[[str], None] | None = None,
                  seat: int | None = None) -> ReplayReport:
    """Replay ``record`` (a ``Record`` or a path) with explicit chance and compare every step and the result.

    The invariants are checked after every step (no card created or lost, the rules' own); the first
    one broken is in ``report.broken`` (a game that ``meeple fuzz`` found breaks one).

    Raises ``RecordError`` for an unreadable record; a rules file that does not load is a problem in the
    report (not an exception). ``verbose``, when given, receives one line per step, then what the step
    did (``tools/events.py``) as ``seat`` sees it (None: everything), and at the end why the game ended.
    A replay that runs past ``limits.MAX_GAME_SECONDS`` stops there, a problem of the report."""
    from .limits import GameTooLong, time_limit
    if not isinstance(record, (Record, str, Path)):
        raise TypeError(f"replay_record takes a Record or a path, not {type(record).__name__}")
    from meeple.interpreter.state import whole_number
    if seat is not None and not whole_number(seat):
        raise TypeError(f"seat is a whole number or None, not {seat!r}")
    rec = record if isinstance(record, Record) else read_record(record)
    try:
        with time_limit():
            return _replay(rec, verbose, seat)
    except GameTooLong as e:
        report = ReplayReport(ok=False)
        report.problems.append(f"{rec.path or 'the record'}: {e}")
        return report


def _replay(rec: Record, verbose: Callable[[str], None] | None, seat: int | None) -> ReplayReport:
    """``replay_record`` of a record read."""
    from meeple.dsl.diagnostics import RuleRuntimeError, RulesError

    from meeple.interpreter import load
    from meeple.interpreter.state import CHANCE, TERMINAL, IllegalAction

    report = ReplayReport(ok=False)
    rules_path = resolve_rules(rec)
    if rules_path is None:
        where = f" (nor beside the record, in {_shown_path(Path(rec.path).parent)})" if rec.path else ""
        report.problems.append(f"{rec.at(1)}: the rules file {_shown_path(rec.rules)} was not found{where}")
        report.loaded = False
        return report
    header = rec.at(1)
    try:
        game = load(str(rules_path), rec.params or None)
    except RulesError as e:
        if rec.rules_hash and all(d.param for d in e.diagnostics if d.kind == "error"):
            report.problems.append(f"{header}: the record was made with other rules than {rules_path}: its params "
                                   f"do not fit them:\n{e}")
        elif rules_path.suffix not in (".rules", ".json"):  # not rules by its name nor its text: not shown
            report.problems.append(f"{header}: the record names {rules_path} as its rules, which is not a rules "
                                   f"file (it does not load as one): a record names a rules file (.rules) or an IR "
                                   f"file (.json)")
        else:
            report.problems.append(f"the rules file {rules_path} does not load:\n{e}")
        report.loaded = False
        return report
    if rec.rules_hash and game.source_hash and rec.rules_hash != game.source_hash:
        report.warnings.append(f"{header}: {rules_path} has changed since the record was made (its rules_hash "
                               f"differs), or the record is of other rules: the replay may part from it")
    elif not rec.rules_hash:
        report.warnings.append(f"{header}: the record has no rules_hash (meeple writes one): whether {rules_path} "
                               f"changed since the record was made is not checked")
    unsaid = [p["name"] for p in game.ir["params"] if p["name"] not in rec.params]
    if unsaid:  # (meeple writes every param's value: a record cut by hand, or made with rules that had fewer)
        values = ", ".join(f"{name} = {game.params[name]}" for name in unsaid)
        defaults = "defaults" if len(unsaid) > 1 else "default"
        report.warnings.append(f"{header}: the header's 'params' gives no value for {_some('param', unsaid)} (meeple "
                               f"writes every param's value): replayed with the rules' {defaults}, {values}")
    listener = None
    if verbose is not None:
        from .events import Listener, changes, labelled_cards, labelled_move, move_visibility
        visible = move_visibility(game)
        if seat is not None and not 0 <= seat < rec.players:
            report.problems.append(f"{header}: the record has seats 0..{rec.players - 1}, not {seat}")
            return report
        listener = Listener(game, rec.players)
    try:
        state = game.new_state(rec.players, chance="explicit", listen=listener)
    except ValueError as e:
        report.problems.append(f"{header}: the header's 'players' is {rec.players}, and {e}")
        report.started = False
        return report

    from meeple.interpreter.invariants import broken_after, total_cards

    from .events import cell_chance, chance_hidden_from, chance_owner, owned_chance, per_player_chance
    owned = per_player_chance(game)  # (a chance step may be some seat's: the record may say whose)
    cards = total_cards(state)
    failed = broken_after(game, state, state, cards)  # (a game may end with no step at all)
    if failed is not None:
        report.broken = (0, *failed)
    if verbose is not None:
        seen, everything = game.observe(state, seat), game.observe(state, None)
    for i, (actor, text) in enumerate(rec.actions, 1):
        before = state.clone(log=False)  # (for the invariants; the log would make each step cost the game so far)
        now = state.current_player()
        step = f"{rec.at(rec.lines[i - 1] if i <= len(rec.lines) else 0)}: step {i} ({_actor_name(actor)}: " \
               f"{_shown_path(text, 80)})"
        if now == TERMINAL:
            return _fail(report, i, f"{step}: the game is already over ({state.outcome}); "
                                    f"the record has {len(rec.actions) - i + 1} more action(s)")
        expected = CHANCE_ACTOR if now == CHANCE else now
        if expected != actor:
            return _fail(report, i, f"{step}: the record says {_actor_name(actor)} acts, "
                                    f"but {_actor_name(expected)} is to act")
        label = state.decision()
        owner = chance_owner(game, state) if owned and actor == CHANCE_ACTOR and \
            (verbose is not None or i - 1 in rec.owners) else None
        if i - 1 in rec.owners and owner != rec.owners[i - 1]:
            return _fail(report, i, f"{step}: the record says the chance step is for seat {rec.owners[i - 1]}, "
                                    f"but it is " + ("no seat's" if owner is None else f"for seat {owner}"))
        try:
            state.apply(text)
        except IllegalAction as e:
            return _fail(report, i, f"{step}: illegal here: {e}")
        except (RuleRuntimeError, ValueError, IndexError, KeyError, ZeroDivisionError) as e:
            return _fail(report, i, f"{step}: a rule failed: {e}")
        report.steps = i
        if verbose is not None:
            now_seen, now_everything = game.observe(state, seat), game.observe(state, None)
            if owner is not None:  # (a chance step of some seat's: hidden where that seat's value is)
                hidden = seat is not None and chance_hidden_from(game, before, owner, seat)
            else:
                hidden = seat is not None and actor != seat and _hidden_from(
                    seat, actor, label, state.history()[-1][1], game, visible, before, now_seen, everything,
                    now_everything)
            if hidden:
                text = f"{label or 'a move'} (hidden from seat {seat})" if actor != CHANCE_ACTOR else \
                    f"(hidden from seat {seat})" if owner is None else \
                    f"{owned_chance(game, before, text, owner, hidden=True)} (hidden from seat {seat})"
            else:  # (as 'meeple play' names it: by the rules' labels)
                text = labelled_move(game, before, text) if actor != CHANCE_ACTOR else \
                    labelled_cards(game, cell_chance(game, before, text) if owner is None else
                                   owned_chance(game, before, text, owner))
            verbose(f"{i:>6}  {_actor_name(actor):<8} {text}")
            for line in changes(seen, now_seen, game.labels, game.checked.var_types, listener.take()):
                verbose(f"{'':>6}  {'':<8} · {line}")
            seen, everything = now_seen, now_everything
        failed = broken_after(game, state, before, cards) if report.broken is None else None
        if failed is not None:
            report.broken = (i, *failed)

    if verbose is not None and state.outcome is not None:
        verbose(f"game over: {state.outcome}")
        for what, text in (("why", game.why_ended(state, listener.end_at)), ("won by", game.why_won(state))):
            if text:
                verbose(f"  {what}: {text}")
    if report.broken is None:
        report.broken = _stalled(state, report.steps)
    got = result_of(state)
    at = rec.at(rec.result_line)
    for key in ("outcome", "winners", "scores", "turns", "final_state_hash"):
        if key == "final_state_hash" and rec.version == 1 and key in rec.result:
            report.warnings.append(f"{at}: the final state's hash is not compared: a record of version 1 hashes "
                                   f"the engine's program counter and locals too, which this meeple lays out "
                                   f"differently (outcome, winners, scores and turns are compared)")
            continue
        if key not in rec.result:
            report.problems.append(f"{at}: the record's result has no '{key}'")
        elif rec.result[key] != got[key]:
            report.problems.append(f"{at}: result {key}: the record says {_cut(rec.result[key], 200)}, the replay "
                                   f"gives {_cut(got[key], 200)}")
    report.ok = not report.problems
    report.finished = state.outcome is not None
    return report


def _some(what: str, names: list[str], most: int = 5) -> str:
    """``param 'goal'``, ``params 'a', 'b'`` (the first ``most`` of many, and how many more)."""
    shown = ", ".join(f"'{_shown_path(n, 60)}'" for n in names[:most])
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return f"{what}{'s' * (len(names) > 1)} {shown}{more}"


def _stalled(state: State, steps: int) -> tuple[int, str, str, None] | None:
    """The built-in invariant a game that stops here breaks: stuck, stopped by the step cap, or
    ended with results that fail (a score that is a rules error, returns declared zero_sum that
    do not add up to 0), as ``meeple fuzz`` judges them."""
    from meeple.dsl.diagnostics import RuleRuntimeError
    if state.outcome == "step cap":
        return steps, "ends within the step cap", f"the game reached its step cap ({steps} steps)", None
    if state.outcome is not None:
        try:
            state.returns()
            state.scores()
        except RuleRuntimeError as e:
            return steps, "results", f"the game ended, but its results fail: {e}", None
    if state.outcome is None and not state.is_chance_node() and not state.legal_actions():
        return (steps, "never stuck", f"seat {state.current_player()} is to decide '{state.decision()}' "
                                      f"but has no legal move", None)
    return None


def _fail(report: ReplayReport, step: int, message: str) -> ReplayReport:
    report.first_difference = step
    report.problems.append(message)
    report.ok = False
    return report
