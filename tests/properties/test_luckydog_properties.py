"""Hypothesis properties of Lucky Dog (games/luckydog.rules) under random play.

Hypothesis chooses every move, chance outcomes included (``chance="explicit"``),
for 3 and 4 players; after each step the state must keep the engine's invariants:
the 52 cards are conserved between the zones and the table, the table is a grid
of tiles whose touching sides match (road end meets road end), every tile laid
in a turn joins the table, what is on the table never changes, a live state can
always go on, records replay, JSON round-trips, clones are independent and no
seat sees another seat's hand or the deck. Seeded games (random bot) always end
(a win or a draw, never the step cap) and replay from their record; asking a
state for its observations and results never changes it.

Examples per test come from the Hypothesis profile (tests/conftest.py: ``ci``,
``dev``, ``fuzz``); only ``deadline`` is set here, since a test is a whole game.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, note, settings
from hypothesis import strategies as st

import meeple
from meeple.interpreter.boards import square
from play_checks import assert_looking_leaves_it_unchanged, check_who_moves, swap_one

RULES = Path(__file__).resolve().parents[2] / "games" / "luckydog.rules"

# The components of games/luckydog.rules, as written there.
ROAD_TILES = {"straight": 8, "curve": 8, "t_junction": 4, "crossroads": 6, "roundabout": 3,
              "double_curve": 3, "dead_end": 2}
EFFECT_CARDS = {"police": 6, "construction": 3, "run_red_light": 3, "accelerate": 3, "detour": 3}
CARDS = {**ROAD_TILES, **EFFECT_CARDS}
TOTAL_CARDS = 52
SIGNAL_TILES = ("crossroads",)  # the tiles with a red axis, the only ones police may stand on
OFFICERS = 6
HAND_SIZE = 5
HIDDEN_SHARED = ("deck",)      # hidden zones: only their size is ever shown
PRIVATE = ("hand",)            # per-player private zones: only their owner sees the contents
PUBLIC = ("discard", "front", "detours")
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W as (dx, dy); y grows upwards

# A random game takes about 100-250 applied actions (chance included); the rules' cap is 3000.
ACTION_LIMIT = 1000
FULL_CHECK_EVERY = 10  # apply every legal action to a clone on one step in ten

PLACED = re.compile(r"^(start_tile|road) (\w+) at (-?\d+),(-?\d+) rotation ([0-3])$")

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
# Whole games checked at every step: half the profile's examples (15 in CI, 1,000 for 'make hunt').
WHOLE_GAMES = settings(SETTINGS, max_examples=max(10, settings().max_examples // 2))

assert sum(CARDS.values()) == TOTAL_CARDS
assert sum(ROAD_TILES.values()) == 34 and sum(EFFECT_CARDS.values()) == 18


@cache
def luckydog() -> meeple.Game:
    """The game, loaded and compiled once per test session."""
    return meeple.load(str(RULES))


# ---------------------------------------------------------------- layout helpers

def zone_slots(game: meeple.Game, state: meeple.State) -> dict[tuple[str, int | None], int]:
    """(zone, owner or None) -> its slot in ``state.zones``, for every zone and seat."""
    slots = {}
    for zi, zone in enumerate(game.layout.zone_names):
        owners = range(state.players) if game.sym.zones[zone]["per_player"] else [None]
        for owner in owners:
            slots[(zone, owner)] = state.zone_base[zi] + (owner or 0)
    return slots


def zone_rows(game: meeple.Game, state: meeple.State) -> dict[tuple[str, int | None], list[int]]:
    """Every slot of ``state.zones`` as (zone, owner or None) -> counts by variety; checks that
    the slots are exactly the zones' (none left over, none shared) and agree with ``zone_view``."""
    slots = zone_slots(game, state)
    assert sorted(slots.values()) == list(range(len(state.zones))), f"zone slots {slots} of {len(state.zones)}"
    rows = {key: state.zones[slot] for key, slot in slots.items()}
    names = game.layout.variety_names
    view = game.zone_view(state, None)
    for (zone, owner), vec in rows.items():
        assert len(vec) == len(names)
        counts = {n: c for n, c in zip(names, vec) if c}
        assert (view[zone] if owner is None else view[zone][owner]) == counts, (zone, owner)
    return rows


