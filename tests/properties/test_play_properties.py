"""Hypothesis properties of The Hare and the Tortoise (games/hare.rules) under random play.

Hypothesis chooses every move, chance outcomes included (``chance="explicit"``),
for every player count 2..5; after each step the state must keep the engine's
invariants: cards are conserved, animals never move back, the podium only grows,
records replay, JSON round-trips and no seat sees another seat's secrets.
Seeded games (random bot) end with winners and replay from the seed; asking a
state for its observations and results never changes it.

Examples per test come from the Hypothesis profile (tests/conftest.py: ``ci``,
``dev``, ``fuzz``); only ``deadline`` is set here, since a test is a whole game.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, note, settings
from hypothesis import strategies as st

import meeple
from play_checks import assert_looking_leaves_it_unchanged, check_who_moves, swap_one

RULES = Path(__file__).resolve().parents[2] / "games" / "hare.rules"

# The components of games/hare.rules, as written there.
ANIMALS = ("hare", "tortoise", "wolf", "fox", "sheep")
RACE_CARDS = {"hare": 18, "tortoise": 17, "wolf": 13, "howl_wolf": 3, "fox": 15, "sheep": 15}
BET_CARDS = {f"{a}_bet": 1 for a in ANIMALS}
CARDS = {**RACE_CARDS, **BET_CARDS}
TOTAL_CARDS = 86
ANIMAL_OF = {**{v: v for v in ANIMALS}, "howl_wolf": "wolf"}
TRACK = "course"
TRACK_LENGTH = 11
PODIUM_SIZE = 3
TABLE_LIMIT = 8
ANIMAL_LIMIT = 4
HIDDEN_SHARED = ("deck", "bet_pile")  # hidden zones: only their size is ever shown
PRIVATE = ("hand", "bets")  # per-player private zones: only their owner sees the contents

# A random game takes about 150-550 applied actions (chance included); the rules' cap is 4000.
ACTION_LIMIT = 2000
FULL_CHECK_EVERY = 10  # apply every legal action to a clone on one step in ten

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
# Whole games checked at every step: half the profile's examples (15 in CI, 1,000 for 'make hunt').
WHOLE_GAMES = settings(SETTINGS, max_examples=max(10, settings().max_examples // 2))

assert sum(CARDS.values()) == TOTAL_CARDS


@cache
def hare() -> meeple.Game:
    """The game, loaded and compiled once per test session."""
    return meeple.load(str(RULES))


# ---------------------------------------------------------------- layout helpers

@cache
def row_layout(game: meeple.Game, players: int) -> tuple[tuple[str, int | None], ...]:
    """(zone, owner) of each row of ``to_json()["zones"]``: zones in declaration order,
    one row per seat for a per-player zone (the order ``zone_view`` lists them in)."""
    rows: list[tuple[str, int | None]] = []
    for zone, view in game.zone_view(game.new_state(players, seed=0), None).items():
        if isinstance(view, list):
            rows.extend((zone, seat) for seat in range(players))
        else:
            rows.append((zone, None))
    return tuple(rows)


def varieties(game: meeple.Game) -> list[str]:
    """Variety name of each column of a ``to_json()["zones"]`` row."""
    return list(game.layout.variety_names)


def named_rows(game: meeple.Game, state: meeple.State, doc: dict) -> dict[tuple, dict[str, int]]:
    """Each zone row of ``doc`` as {variety: count} (zeros dropped), checked against ``zone_view``."""
    names = varieties(game)
    rows = row_layout(game, state.players)
    assert len(doc["zones"]) == len(rows)
    out = {}
    for key, vec in zip(rows, doc["zones"]):
        assert len(vec) == len(names)
        assert all(isinstance(c, int) and c >= 0 for c in vec), f"negative or odd count in {key}: {vec}"
        out[key] = {n: c for n, c in zip(names, vec) if c}
    view = game.zone_view(state, None)
    for (zone, owner), counts in out.items():
        assert (view[zone] if owner is None else view[zone][owner]) == counts, (zone, owner)
    return out


# ---------------------------------------------------------------- per-step invariants

class Watch:
    """Invariants checked after every step of one game; remembers what must not regress."""

    def __init__(self, game: meeple.Game, players: int):
        self.game, self.players = game, players
        self.pos: dict[str, int] | None = None
        self.podium: list[str] = []

    def check(self, state: meeple.State) -> dict:
        game = self.game
        doc = state.to_json()
        rows = named_rows(game, state, doc)

        # Conservation: 86 cards, and as many of each variety as the rules print.
        totals: dict[str, int] = {}
        for counts in rows.values():
            for name, c in counts.items():
                totals[name] = totals.get(name, 0) + c
        assert totals == CARDS, f"cards not conserved: {totals}"
        assert sum(totals.values()) == TOTAL_CARDS

        # The table never exceeds its limits (the `keeping` clause of `choose play`).
        table = rows[("table", None)]
        assert sum(table.values()) <= TABLE_LIMIT, table
        for a in ANIMALS:
            assert sum(c for n, c in table.items() if ANIMAL_OF.get(n) == a) <= ANIMAL_LIMIT, table

        views = [state.observation(seat) for seat in range(state.players)]
        obs = views[0]
        pos = obs["pieces"]
        podium = obs["podium"][TRACK]
        assert set(pos) == set(ANIMALS)
        assert all(p >= 0 for p in pos.values()), pos
        assert len(obs["tracks"][TRACK]) == TRACK_LENGTH

        # Animals never move backwards.
        if self.pos is not None:
            for a in ANIMALS:
                assert pos[a] >= self.pos[a], f"{a} moved back from {self.pos[a]} to {pos[a]}"
        # The podium only grows, and a finisher keeps its place.
        assert podium[:len(self.podium)] == self.podium, f"podium {self.podium} became {podium}"
        assert len(set(podium)) == len(podium) <= PODIUM_SIZE, podium
        # On the podium exactly when past the last space.
        assert set(podium) == {a for a in ANIMALS if pos[a] > TRACK_LENGTH}, (podium, pos)
        self.pos, self.podium = dict(pos), list(podium)

        check_who_moves(state, self.players)

        check_round_trip(game, state, doc, views)
        check_privacy(game, state, doc, rows, views)
        return doc


def check_round_trip(game: meeple.Game, state: meeple.State, doc: dict, views: list[dict]) -> None:
    """to_json -> JSON text -> state_from_json gives the same state, the same moves and views."""
    restored = game.state_from_json(json.loads(json.dumps(doc)))
    assert restored.to_json() == doc
    assert restored.current_player() == state.current_player()
    assert [a.text for a in restored.legal_actions()] == [a.text for a in state.legal_actions()]
    assert [(a.text, p) for a, p in restored.chance_outcomes()] == \
        [(a.text, p) for a, p in state.chance_outcomes()]
    for seat in range(state.players):
        assert restored.observation(seat) == views[seat], seat


def public_part(obs: dict) -> dict:
    """An observation without what the end of the game legitimately reveals: the scores
    and winners, which are computed from every seat's bets."""
    if obs["outcome"] is None:
        return obs
    return {k: v for k, v in obs.items() if k not in ("scores", "winners")}


