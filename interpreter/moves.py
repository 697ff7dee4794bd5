"""Decisions and chance events: what can happen at a stopping point of the program.

Each kind knows its legal actions (or chance outcomes with probabilities), the
canonical text of each, and how to apply one to a state.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Callable

Fn = Callable[[Any], Any]


class Action:
    """One legal move or chance outcome. ``str(action)`` is its canonical text,
    made on first use (random playouts rarely need it)."""

    __slots__ = ("_text", "payload", "_spec")

    def __init__(self, text: Any, payload: Any, spec: Any = None):
        self._text = text
        self.payload = payload
        self._spec = spec

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._spec.text(self.payload)
        return self._text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return str(other) == self.text if isinstance(other, (Action, str)) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)


class CardChoice:
    """Choose lo..hi cards (optionally all alike in one attribute) from a zone to another.

    Every distinct multiset of varieties is one action; ``keeping`` must hold
    as if the cards had moved."""

    MEMO_LIMIT = 200_000

    def __init__(self, label, chooser, lo, hi, groups, source, dest, keeping, names, memo_zones=None):
        self.label, self.chooser, self.lo, self.hi = label, chooser, lo, hi
        self.groups, self.source, self.dest, self.keeping, self.names = groups, source, dest, keeping, names
        # When ``keeping`` reads nothing but some shared zones, its value is a function
        # of their contents: remember it per content (the compiler proved it pure).
        self.memo_zones = memo_zones
        self.memo: dict[tuple, bool] = {}

    def keeps(self, st) -> bool:
        if self.memo_zones is None:
            return self.keeping(st)
        zones = self.memo_zones
        key = tuple(zones[0](st)) if len(zones) == 1 else tuple(c for z in zones for c in z(st))
        ok = self.memo.get(key)
        if ok is None:
            if len(self.memo) > self.MEMO_LIMIT:
                self.memo.clear()
            ok = self.memo[key] = bool(self.keeping(st))
        return ok

    def actor(self, st) -> int:
        return self.chooser(st)

    def legal(self, st) -> list[Action]:
        src, dst = self.source(st), self.dest(st)
        lo, hi = max(self.lo(st), 0), self.hi(st)
        check = self.keeping is not None
        out = []
        for group in self.groups:
            present = [i for i in group if src[i]]
            if not present:
                continue
            for picked in _multisets(present, src, lo, hi):
                if check:
                    for i, k in picked:
                        src[i] -= k
                        dst[i] += k
                    ok = self.keeps(st)
                    for i, k in picked:
                        src[i] += k
                        dst[i] -= k
                    if not ok:
                        continue
                out.append(Action(None, picked, self))
        return out

    def text(self, picked: tuple) -> str:
        if not picked:
            return f"{self.label} nothing"
        return f"{self.label} " + " + ".join(f"{k} {self.names[i]}" for i, k in picked)

    def apply(self, st, picked: tuple) -> None:
        src, dst = self.source(st), self.dest(st)
        for i, k in picked:
            src[i] -= k
            dst[i] += k


def _multisets(present: list[int], src: list[int], lo: int, hi: int):
    """Every ((variety, k), ...) with 1 <= k <= src[variety] and lo <= total <= hi."""
    if len(present) == 1:
        (i,) = present
        if lo == 0:
            yield ()
        for k in range(max(lo, 1), min(hi, src[i]) + 1):
            yield ((i, k),)
        return
    for counts in product(*(range(src[i] + 1) for i in present)):
        total = sum(counts)
        if lo <= total <= hi:
            yield tuple((i, k) for i, k in zip(present, counts) if k)


class Draw:
    """One card drawn at random from a zone into another: each variety in the
    source is an outcome, with probability count / total."""

    def __init__(self, label: str, source: Fn, dest: Fn, names: list[str]):
        self.label, self.source, self.dest, self.names = label, source, dest, names

    def outcomes(self, st) -> list[tuple[Action, float]]:
        src = self.source(st)
        total = sum(src)
        return [(Action(f"{self.label} {self.names[i]}", i), c / total) for i, c in enumerate(src) if c]

    def sample(self, st, rng) -> Action:
        src = self.source(st)
        r = rng.randrange(sum(src))
        for i, c in enumerate(src):
            if r < c:
                return Action(None, i, self)
            r -= c
        raise AssertionError("empty draw")

    def text(self, i: int) -> str:
        return f"{self.label} {self.names[i]}"

    def apply(self, st, i: int) -> None:
        self.source(st)[i] -= 1
        self.dest(st)[i] += 1


class RandomPick:
    """``set x = random domain``: each value equally likely."""

    def __init__(self, target: str, values: Fn, setter, name_of):
        self.target, self.values, self.setter, self.name_of = target, values, setter, name_of

    def outcomes(self, st) -> list[tuple[Action, float]]:
        values = list(self.values(st))
        return [(Action(f"{self.target} = {self.name_of(v)}", v), 1 / len(values)) for v in values]

    def sample(self, st, rng) -> Action:
        v = rng.choice(list(self.values(st)))
        return Action(f"{self.target} = {self.name_of(v)}", v)

    def apply(self, st, v: int) -> None:
        self.setter(st, v)


class TileLay:
    """The tile under one space of a track, drawn from the track's remaining tiles."""

    def __init__(self, track: int, track_name: str, slot: int, tags: list[str]):
        self.track, self.track_name, self.slot, self.tags = track, track_name, slot, tags

    def _text(self, st, t: int) -> str:
        return f"{self.track_name} {st.locals[self.slot]} {self.tags[t]}"

    def outcomes(self, st) -> list[tuple[Action, float]]:
        bag = st.bags[self.track]
        total = sum(bag)
        return [(Action(self._text(st, t), t), c / total) for t, c in enumerate(bag) if c]

    def sample(self, st, rng) -> Action:
        bag = st.bags[self.track]
        r = rng.randrange(sum(bag))
        for t, c in enumerate(bag):
            if r < c:
                return Action(self._text(st, t), t)
            r -= c
        raise AssertionError("empty bag")

    def apply(self, st, t: int) -> None:
        st.bags[self.track][t] -= 1
        st.tags[self.track][st.locals[self.slot]] = self.tags[t]