def named(game: meeple.Game, vec: list[int]) -> dict[str, int]:
    return {n: c for n, c in zip(game.layout.variety_names, vec) if c}


def tile_name(game: meeple.Game, state: meeple.State, t: int) -> str:
    return game.layout.variety_names[state.grid.variety[t]]


def touching(board, t: int) -> list[tuple[int, int]]:
    """(edge, neighbour) of every side of tile ``t`` that touches another tile."""
    return [(e, n) for e, n in enumerate(board.nb[t]) if n >= 0]


# ---------------------------------------------------------------- per-step invariants

def check_conserved(game: meeple.Game, state: meeple.State) -> None:
    """No negative count in any zone; the 52 cards (as many of each as the rules print) are
    in the zones (every slot of ``state.zones``) or on the table, and only road tiles are on
    the table."""
    names = game.layout.variety_names
    assert all(c >= 0 for vec in state.zones for c in vec), f"a negative count: {state.zones}"
    totals = [sum(column) for column in zip(*state.zones)]
    for v in state.grid.variety:
        assert names[v] in ROAD_TILES, f"a {names[v]} card on the table"
        totals[v] += 1
    assert dict(zip(names, totals)) == CARDS, f"cards not conserved: {dict(zip(names, totals))}"
    assert sum(sum(vec) for vec in state.zones) + len(state.grid.x) == TOTAL_CARDS


def check_cards(game: meeple.Game, state: meeple.State, rows: dict) -> None:
    """The cards are conserved, every count is a whole number, effect cards lie only where
    the rules send them and no hand holds more than a full hand."""
    check_conserved(game, state)
    assert all(type(c) is int for vec in state.zones for c in vec), f"an odd count: {state.zones}"
    # Effect cards go only where the rules send them.
    for (zone, owner), vec in rows.items():
        counts = named(game, vec)
        if zone == "discard":
            assert set(counts) <= {"police", "construction"}, counts
        elif zone == "front":
            assert set(counts) <= {"run_red_light", "accelerate"}, (owner, counts)
        elif zone == "detours":
            assert set(counts) <= {"detour"}, (owner, counts)
        elif zone == "hand":
            assert sum(counts.values()) <= HAND_SIZE, (owner, counts)


def check_grid(game: meeple.Game, state: meeple.State, rows: dict, full: dict) -> None:
    """The table is a consistent grid: one tile per square, neighbours that agree with the
    squares and with each other, every touching side matched (road end meets road end and
    no end meets no end), the frontier kept right, and the markers where the rules put them."""
    board = state.grid
    shapes = game.layout.shapes
    n = len(board.x)
    for lst in (board.y, board.variety, board.rot, board.ends, board.nb):
        assert len(lst) == n
    squares = list(zip(board.x, board.y))
    assert len(set(squares)) == n, f"two tiles on one square: {squares}"
    where = {xy: t for t, xy in enumerate(squares)}
    assert len(board.at) == n
    for t, (x, y) in enumerate(squares):
        assert board.tile_at(x, y) == t
        assert 0 <= board.rot[t] < 4
        assert tuple(board.ends[t]) == tuple(shapes.ends[board.variety[t]][board.rot[t]]), t
        for e, (dx, dy) in enumerate(STEP):
            nb = board.nb[t][e]
            assert nb == where.get((x + dx, y + dy), -1), f"tile {t} edge {e}: nb {nb}"
            if nb >= 0:
                assert board.nb[nb][e ^ 2] == t, f"nb not symmetric between {t} and {nb}"
                assert bool(board.ends[t][e]) == bool(board.ends[nb][e ^ 2]), \
                    f"unmatched side: tile {t} ({tile_name(game, state, t)} at {x},{y}) edge {e} " \
                    f"against tile {nb} ({tile_name(game, state, nb)})"
    # The frontier: every empty square beside a tile, with the sides touching and meeting a road.
    frontier = {}
    for x, y in squares:
        for dx, dy in STEP:
            sq = (x + dx, y + dy)
            if sq not in where:
                frontier[sq] = (*sq, board.sides(*sq))  # (x, y, touching << 4 | meeting)
    assert sorted(board.frontier.values()) == sorted(frontier.values()), "frontier out of date"
    assert sorted(board.fsides.items()) == sorted((square(x, y), s) for x, y, s in frontier.values()), \
        "frontier's keys apart from its squares"

    # Per-tile vars: one value per tile; police only on signal tiles and as many as police
    # cards discarded; closures as many as construction cards discarded, never under a marker.
    names = game.layout.tile_var_names
    policed, closed = board.tv[names.index("policed")], board.tv[names.index("closed")]
    assert len(policed) == len(closed) == n
    discard = named(game, rows[("discard", None)])
    assert sum(map(bool, policed)) == discard.get("police", 0) <= OFFICERS, (policed, discard)
    assert sum(map(bool, closed)) == discard.get("construction", 0), (closed, discard)
    assert all(tile_name(game, state, t) in SIGNAL_TILES for t in range(n) if policed[t]), policed
    obs_vars = full["vars"]
    starts = [s for s in obs_vars["start"] if 0 <= s < n]
    assert len(set(starts)) == len(starts), f"two markers on one tile: {obs_vars['start']}"
    assert not any(closed[t] for t in starts), (starts, closed)


