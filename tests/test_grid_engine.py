"""The grid constructs on small made-up games: what a tile query gives for no tile, edge sets
on cards that are not tiles, and who decides a placement. Each test would have caught a bug
found in review."""

from __future__ import annotations

import operator
import random
from pathlib import Path

import pytest

import meeple
from meeple.dsl.diagnostics import RuleRuntimeError
from meeple.interpreter.boards import Board, square

HEADER = """
game "t"
players 2..2
grid table { tiles road paths roads }
zone deck hidden
zone hand per player public
cards road in deck { 4 straight { roads = [N S] }  4 cross { roads = [N E S W], signal, red = [N S] } }
"""


def load(tmp_path: Path, text: str):
    path = tmp_path / "game.rules"
    path.write_text(HEADER + text)
    return meeple.load(str(path))


# A turn that lays one road tile beside the table, the first of each player being its start.
ROAD_TURNS = """
setup { for p in player { deal 4 from deck to hand(p) } }
turn {
  place road by current: 1 card from hand(current) onto table within 1 as t
  if start(current) == none { set start(current) = t }
  if all(count(hand(q)) == 0 for q in player) { end game }
}
"""


def random_positions(g, seeds: int):
    """Each position of random 2-player games from seeds 0..seeds-1, after each step."""
    for seed in range(seeds):
        st = g.new_state(2, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
            yield seed, st


def test_no_tile_has_the_attribute_defaults_and_no_per_tile_value(tmp_path: Path) -> None:
    """After placing nothing, ``t`` is none: its attributes read as their defaults (false, no
    edges) and its per-tile var as the var's start, never as the last tile placed."""
    g = load(tmp_path, """
var mark per table = 0
var seen = 0
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  place road by current: 0..1 card from hand(current) onto table as t
  if t.signal or includes(t.red, N) or mark(t) != 0 { set seen = seen + 1 }
  if t != none { set mark(t) = 1 }
  end game
}
score(p) = seen
""")
    st = g.new_state(2, chance="explicit")
    while st.is_chance_node():
        st.apply([a for a, _ in st.chance_outcomes() if str(a).endswith("cross")][0]
                 if any(str(a).endswith("cross") for a, _ in st.chance_outcomes()) else st.chance_outcomes()[0][0])
    st.apply("road nothing")
    assert st.is_terminal()
    assert st.scores() == [0, 0]


def test_writing_a_per_tile_var_of_no_tile_is_a_rule_error(tmp_path: Path) -> None:
    g = load(tmp_path, """
var mark per table = 0
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  place road by current: 0..1 card from hand(current) onto table as t
  set mark(t) = 1
}
""")
    st = g.new_state(2, seed=1)
    with pytest.raises(RuleRuntimeError, match="of no tile"):
        st.apply("road nothing")


def test_a_card_without_an_edge_set_has_no_edges(tmp_path: Path) -> None:
    g = load(tmp_path, """
cards sign in deck { 2 arrow { arrows = [N] }  2 blank { plain } }
var n = 0
setup { move 2 blank from deck to hand(current) }
turn {
  set n = count(includes(c.arrows, S) or includes(c.arrows, N) for c in hand(current))
  end game
}
score(p) = n
""")
    st = g.new_state(2, seed=1)
    assert st.scores() == [0, 0]


def test_a_placement_named_like_its_chooser_is_decided_by_the_chooser(tmp_path: Path) -> None:
    """``place gift by p: ... from hand(p) ... as p``: the new tile's name does not change who
    chooses or where the card comes from."""
    g = load(tmp_path, """
setup {
  for p in player { deal 2 from deck to hand(p) }
  for p in player where p != current { place gift by p: 1 card from hand(p) onto table as p }
}
turn { end game }
""")
    st = g.new_state(2, seed=3)
    assert st.decision() == "gift"
    assert st.current_player() == 1
    before = sum(st.zones[st.zone_base[1] + 1])
    st.apply(st.legal_actions()[0])
    assert sum(st.zones[st.zone_base[1] + 1]) == before - 1


def test_a_player_var_never_set_is_a_rule_error_not_another_zone(tmp_path: Path) -> None:
    g = load(tmp_path, """
var leader = none
var ready = false
var n = 0
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  if ready { set leader = current }
  set n = count(hand(leader))
  end game
}
""")
    with pytest.raises(RuleRuntimeError, match="a player is none"):
        g.new_state(2, seed=1)


def test_game_route_checks_its_arguments(tmp_path: Path) -> None:
    g = load(tmp_path, """
var start per player = none
route reach(p) on table { start = start(p)  start_edge = N }
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  place road by current: 1 card from hand(current) onto table within 2 as t
  set start(current) = t
  if reach(current) >= 1 { end game }
}
""")
    st = g.new_state(2, seed=1)
    assert g.route(st, "reach", 0) == 0
    with pytest.raises(TypeError):
        g.route(st, "reach")


def test_a_placement_that_cannot_be_made_runs_its_else_block(tmp_path: Path) -> None:
    """No square fits (the test is never true): the 'else' block runs instead of the decision,
    with the tile name none; where a placement fits, the decision comes as usual."""
    g = load(tmp_path, """
var fallbacks = 0
var none_after = false
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  place first by current: 1 card from hand(current) onto table as t where count(table) == 1
  place never by current: 1 card from hand(current) onto table as u where false else {
    set fallbacks = fallbacks + 1
  }
  set none_after = u == none
  end game
}
score(p) = fallbacks
""")
    st = g.new_state(2, seed=2)
    assert st.decision() == "first"
    st.apply(st.legal_actions()[0])
    assert st.is_terminal()
    assert st.scores() == [1, 1]
    assert g.query(st, "none_after") is True


def test_without_else_an_impossible_placement_leaves_the_game_stuck(tmp_path: Path) -> None:
    g = load(tmp_path, """
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  place never by current: 1 card from hand(current) onto table as u where false
}
""")
    st = g.new_state(2, seed=2)
    assert not st.is_terminal() and st.decision() == "never" and st.legal_actions() == []


def test_a_route_compared_with_a_number_is_its_length_compared(tmp_path: Path) -> None:
    """``reach(p) >= k`` and the like are compiled as one test that a small path network answers
    without a search (``Board.route_bound``): each must agree with the length compared, either
    way round, for lengths below, at and above the route's ``enough``."""
    g = load(tmp_path, """
var start per player = none
route reach(p) on table { start = start(p)  start_edge = N  enough = 3 }
define ge(p, k) = reach(p) >= k
define gt(p, k) = reach(p) > k
define lt(p, k) = reach(p) < k
define le(p, k) = reach(p) <= k
define at_most(p, k) = k >= reach(p)
define below(p, k) = k > reach(p)
define above(p, k) = k < reach(p)
define at_least(p, k) = k <= reach(p)
""" + ROAD_TURNS)
    tests = {"ge": operator.ge, "gt": operator.gt, "lt": operator.lt, "le": operator.le,
             "at_most": lambda r, k: k >= r, "below": lambda r, k: k > r, "above": lambda r, k: k < r,
             "at_least": lambda r, k: k <= r}
    lengths = set()
    for seed, st in random_positions(g, 30):
        for p in (0, 1):
            r = g.route(st, "reach", p)
            lengths.add(r)
            for define, compare in tests.items():
                for k in range(-1, 6):
                    assert g.query(st, define, p, k) == compare(r, k), (seed, define, p, k, r)
    assert {0, 1, 2, 3} <= lengths


@pytest.mark.parametrize("chance", [None, "explicit"])
def test_a_placement_that_empties_a_zone_the_end_reads_ends_the_game(tmp_path: Path, chance) -> None:
    """A placement takes its card from a zone: an end that reads only zones (not the grid) is
    tested after it, as after any step that changes a zone."""
    g = load(tmp_path, """
var turns_taken = 0
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  place lay: 0..1 card from hand(current) onto table as t
  set turns_taken = turns_taken + 1
}
end when count(deck) == 4 and any(count(hand(p)) == 0 for p in player)
""")
    st = g.new_state(2, seed=1, chance=chance)
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply(st.chance_outcomes()[0][0])
        else:
            st.apply(next(a for a in st.legal_actions() if a.payload is not None))
    # seat 0's second tile empties its hand: the game ends there, before 'set turns_taken'
    assert st.outcome == "end" and st.var("turns_taken") == 2 and st.zone("hand", 0) == {}


PLACEMENTS = Path(__file__).parent / "fixtures" / "engine" / "placements.rules"


@pytest.mark.parametrize("path", [PLACEMENTS, Path(__file__).parent.parent / "games" / "luckydog.rules"],
                         ids=lambda p: p.name)
def test_a_placements_counted_pick_is_the_action_the_list_would_give(path: Path) -> None:
    """A placement judged by its side rules, or by a test once per square, is picked for a random
    playout by counting (TilePlacement.counted_pick): at every placement of seeded games, and for
    numbers across [0, 1), it gives the action ``legal[int(r * len(legal))]`` gives. A test judged
    per placement (one that reads the new tile's shape) has no such pick."""
    game = meeple.load(str(path))
    picks = {spec.label: spec.pick for _, spec, _ in game.code if hasattr(spec, "counted_pick")}
    if path == PLACEMENTS:
        assert set(picks) == {"first", "far", "fit", "near", "open"} and picks["open"] is None
    seen = 0
    for players in (game.min_players, game.max_players):
        for seed in range(6):
            st, moves = game.new_state(players, seed=seed), random.Random(seed)
            while not st.is_terminal() and st.legal_actions():
                legal = st.legal_actions()
                spec = legal[0].spec
                pick = picks.get(spec.label) if hasattr(spec, "counted_pick") else None
                if pick is not None:
                    for r in (0.0, 0.13, 0.5, 0.77, 0.999999):
                        assert pick(st, lambda r=r: r).payload == legal[int(r * len(legal))].payload
                    seen += 1
                st.apply(moves.choice(legal))
    assert seen > 50


def _tables_and_squares_near(seeds: range = range(3)):
    """The tables of seeded Lucky Dog games played to their end, each with the empty squares
    within 2 steps (across and along) of its tiles."""
    root = Path(__file__).resolve().parents[1]
    game = meeple.load(str(root / "games" / "luckydog.rules"))
    for seed in seeds:
        st = game.new_state(4, seed=seed)
        st.play_out(random.Random(seed))
        board = st.grid
        taken = {(x, y) for x, y in zip(board.x, board.y)}
        near = {(x + dx, y + dy) for x, y in taken for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)}
        yield board, sorted(near - taken)


