"""One scenario per rule of Lucky Dog (the project's rules reading of the seed).

Each test builds a position, runs the step the rule is about and checks the
result, precisely enough that changing that rule in games/luckydog.rules makes
it fail (tests/test_luckydog_mutations.py checks this for every rule). Every
test takes the compiled game as its argument, so the mutation tests can run the
very same scenarios against altered copies of the rules.

State internals are touched only through tests/luckydog_positions.py.
Squares are (x, y) with y growing upwards; rotations turn clockwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import luckydog_positions as P
import pytest

from meeple import CHANCE

ROAD_TILES = {"straight": 8, "curve": 8, "t_junction": 4, "crossroads": 6, "roundabout": 3, "double_curve": 3,
              "dead_end": 2}
EFFECT_CARDS = {"police": 6, "construction": 3, "run_red_light": 3, "accelerate": 3, "detour": 3}
ROADS = {"straight": {"NS"}, "curve": {"NE"}, "t_junction": {"NEW"}, "crossroads": {"NESW"},
         "roundabout": {"NESW"}, "double_curve": {"NW", "ES"}, "dead_end": {"N"}}

# The seed's worked example: roundabout (0,0); double curve (1,0) with roads W-N and S-E; crossroads
# (1,1) and (2,0); curve (2,1) joining W-S; curve (1,-1) joining N-E. Seat 0's marker on the roundabout.
EXAMPLE = [("roundabout", (0, 0), 0), ("double_curve", (1, 0), ["WN", "SE"]), ("crossroads", (1, 1), 0),
           ("crossroads", (2, 0), 0), ("curve", (2, 1), "WS"), ("curve", (1, -1), "NE")]
UPPER_CROSSROADS = (1, 1)


@pytest.fixture(scope="module")
def game():
    return P.load()


# ---- building scenarios (public API + luckydog_positions.py only) ----
def position(g, *, players: int = 3, seat: int = 0, tiles: Iterable[tuple] = (),
             markers: Mapping[int, tuple] | None = None, policed: Iterable = (), closed: Iterable = (),
             hands: Mapping[int, Mapping[str, int]] | None = None, deck: Mapping[str, int] | None = None,
             fronts: Mapping[int, Mapping[str, int]] | None = None,
             detours: Mapping[int, Mapping[str, int]] | None = None, seed: int = 0):
    """A state at the "road" decision that starts ``seat``'s turn, with exactly these tiles
    (name, square, rotation or roads), markers ({seat: (square, edge)}), police and closures,
    hands, deck, cards in front of players and detours on them; everything else empty."""
    st = P.start(g, players, seed=seed)
    P.clear_table(st)
    for name, xy, turn in tiles:
        if isinstance(turn, int):
            P.lay(st, name, xy, rotation=turn)
        else:
            P.lay(st, name, xy, paths=turn)
    for xy in policed:
        P.set_policed(st, xy)
    for xy in closed:
        P.set_closed(st, xy)
    for s, (xy, edge) in (markers or {}).items():
        P.set_marker(st, s, xy, edge)
    for s in range(players):
        P.set_zone(st, "hand", (hands or {}).get(s, {}), seat=s)
        P.set_zone(st, "front", (fronts or {}).get(s, {}), seat=s)
        P.set_zone(st, "detours", (detours or {}).get(s, {}), seat=s)
    P.set_zone(st, "deck", {"straight": 8} if deck is None else deck)
    P.set_zone(st, "discard", {})
    P.set_idle(st, 0)
    P.set_current(st, seat)
    P.begin_turn(st)
    return st


def example(g, **kw):
    return position(g, tiles=EXAMPLE, markers={0: ((0, 0), "N")}, **kw)


def east(x0: int, y: int, n: int, name: str = "straight") -> list[tuple]:
    """``n`` tiles with an E-W road in a row, from (x0, y) eastwards."""
    return [(name, (x, y), 1) for x in range(x0, x0 + n)]


def texts(actions) -> set[str]:
    return {str(a) for a in actions}


def squares(actions) -> set[tuple[int, int]]:
    """The squares named by placement actions."""
    found = set()
    for a in actions:
        m = re.search(r" at (-?\d+),(-?\d+) ", str(a))
        if m:
            found.add((int(m[1]), int(m[2])))
    return found


def run_chance(st) -> None:
    """Apply the first outcome of each chance node up to a decision."""
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])


def finish_turn(st) -> None:
    """The player to move plays nothing more: no road tile (if not yet decided), no effect card."""
    if st.decision() == "road":
        st.apply("road nothing")
    while st.decision() == "effect":
        st.apply("stop")


def setup_at_start_tile(g, players: int = 3, seed: int = 0, hand: Mapping[str, int] | None = None):
    """A fresh game at the first "start_tile" decision; the first player holds ``hand`` if given."""
    st = g.new_state(players, seed=seed)
    assert st.decision() == "start_tile"
    if hand is not None:
        P.set_zone(st, "hand", hand, seat=st.current_player())
    return st


def place_start(st, tile: str, xy: tuple[int, int], rotation: int, edge: str) -> int:
    """The player to move (in the setup) lays ``tile`` as their start tile and puts their marker."""
    seat = st.current_player()
    P.set_zone(st, "hand", {tile: 1, "police": 4}, seat=seat)
    st.apply(f"start_tile {tile} at {xy[0]},{xy[1]} rotation {rotation}")
    assert st.decision() == "marker" and st.current_player() == seat
    st.apply(f"at {edge}")
    return seat


# ---- the seed's worked example ----
def test_worked_example_counts_five(game):
    st = example(game)
    assert P.route(st, 0) == 5


def test_worked_example_police_on_the_upper_crossroads_counts_two_or_five_with_a_pass(game):
    st = example(game, policed=[UPPER_CROSSROADS])
    assert P.red(game, "crossroads", P.table(st)[UPPER_CROSSROADS]["rotation"]) == "NS"
    assert P.route(st, 0) == 2  # into the double curve, up into the crossroads across red: stop there
    st = example(game, policed=[UPPER_CROSSROADS], fronts={0: {"run_red_light": 1}})
    assert P.route(st, 0) == 5


def test_worked_example_curve_top_left_counts_six(game):
    st = example(game, policed=[UPPER_CROSSROADS], hands={0: {"curve": 1}})
    assert P.roads(game, "curve", 1) == {"ES"}
    st.apply("road curve at 0,1 rotation 1")  # the curve joining S-E at (0,1)
    assert P.table(st)[(0, 1)]["tile"] == "curve"
    assert P.route(st, 0) == 6  # it enters the upper crossroads from the W: green


# ---- components ----
def test_components(game):
    """One deck of 52: 34 road tiles and 18 effect cards; the roads and the red axis of each tile."""
    st = game.new_state(3, seed=0)
    cards = P.all_cards(st)
    assert cards == {**ROAD_TILES, **EFFECT_CARDS}
    assert sum(cards.values()) == 52
    assert P.tile_names(game) == list(ROAD_TILES)
    assert {name: P.roads(game, name) for name in ROAD_TILES} == ROADS
    assert {name: P.red(game, name) for name in ROAD_TILES} == {**{n: "" for n in ROAD_TILES}, "crossroads": "NS"}


def test_hands_private_deck_hidden_cards_in_front_and_detours_public(game):
    st = position(game, hands={0: {"police": 2}, 1: {"curve": 1}}, fronts={1: {"run_red_light": 1}},
                  detours={2: {"detour": 1}}, deck={"straight": 3})
    zones = st.observation(0)["zones"]
    assert zones["hand"] == [{"police": 2}, {"size": 1}, {"size": 0}]
    assert zones["deck"] == {"size": 3}
    assert zones["front"] == [{}, {"run_red_light": 1}, {}]
    assert zones["detours"] == [{}, {}, {"detour": 1}]


# ---- setup ----
@pytest.mark.parametrize("players", [3, 4])
def test_five_cards_dealt_each_and_refilled_after_the_start_tile(game, players):
    st = game.new_state(players, seed=players)
    first = st.current_player()
    for seat in range(players):
        assert P.size(st, "hand", seat) == 5
    assert P.size(st, "deck") == 52 - 5 * players
    for i in range(players):
        seat = st.current_player()
        assert seat == (first + i) % players and st.decision() == "start_tile"
        st.apply(st.legal_actions()[0])
        st.apply(st.legal_actions()[0])
        assert P.size(st, "hand", seat) == 5  # refilled to 5 at once
        assert P.size(st, "deck") == 52 - 5 * players - (i + 1)
        assert len(P.table(st)) == i + 1
    assert st.decision() == "road" and st.current_player() == first
    assert P.all_cards(st) == {**ROAD_TILES, **EFFECT_CARDS}


def test_a_hand_without_a_road_tile_is_dealt_again(game):
    st = game.new_state(3, chance="explicit")
    for card in ["police"] * 5:
        st.apply(f"deal {card}")
    assert P.zone(st, "hand", 0) == {} and P.size(st, "deck") == 52  # back into the deck
    for card in ["construction"] * 3 + ["accelerate"] * 2:  # no road tile again: dealt again
        st.apply(f"deal {card}")
    assert P.zone(st, "hand", 0) == {} and P.size(st, "deck") == 52
    for card in ["police", "detour", "dead_end", "police", "police"]:
        st.apply(f"deal {card}")
    assert P.zone(st, "hand", 0) == {"police": 3, "detour": 1, "dead_end": 1}  # kept
    assert P.size(st, "deck") == 47
    assert P.size(st, "hand", 1) == 0  # the next player's deal comes next
    st.apply("deal straight")
    assert P.zone(st, "hand", 1) == {"straight": 1} and P.zone(st, "hand", 0) == {"police": 3, "detour": 1,
                                                                                    "dead_end": 1}
    assert P.table(st) == {}


def test_first_player_is_random_and_the_start_tiles_go_clockwise(game):
    players = 4
    st = game.new_state(players, chance="explicit")
    while st.current_player() == CHANCE and not str(st.chance_outcomes()[0][0]).startswith("current"):
        st.apply(st.chance_outcomes()[0][0])
    assert {str(a): p for a, p in st.chance_outcomes()} == pytest.approx(
        {f"current = seat {s}": 1 / players for s in range(players)})
    st.apply("current = seat 2")
    order = []
    while st.decision() != "road":
        if st.decision() == "start_tile":
            order.append(st.current_player())
        st.apply(st.legal_actions()[0])
        run_chance(st)
    assert order == [2, 3, 0, 1]
    assert st.current_player() == 2
    assert {game.new_state(players, seed=s).current_player() for s in range(40)} == set(range(players))


def test_the_first_start_tile_goes_anywhere_any_distinct_rotation(game):
    st = setup_at_start_tile(game, hand={"straight": 1, "curve": 1, "crossroads": 1, "roundabout": 1,
                                         "double_curve": 1, "police": 1})
    assert texts(st.legal_actions()) == {
        "start_tile straight at 0,0 rotation 0", "start_tile straight at 0,0 rotation 1",
        "start_tile curve at 0,0 rotation 0", "start_tile curve at 0,0 rotation 1",
        "start_tile curve at 0,0 rotation 2", "start_tile curve at 0,0 rotation 3",
        "start_tile crossroads at 0,0 rotation 0", "start_tile crossroads at 0,0 rotation 1",
        "start_tile roundabout at 0,0 rotation 0",
        "start_tile double_curve at 0,0 rotation 0", "start_tile double_curve at 0,0 rotation 1"}


def test_later_start_tiles_one_empty_square_from_another_start_tile(game):
    st = setup_at_start_tile(game)
    place_start(st, "straight", (0, 0), 0, "N")
    P.set_zone(st, "hand", {"crossroads": 1, "police": 4}, seat=st.current_player())
    assert texts(st.legal_actions()) == {f"start_tile crossroads at {x},{y} rotation {r}"
                                         for x, y in [(2, 0), (-2, 0), (0, 2), (0, -2)] for r in (0, 1)}
    place_start(st, "straight", (2, 0), 1, "E")
    P.set_zone(st, "hand", {"curve": 1, "police": 4}, seat=st.current_player())
    assert squares(st.legal_actions()) == {(-2, 0), (4, 0), (0, 2), (0, -2), (2, 2), (2, -2)}


def test_a_start_tile_touches_no_tile_and_counts_only_start_tiles(game):
    st = setup_at_start_tile(game)
    place_start(st, "straight", (0, 0), 0, "N")
    P.lay(st, "straight", (3, 0), rotation=1)  # a tile under no marker
    P.set_zone(st, "hand", {"straight": 1, "police": 4}, seat=st.current_player())
    # not (2,0): it touches (3,0); not (5,0): (3,0) is no start tile; not (3,2): not in a row or column
    assert squares(st.legal_actions()) == {(-2, 0), (0, 2), (0, -2)}


@pytest.mark.parametrize("tile,rotation,edges", [
    ("crossroads", 0, {"N", "E", "S", "W"}),   # a crossroads: any entry edge
    ("crossroads", 1, {"N", "E", "S", "W"}),
    ("roundabout", 0, {"N"}),                  # otherwise one per road
    ("straight", 0, {"N"}),
    ("straight", 1, {"E"}),
    ("curve", 1, {"E"}),
    ("curve", 3, {"N"}),
    ("t_junction", 2, {"E"}),
    ("double_curve", 0, {"N", "E"}),
    ("double_curve", 1, {"N", "S"}),
    ("dead_end", 2, {"S"}),
])
def test_marker_on_an_entry_edge_of_a_crossroads_or_on_one_road(game, tile, rotation, edges):
    st = setup_at_start_tile(game, hand={tile: 1, "police": 4})
    seat = st.current_player()
    st.apply(f"start_tile {tile} at 0,0 rotation {rotation}")
    assert st.decision() == "marker" and st.current_player() == seat
    assert texts(st.legal_actions()) == {f"at {e}" for e in edges}
    last = sorted(edges, key="NESW".index)[-1]
    st.apply(f"at {last}")
    assert P.marker(st, seat) == ((0, 0), last)


# ---- a turn: the road tile ----
def test_the_road_tile_is_optional(game):
    st = position(game, tiles=[("straight", (0, 0), 0)], hands={0: {"curve": 1}})
    assert texts(st.legal_actions()) == {"road nothing", "road curve at 0,1 rotation 1",
                                         "road curve at 0,1 rotation 2", "road curve at 0,-1 rotation 0",
                                         "road curve at 0,-1 rotation 3"}
    st.apply("road nothing")
    assert st.decision() == "road" and st.current_player() == 1
    assert len(P.table(st)) == 1 and P.zone(st, "hand", 0) == {"curve": 1, "straight": 4}


PLACEMENT = [("straight", (0, 0), 0), ("straight", (1, 1), 0)]
PLACEMENT_MOVES = {"road nothing",
                   "road curve at 0,1 rotation 2",    # S meets a road, E meets the straight's side
                   "road curve at 0,-1 rotation 0", "road curve at 0,-1 rotation 3",
                   "road curve at 1,0 rotation 0",    # N meets a road, W meets the straight's side
                   "road curve at 1,2 rotation 1", "road curve at 1,2 rotation 2"}


def test_placement_road_meets_road_and_a_road_joins(game):
    st = position(game, tiles=PLACEMENT, hands={0: {"curve": 1}})
    assert texts(st.legal_actions()) == PLACEMENT_MOVES
    st.apply("road curve at 1,0 rotation 0")
    assert P.table(st)[(1, 0)] == {"tile": "curve", "rotation": 0, "policed": False, "closed": False}
    assert P.zone(st, "hand", 0) == {"straight": 5}


def test_placement_closed_tiles_count_and_joining_a_closed_road_joins(game):
    # (1,1) closed: its sides still have to match, and (1,2) joins only its road
    st = position(game, tiles=PLACEMENT, closed=[(1, 1)], hands={0: {"curve": 1}})
    assert texts(st.legal_actions()) == PLACEMENT_MOVES


def test_placements_that_leave_the_same_table_are_one_move(game):
    st = position(game, tiles=[("dead_end", (0, 0), 0)],
                  hands={0: {"straight": 2, "roundabout": 1, "crossroads": 1, "double_curve": 1}})
    assert texts(st.legal_actions()) == {
        "road nothing", "road straight at 0,1 rotation 0", "road roundabout at 0,1 rotation 0",
        "road crossroads at 0,1 rotation 0", "road crossroads at 0,1 rotation 1",
        "road double_curve at 0,1 rotation 0", "road double_curve at 0,1 rotation 1"}


# ---- a turn: effect cards ----
def test_effect_cards_one_at_a_time_until_the_player_stops(game):
    st = position(game, hands={0: {"accelerate": 2, "run_red_light": 1, "straight": 1}})
    assert texts(st.legal_actions()) == {"road nothing"}
    st.apply("road nothing")
    assert st.decision() == "effect" and st.current_player() == 0
    assert texts(st.legal_actions()) == {"stop", "run_red_light", "accelerate"}
    st.apply("accelerate")
    assert st.decision() == "effect" and P.zone(st, "front", 0) == {"accelerate": 1}
    st.apply("accelerate")
    assert st.decision() == "effect" and texts(st.legal_actions()) == {"stop", "run_red_light"}
    st.apply("stop")
    assert st.decision() == "road" and st.current_player() == 1
    assert P.zone(st, "front", 0) == {"accelerate": 2}
    assert P.zone(st, "hand", 0) == {"run_red_light": 1, "straight": 4}
    # without an effect card in hand there is no effect decision
    st.apply("road nothing")
    assert st.decision() == "road" and st.current_player() == 2


POLICE_TABLE = [("crossroads", (0, 0), 0), ("crossroads", (1, 0), 0), ("crossroads", (2, 0), 1),
                ("roundabout", (3, 0), 0), ("straight", (-1, 0), 1)]


def test_police_on_a_crossroads_without_police_closed_or_not(game):
    st = position(game, tiles=POLICE_TABLE, policed=[(1, 0)], closed=[(2, 0)], hands={0: {"police": 1}})
    st.apply("road nothing")
    assert texts(st.legal_actions()) == {"stop", "police 0,0", "police 2,0"}
    st.apply("police 0,0")
    assert P.table(st)[(0, 0)]["policed"] and P.table(st)[(1, 0)]["policed"]
    assert P.zone(st, "discard") == {"police": 1}
    assert P.zone(st, "front", 0) == {} and P.zone(st, "hand", 0) == {"straight": 5}
    assert st.decision() == "road" and st.current_player() == 1


def test_police_markers_run_out_at_six(game):
    tiles = east(0, 0, 7, "crossroads")
    st = position(game, tiles=tiles, policed=[xy for _, xy, _ in tiles[:5]], hands={0: {"police": 2}})
    st.apply("road nothing")
    assert texts(st.legal_actions()) == {"stop", "police 5,0", "police 6,0"}
    st.apply("police 5,0")
    assert sum(t["policed"] for t in P.table(st).values()) == 6
    assert st.decision() == "effect" and texts(st.legal_actions()) == {"stop"}


def test_construction_closes_a_tile_without_a_marker(game):
    tiles = [("straight", (0, y), 0) for y in (0, 1, 3)] + [("crossroads", (0, 2), 0), ("curve", (0, 4), 2)]
    st = position(game, tiles=tiles, markers={0: ((0, 0), "N"), 1: ((0, 1), "N")}, policed=[(0, 2)],
                  closed=[(0, 3)], hands={0: {"construction": 1}})
    st.apply("road nothing")
    # not the player's own marker tile, not another's, not a closed tile; a policed tile is fine
    assert texts(st.legal_actions()) == {"stop", "construction 0,2", "construction 0,4"}
    st.apply("construction 0,2")
    assert P.table(st)[(0, 2)] == {"tile": "crossroads", "rotation": 0, "policed": True, "closed": True}
    assert P.zone(st, "discard") == {"construction": 1} and P.zone(st, "front", 0) == {}
    assert st.current_player() == 1


# a straight with seat 0's marker at (0,0), two policed crossroads turned so that E-W is red, two straights
RED_LINE = east(0, 0, 1) + east(1, 0, 2, "crossroads") + east(3, 0, 2)
RED_LINE_POLICE = [(1, 0), (2, 0)]


def test_run_red_light_cards_pass_one_red_signal_each_none_used_up(game):
    passes = {}
    for cards in range(4):
        st = position(game, tiles=RED_LINE, policed=RED_LINE_POLICE, markers={0: ((0, 0), "E")},
                      fronts={0: {"run_red_light": cards}} if cards else None)
        passes[cards] = P.route(st, 0)
    assert passes == {0: 1, 1: 2, 2: 4, 3: 4}
    # played from the hand, the card stays in front of the player and serves every goal check
    st = position(game, tiles=RED_LINE, policed=RED_LINE_POLICE, markers={0: ((0, 0), "E")},
                  hands={0: {"run_red_light": 1}})
    st.apply("road nothing")
    st.apply("run_red_light")
    assert P.zone(st, "front", 0) == {"run_red_light": 1} and P.zone(st, "discard") == {}
    assert st.current_player() == 1
    assert P.route(st, 0) == 2
    finish_turn(st)
    finish_turn(st)
    assert st.current_player() == 0 and not st.is_terminal()
    assert P.zone(st, "front", 0) == {"run_red_light": 1}
    assert P.route(st, 0) == 2


def test_target_ten_minus_accelerate_plus_two_per_detour_never_below_one(game):
    st = position(game)
    assert P.target(st, 0) == 10
    cases = [({"accelerate": 3}, {}, 7), ({}, {"detour": 2}, 14), ({"accelerate": 1}, {"detour": 3}, 15),
             ({"accelerate": 2, "run_red_light": 3}, {"detour": 1}, 10)]
    for front, detours, target in cases:
        st = position(game, fronts={1: front}, detours={1: detours})
        assert P.target(st, 1) == target, (front, detours)
        assert P.target(st, 0) == 10
    low = P.reload(game, goal=2)
    st = position(low, fronts={0: {"accelerate": 3}})
    assert P.target(st, 0) == 1
    st = position(low, fronts={0: {"accelerate": 2}})
    assert P.target(st, 0) == 1


def test_accelerate_in_front_detour_onto_another_player(game):
    st = position(game, seat=1, hands={1: {"accelerate": 1, "detour": 2}})
    st.apply("road nothing")
    assert texts(st.legal_actions()) == {"stop", "accelerate", "detour seat 0", "detour seat 2"}
    st.apply("detour seat 2")
    st.apply("detour seat 2")
    assert texts(st.legal_actions()) == {"stop", "accelerate"}
    st.apply("accelerate")
    assert P.zone(st, "detours", 2) == {"detour": 2} and P.zone(st, "detours", 1) == {}
    assert P.zone(st, "front", 1) == {"accelerate": 1} and P.zone(st, "front", 2) == {}
    assert P.zone(st, "discard") == {}
    assert [P.target(st, s) for s in range(3)] == [10, 9, 14]
    assert st.current_player() == 2


# ---- a turn: the goal, the refill ----
def goal_race(g, seat_won: int = 1):
    """Seat 0 to move with no route; seat ``seat_won``'s route counts 7, its target 7 (3 accelerate)."""
    return position(g, tiles=east(0, 0, 8) + [("straight", (0, 5), 0)],
                    markers={0: ((0, 5), "N"), seat_won: ((0, 0), "E")},
                    fronts={seat_won: {"accelerate": 3}})