class Watch:
    """Invariants checked after every step of one game; remembers what must not regress."""

    def __init__(self, game: meeple.Game, players: int):
        self.game, self.players = game, players
        self.table: list[tuple] = []      # (x, y, variety, rotation) of every tile so far
        self.marks: list[tuple] = []      # (policed, closed) of every tile so far
        self.kept: dict[tuple, dict[str, int]] = {}  # public zones that only ever grow

    def check(self, state: meeple.State, step: tuple | None = None) -> dict:
        """``step`` is (actor, decision label, action text, the state before) of the step just applied."""
        game = self.game
        doc = state.to_json()
        rows = zone_rows(game, state)
        full = game.observe(state, None)
        check_cards(game, state, rows)
        check_grid(game, state, rows, full)
        self.check_progress(state, rows, step)

        views = [state.observation(seat) for seat in range(state.players)]

        check_who_moves(state, self.players)
        if state.is_terminal():
            assert state.outcome in ("end", "draw", "step cap"), state.outcome
        # The results are asked for at every step too (the caller checks they change nothing).
        assert len(state.scores()) == len(state.returns()) == state.players
        if state.outcome != "end":
            assert state.winners() == [] and state.returns() == [0.0] * state.players
        assert set(game.report_values(state)) == {"tiles on the table"}
        assert game.report_values(state)["tiles on the table"] == len(state.grid.x)

        # One seat a step has its observation compared after the round trip and after
        # the cards hidden from it are dealt otherwise (every seat's view is checked above).
        seat = len(doc["history"]) % state.players
        check_round_trip(game, state, doc, seat, views[seat])
        check_privacy(game, state, rows, full, views)
        check_hidden_cards_unseen(game, state, doc, seat, views[seat])
        # The caller checks that all this looking did not change the state (``to_json()``
        # still gives ``doc`` before the next step).
        return doc

    def check_progress(self, state: meeple.State, rows: dict, step: tuple | None) -> None:
        """What is on the table stays (tiles, police, closures); discards, fronts and detours
        only grow; a tile laid by a move is the one the move names, from the mover's hand, and
        lies where the rules allow: a start tile touching no tile, a road tile touching the
        table, matching it (checked for every tile in ``check_grid``) and joining a road to a road."""
        game, board = self.game, state.grid
        table = list(zip(board.x, board.y, board.variety, board.rot))
        names = game.layout.tile_var_names
        marks = list(zip(board.tv[names.index("policed")], board.tv[names.index("closed")]))
        assert table[:len(self.table)] == self.table, "a tile on the table moved or went away"
        for t, (old, new) in enumerate(zip(self.marks, marks)):
            assert all(new[i] or not old[i] for i in range(2)), f"tile {t} lost its police or closure"
        added = len(table) - len(self.table)
        assert added in (0, 1), f"{added} tiles laid in one step"
        for key in [("discard", None)] + [(z, p) for z in ("front", "detours") for p in range(state.players)]:
            now = named(game, rows[key])
            was = self.kept.get(key, {})
            assert all(now.get(k, 0) >= c for k, c in was.items()), f"{key} lost cards: {was} -> {now}"
            self.kept[key] = now

        if step is not None:
            actor, label, text, before = step
            m = PLACED.match(text)
            if m:
                kind, name, x, y, rot = m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))
                assert label == kind, (label, text)
                assert added == 1, f"{text!r} laid {added} tiles"
                t = len(table) - 1
                assert (board.x[t], board.y[t], tile_name(game, state, t), board.rot[t]) == (x, y, name, rot), text
                # From the mover's hand (no refill comes before the next decision or draw).
                hand_before = named(game, zone_rows(game, before)[("hand", actor)])
                hand_after = named(game, rows[("hand", actor)])
                assert hand_after.get(name, 0) == hand_before.get(name, 0) - 1, (text, hand_before, hand_after)
                sides = touching(board, t)
                if kind == "start_tile":
                    assert not sides, f"{text!r} touches {sides}"
                else:
                    assert sides, f"{text!r} touches no tile"
                    assert any(board.ends[t][e] and board.ends[n][e ^ 2] for e, n in sides), \
                        f"{text!r} joins no road"
            else:
                assert added == 0, f"{text!r} laid a tile"
        self.table, self.marks = table, marks