def check_privacy(game: meeple.Game, state: meeple.State, doc: dict, rows: dict,
                  views: list[dict]) -> None:
    """``observation(seat)`` shows the seat's own private zones, only sizes of the other
    seats' hands and bets and of the deck and bet pile, and it does not change when the
    cards hidden from the seat are dealt differently among the zones hiding them."""
    layout = row_layout(game, state.players)
    # A reproducible reshuffle of the hidden cards, different at every step.
    rng = random.Random(len(doc["history"]) * 7919 + state.players)
    for seat in range(state.players):
        obs = views[seat]
        zones = obs["zones"]
        for zone in HIDDEN_SHARED:
            assert zones[zone] == {"size": sum(rows[(zone, None)].values())}, (seat, zone, zones[zone])
        for zone in PRIVATE:
            assert len(zones[zone]) == state.players
            for owner in range(state.players):
                seen = rows[(zone, owner)]
                expected = seen if owner == seat else {"size": sum(seen.values())}
                assert zones[zone][owner] == expected, (seat, zone, owner, zones[zone][owner])

        # The same state with the cards hidden from `seat` dealt otherwise: (a) one card of
        # each other seat's hand (and bets) swapped with a different card of the deck (or
        # bet pile), (b) all of them reshuffled among the zones hiding them.
        swapped = [row[:] for row in doc["zones"]]
        for i, (zone, owner) in enumerate(layout):
            if zone in PRIVATE and owner != seat:
                pile = layout.index(("deck" if zone == "hand" else "bet_pile", None))
                swap_one(swapped, i, pile) or swap_one(swapped, i, layout.index(("deck", None)))
        hidden = [i for i, (zone, owner) in enumerate(layout)
                  if zone in HIDDEN_SHARED or (zone in PRIVATE and owner != seat)]
        pool = [col for i in hidden for col, c in enumerate(doc["zones"][i]) for _ in range(c)]
        rng.shuffle(pool)
        reshuffled = [row[:] for row in doc["zones"]]
        at = 0
        for i in hidden:
            size = sum(doc["zones"][i])
            reshuffled[i] = [0] * len(reshuffled[i])
            for col in pool[at:at + size]:
                reshuffled[i][col] += 1
            at += size
        seen = public_part(json.loads(json.dumps(obs)))
        for kind, zones in (("one card swapped", swapped), ("reshuffled", reshuffled)):
            other = state.clone()
            other.zones = zones  # the row layout of to_json()["zones"]
            assert public_part(other.observation(seat)) == seen, \
                f"seat {seat}'s observation depends on cards hidden from it ({kind})"