def test_a_loop_over_the_tiles_with_a_flag_sees_exactly_those_tiles(tmp_path: Path) -> None:
    """An option over the tiles whose test asks for a flag of the tile (``u.signal``) runs over
    the board's list of the tiles with that flag (``Board.flagged``): in seeded games, at every
    step, and in clones and states saved and loaded, the options are those of the test over
    every tile, in tile order, and the list holds exactly the flagged tiles."""
    g = load(tmp_path, """
var marked per table = false
var rounds = 0
setup { for p in player { deal 4 from deck to hand(p) } }
turn {
  place road by current: 0..1 card from hand(current) onto table as t
  choose mark {
    pass { }
    flag u in table where u.signal and not marked(u) { set marked(u) = true }
  }
  set rounds = rounds + 1
  if rounds == 30 { end game }
}
score(p) = 0
""")
    signal = g.exprs.ns[g.exprs.columns["signal"]]
    assert g.tile_flags == (signal,)  # the flag the option asks for, by variety
    judged = 0
    for seed in range(6):
        st = g.new_state(2, seed=seed)
        r = random.Random(seed)
        while not st.is_terminal():
            for s in (st, st.clone(), g.state_from_json(st.to_json())):
                board = s.grid
                flagged = [t for t, v in enumerate(board.variety) if signal[v]]
                assert board.flagged == [flagged]
                if str(s.legal_actions()[0]) == "pass":  # (the decision 'mark')
                    want = [f"flag {x},{y}" for t, x, y in zip(range(len(board.x)), board.x, board.y)
                            if signal[board.variety[t]] and not board.tv[0][t]]
                    assert [str(a) for a in s.legal_actions()[1:]] == want
                    judged += 1
            legal = st.legal_actions()
            st.apply(legal[int(r.random() * len(legal))])
    assert judged > 20