def check_round_trip(game: meeple.Game, state: meeple.State, doc: dict, seat: int, view: dict) -> None:
    """to_json -> JSON text -> state_from_json gives the same state, the same moves and
    ``seat``'s same ``view``."""
    restored = game.state_from_json(json.loads(json.dumps(doc)))
    assert restored.to_json() == doc
    assert restored.current_player() == state.current_player()
    assert [a.text for a in restored.legal_actions()] == [a.text for a in state.legal_actions()]
    assert [(a.text, p) for a, p in restored.chance_outcomes()] == \
        [(a.text, p) for a, p in state.chance_outcomes()]
    assert sorted(restored.grid.frontier.values()) == sorted(state.grid.frontier.values())
    assert restored.observation(seat) == view, seat


def check_privacy(game: meeple.Game, state: meeple.State, rows: dict, full: dict,
                  views: list[dict]) -> None:
    """``observation(seat)`` shows the seat's own hand, only sizes of the other hands and of
    the deck, the public zones, the vars and the table in full (``full``: everything)."""
    for seat in range(state.players):
        obs = views[seat]
        zones = obs["zones"]
        assert obs["seat"] == seat
        assert obs["grid"] == full["grid"], f"seat {seat} sees another table"
        assert len(obs["grid"]) == len(state.grid.x)
        assert obs["vars"] == full["vars"]
        for zone in HIDDEN_SHARED:
            assert zones[zone] == {"size": sum(rows[(zone, None)])}, (seat, zone, zones[zone])
        for zone in PRIVATE:
            assert len(zones[zone]) == state.players
            for owner in range(state.players):
                seen = named(game, rows[(zone, owner)])
                expected = seen if owner == seat else {"size": sum(seen.values())}
                assert zones[zone][owner] == expected, (seat, zone, owner, zones[zone][owner])
        for zone in PUBLIC:
            assert zones[zone] == full["zones"][zone], (seat, zone)


def check_hidden_cards_unseen(game: meeple.Game, state: meeple.State, doc: dict, seat: int,
                              view: dict) -> None:
    """``observation(seat)`` (``view``) does not change when the cards hidden from the seat
    are dealt differently among the zones hiding them."""
    slot_of = zone_slots(game, state)
    rng = random.Random(len(doc["history"]) * 7919 + state.players)  # reproducible, new every step
    # The same state with the cards hidden from `seat` dealt otherwise: (a) one card of
    # each other seat's hand swapped with a different card of the deck, (b) all of them
    # reshuffled among the deck and the other hands.
    swapped = [row[:] for row in state.zones]
    deck = slot_of[("deck", None)]
    for owner in range(state.players):
        if owner != seat:
            swap_one(swapped, slot_of[("hand", owner)], deck)
    hidden = [slot for key, slot in slot_of.items()
              if key[0] in HIDDEN_SHARED or (key[0] in PRIVATE and key[1] != seat)]
    pool = [col for i in hidden for col, c in enumerate(state.zones[i]) for _ in range(c)]
    rng.shuffle(pool)
    reshuffled = [row[:] for row in state.zones]
    at = 0
    for i in hidden:
        size = sum(state.zones[i])
        reshuffled[i] = [0] * len(reshuffled[i])
        for col in pool[at:at + size]:
            reshuffled[i][col] += 1
        at += size
    seen = json.loads(json.dumps(view))
    for kind, zones in (("one card swapped", swapped), ("reshuffled", reshuffled)):
        other = state.clone()
        other.zones = zones
        assert other.observation(seat) == seen, \
            f"seat {seat}'s observation depends on cards hidden from it ({kind})"