def test_goal_checked_for_the_player_to_move_only(game):
    st = goal_race(game, 1)
    assert P.route(st, 1) == 7 == P.target(st, 1)
    finish_turn(st)  # seat 0's turn: seat 1 meets its goal, but it is not seat 1's turn
    assert not st.is_terminal() and st.current_player() == 1
    finish_turn(st)
    assert st.is_terminal() and st.outcome == "end"
    assert st.winners() == [1] and st.legal_actions() == []


def test_a_route_reaching_the_target_on_the_own_turn_wins(game):
    st = goal_race(game, 2)
    finish_turn(st)
    finish_turn(st)
    assert not st.is_terminal() and st.current_player() == 2
    finish_turn(st)
    assert st.is_terminal() and st.outcome == "end" and st.winners() == [2]
    # one tile short: no win
    st = position(game, seat=2, tiles=east(0, 0, 7), markers={2: ((0, 0), "E")}, fronts={2: {"accelerate": 3}})
    finish_turn(st)
    assert not st.is_terminal() and st.current_player() == 0


def test_refill_to_five_if_the_deck_allows(game):
    hand = {"straight": 1, "police": 1, "accelerate": 1}
    for deck, after, left in [({"curve": 10}, {"police": 1, "curve": 4}, {"curve": 6}),
                              ({"curve": 2}, {"police": 1, "curve": 2}, {})]:
        st = position(game, tiles=[("straight", (0, 0), 0)], hands={0: hand}, deck=deck)
        st.apply("road straight at 0,1 rotation 0")
        st.apply("accelerate")
        st.apply("stop")
        assert st.current_player() == 1 and not st.is_terminal()
        assert P.zone(st, "hand", 0) == after
        assert P.zone(st, "deck") == left