def test_a_test_before_the_flag_is_judged_for_every_tile(tmp_path: Path) -> None:
    """Only a flag that comes first in the test of an option over the tiles runs it over the
    flagged tiles: a part before it is judged for every tile, as written, and a rules error it
    meets on a tile without the flag is not passed over."""
    g = load(tmp_path, """
var owner per table = 0
setup { for p in player { deal 4 from deck to hand(p) } }
turn {
  place road by current: 1 card from hand(current) onto table as t
  set owner(t) = if t.signal then 0 else 7
  choose mark {
    pass { }
    claim u in table where seat(owner(u)) == current and u.signal { set owner(u) = 1 }
  }
}
score(p) = 0
""")
    assert "G.flagged" not in g.module.text()
    for seed in range(3):
        with pytest.raises(RuleRuntimeError, match="seat"):
            g.new_state(2, seed=seed).play_out(random.Random(seed))


def test_a_tile_known_not_none_is_read_as_one(tmp_path: Path) -> None:
    """Right of ``u != none and ...`` a local ``u`` is read as a tile that exists (``G.x[u]``, no
    helper that first tests for none), and the test is what it was: false for none, the tile's
    column otherwise."""
    g = load(tmp_path, """
var first = none
var seen = 0
define at_origin(u) = u != none and col(u) == 0 and not (u == none or row(u) != 0)
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  if at_origin(first) { set seen = seen + 1 }
  place road by current: 0..1 card from hand(current) onto table as t
  if first == none { set first = t }
  if t == none and first != none { end game }
}
score(p) = seen
""")
    text = g.module.text()
    assert "G.x[V[" in text and "G.y[V[" in text and "_col(G" not in text and "_row(G" not in text
    st = g.new_state(2, seed=3)
    st.play_out(random.Random(3))
    assert st.is_terminal() and st.grid.x and st.var("seen") >= 1  # (turns after the first tile at 0,0)
    assert st.scores() == [st.var("seen")] * 2