def check_every_action(game: meeple.Game, state: meeple.State) -> None:
    """Every legal action (or chance outcome) applies to a clone without error, keeps the
    cards conserved and the table matched, and leaves the original untouched; a made-up
    action is refused without changing anything."""
    before = state.to_json()
    options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    for action in options:
        child = state.clone()
        child.apply(action)
        check_conserved(game, child)
        board = child.grid
        if len(board.x) > len(state.grid.x):
            t = len(board.x) - 1
            for e, n in touching(board, t):
                assert bool(board.ends[t][e]) == bool(board.ends[n][e ^ 2]), f"{action.text!r}: unmatched side"
    assert state.to_json() == before, "applying to a clone changed the original"
    for bogus_text in ("road unicorn at 0,0 rotation 0", "road straight at 999,999 rotation 0"):
        bogus = state.clone()
        with pytest.raises(meeple.IllegalAction):
            bogus.apply(bogus_text)
        assert bogus.to_json() == before, "a refused action changed the state"


# ---------------------------------------------------------------- properties

def options_of(state: meeple.State) -> list[meeple.Action]:
    """The legal actions, or the chance outcomes at a chance node."""
    if state.current_player() == meeple.CHANCE:
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def choose_game(game: meeple.Game, players: int,
                choose: Callable[[list[meeple.Action]], meeple.Action]) -> list[int]:
    """Play a game from ``new_state(players, chance="explicit")``, ``choose(options)`` picking
    every move and chance outcome; returns the index of the option chosen at each step.

    The game is chosen first and checked afterwards (``play_checked``): when Hypothesis
    runs out of choices for a game (it often does while it mutates earlier games), it
    stops here, before any check has been paid for."""
    state = game.new_state(players, chance="explicit")
    picks: list[int] = []
    while not state.is_terminal():
        assert len(picks) < ACTION_LIMIT, f"not over after {len(picks)} actions: {state}"
        options = options_of(state)
        assert options, f"stuck: nothing to do for {state.current_player()} ({state.decision()})"
        action = choose(options)
        picks.append(next(i for i, a in enumerate(options) if a is action))
        try:
            state.apply(action)
        except Exception:
            if currently_in_test_context():
                note(f"history: {[t for _, t in state.history()]}")
                note(f"while applying {action.text!r}")
            raise
    return picks


def play_checked(game: meeple.Game, players: int, picks: list[int],
                 phase: int) -> tuple[meeple.State, dict]:
    """Play a game from ``new_state(players, chance="explicit")``, taking option ``picks[i]``
    at step ``i``, checking the invariants after each step and every action on the steps
    ``phase`` (mod ``FULL_CHECK_EVERY``).
    Returns the final state and its ``to_json()`` taken before any result query."""
    state = game.new_state(players, chance="explicit")
    watch = Watch(game, players)
    doc = watch.check(state)
    applied = 0
    for pick in picks:
        assert not state.is_terminal(), f"over after {applied} of {len(picks)} actions"
        if applied % FULL_CHECK_EVERY == phase:
            check_every_action(game, state)
        actor = state.current_player()
        action = options_of(state)[pick]
        label = state.decision()
        try:
            # The game goes on in a clone: the state before must stay as it was.
            before, state = state, state.clone()
            state.apply(action.text)
            assert before.to_json() == doc, "checking the state or applying to a clone changed it"
            applied += 1
            doc = watch.check(state, (actor, label, action.text, before))
            assert len(doc["history"]) == applied
        except Exception:
            if currently_in_test_context():
                note(f"history: {[t for _, t in state.history()]}")
                note(f"while applying or after {action.text!r}")
            raise
    assert state.is_terminal(), f"not over after the {applied} actions of the chosen game"
    return state, doc