# ---- the route ----
def test_route_leaves_by_either_end_of_the_marker_road(game):
    # a straight: north 1 tile, south 3
    tiles = [("straight", (0, y), 0) for y in (0, 1, -1, -2, -3)]
    st = position(game, tiles=tiles, markers={0: ((0, 0), "N")})
    assert P.route(st, 0) == 3
    # a double curve, marker on its N-W road: W (2 tiles) or N (1), never the S-E road (3 tiles)
    tiles = ([("double_curve", (0, 0), ["NW", "SE"]), ("straight", (0, 1), 0)] + east(-2, 0, 2)
             + east(1, 0, 1) + [("curve", (2, 0), "WS"), ("straight", (2, -1), 0)])
    st = position(game, tiles=tiles, markers={0: ((0, 0), "N")})
    assert P.route(st, 0) == 2
    st = position(game, tiles=tiles, markers={0: ((0, 0), "E")})
    assert P.route(st, 0) == 3
    # a roundabout: any edge
    st = position(game, tiles=[("roundabout", (0, 0), 0)] + east(-3, 0, 3), markers={0: ((0, 0), "N")})
    assert P.route(st, 0) == 3


def test_route_no_u_turn_and_a_dead_end_ends_it_and_counts(game):
    tiles = [("straight", (0, y), 0) for y in (0, 1, -1)] + [("dead_end", (0, 2), "S")]
    st = position(game, tiles=tiles, markers={0: ((0, 0), "N")})
    assert P.route(st, 0) == 2  # north into the dead end (counted); it cannot turn back south


