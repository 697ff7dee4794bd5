"""A game in progress (``State``): plain data plus the program counter.

Run-time contract (OpenSpiel-like): ``current_player`` is a seat, ``CHANCE`` or
``TERMINAL``; ``legal_actions`` at a decision, ``chance_outcomes`` at a chance
node; ``apply`` takes an ``Action`` or its text. With a seed the state samples
chance itself and never stops at a chance node; every outcome is recorded.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional, Union

from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.dsl.limits import MAX_CARDS, MAX_NUMBER

from .moves import Action
from .ops import CHANCE as OP_CHANCE
from .ops import CHOICE, EXEC, JUMP, JUMP_IF_NOT, NEXT_TURN

if TYPE_CHECKING:
    from .game import Game

STATE_VERSION = 2  # see Game.state_from_json

CHANCE = -1
TERMINAL = -2
_generator_of, _set_generator = _random.Random.getstate, _random.Random.setstate
CHANCE_ACTOR = "chance"


def seeded_random(seed: Optional[int]) -> random.Random:
    """``random.Random(seed)`` for a whole number or None, the same generator made without the
    Python layer of ``Random.seed`` (which, for those, only calls the C seeding used here)."""
    rng = random.Random.__new__(random.Random)
    _random.Random.seed(rng, seed)
    rng.gauss_next = None
    return rng


class IllegalAction(ValueError):
    """An action that is not legal in this state."""


class State:
    """Where a game stands. Cheap to clone, JSON round-trips."""

    __slots__ = ("game", "players", "zones", "zone_base", "vars", "var_base", "pos", "place", "podium",
                 "tags", "bags", "track_length", "grid", "locals", "pc", "current", "turns", "log", "rng",
                 "outcome", "_legal", "known", "listen")

    def __init__(self, game: "Game", players: int):
        self.game = game
        self.players = players
        self.zone_base, self.var_base = game.bases(players)
        self.zones: list[list[int]] = []
        self.vars: list[Any] = []
        self.pos: list[int] = []
        self.place: list[int] = []
        self.podium: list[list[int]] = []
        self.tags: list[list[Optional[str]]] = []
        self.bags: list[list[int]] = []
        self.track_length: list[int] = []
        self.grid: Any = None  # the Board of the game's grid, if it has one
        self.locals: list[Any] = []
        self.pc = 0
        self.current = 0
        self.turns = 0
        # The record, one entry per step: (who acted, the decision or chance event (None when
        # restored from text), the payload (or the text)). A draw's entries are made once per
        # variety and shared (the tuples are never changed).
        self.log: list[tuple[Union[int, str], Any, Any]] = []
        self.rng: Optional[random.Random] = None
        self.outcome: Optional[str] = None
        self._legal: Optional[list[Action]] = None
        # What 'reveal' showed: (zone slot, seat) → how many cards of each variety that seat knows
        # are in that zone (one it may not see). Empty in a game that shows no card.
        self.known: dict[tuple[int, int], list[int]] = {}
        # Who hears what the engine tells of a step (``tools/events.py``): None, or a function
        # given a tuple for each thing a diff of two states cannot tell: ("phase", name), a phase
        # that runs; ("stop", piece, track, tag, space), a piece stopped short by a tagged space;
        # ("reshuffle", pile slot, zone slot, cards), a pile turned into an empty zone; ("end",
        # position), an 'end game' of the rules (the position of the 'if' it is in, if any).
        # Set by whoever listens; a clone has none.
        self.listen: Optional[Callable[[tuple], None]] = None

    # ---- queries ----
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL``."""
        if self.outcome is not None:
            return TERMINAL
        op, spec, _ = self.game.code[self.pc]
        return CHANCE if op == OP_CHANCE else self._actor(spec)

    def _actor(self, spec: Any) -> int:
        """The seat that takes the decision ``spec`` (a rules error if its ``by`` player is none)."""
        try:
            return spec.actor(self)
        except RuleRuntimeError as e:  # (a ``by`` player read from a var that holds none)
            raise self.game.located(e, self.pc) from None

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def is_chance_node(self) -> bool:
        return self.outcome is None and self.game.code[self.pc][0] == OP_CHANCE

    def decision(self) -> Optional[str]:
        """The label of the pending decision (e.g. 'play'), if any."""
        if self.outcome is not None:
            return None
        op, spec, _ = self.game.code[self.pc]
        return spec.label if op == CHOICE else None

    def legal_actions(self) -> list[Action]:
        """The distinct legal actions of the player to move ([] when terminal or at chance)."""
        if self._legal is None:
            if self.outcome is not None:
                return []
            op, spec, _ = self.game.code[self.pc]
            try:
                self._legal = spec.legal(self) if op == CHOICE else []
            except RuleRuntimeError as e:
                raise self.game.located(e, self.pc) from None
        return self._legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.is_chance_node():
            return []
        try:
            return self.game.code[self.pc][1].outcomes(self)
        except RuleRuntimeError as e:
            raise self.game.located(e, self.pc) from None

    # ---- moves ----
    def apply(self, action: Union[Action, str]) -> None:
        """Play ``action`` (an ``Action`` or its canonical text). Raises ``IllegalAction``."""
        legal = self._legal
        if legal is not None and type(action) is Action:  # the usual case: one of legal_actions()
            for a in legal:
                if a is action:
                    self._take(action.spec, action)
                    return
        if self.outcome is not None:
            raise IllegalAction(f"the game is over; cannot apply {str(action)!r}")
        op, spec, _ = self.game.code[self.pc]
        if op == CHOICE:
            options = self.legal_actions()
            actor: Union[int, str] = self._actor(spec)
        else:
            options = [a for a, _ in spec.outcomes(self)]
            actor = CHANCE_ACTOR
        if isinstance(action, Action) and any(a is action for a in options):
            chosen = action
        else:
            text = str(action).strip()
            chosen = next((a for a in options if a.text == text), None)
            if chosen is None:
                shown = text if len(text) <= 200 else f"{text[:100]}...{text[-100:]} ({len(text):,} characters)"
                raise IllegalAction(f"{shown!r} is not legal here; legal: "
                                    + ", ".join(a.text for a in options[:12])
                                    + (" ..." if len(options) > 12 else ""))
        self._take(spec, chosen, actor)

    def _take(self, spec: Any, action: Action, actor: Union[int, str, None] = None) -> None:
        """A legal action taken, and the program run on to the next decision: by the decision's
        generated ``turn`` in a seeded state (which never waits at chance), else by ``_do`` and
        ``_advance`` (``actor``: who took it, if known already)."""
        if self.rng is not None and spec.turn is not None:
            self._legal = None
            try:
                pc = spec.turn(self, action.payload)
            except RuleRuntimeError as e:
                raise self.game.located(e, self.pc) from None
            if pc is not None:
                self._go_on(pc)
        else:
            self._do(spec, action, self._actor(spec) if actor is None else actor)
            self._advance()

    def _go_on(self, pc: int) -> None:
        """On from step ``pc``, where a decision's turn handed back: to the next decision."""
        self.pc = pc
        if self.game.code[pc][0] != CHOICE:
            self._advance()

    def play_out(self, rng: random.Random) -> None:
        """Play on to the end, each decision's action picked uniformly at random among the
        legal ones with ``rng`` (a random playout, as tree search runs them). Chance is drawn
        by the state's own seed; a state made with ``chance="explicit"`` is refused. It stops
        early where a player has no legal action (``is_terminal()`` stays false)."""
        if self.rng is None:
            raise ValueError("play_out draws chance by the state's seed: make it with new_state(..., seed=N)")
        if not callable(getattr(rng, "random", None)):
            raise TypeError(f"play_out picks the actions with a random.Random, not {type(rng).__name__}")
        code, rand, turn_at = self.game.code, rng.random, self.game.turn_at
        self._legal = None
        if self.outcome is not None:
            return
        if code[self.pc][0] != CHOICE:  # (a seeded state only stops at decisions)
            raise RuntimeError("a seeded game stopped at a chance node")
        while True:  # at a decision
            turn = turn_at[self.pc]
            if turn is None:  # (none compiled: one of the legal actions, taken step by step)
                legal = self.legal_actions()
                if not legal:
                    return
                self.apply(legal[int(rand() * len(legal))])
                if self.outcome is not None:
                    return
                continue
            try:
                pc = turn(self, None, rand)  # this decision, and on to the next (or over again)
            except RuleRuntimeError as e:
                raise self.game.located(e, self.pc) from None
            if pc is None:  # the game ended
                return
            if pc < 0:  # no legal action
                self._legal = []
                return
            self.pc = pc
            if code[pc][0] != CHOICE:  # on to the next decision
                self._advance()
                if self.outcome is not None:
                    return

    def _do(self, spec: Any, action: Action, actor: Union[int, str]) -> None:
        try:
            spec.apply(self, action.payload)
        except RuleRuntimeError as e:
            raise self.game.located(e, self.pc) from None
        self.log.append((actor, spec, action.payload))
        again = spec.again
        try:  # (a rules error in the test for another draw names its line, as on the seeded path)
            more = again is not None and again(self)
        except RuleRuntimeError as e:
            raise self.game.located(e, self.pc) from None
        if not more:
            self.pc += 1
        self._legal = None
        try:  # (a rules error in an end condition names its line, as on the seeded path)
            ended = spec.check_end and self.game.end_test(self)
        except RuleRuntimeError as e:
            raise self.game.located(e, self.pc) from None
        if ended:
            self._finish("end")
        elif len(self.log) >= self.game.max_steps:
            self._finish("step cap")

    def _advance(self) -> None:
        """Run until a decision, a chance node (without a seed) or the end."""
        code = self.game.code
        end_test = self.game.end_test
        # The op codes as locals, most frequent first: this loop is the interpreter's hot path.
        jump_if_not, chance, exec_, choice, next_turn, jump = JUMP_IF_NOT, OP_CHANCE, EXEC, CHOICE, NEXT_TURN, JUMP
        if self.outcome is not None:
            return
        pc = self.pc
        if self.rng is not None:  # drawing chance itself: the generated segment from here, if any
            segment = self.game.segments.get(pc)
            if segment is not None:
                try:
                    pc = segment(self)
                except RuleRuntimeError as e:
                    raise self.game.located(e, self.pc) from None
                if pc is None:  # the game ended
                    return
                if code[pc][0] == choice:
                    self.pc = pc
                    return
        try:
            while True:
                op, a, b = code[pc]
                if op == jump_if_not:
                    pc = pc + 1 if a(self) else b
                elif op == chance:
                    if self.rng is None:
                        break
                    self.pc = pc
                    a.run_seeded(self, self.rng)
                    pc = self.pc
                    if self.outcome is not None:
                        return
                elif op == exec_:
                    self.pc = pc
                    ended = a(self)
                    pc += 1
                    if ended:  # a straight run that ended the game
                        self.pc = pc
                        self._finish(ended)
                        return
                    if b is True and end_test(self):
                        self.pc = pc
                        self._finish("end")
                        return
                elif op == choice:
                    break
                elif op == next_turn:
                    if self.game.turn_order:
                        if not self.pass_turn():  # every player is out
                            self.pc = b
                            self._finish("end")
                            return
                    else:
                        self.current = (self.current + 1) % self.players
                    pc = b
                    if a and end_test(self):  # (the end reads who moves; no turn began: none is counted)
                        self.pc = pc
                        self._finish("end")
                        return
                    self.turns += 1
                    if self.turns >= self.game.max_steps:
                        self.pc = pc
                        self._finish("step cap")
                        return
                elif op == jump:
                    pc = b
                else:  # END; ``a`` is "draw" for an end with no winner
                    self.pc = pc
                    self._finish(a or "end")
                    return
        except RuleRuntimeError as e:  # a rule failed: say which rules line ran
            raise self.game.located(e, pc) from None
        self.pc = pc

    def pass_turn(self) -> bool:
        """Give the turn to whoever moves next: the player the rules ``set next`` to (then none
        again), else the one after ``current``; from there, the first player not out. False when
        every player is out (the game is over)."""
        lay = self.game.layout
        first = self.current + 1
        if lay.next_var is not None:
            slot = self.var_base[lay.next_var]
            chosen = self.vars[slot]
            if chosen >= 0:
                first = chosen
                self.vars[slot] = -1  # none
        n = self.players
        if lay.out_var is None:
            self.current = first % n
            return True
        out, b = self.vars, self.var_base[lay.out_var]
        for i in range(n):
            q = (first + i) % n
            if not out[b + q]:
                self.current = q
                return True
        return False

    def _finish(self, outcome: str) -> None:
        self.outcome = outcome
        self._legal = None

    def move_piece(self, piece: int, track: int, steps: int, stop_tag: Optional[str]) -> None:
        """Move forward (or back, never behind the start) ``steps`` spaces; stop on the first
        space tagged ``stop_tag`` entered; crossing the last space of its way (the track's last,
        or the last of its home stretch) puts it on the podium, which never happens on a circuit
        without home stretches. ``pos`` counts the piece's progress (see ``space_of``): a number
        meeple supports, like a var's (a saved state holds no other), else a rules error."""
        start = self.pos[piece]
        length = self.track_length[track]
        lay = self.game.layout
        if lay.piece_owner.get(piece, 0) >= self.players:
            name = lay.value_names[piece]
            raise RuleRuntimeError(f"'{name}' is seat {lay.piece_owner[piece]}'s piece: this game has "
                                   f"{self.players} player{'s' if self.players != 1 else ''}, so it cannot move")
        home = lay.piece_home.get(piece, 0)
        end = max(0, start + steps)
        if end > MAX_NUMBER:  # (round a circuit, or past a track's end: progress has no other bound)
            raise moved_too_far(self, piece, end)
        if stop_tag is not None and end > start:
            tags = self.tags[track]
            # The spaces of the track it enters: up to the last, or on a circuit without home
            # stretches, lap after lap (one lap passes every tag there is).
            last = min(end, start + length) if home == 0 and lay.track_loop[track] else min(end, length)
            for step in range(start + 1, last + 1):
                if tags[self.space_of(piece, step, track)] == stop_tag:
                    if self.listen is not None and step < end:  # (stopped short, not landed there)
                        self.listen(("stop", piece, track, stop_tag, self.space_of(piece, step, track)))
                    end = step
                    break
        self.pos[piece] = end
        if end > length + home and not (home == 0 and lay.track_loop[track]) and not self.place[piece]:
            podium = self.podium[track]
            podium.append(piece)
            self.place[piece] = len(podium)

    def space_of(self, piece: int, progress: int, track: int) -> int:
        """The space of its track on which a piece at ``progress`` stands. 0: the start (a piece
        per player: its reserve). On a circuit, progress 1 is the piece's entry space and the
        spaces follow round; after a whole lap come its home stretch's spaces, numbered after the
        track's by seat (seat s's first is ``spaces + s * home + 1``), then the finish (0 again)."""
        if progress <= 0:
            return 0
        lay = self.game.layout
        length, home = self.track_length[track], lay.piece_home.get(piece, 0)
        loop = lay.track_loop[track]
        if progress <= length or (loop and home == 0):
            return (lay.piece_entry.get(piece, 1) - 2 + progress) % length + 1 if loop else progress
        if progress <= length + home:
            return length + lay.piece_owner.get(piece, 0) * home + progress - length
        return 0 if loop else progress

    # ---- results ----
    def scores(self) -> list[int]:
        """Each seat's score by the rules' ``score`` (all 0 when the rules declare none)."""
        if self.game.score is None:
            return [0] * self.players
        return [self.game.score(self, seat) for seat in range(self.players)]

    def winners(self) -> list[int]:
        """Seats that won (several on a shared win); [] for a draw or an unfinished game."""
        if self.outcome != "end" or self.game.score is None:
            return []
        seats = self.seats_in()  # a player out never wins: with every player out, nobody does
        if not seats:
            return []
        keys = {s: (self.game.score(self, s), self.game.tiebreak(self, s)) for s in seats}
        best = max(keys.values())
        return [s for s, k in keys.items() if k == best]

    def seats_in(self) -> list[int]:
        """The seats of the players still in the game: all, unless the rules put some ``out``."""
        k = self.game.layout.out_var
        if k is None:
            return list(range(self.players))
        b = self.var_base[k]
        return [s for s in range(self.players) if not self.vars[b + s]]

    def returns(self) -> list[float]:
        """What each seat gets from the game: the rules' ``returns(p)`` once the game is over (all 0
        before, and for a game the step cap stopped), or if the rules declare none, its share of the
        win (``win_shares``). A ``zero_sum`` declaration whose values do not add up to 0 is a rules
        error."""
        declared = self.game.declared_returns
        if declared is None:
            return self.win_shares()
        if self.outcome in (None, "step cap"):  # (a game the rules did not end: nobody gets anything)
            return [0.0] * self.players
        values = [declared(self, s) for s in range(self.players)]
        if self.game.zero_sum and sum(values) != 0:
            error = RuleRuntimeError(f"the returns {values} add up to {sum(values)}, but the rules say "
                                     f"'zero_sum returns(p)': they must add up to 0")
            raise self.game.located_at(error, self.game.returns_at)
        return [float(v) for v in values]

    def win_shares(self) -> list[float]:
        """Each seat's share of the win: 1 for a sole winner, 1/k on a k-way shared win, else 0."""
        won = self.winners()
        return [1 / len(won) if s in won else 0.0 for s in range(self.players)]

    # ---- copies and views ----
    def clone(self, log: bool = True) -> "State":
        """A copy that plays on alone. ``log=False`` leaves the action log out (the copy's history is
        empty): a snapshot to compare with, at a cost that does not grow with the game."""
        c = State.__new__(State)
        c.game, c.players, c.zone_base, c.var_base = self.game, self.players, self.zone_base, self.var_base
        c.zones = list(map(list.copy, self.zones))
        c.vars = self.vars[:]
        c.pos, c.place = self.pos[:], self.place[:]
        c.podium = list(map(list.copy, self.podium))
        c.tags = list(map(list.copy, self.tags))
        c.bags = list(map(list.copy, self.bags))
        c.track_length = self.track_length
        c.grid = self.grid.clone() if self.grid is not None else None
        # (a list a local holds, the items of a loop, is never changed in place: shared)
        c.locals = self.locals[:]
        c.pc, c.current, c.turns, c.outcome = self.pc, self.current, self.turns, self.outcome
        c.log = self.log[:] if log else []
        c.rng = None
        if self.rng is not None:  # (not ``random.Random()``, which would seed it from the OS first)
            c.rng = random.Random.__new__(random.Random)
            _set_generator(c.rng, _generator_of(self.rng))  # (Random's own C methods: the same state)
            c.rng.gauss_next = self.rng.gauss_next
        c._legal = None
        c.known = {k: v[:] for k, v in self.known.items()} if self.known else {}
        c.listen = None
        return c

    # The record's columns, as lists made when asked (read them; the record itself is ``log``).
    @property
    def log_actor(self) -> list[Union[int, str]]:
        return [entry[0] for entry in self.log]

    @property
    def log_spec(self) -> list[Any]:
        return [entry[1] for entry in self.log]

    @property
    def log_payload(self) -> list[Any]:
        return [entry[2] for entry in self.log]

    def history(self) -> list[tuple[Union[int, str], str]]:
        """Every action so far as (seat or "chance", canonical text)."""
        return [(a, spec.text(p) if spec is not None else p)
                for a, spec, p in self.log]

    def to_json(self) -> dict[str, Any]:
        doc = {
            "meeple_state": STATE_VERSION, "game": self.game.game_hash, "program": self.game.program_hash,
            "players": self.players, "pc": self.pc, "current": self.current, "turns": self.turns,
            "outcome": self.outcome, "zones": self.zones, "vars": self.vars, "pos": self.pos,
            "place": self.place, "podium": self.podium, "tags": self.tags, "bags": self.bags,
            "waiting": self.decision(),  # the decision or chance event it waits for (None at the end)
            "track_length": self.track_length, "locals": self.locals,
            "grid": self.grid.to_json() if self.grid is not None else None,
            "history": [list(h) for h in self.history()],
        }
        if self.game.layout.reveals:  # (only a game that shows cards has it: other games' documents stay as they were)
            doc["known"] = [[slot, seat, counts] for (slot, seat), counts in sorted(self.known.items())]
        if self.rng is not None:
            version, internal, gauss = self.rng.getstate()
            doc["rng"] = [version, list(internal), gauss]
        return _plain(doc)

    # ---- reading and setting up a position by the rules' names (tests, puzzles, tools) ----
    def zone(self, name: str, seat: Optional[int] = None) -> dict[str, int]:
        """The cards in zone ``name`` (of ``seat``, for a zone per player), by variety, zero counts
        left out: all of them, whatever the zone's visibility (``observation`` is a seat's view)."""
        names = self.game.layout.variety_names
        return {names[i]: c for i, c in enumerate(self.zones[self._zone_slot(name, seat)]) if c}

    def set_zone(self, name: str, counts: dict[str, int], seat: Optional[int] = None) -> None:
        """Make zone ``name`` hold exactly ``counts`` (variety → count). Nothing else moves: to keep
        the cards of the game constant, take them from another zone yourself. Refused, as the
        compiled rules count on neither: a variety that no rule can bring into the zone (they never
        look for it there); more cards than a limit that the one rule filling the zone keeps (a
        choice's ``keeping``: they never test it)."""
        names = self.game.layout.variety_names
        if not isinstance(counts, dict):
            raise TypeError(f"set_zone takes the counts as a dict (variety → count), not {type(counts).__name__}")
        unknown = sorted(map(str, set(counts) - set(names)))
        if unknown:
            raise KeyError(f"{self.game.title} has no card varieties {unknown}")
        bad = [f"{v}: {c!r}" for v, c in counts.items() if not whole_number(c) or not 0 <= c <= MAX_CARDS]
        if bad:
            raise ValueError(f"a count of cards is a whole number 0..{MAX_CARDS:,}, not {', '.join(bad)}")
        vec = self.zones[self._zone_slot(name, seat)]
        never = sorted(self.game.never_held(name, [counts.get(v, 0) for v in names]))
        if never:
            raise ValueError(f"no rule ever brings {never} into zone '{name}': the compiled rules would not see them")
        over = self.game.over_limits(name, [counts.get(v, 0) for v in names])
        if over:
            raise ValueError(f"zone '{name}' cannot hold {over}: the compiled rules count on it")
        for i, v in enumerate(names):
            vec[i] = counts.get(v, 0)
        for (slot, _), known in self.known.items():  # (nobody knows of more cards than there are)
            if self.zones[slot] is vec:
                known[:] = map(min, known, vec)
        self._legal = None

    def var(self, name: str, seat: Any = None) -> Any:
        """The value of var ``name`` (of ``seat``, for a var per player; of the cell ``seat``, a
        number or ``(x, y)``, for a var per cell), as the rules hold it: a number, true/false, a
        seat, a cell's number, or a value's number (``game.value_name`` names it)."""
        return self.vars[self._var_slot(name, seat)]

    def set_var(self, name: str, value: Any, seat: Any = None) -> None:
        """Set var ``name`` (of ``seat``, for a var per player or per cell, as ``var`` takes it); a
        value of a kind may be given by name."""
        if isinstance(value, str):
            if value not in self.game.layout.value_id:
                raise ValueError(f"{self.game.title} has no value '{value}'")
            value = self.game.layout.value_id[value]
        if not isinstance(value, int) or not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise ValueError(f"a var holds a whole number (within ±{MAX_NUMBER:,}), true/false or a value's name, "
                             f"not {value!r}")
        self.vars[self._var_slot(name, seat)] = value
        self._legal = None

    def restart_turn(self) -> None:
        """Start the current player's turn again from its first rule, in the position as it stands
        (after arranging one with ``set_zone``/``set_var``: the turn's ``let``s are taken anew)."""
        if self.outcome is not None:
            raise IllegalAction(f"the game is over ({self.outcome}): no turn to start")
        self.pc = self.game.turn_start
        self._legal = None
        self._advance()

    def _zone_slot(self, name: str, seat: Optional[int]) -> int:
        decl = self.game.sym.zones.get(name)
        if decl is None:
            raise KeyError(f"{self.game.title} has no zone '{name}'")
        return self.zone_base[self.game.layout.zone_names.index(name)] + self._seat_part(decl, name, seat)

    def _var_slot(self, name: str, seat: Optional[int]) -> int:
        lay = self.game.layout
        if name not in lay.var_names:
            raise KeyError(f"{self.game.title} has no var '{name}' (per-tile vars are read on the grid)")
        decl = self.game.sym.vars[name]
        if name in lay.cell_var_names:
            if isinstance(seat, tuple) and len(seat) == 2 and 0 <= seat[0] < lay.columns and 0 <= seat[1] < lay.rows:
                seat = seat[1] * lay.columns + seat[0]
            if not (isinstance(seat, int) and 0 <= seat < lay.cells):
                raise ValueError(f"'{name}' is per cell: give a cell of the board, a number 0..{lay.cells - 1} "
                                 f"or (x, y)")
            return self.var_base[lay.var_names.index(name)] + seat
        return self.var_base[lay.var_names.index(name)] + self._seat_part(decl, name, seat)

    def _seat_part(self, decl: dict, name: str, seat: Optional[int]) -> int:
        if decl["per_player"] != (seat is not None):
            raise ValueError(f"'{name}' is {'per player: give a seat' if decl['per_player'] else 'shared: no seat'}")
        if seat is not None and not (whole_number(seat) and 0 <= seat < self.players):
            raise ValueError(f"seat {seat}: the game has seats 0..{self.players - 1}")
        return seat or 0

    # ---- knowledge ('reveal') ----
    def reveal(self, zone: list[int], seat: Optional[int], variety: Optional[int] = None) -> None:
        """``reveal``: the cards of ``zone`` (one card of ``variety``, or all of them) shown to
        ``seat`` (None: to every player). A seat that sees the zone anyway learns nothing; one
        that may not see it knows, from then on, that many more cards of that variety are there
        (never more than there are), until cards of it leave the zone (``forget``)."""
        slot = next((i for i, z in enumerate(self.zones) if z is zone), None)
        if slot is None:  # (the rules' code passes a zone of the state, and a seat and variety it checked)
            raise TypeError(f"reveal takes one of the state's zones (a list of State.zones), not {type(zone).__name__}")
        if seat is not None and not (whole_number(seat) and 0 <= seat < self.players):
            raise ValueError(f"seat {seat!r}: the game has seats 0..{self.players - 1} (or None: every seat)")
        if variety is not None and not (whole_number(variety) and 0 <= variety < len(zone)):
            raise ValueError(f"variety {variety!r}: the game has varieties 0..{len(zone) - 1} (or None: every card)")
        for s in range(self.players) if seat is None else (seat,):
            if self.game.sees(slot, s, self.players):
                continue
            if not (any(zone) if variety is None else zone[variety]):
                continue  # (nothing there to show)
            known = self.known.get((slot, s))
            if known is None:
                known = self.known[slot, s] = [0] * len(zone)
            if variety is None:
                known[:] = zone
            elif known[variety] < zone[variety]:
                known[variety] += 1

    def forget(self, zone: list[int], variety: Optional[int] = None, n: int = 1) -> None:
        """``n`` cards of ``variety`` (every card, with None) left ``zone``: a seat that knew some
        cards of that variety there knows that many fewer (it cannot tell which of them left)."""
        for key, known in list(self.known.items()):
            if self.zones[key[0]] is not zone:
                continue
            if variety is None:
                del self.known[key]
            else:
                known[variety] = max(known[variety] - n, 0)
                if not any(known):
                    del self.known[key]

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: public zones in full, its own private zones, only sizes of the rest."""
        if seat is not None and not (whole_number(seat) and 0 <= seat < self.players):  # (None: all of it)
            raise ValueError(f"seat {seat!r}: the game has seats 0..{self.players - 1}")
        return self.game.observe(self, seat)

    def __str__(self) -> str:
        return self.game.describe(self)


def _plain(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def whole_number(n: Any) -> bool:
    """A whole number (not true or false, which Python counts as 1 and 0)."""
    return isinstance(n, int) and not isinstance(n, bool)


def moved_too_far(st: State, piece: int, end: int) -> RuleRuntimeError:
    """The error of a move that would take ``piece`` to progress ``end``, past the largest number."""
    name = st.game.layout.value_names[piece]
    return RuleRuntimeError(f"'{name}' would be moved to progress {end:,}: beyond the numbers meeple "
                            f"supports (±{MAX_NUMBER:,})")