@WHOLE_GAMES
@given(players=st.sampled_from([3, 4]), data=st.data())
def test_random_play_keeps_invariants(players: int, data: st.DataObject) -> None:
    """Hypothesis picks every move and chance outcome of a whole game; every step keeps the
    invariants (``Watch``), the game ends by the rules (never the step cap) and its history
    replays to the same state."""
    game = luckydog()
    assert ACTION_LIMIT < game.max_steps
    event(f"players={players}")
    phase = data.draw(st.integers(0, FULL_CHECK_EVERY - 1), label="full-check phase")
    picks = choose_game(game, players, lambda options: data.draw(st.sampled_from(options)))
    state, final = play_checked(game, players, picks, phase)
    event(f"outcome={state.outcome}")

    # The game ended by the rules: one winner, the player who moved last, or a draw.
    history = state.history()
    last_mover = next(actor for actor, _ in reversed(history) if actor != "chance")
    if state.outcome == "end":
        assert state.winners() == [last_mover] == [state.current], (state.winners(), last_mover)
        assert state.returns() == [1.0 if s == last_mover else 0.0 for s in range(players)]
    else:
        assert state.outcome == "draw", state.outcome
        assert state.winners() == [] and state.returns() == [0.0] * players
    assert state.to_json() == final, "asking for the results changed the state"

    # The record replays, text by text, to the identical final state.
    replay = game.new_state(players, chance="explicit")
    for actor, text in history:
        expected = meeple.CHANCE if actor == "chance" else actor
        assert replay.current_player() == expected, (actor, text)
        replay.apply(text)
    assert replay.to_json() == final


@SETTINGS
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 2**32 - 1))
def test_seeded_play_ends(players: int, seed: int) -> None:
    """A seeded game between random players ends by the rules (a win or a draw, never the
    step cap or a stuck state), plays the same again, and its record replays."""
    game = luckydog()
    event(f"players={players}")

    def play() -> meeple.State:
        state = game.new_state(players, seed=seed)
        bot = random.Random(seed)
        decisions = 0
        while not state.is_terminal():
            assert state.current_player() != meeple.CHANCE, "a seeded state stopped at chance"
            legal = state.legal_actions()
            assert legal, f"stuck: seat {state.current_player()} has no legal action ({state.decision()})"
            assert decisions < ACTION_LIMIT
            state.apply(bot.choice(legal))
            decisions += 1
        return state

    state = play()
    final = state.to_json()
    event(f"outcome={state.outcome}")
    assert state.outcome in ("end", "draw"), f"{state.outcome} after {len(state.history())} steps"
    assert len(state.history()) < game.max_steps
    winners = state.winners()
    if state.outcome == "end":
        last_mover = next(actor for actor, _ in reversed(state.history()) if actor != "chance")
        assert winners == [last_mover], (winners, last_mover)
        assert math.isclose(sum(state.returns()), 1.0)
    else:
        assert winners == [] and sum(state.returns()) == 0
    assert play().to_json() == final, "the same seed played differently"

    replay = game.new_state(players, chance="explicit")
    for _, text in state.history():
        replay.apply(text)
    assert replay.to_json() == {k: v for k, v in final.items() if k != "rng"}


@SETTINGS
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 2**32 - 1))
def test_result_queries_leave_the_state_unchanged(players: int, seed: int) -> None:
    """Looking at a state (observation, scores, winners, returns, legal actions, to_json)
    does not change it: its ``to_json()`` stays the same, during and at the end of the game."""
    game = luckydog()
    state = game.new_state(players, seed=seed)
    bot = random.Random(seed)

    while not state.is_terminal():
        assert_looking_leaves_it_unchanged(game, state)
        state.apply(bot.choice(state.legal_actions()))
    assert_looking_leaves_it_unchanged(game, state)