def test_route_start_tile_never_counted_even_passed_again(game):
    tiles = [("roundabout", (0, 0), 0), ("curve", (0, 1), "ES"), ("curve", (1, 1), "SW"), ("curve", (1, 0), "WN"),
             ("straight", (0, -1), 0), ("straight", (0, -2), 0)]
    st = position(game, tiles=tiles, markers={0: ((0, 0), "N")})
    assert P.route(st, 0) == 5  # round the loop, through the roundabout again, then south


def test_route_cannot_enter_a_closed_tile(game):
    st = position(game, tiles=east(0, 0, 6), markers={0: ((0, 0), "E")}, closed=[(3, 0)])
    assert P.route(st, 0) == 2


def test_route_drives_through_other_players_marker_tiles(game):
    st = position(game, tiles=east(0, 0, 6), markers={0: ((0, 0), "E"), 1: ((2, 0), "E"), 2: ((4, 0), "E")})
    assert P.route(st, 0) == 5


CROSS_START = ([("crossroads", (0, 0), 0)] + [("straight", (0, y), 0) for y in (1, 2, 3, -1, -2)]
               + [("straight", (x, 0), 1) for x in (1, -1)])


@pytest.mark.parametrize("edge,policed,passes,count", [
    ("N", True, 0, 0),    # entered across red with police: no route without a pass
    ("N", True, 1, 2),    # with a pass: on by E, S or W, never back out by N
    ("E", True, 0, 3),    # green entry: N is open
    ("N", False, 0, 2),   # no police: no signal
])
def test_route_from_a_crossroads_starts_by_entering_at_the_marker(game, edge, policed, passes, count):
    st = position(game, tiles=CROSS_START, markers={0: ((0, 0), edge)}, policed=[(0, 0)] if policed else [],
                  fronts={0: {"run_red_light": passes}})
    assert P.route(st, 0) == count


