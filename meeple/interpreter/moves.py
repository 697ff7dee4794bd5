"""Decisions and chance events: what can happen at a stopping point of the program.

Each kind knows its legal actions (or chance outcomes with probabilities), the
canonical text of each, and how to apply one to a state.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate, compress, islice
from operator import itemgetter
from typing import Any, Callable

from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.dsl.limits import MAX_CARD_PICKS, MAX_CHOSEN_CARDS

from .boards import MAX_COORD, ROW

Fn = Callable[[Any], Any]
CHANCE_ACTOR = "chance"


class Action:
    """One legal move or chance outcome: the decision or chance event it belongs to
    and a payload. ``str(action)`` is its canonical text, made on first use."""

    __slots__ = ("spec", "payload", "_text")

    def __init__(self, spec: Any, payload: Any):
        self.spec = spec
        self.payload = payload
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.spec.text(self.payload)
        return self._text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return str(other) == self.text if isinstance(other, (Action, str)) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)


SINGLES_KEPT = 16
KNOWN_KEPT = 100_000  # a bound on the positions a choice remembers what it allows in
PLACEMENTS_KEPT = 100_000  # a bound on the squares remembered (far more than any table covers)
SIDES = itemgetter(2)  # of a frontier entry (x, y, sides)
COUNTS_KEPT = 4096  # a bound on the sets of tile varieties in hand whose placements are counted


def bounded_multisets(present: list[int], src: list[int], lo: int, hi: int):
    """Every ((variety, k>0), ...) over ``present`` with k <= src[variety] and lo <= total <= hi,
    built one variety at a time so that nothing past ``hi`` is ever formed."""
    if hi == 1:
        return [((i, 1),) for i in present] if lo <= 1 else []
    if len(present) == 2:  # the common case of a pair (plain and special cards of one kind)
        a, b = present
        out = []
        for ka in range(min(src[a], hi) + 1):
            for kb in range(min(src[b], hi - ka) + 1):
                if ka + kb >= lo and ka + kb > 0:
                    out.append(((a, ka), (b, kb)) if ka and kb else ((a, ka),) if ka else ((b, kb),))
        return out
    picked: list[tuple[int, int]] = []
    made = [0]

    def extend(j: int, total: int):
        if j == len(present):
            if lo <= total:
                made[0] += 1
                if made[0] > MAX_CARD_PICKS:
                    raise RuleRuntimeError(f"a choice of up to {hi} cards among {len(present)} kinds in hand has more "
                                           f"than {MAX_CARD_PICKS:,} different picks here, past the limit")
                yield tuple(picked)
            return
        i = present[j]
        yield from extend(j + 1, total)
        for k in range(1, min(src[i], hi - total) + 1):
            picked.append((i, k))
            yield from extend(j + 1, total + k)
            picked.pop()
    return extend(0, 0)


def at_most_chosen(hi: int) -> int:
    """A choice's upper count, known only as the game runs, held to the limit the checker holds
    written counts to (the legal moves grow as combinations of it)."""
    if hi > MAX_CHOSEN_CARDS:
        raise RuleRuntimeError(f"a choice of up to {hi} cards at once is beyond the limit of {MAX_CHOSEN_CARDS}")
    return hi


def most_table(hi: int, limits: tuple[tuple[int, bool], ...], held: int | None) -> Any:
    """The table of the most cards of one variety a choice can take (``capacity.most_by_table``):
    one index per limit on the destination, ``(bound, by_count)``: how many cards it counts when
    ``by_count`` (its room is ``bound`` less that), else its room (0..bound); then, when ``held``
    is not None, how many the source holds (0..held). Each entry is the least of ``hi``, the
    rooms and what is held."""
    def most(rooms: tuple[int, ...], rest: tuple[tuple[int, bool], ...]) -> Any:
        if rest:
            (bound, by_count), more = rest[0], rest[1:]
            return tuple(most(rooms + (bound - v if by_count else v,), more) for v in range(bound + 1))
        if held is None:
            return min(hi, *rooms)
        return tuple(min(hi, h, *rooms) for h in range(held + 1))
    return most((), limits)


class CardChoice:
    """Choose lo..hi cards (optionally all alike in one attribute) from a zone to another.

    Every distinct multiset of varieties is one action; ``keeping`` must hold
    as if the cards had moved."""

    def __init__(self, label, chooser, lo, hi, groups, source, dest, keeping, names, capacities=None,
                 may_alias=True):
        self.label, self.chooser, self.lo, self.hi = label, chooser, lo, hi
        self.actor = chooser  # the seat that chooses (a function of the state)
        self.groups, self.source, self.dest, self.keeping, self.names = groups, source, dest, keeping, names
        # ``keeping`` as limits on what ``dest`` may hold (see capacity.py), when it is only that.
        self.capacities = capacities
        self.may_alias = may_alias  # can source and dest be the same zone at run time?
        self.limits_of = [tuple(c for c, (idx, _) in enumerate(capacities or ()) if i in idx)
                          for i in range(len(names))]
        # Actions are immutable: the one-variety choices are made once and shared by all states.
        self.singles = [[Action(self, ((i, k),)) for k in range(SINGLES_KEPT + 1)] for i in range(len(names))]
        self.nothing = Action(self, ())
        self.known: dict[tuple, list[Action]] = {}  # what the groups of several allow, by position (capacity.py)
        # With ``capacities``, or no ``keeping`` at all, the compiler replaces ``legal`` by a
        # function of its own (capacity.legal_function): room left per limit, no test per candidate.
        self.alone = tuple(g[0] for g in groups if len(g) == 1)
        constant = (getattr(lo, "constant", None), getattr(hi, "constant", None))
        self.bounds = (max(constant[0], 0), constant[1]) if None not in constant else None
        self.shared = [g for g in groups if len(g) > 1]

    again = None
    pick = None  # (the compiler's, with ``legal``: see capacity.pick_function)
    limits_kept = False  # (the compiler's: no rule but this choice fills ``dest``, so its limits always hold)
    most_held: list[int] | None = None  # (the compiler's: the game's cards of each variety; None: not known numbers)
    turn = None  # (the compiler's: see program._turn_function)

    def legal(self, st) -> list[Action]:
        """Every choice for which ``keeping`` holds, judged one by one."""
        src = self.source(st)
        lo, hi = max(self.lo(st), 0), at_most_chosen(self.hi(st))
        out = [Action(self, ())] if lo == 0 and self.keeps(st, ()) else []
        for group in self.groups:
            present = [i for i in group if src[i]]
            out.extend(Action(self, picked) for picked in bounded_multisets(present, src, max(lo, 1), hi)
                       if self.keeps(st, picked))
        return out

    judged = legal  # (the generated ``legal`` of a choice with capacities falls back on it)

    def keeps(self, st, picked: tuple) -> bool:
        """Does ``keeping`` hold as if ``picked`` had moved? (The state is left as it was.)"""
        if self.keeping is None:
            return True
        src, dst = self.source(st), self.dest(st)
        for i, k in picked:
            src[i] -= k
            dst[i] += k
        try:
            return bool(self.keeping(st))
        finally:
            for i, k in picked:
                src[i] += k
                dst[i] -= k

    def shared_choices(self, src: list[int], first: int, hi: int, room: list[int], out: list) -> list[Action]:
        """``out`` plus the choices of the groups of several varieties when ``keeping`` is only
        limits (``room``: what each limit has left): a group with one variety in hand gives one
        action per count, the others every multiset that fits. The generated ``legal`` of the
        choice (capacity.py) does the groups of one variety itself, before these."""
        limits_of, singles = self.limits_of, self.singles
        together = []
        for group in self.shared:
            present = [i for i in group if src[i]]
            if len(present) == 1:
                i = present[0]
                most = src[i] if src[i] < hi else hi
                for lim in limits_of[i]:
                    if room[lim] < most:
                        most = room[lim]
                if most >= first:
                    out += singles[i][first:most + 1] if most <= SINGLES_KEPT else self.counted(i, first, most)
            elif present:
                together.append(present)
        for present in together:
            for picked in bounded_multisets(present, src, first, hi):
                used = room[:]
                for i, k in picked:
                    for c in limits_of[i]:
                        used[c] -= k
                if min(used, default=0) < 0:
                    continue
                out.append(self.action(picked))
        return out

    def remember(self, key: tuple, choices: list[Action]) -> list[Action]:
        """``choices``, kept in ``known`` under ``key`` (a bounded table: emptied when full)."""
        if len(self.known) >= KNOWN_KEPT:
            self.known.clear()
        self.known[key] = choices
        return choices

    def counted(self, i: int, first: int, most: int) -> list[Action]:
        """Taking ``first``..``most`` cards of variety ``i``: one action per count."""
        return [self.action(((i, k),)) for k in range(first, most + 1)]

    def action(self, picked: tuple) -> Action:
        return Action(self, picked)

    def text(self, picked: tuple) -> str:
        if not picked:
            return f"{self.label} nothing"
        return f"{self.label} " + " + ".join(f"{k} {self.names[i]}" for i, k in picked)

    def apply(self, st, picked: tuple) -> None:
        src, dst = self.source(st), self.dest(st)
        for i, k in picked:
            src[i] -= k
            dst[i] += k
            if st.known:
                st.forget(src, i, k)


class Draw:
    """One card drawn at random from a zone into another: each variety in the
    source is an outcome, with probability count / total."""

    def __init__(self, label: str, source: Fn, dest: Fn, names: list[str], again: Fn):
        self.label, self.source, self.dest, self.names = label, source, dest, names
        # after a draw: is another one due (more wanted, and cards in the source or in the pile
        # to reshuffle)? The state then stays on this node.
        self.again = again

    def outcomes(self, st) -> list[tuple[Action, float]]:
        src = self.source(st)
        total = sum(src)
        return [(Action(self, i), c / total) for i, c in enumerate(src) if c]

    def text(self, i: int) -> str:
        return f"{self.label} {self.names[i]}"

    def apply(self, st, i: int) -> None:
        src = self.source(st)
        src[i] -= 1
        self.dest(st)[i] += 1
        if st.known:
            st.forget(src, i, 1)

    run_seeded: Callable[[Any, Any], None]  # generated by the compiler (program.py: draw_loop)
    # Its lines as a segment writes them out set ``st.pc`` themselves, where it is read (draw_loop)
    sets_pc = False


def reshuffled(src: list[int], pile: Fn | None, st) -> bool:
    """Turn the pile into the new source when the source is empty; False if there is none."""
    if pile is None:
        return False
    p = pile(st)
    if not any(p):
        return False
    if st.known:
        st.forget(p)
    if st.listen is not None:
        slot = next(i for i, z in enumerate(st.zones) if z is p), next(i for i, z in enumerate(st.zones) if z is src)
        st.listen(("reshuffle", *slot, sum(p)))
    for i, c in enumerate(p):
        src[i] += c
        p[i] = 0
    return True


class OneShot:
    """A chance event that happens once each time the program reaches it."""

    again = None

    def run_seeded(self, st, rng) -> None:
        """The seeded path: sample, apply, record, check the end and the step cap."""
        payload = self.sample(st, rng)
        self.apply(st, payload)
        st.log.append((CHANCE_ACTOR, self, payload))
        st.pc += 1
        if self.check_end and st.game.end_test(st):
            st.outcome = "end"
        elif len(st.log) >= st.game.max_steps:
            st.outcome = "step cap"


class RandomPick(OneShot):
    """``set x = random domain``: each value equally likely. ``seat``: for one player's value of a
    per-player var (``set pick(p) = random ...``), the seat whose value it sets, as a function of
    the state at the chance event; else None."""

    def __init__(self, target: str, values: Fn, setter, name_of, seat: Fn | None = None, cell: Fn | None = None):
        self.target, self.values, self.setter, self.name_of = target, values, setter, name_of
        self.seat = seat
        self.cell = cell  # (for a var per cell of a board: the cell whose value it sets, as ``seat``)

    def outcomes(self, st) -> list[tuple[Action, float]]:
        values = list(self.values(st))  # none: the state is stuck (nothing can happen)
        return [(Action(self, v), 1 / len(values)) for v in values]

    def sample(self, st, rng) -> int:
        values = list(self.values(st))
        if not values:
            raise RuleRuntimeError(f"'set {self.target} = random ...' over nothing: the range is empty")
        return rng.choice(values)

    def text(self, v: int) -> str:
        return f"{self.target} = {self.name_of(v)}"

    def text_for(self, v: int, seat: int, hidden: bool = False) -> str:
        """The text naming the seat whose value it sets (``favourite(seat 1) = ne``); ``hidden``:
        without the value, for a seat that may not read it."""
        return f"{self.target}(seat {seat}) = {'?' if hidden else self.name_of(v)}"

    def text_at(self, v: int, cell: str) -> str:
        """The text naming the cell of a board whose value it sets (``face(2,0) = 4``)."""
        return f"{self.target}({cell}) = {self.name_of(v)}"

    def apply(self, st, v: int) -> None:
        self.setter(st, v)


class WeightedPick(RandomPick):
    """``set x = random { a: 3, b: 1 }``: each value as likely as its weight against their sum
    (``values`` gives (value, weight) pairs; a value named twice has the sum of its weights)."""

    def weights(self, st) -> list[tuple[int, int]]:
        merged: dict[int, int] = {}
        for v, w in self.values(st):
            if w < 0:
                raise RuleRuntimeError(f"'set {self.target} = random {{...}}': a weight of {w}; weights are 0 or more")
            merged[v] = merged.get(v, 0) + w
        pairs = [(v, w) for v, w in merged.items() if w > 0]
        if not pairs:
            raise RuleRuntimeError(f"'set {self.target} = random {{...}}': every weight is 0, so nothing can be picked")
        return pairs

    def outcomes(self, st) -> list[tuple[Action, float]]:
        pairs = self.weights(st)
        total = sum(w for _, w in pairs)
        return [(Action(self, v), w / total) for v, w in pairs]

    def sample(self, st, rng) -> int:
        pairs = self.weights(st)
        r = rng.randrange(sum(w for _, w in pairs))
        for v, w in pairs:
            if r < w:
                return v
            r -= w
        raise AssertionError("unreachable: r < the sum of the weights")


class DieRoll(RandomPick):
    """One die of ``roll n dice of s into v``: each face 1..s equally likely; ``add`` adds it to
    the sum that goes into ``v`` after the last die."""

    def __init__(self, target: str, faces: Fn, add, seat: Fn | None = None, cell: Fn | None = None):
        super().__init__(target, faces, add, str, seat, cell)

    def text(self, v: int) -> str:
        return f"die {v} into {self.target}"

    def text_for(self, v: int, seat: int, hidden: bool = False) -> str:
        return f"die {'?' if hidden else v} into {self.target}(seat {seat})"

    def text_at(self, v: int, cell: str) -> str:
        return f"die {v} into {self.target}({cell})"


class TileLay(OneShot):
    """The tile under one space of a track, drawn from the track's remaining tiles."""

    def __init__(self, track: int, track_name: str, slot: int, tags: list[str]):
        self.track, self.track_name, self.slot, self.tags = track, track_name, slot, tags

    def text(self, payload: tuple[int, int]) -> str:
        space, t = payload
        return f"{self.track_name} {space} {self.tags[t]}"

    def outcomes(self, st) -> list[tuple[Action, float]]:
        bag = st.bags[self.track]
        total = sum(bag)
        space = st.locals[self.slot]
        return [(Action(self, (space, t)), c / total) for t, c in enumerate(bag) if c]

    def sample(self, st, rng) -> tuple[int, int]:
        bag = st.bags[self.track]
        r = int(rng.random() * sum(bag))
        for t, c in enumerate(bag):
            if r < c:
                return st.locals[self.slot], t
            r -= c
        raise AssertionError("empty bag")

    def apply(self, st, payload: tuple[int, int]) -> None:
        space, t = payload
        st.bags[self.track][t] -= 1
        st.tags[self.track][space] = self.tags[t]