def check_every_action(game: meeple.Game, state: meeple.State) -> None:
    """Every legal action (or chance outcome) applies to a clone without error, keeps the
    cards conserved and the animals from moving back, and leaves the original untouched;
    a made-up action is refused without changing anything."""
    before = state.to_json()
    obs = state.observation(0)
    pos, podium = obs["pieces"], obs["podium"][TRACK]
    options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    for action in options:
        child = state.clone()
        child.apply(action)
        totals: dict[str, int] = {}
        for view in game.zone_view(child, None).values():
            for counts in view if isinstance(view, list) else [view]:
                for name, c in counts.items():
                    totals[name] = totals.get(name, 0) + c
        assert totals == CARDS, f"{action.text!r} broke conservation: {totals}"
        after = child.observation(0)
        assert all(after["pieces"][a] >= pos[a] for a in ANIMALS), (action.text, pos, after["pieces"])
        assert after["podium"][TRACK][:len(podium)] == podium, (action.text, podium, after["podium"])
    assert state.to_json() == before, "applying to a clone changed the original"
    bogus = state.clone()
    with pytest.raises(meeple.IllegalAction):
        bogus.apply("play 9 unicorn")
    assert bogus.to_json() == before, "a refused action changed the state"


# ---------------------------------------------------------------- properties

def play_checked(game: meeple.Game, players: int, choose: Callable[[int], int],
                 phase: int) -> tuple[meeple.State, dict]:
    """Play a game from ``new_state(players, chance="explicit")``, ``choose(n)`` picking
    the index of every move and chance outcome, checking the invariants after each step
    and every action on the steps ``phase`` (mod ``FULL_CHECK_EVERY``).
    Returns the final state and its ``to_json()`` taken before any result query."""
    state = game.new_state(players, chance="explicit")
    watch = Watch(game, players)
    doc = watch.check(state)
    applied = 0
    while not state.is_terminal():
        assert applied < ACTION_LIMIT, f"not over after {applied} actions: {state}"
        if applied % FULL_CHECK_EVERY == phase:
            check_every_action(game, state)
        if state.current_player() == meeple.CHANCE:
            options = [a for a, _ in state.chance_outcomes()]
        else:
            options = state.legal_actions()
        action = options[choose(len(options))]
        try:
            state.apply(action)
            applied += 1
            doc = watch.check(state)
            assert len(doc["history"]) == applied
        except Exception:
            if currently_in_test_context():
                note(f"history: {[t for _, t in state.history()]}")
                note(f"while applying or after {action.text!r}")
            raise
    assert state.outcome == "end", state.outcome
    assert len(watch.podium) == PODIUM_SIZE
    return state, doc


@WHOLE_GAMES
@given(players=st.integers(2, 5), data=st.data())
def test_random_play_keeps_invariants(players: int, data: st.DataObject) -> None:
    game = hare()
    assert ACTION_LIMIT < game.max_steps
    event(f"players={players}")
    phase = data.draw(st.integers(0, FULL_CHECK_EVERY - 1), label="full-check phase")
    state, final = play_checked(game, players, lambda n: data.draw(st.integers(0, n - 1)), phase)
    assert state.winners(), "a finished game has winners"
    assert math.isclose(sum(state.returns()), 1.0)

    # The record replays, text by text, to the identical final state.
    replay = game.new_state(players, chance="explicit")
    for actor, text in state.history():
        expected = meeple.CHANCE if actor == "chance" else actor
        assert replay.current_player() == expected, (actor, text)
        replay.apply(text)
    assert replay.to_json() == final
    assert state.to_json() == final, "asking for the results changed the state"


@SETTINGS
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_seeded_play_ends_with_winners(players: int, seed: int) -> None:
    game = hare()
    event(f"players={players}")

    def play() -> meeple.State:
        state = game.new_state(players, seed=seed)
        bot = random.Random(seed)
        decisions = 0
        while not state.is_terminal():
            assert state.current_player() != meeple.CHANCE, "a seeded state stopped at chance"
            assert decisions < game.max_steps
            state.apply(bot.choice(state.legal_actions()))
            decisions += 1
        return state

    state = play()
    final = state.to_json()
    assert state.outcome == "end", f"{state.outcome} after {len(state.history())} steps"
    assert len(state.history()) < game.max_steps
    winners = state.winners()
    assert winners
    scores = state.scores()
    assert all(scores[s] == max(scores) for s in winners), (scores, winners)
    returns = state.returns()
    assert len(returns) == players and math.isclose(sum(returns), 1.0), returns
    assert play().to_json() == final, "the same seed played differently"


@SETTINGS
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_result_queries_leave_the_state_unchanged(players: int, seed: int) -> None:
    """Looking at a state (observation, scores, winners, returns, legal actions) does not
    change it: its ``to_json()`` stays the same, before and at the end of the game."""
    game = hare()
    state = game.new_state(players, seed=seed)
    bot = random.Random(seed)

    while not state.is_terminal():
        assert_looking_leaves_it_unchanged(game, state)
        state.apply(bot.choice(state.legal_actions()))
    assert_looking_leaves_it_unchanged(game, state)