def test_route_red_axis_turns_with_the_tile(game):
    tiles = [("straight", (0, 0), 1), ("crossroads", (1, 0), 1), ("straight", (1, 1), 0), ("straight", (1, -1), 0),
             ("straight", (2, 0), 1), ("straight", (3, 0), 1)]
    markers = {0: ((0, 0), "E"), 1: ((1, 1), "N")}
    st = position(game, tiles=tiles, markers=markers, policed=[(1, 0)])
    assert P.red(game, "crossroads", 1) == "EW"
    assert P.route(st, 0) == 1  # from the W: red
    assert P.route(st, 1) == 3  # from the N: green
    tiles[1] = ("crossroads", (1, 0), 0)
    st = position(game, tiles=tiles, markers=markers, policed=[(1, 0)])
    assert P.route(st, 0) == 3
    assert P.route(st, 1) == 1


# ---- the end ----
def test_draw_when_the_deck_and_every_hand_are_empty(game):
    tiles, markers = [("straight", (0, 0), 0)], {0: ((0, 0), "N")}
    st = position(game, tiles=tiles, markers=markers, hands={0: {"straight": 1}}, deck={})
    st.apply("road straight at 0,1 rotation 0")
    assert st.is_terminal() and st.outcome == "draw" and st.winners() == []
    # a card left in some hand: play goes on
    st = position(game, tiles=tiles, markers=markers, hands={0: {"straight": 1}, 2: {"police": 1}}, deck={})
    st.apply("road straight at 0,1 rotation 0")
    assert not st.is_terminal() and st.current_player() == 1


