"""Turn order (docs/language.md, "Who moves next, and players out"): 'set next = p', 'set out(p)',
and what skips a player who is out: turn order, 'player' as a domain, next(p)/previous(p), random
player, the winners; the game ends when every player is out. Both paths are checked: the seeded
one (generated code) and the step-by-step one (explicit chance)."""

from __future__ import annotations

import pytest

from meeple.dsl import read_ir
from meeple.interpreter.state import CHANCE
from rules_text import errors_of, load_text, take

ROUND = """
game "Round"
players 2..5
var turns_of per player = 0
var log = 0
turn {
  set turns_of(current) = turns_of(current) + 1
  set log = log * 10 + number(current) + 1
  TURN
  if log > 100000 {
    end game
  }
}
score(p) = turns_of(p)
"""


def order(tmp_path, turn: str, players: int = 4) -> str:
    """The seats (1-based digits) that took the first turns, as the game wrote them down."""
    g = load_text(tmp_path, ROUND.replace("TURN", turn))
    st = g.new_state(players, seed=0)
    assert st.outcome == "end"
    return str(st.vars[st.var_base[g.layout.var_names.index("log")]])


def test_without_next_or_out_the_turn_goes_round_the_seats(tmp_path):
    assert order(tmp_path, "") == "123412"


def test_set_next_gives_the_next_turn_to_that_player(tmp_path):
    # seat 0 always hands the turn to seat 2, which passes it on in seat order
    assert order(tmp_path, "if number(current) == 0 {\n    set next = seat(2)\n  }") == "134134"


def test_next_holds_for_one_turn_only(tmp_path):
    # set on the first turn only: afterwards seat order again, from the player it named
    turn = "if log == 1 {\n    set next = seat(3)\n  }"
    assert order(tmp_path, turn) == "141234"


def test_a_player_out_is_skipped_by_turn_order(tmp_path):
    assert order(tmp_path, "if number(current) == 1 {\n    set out(current) = true\n  }") == "123413"


def test_next_naming_a_player_out_goes_to_the_first_player_in_after_them(tmp_path):
    turn = "set out(seat(1)) = true\n  if number(current) == 0 {\n    set next = seat(1)\n  }"
    assert order(tmp_path, turn) == "134134"


def test_a_player_out_can_come_back(tmp_path):
    turn = "set out(seat(1)) = log < 100"  # out for the first two turns, then in again
    assert order(tmp_path, turn) == "134123"


def test_the_game_ends_when_every_player_is_out(tmp_path):
    g = load_text(tmp_path, ROUND.replace("TURN", "set out(current) = true"))
    st = g.new_state(3, seed=0)
    assert (st.outcome, st.vars[st.var_base[g.layout.var_names.index("log")]]) == ("end", 123)


def test_player_domains_and_next_previous_skip_players_out(tmp_path):
    text = ROUND.replace("TURN", "end game").replace("turn {", "setup {\n  set out(seat(1)) = true\n}\nturn {")
    text += "\n".join([
        'report "in" = count(true for p in player)',
        'report "sum of seats in" = sum(number(p) for p in player)',
        'report "first from current" = number(first(p for p in player where p != current))',
        'report "after 0" = number(next(seat(0)))',
        'report "before 2" = number(previous(seat(2)))',
        'report "seat 1 out" = out(seat(1))',
        'report "seats" = players',
    ]) + "\n"
    g = load_text(tmp_path, text)
    st = g.new_state(4, seed=0)
    assert g.report_values(st) == {"in": 3, "sum of seats in": 0 + 2 + 3, "first from current": 2,
                                   "after 0": 2, "before 2": 0, "seat 1 out": True, "seats": 4}


def test_next_of_the_only_player_in_is_that_player(tmp_path):
    text = ROUND.replace("TURN", "end game").replace(
        "turn {", "setup {\n  for p in player where p != seat(2) {\n    set out(p) = true\n  }\n}\nturn {")
    text += 'report "next" = number(next(seat(2)))\nreport "previous" = number(previous(seat(2)))\n'
    g = load_text(tmp_path, text)
    assert g.report_values(g.new_state(3, seed=0)) == {"next": 2, "previous": 2}


def test_a_loop_over_player_skips_players_out_and_starts_from_current(tmp_path):
    turn = "set out(seat(2)) = true\n  for p in player {\n    set log = log * 10 + number(p) + 1\n  }\n  end game"
    g = load_text(tmp_path, ROUND.replace("TURN", turn))
    st = g.new_state(4, seed=0)
    assert st.vars[st.var_base[g.layout.var_names.index("log")]] == 1124  # turn of seat 0, then 0 1 3


def test_random_player_never_picks_a_player_out(tmp_path):
    text = ROUND.replace("TURN", "end game").replace(
        "turn {", "setup {\n  set out(seat(0)) = true\n  set out(seat(2)) = true\n  set current = random player\n}\n"
                  "turn {")
    g = load_text(tmp_path, text)
    st = g.new_state(4, chance="explicit")
    assert st.current_player() == CHANCE
    assert sorted(str(a) for a, _ in st.chance_outcomes()) == ["current = seat 1", "current = seat 3"]