def test_a_square_probed_and_taken_back_leaves_the_board_as_it_was() -> None:
    """``Board.passing`` lays a tile on each square as far as where tiles lie is concerned,
    linking its neighbours to it, judges the test, and takes all of it back: on tables of seeded
    Lucky Dog games, every square beside or near the tiles, probed, sees its neighbours, the
    squares kept are those the test passed, and the board is as it was, after a test that
    failed with an error too."""
    probed = []

    def sees_its_neighbours(board) -> bool:
        t, x, y = len(board.x) - 1, board.x[-1], board.y[-1]
        for e, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
            n = board.tile_at(x + dx, y + dy)
            assert board.nb[t][e] == n and (n < 0 or board.nb[n][e ^ 2] == t)
        probed.append((x, y))
        return (x + y) % 2 == 0

    def fails(board) -> bool:
        raise RuntimeError("a rules error in the test")

    for board, squares in _tables_and_squares_near():
        before = ([row[:] for row in board.nb], board.x[:], board.y[:])
        kept = board.passing([(x, y, "more") for x, y in squares], sees_its_neighbours, board)
        assert kept == [(x, y, "more") for x, y in squares if (x + y) % 2 == 0]
        assert ([row[:] for row in board.nb], board.x, board.y) == before
        with pytest.raises(RuntimeError):
            board.passing([(x, y) for x, y in squares if board.tile_at(x, y + 1) >= 0], fails, board)
        assert ([row[:] for row in board.nb], board.x, board.y) == before
    assert len(probed) > 100


def test_the_squares_near_the_tiles_are_the_empty_squares_within_reach_in_order() -> None:
    """``Board.squares_near`` (the squares a placement 'within' n may go on): on tables of seeded
    Lucky Dog games, the empty squares at most n steps across sides from a tile, as (x, y, 0),
    in order of x then y (the order of the placements offered); the origin on an empty table."""
    for board, _ in _tables_and_squares_near():
        taken = set(zip(board.x, board.y))
        for within in (1, 2, 3, 9):
            near = {(x + dx, y + dy) for x, y in taken for dx in range(-within, within + 1)
                    for dy in range(-within, within + 1) if abs(dx) + abs(dy) <= within}
            assert board.squares_near(within) == [(x, y, 0) for x, y in sorted(near - taken)]
    assert Board(0, ()).squares_near(2) == [(0, 0, 0)]


def test_the_sides_of_an_empty_square_are_its_touching_and_meeting_edges() -> None:
    """``Board.sides`` (the side rules' number of a square within reach): on tables of seeded
    Lucky Dog games, for every empty square near the tiles, the edges whose neighbour is a tile,
    and those where that tile has a path end facing the square, found here edge by edge; and the
    frontier the board keeps has the same number for each square beside a tile."""
    judged = 0
    for board, squares in _tables_and_squares_near():
        for x, y in squares:
            touching = meeting = 0
            for e, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
                n = board.tile_at(x + dx, y + dy)
                if n >= 0:
                    touching |= 1 << e
                    meeting |= (1 << e) if board.ends[n][e ^ 2] else 0
            assert board.sides(x, y) == touching << 4 | meeting, (x, y)
            if touching:
                assert board.frontier[square(x, y)][2] == touching << 4 | meeting
                judged += 1
    assert judged > 50