@pytest.mark.parametrize("players", [3, 4])
def test_draw_after_a_full_round_without_a_card_played(game, players):
    hands = {s: {"accelerate": 1, "dead_end": 1} for s in range(players)}
    st = position(game, players=players, tiles=[("straight", (0, 0), 0)], hands=hands)
    for seat in range(players - 1):
        assert st.current_player() == seat
        finish_turn(st)
        assert not st.is_terminal() and P.idle(st) == seat + 1
    finish_turn(st)
    assert st.is_terminal() and st.outcome == "draw" and st.winners() == []


def test_a_card_played_starts_the_round_again(game):
    hands = {s: {"accelerate": 1, "dead_end": 1} for s in range(3)}
    st = position(game, tiles=[("straight", (0, 0), 0)], hands=hands)
    finish_turn(st)                      # seat 0: nothing
    st.apply("road nothing")             # seat 1: an effect card
    st.apply("accelerate")
    assert P.idle(st) == 0 and st.current_player() == 2
    finish_turn(st)                      # seat 2
    finish_turn(st)                      # seat 0
    assert not st.is_terminal() and P.idle(st) == 2
    finish_turn(st)                      # seat 1: a full round since its card
    assert st.is_terminal() and st.outcome == "draw"


def test_a_whole_game_keeps_its_cards(game):
    """Random playouts: no card is lost, at most 6 police markers stand, every game ends in a win of the
    player who moved last or in a draw."""
    import random
    for seed in range(6):
        players = 3 + seed % 2
        st = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        mover = None
        while not st.is_terminal():
            mover = st.current_player()
            st.apply(rng.choice(st.legal_actions()))
            assert P.all_cards(st) == {**ROAD_TILES, **EFFECT_CARDS}
            assert sum(t["policed"] for t in P.table(st).values()) <= 6
        assert st.outcome in ("end", "draw")
        assert st.winners() == ([mover] if st.outcome == "end" else [])