def test_a_player_out_never_wins(tmp_path):
    # seat 0 has the best score but is out: the best of the players in wins
    turn = "set turns_of(seat(0)) = 9\n  set out(seat(0)) = true\n  end game"
    g = load_text(tmp_path, ROUND.replace("TURN", turn))
    st = g.new_state(3, seed=0)
    assert st.winners() == [0, 1, 2][1:] and st.returns() == [0.0, 0.5, 0.5]


def test_the_step_by_step_path_keeps_the_same_turn_order(tmp_path):
    # a decision each turn, so the program stops at every turn: the same order as the seeded path
    text = ROUND.replace("TURN", "choose go {\n    on {\n      if number(current) == 1 {\n        set out(current) = "
                                 "true\n      }\n      if number(current) == 2 {\n        set next = seat(0)\n      }\n"
                                 "    }\n  }")
    g = load_text(tmp_path, text)
    for chance in ("explicit", "seeded"):
        st = g.new_state(4, seed=0) if chance == "seeded" else g.new_state(4, chance="explicit")
        while st.outcome is None:
            take(st, "on")
        assert st.vars[st.var_base[g.layout.var_names.index("log")]] == 123131, chance


def test_knockout_plays_to_one_player_left(tmp_path):
    from pathlib import Path
    import random
    import meeple
    g = meeple.load(str(Path(__file__).parent / "fixtures" / "good" / "knockout.rules"))
    for seed in range(30):
        st = g.new_state(4, seed=seed)
        rng = random.Random(seed)
        while st.outcome is None:
            st.apply(rng.choice(st.legal_actions()))
        assert len(st.seats_in()) == 1 and st.winners() == st.seats_in()
        assert sum(st.returns()) == 0 and st.returns()[st.winners()[0]] == 3


@pytest.mark.parametrize("text, message", [
    ("set next = 2", "'next' holds a player but is set to a number: a player is seat(n)"),
    ("set out(current) = 1", "'out' holds true/false but is set to a number"),
    ("set out = true", "var 'out' is per player: write out(p)"),
    ("set next(current) = current", "var 'next' is shared: it takes no player"),
])
def test_mistakes_with_next_and_out_are_told(tmp_path, text, message):
    assert errors_of(tmp_path, ROUND.replace("TURN", text)) == [message]


def test_a_game_that_declares_its_own_out_keeps_it(tmp_path):
    # a var named 'out' (a file from before 'out' was built in) is an ordinary var: nobody is skipped
    text = ROUND.replace("var log = 0", "var log = 0\nvar out per player = false").replace(
        "TURN", "set out(current) = true")
    g = load_text(tmp_path, text)
    assert g.layout.out_var is None and not g.turn_order
    st = g.new_state(3, seed=0)
    assert st.vars[st.var_base[g.layout.var_names.index("log")]] == 123123


def test_a_local_named_next_or_out_brings_no_engine_var(tmp_path):
    # (a file from before 'next' and 'out' were the engine's: its locals keep the game as it was)
    turn = "let next = current\n  let out = 2\n  set turns_of(next) = turns_of(next) + out"
    g = load_text(tmp_path, ROUND.replace("TURN", turn))
    assert g.layout.out_var is None and g.layout.next_var is None and not g.turn_order
    assert "out" not in g.new_state(2, seed=0).observation(None)["vars"]


def test_a_phase_named_next_leaves_the_engine_var_alone(tmp_path):
    text = ROUND.replace("TURN", "run next").replace("turn {", "phase next {\n  set next = seat(0)\n}\nturn {")
    g = load_text(tmp_path, text)
    assert g.layout.next_var is not None
    st = g.new_state(3, seed=0)
    assert str(st.vars[st.var_base[g.layout.var_names.index("log")]]) == "111111"


ALL_OUT = """
game "AllOut"
players 3
turn {
  set out(current) = true
}
score(p) = number(p)
"""


def test_with_every_player_out_the_game_ends_and_nobody_wins(tmp_path):
    """A player out never wins, not even when all are: the highest score (seat 2's) does not."""
    g = load_text(tmp_path, ALL_OUT)
    st = g.new_state(3, seed=0)
    assert st.outcome == "end" and st.seats_in() == []
    assert st.winners() == [] and st.returns() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("turn, warned", [("set out(current) = true", False), ("let x = out(current)", True),
                                           ("set out(current) = false", True)])
def test_a_game_that_puts_players_out_is_not_said_to_have_no_end(tmp_path, turn, warned):
    path = tmp_path / "g.rules"
    path.write_text(ALL_OUT.replace("set out(current) = true", turn))
    _, warnings = read_ir(str(path))
    assert any("nothing ends the game" in w.message for w in warnings) == warned