class TilePlacement:
    """Place a tile card from a zone onto the grid: each distinct (variety, square, rotation)
    for which ``where`` holds, judged as if the tile were there, is one action; with
    ``optional``, placing nothing is one more. The new tile's number goes to local ``slot``."""

    again = None
    pick = None
    pick_payload = None  # (as ``pick``, its action's payload, or -1 for none: what a turn takes)
    turn = None

    def __init__(self, label: str, chooser: Fn, optional: bool, source: Fn, within: Fn, where: Fn | None,
                 slot: int, names: list[str], tile_varieties: list[int], shapes: Any, starts: Fn,
                 matching: bool = False, joining: bool = False, per_square: bool = False,
                 at_square: bool | None = None):
        self.label, self.chooser, self.optional, self.source, self.within = label, chooser, optional, source, within
        self.actor = chooser  # the seat that chooses (a function of the state)
        self.where, self.slot, self.names, self.starts = where, slot, names, starts
        self.tile_varieties, self.rotations, self.ends = tile_varieties, shapes.rotations, shapes.ends
        self.opens, self.matching, self.joining = shapes.opens, matching, joining
        # fits[variety][sides]: the rotations the side rules allow on a square whose sides
        # touching a tile, and those meeting a path end, are as given (sides: touching << 4 | meeting,
        # as the board's frontier has it).
        self.fits = [[tuple(r for r in shapes.rotations[v]
                            if not (matching and shapes.opens[v][r] & (p >> 4) != p & 15)
                            and not (joining and not shapes.opens[v][r] & p & 15))
                      for p in range(256)] for v in range(len(shapes.rotations))]
        self.per_square = per_square  # ``where`` looks only at where tiles are: judge it once per square
        # None: ``where(st)`` judges the tile probed on a square; else ``where(st, keys, sides)``
        # gives the squares of ``keys`` that pass the test of a square, as (x, y, sides), the sides
        # read from ``sides`` (0 without) (``ProgramBuilder.squares_passing``); True: it reads the
        # tiles beside them
        self.at_square = at_square
        # the squares are those beside a tile, as the board's frontier has them, all of them
        self.frontier_only = getattr(within, "constant", None) == 1 and where is None
        self.nothing = Action(self, None)
        # frontier entry (x, y, sides) → for each variety, its placements
        # there. Actions are immutable: each is made once and shared by every state and game.
        self.made: dict[tuple[int, int, int], list[tuple[Action, ...] | None]] = {}
        self.unmade: list[tuple[Action, ...] | None] = [None] * len(shapes.rotations)
        # varieties in hand → (themselves, for each side pattern (as ``fits``) how many placements
        # they have, and those placements as (variety, rotation) in the order of the legal actions)
        self.counts: dict[tuple[int, ...], tuple[tuple[int, ...], list[int], list]] = {}
        # the source's count of each tile variety (a tuple, or the count when there is one) → the varieties held
        self.held = itemgetter(*tile_varieties) if tile_varieties else lambda src: ()
        self.present: dict[Any, tuple | None] = {}  # → their ``counts`` (None: none held)
        self.fit_counts = [[len(rotations) for rotations in by_sides] for by_sides in self.fits]
        self.first = 1 if optional else 0  # (the legal actions start by placing nothing)
        if where is None or per_square:
            self.pick, self.pick_payload = self.counted_pick, self.counted_payload

    def legal(self, st) -> list[Action]:
        out = [self.nothing] if self.optional else []
        src = self.source(st)
        present = [v for v in self.tile_varieties if src[v]]
        if not present:
            return out
        squares = self.squares(st)
        if self.where is None or self.per_square:
            return self.fitting(present, squares, out)
        board, where, L, slot = st.grid, self.where, st.locals, self.slot
        starts = self.starts(st)
        saved = L[slot]
        try:  # each placement judged as if it were made
            for action in self.fitting(present, squares, []):
                v, x, y, r = action.payload
                L[slot] = board.place(x, y, v, r, self.ends[v][r], starts, trial=True)
                ok = where(st)
                board.unplace(trial=True)
                if ok:
                    out.append(action)
        finally:
            L[slot] = saved
        return out

    def squares(self, st) -> list[tuple[int, int, int]]:
        """The empty squares within reach, as (x, y, sides) (as the board's frontier has them);
        with a test judged per square (``per_square``), those it passes."""
        board = st.grid
        within = self.within(st)
        frontier = within == 1 and board.x  # (else the squares near the tiles, sides 0: worked out for those kept)
        if self.at_square is not None:  # the test of a square, given the square: judged from the squares' keys
            if frontier:
                return self.where(st, board.fsides, board.fsides)
            kept = self.where(st, board.near(within), None)
            return kept if not (self.matching or self.joining) else self.with_sides(board, kept)
        if frontier:
            squares = board.frontier_squares()  # in a fixed order: how the table grew
            if not self.per_square:
                return squares
        else:
            squares = board.squares_near(within)
            if not self.per_square:
                return self.with_sides(board, squares)
        L, slot = st.locals, self.slot
        saved = L[slot]
        L[slot] = len(board)  # (the tile probed on each square)
        try:  # the test looks only at where tiles are: judge it once per square
            kept = board.passing(squares, self.where, st)
        finally:
            L[slot] = saved
        if frontier or not (self.matching or self.joining):
            return kept
        return self.with_sides(board, kept)

    def with_sides(self, board, near: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """Empty squares (x, y, 0) as (x, y, sides), the sides asked of the board only where a side
        rule needs them."""
        if self.matching or self.joining:
            return [(x, y, board.sides(x, y)) for x, y, _ in near]
        return near

    def counted_pick(self, st, rand) -> Action | None:
        """The action ``legal[int(rand() * len(legal))]`` would be, without making ``legal``
        (None when it is empty). (``pick`` when no test is judged per placement.)"""
        payload = self.counted_payload(st, rand)
        return None if payload == -1 else self.nothing if payload is None else Action(self, payload)

    def counted_payload(self, st, rand, src: list[int] | None = None) -> tuple[int, int, int, int] | None | int:
        """The payload of ``counted_pick``'s action, -1 for none: the placements on each square
        counted from a table of the varieties in hand, one number drawn, the square and
        placement it stands for worked out. (``src``: the source's counts, if read already.)"""
        if src is None:
            src = self.source(st)
        held = self.held(src)  # (how many of each tile variety, read in C)
        found = self.present.get(held, False)
        if found is False:
            found = self.present_in(src, held)
        total = first = self.first  # (placing nothing comes first)
        squares: Any = ()
        upto: list[int] = [0]  # the placements on the squares up to each one
        keyed = False  # squares: the frontier's dict of sides by key, or a list of (x, y, sides)
        if found is not None:
            present, counts, placements = found
            board = st.grid
            if self.frontier_only and board.x:  # (the sides alone, read in C by itemgetter)
                squares = board.fsides  # (keys: the square picked is worked out from its key)
                keyed = True
                sides = squares.values()
                counted = itemgetter(*sides)(counts) if len(sides) > 1 else map(counts.__getitem__, sides)
            else:
                squares = self.squares(st)
                counted = map(counts.__getitem__, map(SIDES, squares))
            if squares:
                upto = list(accumulate(counted))
                total += upto[-1]
        if not total:
            return -1
        k = int(rand() * total) - first
        if k < 0:
            return None  # (placing nothing)
        i = bisect_right(upto, k)
        if keyed:
            key = next(islice(squares, i, None))
            sides = squares[key]
            x, y = (key + MAX_COORD) // ROW, (key + MAX_COORD) % ROW - MAX_COORD  # (square_at, written out)
        else:
            x, y, sides = squares[i]
        if i:
            k -= upto[i - 1]
        fitting = placements[sides]
        if fitting is None:  # (worked out the first time a square of these sides is picked)
            fitting = placements[sides] = tuple((v, r) for v in present for r in self.fits[v][sides])
        v, r = fitting[k]
        return v, x, y, r

    def present_in(self, src: list[int], held: Any) -> tuple[tuple[int, ...], list[int], list] | None:
        """For the tile varieties ``src`` holds (None if none): those varieties, how many
        placements they have per side pattern, and those placements, (variety, rotation) in the
        order of ``legal``, per side pattern (None until one is picked); kept by ``held``, the
        source's counts of them (``counted_payload``); worked out once per set of varieties."""
        present = tuple(compress(self.tile_varieties, map(src.__getitem__, self.tile_varieties)))
        found = self.counts.get(present) if present else None
        if found is None and present:
            if len(self.counts) > COUNTS_KEPT:
                self.counts.clear()
            counts = list(map(sum, zip(*(self.fit_counts[v] for v in present))))
            found = self.counts[present] = (present, counts, [None] * len(counts))
        if len(self.present) > COUNTS_KEPT:
            self.present.clear()
        self.present[held] = found
        return found

    def fitting(self, present: list[int], squares: list[tuple[int, int, int]], out: list) -> list[Action]:
        """``out`` plus every (variety, square, rotation) the side rules allow."""
        made = self.made
        if len(made) > PLACEMENTS_KEPT:
            made.clear()
        empty = self.unmade
        for square in squares:
            by_variety = made.get(square)
            if by_variety is None:
                by_variety = made[square] = empty[:]
            for v in present:
                actions = by_variety[v]
                if actions is None:
                    x, y, sides = square
                    actions = by_variety[v] = tuple(Action(self, (v, x, y, r)) for r in self.fits[v][sides])
                out += actions
        return out

    def text(self, payload: tuple[int, int, int, int] | None) -> str:
        if payload is None:
            return f"{self.label} nothing"
        v, x, y, r = payload
        return f"{self.label} {self.names[v]} at {x},{y} rotation {r}"

    # ``apply(st, payload)``: the card out of its zone, the tile placed and its number in the
    # placement's slot (-1 for nothing placed); given by the compiler (program.s_place), as lines
    # of the module.
    apply: Callable[[Any, Any], None]


class OptionChoice:
    """``choose label { options }``: one action per option and binding of its variables
    (each from its domain) for which the option's ``where`` holds. Applying one stores
    the option's number in ``option_slot`` and the values in the variables' slots."""

    again = None
    pick = None
    turn = None

    def __init__(self, label: str, chooser: Fn, options: list[tuple], option_slot: int, value_text: Callable):
        # options: [(name, slots of its variables, how each is shown)]; ``legal`` is given by the
        # compiler (program.py), as one generated function of the state.
        self.label, self.chooser, self.options, self.option_slot = label, chooser, options, option_slot
        self.actor = chooser  # the seat that chooses (a function of the state)
        self.value_text = value_text  # (shown as, value, its square if it is a tile) -> text

    legal: Callable[[Any], list[Action]]

    def text(self, payload: tuple) -> str:
        k, row = payload
        name, _, shown_as = self.options[k]
        words, squares = [name], iter(row[len(shown_as):])
        for how, v in zip(shown_as, row):
            words.append(self.value_text(how, v, (next(squares), next(squares)) if how == "tile" else None))
        return " ".join(words)

    def apply(self, st, payload: tuple) -> None:
        k, values = payload
        L = st.locals
        L[self.option_slot] = k
        for slot, v in zip(self.options[k][1], values):
            L[slot] = v