def test_a_placement_within_reach_judged_per_square_keeps_its_side_rules() -> None:
    """'within 2 matching ... where' (a test judged once per square, then the side rules): every
    placement offered matches each tile it touches, side for side (a path end facing a path end,
    no end facing no end), as worked out here from the tiles' ends; and some squares two steps
    from the table are offered."""
    game = meeple.load(str(PLACEMENTS))
    spec = next(s for _, s, _ in game.code if getattr(s, "label", None) == "near")
    judged = far = 0
    for players in (2, 3):
        for seed in range(8):
            st, moves = game.new_state(players, seed=seed), random.Random(seed)
            while not st.is_terminal() and st.legal_actions():
                legal = st.legal_actions()
                if legal[0].spec is spec:
                    board = st.grid
                    for action in legal:
                        if action.payload is None:
                            continue
                        v, x, y, r = action.payload
                        ends = spec.ends[v][r]
                        touching = 0
                        for e, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
                            n = board.tile_at(x + dx, y + dy)
                            if n >= 0:
                                touching += 1
                                assert bool(ends[e]) == bool(board.ends[n][e ^ 2]), (seed, action.text)
                        far += not touching
                        judged += 1
                st.apply(moves.choice(legal))
    assert judged > 100 and far > 10


def _crossroads(side: int) -> tuple[list[list[int]], list[tuple[int, ...]]]:
    """A side × side table of crossroads (one path joining all four edges), tile y * side + x."""
    neighbours = [[(y + 1) * side + x if y + 1 < side else -1, y * side + x + 1 if x + 1 < side else -1,
                   (y - 1) * side + x if y > 0 else -1, y * side + x - 1 if x > 0 else -1]
                  for y in range(side) for x in range(side)]
    return neighbours, [(15, 15, 15, 15)] * (side * side)


def test_a_route_search_is_bounded_and_says_so_as_a_rules_error():
    """The longest walk is a hard search: on a table whose paths all cross it is cut off at
    MAX_ROUTE_STATES with a rules error, instead of taking gigabytes; a small table is searched
    to the end."""
    from meeple.dsl.diagnostics import RuleRuntimeError
    from meeple.dsl.limits import MAX_ROUTE_STATES
    from meeple.interpreter.routes import route_length

    neighbours, ends = _crossroads(3)
    assert route_length(neighbours, ends, 0, 1, False, [False] * 9, {}, 0, 100) == 8
    # 6 × 6 with two tiles that end a walk entering them: no walk enters every tile, so nothing
    # stops the search early, and the sets of tiles a walk may have seen are too many
    neighbours, ends = _crossroads(5)
    assert route_length(neighbours, ends, 0, 0, False, [False] * 25, {6: 15, 9: 15}, 0, 100) == 23
    neighbours, ends = _crossroads(6)
    with pytest.raises(RuleRuntimeError, match=f"more than {MAX_ROUTE_STATES:,} walks"):
        route_length(neighbours, ends, 0, 0, False, [False] * 36, {7: 15, 11: 15}, 0, 100)


def test_a_stop_by_the_edges_of_a_set_is_the_same_as_judged_edge_by_edge(tmp_path: Path) -> None:
    """``stops(t, e) = includes(t.red, e)`` alone is compiled as the set's own mask of edges
    (``ExprCompiler.edges_included``); with another part that reads the edge it is judged edge by
    edge. Both must stop the same walks, with and without passes, and stop some walk a route
    without stops would go on with."""
    g = load(tmp_path, """
var start per player = none
route direct(p) on table { start = start(p)  start_edge = N  stops(t, e) = includes(t.red, e) }
route folded(p) on table { start = start(p)  start_edge = N  stops(t, e) = includes(t.red, e) and e != none }
route direct_pass(p) on table { start = start(p)  start_edge = N  stops(t, e) = includes(t.red, e)  passes = 1 }
route folded_pass(p) on table {
  start = start(p)  start_edge = N  stops(t, e) = includes(t.red, e) and e != none  passes = 1
}
route free(p) on table { start = start(p)  start_edge = N }
""" + ROAD_TURNS)
    stopped = 0
    for seed, st in random_positions(g, 40):
        for p in (0, 1):
            direct = g.route(st, "direct", p)
            assert direct == g.route(st, "folded", p), (seed, p)
            assert g.route(st, "direct_pass", p) == g.route(st, "folded_pass", p), (seed, p)
            stopped += direct < g.route(st, "free", p)
    assert stopped > 0


@pytest.mark.parametrize("reach, test, at_square", [
    (2, "count(table) <= 2 or not all(neighbour(t, e) == none for e in edge)", True),
    (2, "first == none or abs(col(t) - col(first)) + abs(row(t) - row(first)) <= 2", False),
    (2, "near_first(t) and (count(table) == 1 or neighbour(t, opposite(S)) == none)", True),
    (2, "count(table) == 1 or any(neighbour(t, e) != none and col(neighbour(t, e)) >= col(t) for e in edge)", True),
    (1, "count(table) == 1 or (row(t) >= 0 and neighbour(t, W) == none)", True),
    (1, "col(t) + row(t) <= 2", False),
    (2, "count(table) < 3 or neighbour(neighbour(t, N), S) == none", None),
    (2, "count(table) < 3 or count(row(u) == row(t) for u in table) <= 2", None),
    (2, "t != none and row(t) >= -1", None),
    (1, "count(table) < 3 or first != t", None),
])
def test_a_test_made_a_function_of_the_square_is_the_test_of_a_tile_probed_there(
        tmp_path: Path, reach: int, test: str, at_square) -> None:
    """A placement's test judged once per square (of those within reach, or beside the table) is
    made a function of the square, given its column, row and the tiles beside it (``at_square``:
    False without them), when it reads the tile only there and no part of the board a tile probed
    there would change; else the tile is probed (None). Either way the placements offered, in
    seeded games and in their order, are those of the same test judged per placement, with each
    tile laid there on trial."""
    rules = """
var first = none
var rounds = 0
define near_first(u) = first == none or abs(col(u) - col(first)) <= 2
setup { for p in player { deal 4 from deck to hand(p) } }
turn {
  place road by current: 0..1 card from hand(current) onto table within REACH as t where TEST
  if first == none { set first = t }
  set rounds = rounds + 1
  if rounds == 12 { end game }
}
score(p) = 0
"""
    (tmp_path / "trial").mkdir()
    rules = rules.replace("REACH", str(reach))
    per_square = load(tmp_path, rules.replace("TEST", test))
    per_placement = load(tmp_path / "trial", rules.replace("TEST", f"({test}) and (open(t, N) or not open(t, N))"))
    spec = next(s for _, s, _ in per_square.code if getattr(s, "label", None) == "road")
    assert spec.per_square and spec.at_square is at_square
    assert not next(s for _, s, _ in per_placement.code if getattr(s, "label", None) == "road").per_square
    offered = 0
    for seed in range(8):
        a, b, moves = per_square.new_state(2, seed=seed), per_placement.new_state(2, seed=seed), random.Random(seed)
        while not a.is_terminal():
            legal = a.legal_actions()
            assert [x.payload for x in legal] == [x.payload for x in b.legal_actions()]
            offered += len(legal)
            k = moves.randrange(len(legal))
            a.apply(legal[k])
            b.apply(b.legal_actions()[k])
    assert offered > 200


def test_a_test_of_squares_reads_once_only_the_seats_every_game_has(tmp_path: Path) -> None:
    """A placement's test of a square reads a player's var once, before the loop over the
    squares, only for a seat every game has: the third player's, in a game of 2 or 3, is read
    inside its test, after the test has seen that there is a third player (a game of two has
    no slot for it to read)."""
    path = tmp_path / "game.rules"
    path.write_text(HEADER.replace("players 2..2", "players 2..3") + """
var start per player = none
setup { for p in player { deal 2 from deck to hand(p) } }
turn {
  place road by current: 0..1 card from hand(current) onto table within 2 as t
      where all(start(q) == none or col(t) != col(start(q)) for q in player)
  if start(current) == none { set start(current) = t }
  if all(count(hand(q)) == 0 for q in player) { end game }
}
""")
    g = meeple.load(str(path))
    squares = next(line for line in g.module.text().split("\ndef ") if line.startswith("squares_"))
    before_loop = squares.split("for _k in _keys:")[0]
    assert "V[vb[0]]" in before_loop and "V[vb[0] + 1]" in before_loop
    assert "V[vb[0] + 2]" not in before_loop and "V[vb[0] + 2]" in squares
    # (the column of a tile read once is read once too: it stays where it is while the test runs)
    assert "G.x[_var" in before_loop and "G.x[_var" not in squares.split("for _k in _keys:")[1]
    for players in (2, 3):
        for seed in range(5):
            st = g.new_state(players, seed=seed)
            st.play_out(random.Random(seed))
            assert st.is_terminal()
