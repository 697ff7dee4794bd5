"""Declared results (docs/language.md, "returns"): 'returns(p) = e' and 'zero_sum returns(p) = e',
how returns(), scores() and winners() differ, and what simulate and fuzz make of them."""

from __future__ import annotations

import pytest

from meeple import RuleRuntimeError
from meeple.dsl.printer import print_rules
from meeple.tools.fuzz import fuzz
from meeple.tools.simulate import simulate
from rules_text import errors_of, load_text, take

COIN = """
game "Coin"
players 2..3
max_steps 60
var chips per player = 10
var turns = 0
turn {
  set turns = turns + 1
  choose bet {
    keep {
    }
    give where chips(current) > 0 {
      set chips(current) = chips(current) - 2
      set chips(next(current)) = chips(next(current)) + 2
    }
  }
  if chips(current) < 7 or turns >= 12 {
    end game
  }
}
score(p) = chips(p)
RETURNS
"""


def coin(tmp_path, returns: str = "zero_sum returns(p) = chips(p) - 10"):
    return load_text(tmp_path, COIN.replace("RETURNS", returns))


def test_returns_are_the_declared_numbers_at_the_end_and_zero_before(tmp_path):
    g = coin(tmp_path)
    st = g.new_state(2, seed=0)
    assert st.returns() == [0.0, 0.0]
    for _ in range(2):
        take(st, "give")  # seat 0 gives 2, seat 1 gives 2 back
    take(st, "give")      # seat 0 gives 2 (8 left)
    take(st, "keep")
    take(st, "give")      # seat 0 has 6: the game ends
    assert st.outcome == "end"
    assert st.returns() == [-4.0, 4.0]
    assert st.scores() == [6, 14] and st.winners() == [1] and st.win_shares() == [0.0, 1.0]


def test_without_returns_a_player_gets_a_share_of_the_win(tmp_path):
    g = coin(tmp_path, "")
    assert g.declared_returns is None
    st = g.new_state(2, seed=0)
    take(st, "give")
    take(st, "keep")
    take(st, "give")  # seat 0 has 6: the game ends
    assert st.outcome == "end" and st.returns() == st.win_shares() == [0.0, 1.0]


def test_zero_sum_returns_that_do_not_add_up_are_a_located_rules_error(tmp_path):
    g = coin(tmp_path, "zero_sum returns(p) = chips(p)")
    st = g.new_state(2, seed=0)
    for a in ("give", "keep", "give"):
        take(st, a)
    with pytest.raises(RuleRuntimeError, match=r"add up to 20, .*'zero_sum returns\(p\)'") as e:
        st.returns()
    assert e.value.line == COIN.replace("RETURNS", "zero_sum returns(p) = chips(p)").splitlines().index(
        "zero_sum returns(p) = chips(p)") + 1


@pytest.mark.parametrize("returns", ["zero_sum returns(p) = chips(p)", "returns(p) = chips(p)"])
def test_a_game_the_step_cap_stopped_returns_nothing_to_anyone(tmp_path, returns):
    """The rules did not end it: 0 for every seat (the declared returns are not asked, so the
    zero_sum check of returns that would not add up does not fail)."""
    g = load_text(tmp_path, COIN.replace("RETURNS", returns).replace("max_steps 60", "max_steps 3"))
    st = g.new_state(2, seed=0)
    for a in ("keep", "keep", "keep"):
        take(st, a)
    assert st.outcome == "step cap" and st.returns() == [0.0, 0.0] and st.winners() == []


def test_returns_not_declared_zero_sum_may_add_up_to_anything(tmp_path):
    g = coin(tmp_path, "returns(p) = chips(p)")
    st = g.new_state(3, seed=0)
    while st.outcome is None:
        take(st, "give")
    assert sum(st.returns()) == 30


def test_fuzz_finds_zero_sum_returns_that_do_not_add_up(tmp_path):
    report = fuzz(coin(tmp_path, "zero_sum returns(p) = chips(p) - 9"), examples=30, seed=1, shrink_seconds=2)
    assert report.failure is not None and report.failure.invariant == "results"
    assert "add up to" in report.failure.message
    assert fuzz(coin(tmp_path), examples=30, seed=1, shrink_seconds=2).failure is None


def test_simulate_gives_the_mean_returns_by_seat(tmp_path):
    coin(tmp_path)
    s = simulate(str(tmp_path / "game.rules"), games=200, players=2, seed=3, workers=1)
    mean = s["mean_returns_by_seat"]
    assert len(mean) == 2 and mean[0] == pytest.approx(-mean[1]) and mean[0] != 0
    coin(tmp_path, "")
    assert simulate(str(tmp_path / "game.rules"), games=20, players=2, seed=3, workers=1)[
        "mean_returns_by_seat"] is None


@pytest.mark.parametrize("decl, message", [
    ("returns(p) = chips(p) > 3", "'returns' must be a number, not true/false"),
    ("returns(p) = chips(q)", "unknown name 'q'"),
    ("returns(p) = 1\nreturns(p) = 2", "'returns' is declared twice"),
])
def test_mistakes_in_returns_are_told(tmp_path, decl, message):
    assert any(m.startswith(message) for m in errors_of(tmp_path, COIN.replace("RETURNS", decl)))


def test_returns_and_zero_sum_stay_usable_as_names(tmp_path):
    # files from before 'returns' and 'zero_sum' were words of the language keep working
    text = COIN.replace("RETURNS", "").replace("var chips per player = 10",
                                               "var chips per player = 10\nvar returns = 0\ndefine zero_sum = 1")
    text = text.replace("    keep {", "    keep {\n      set returns = returns + zero_sum")
    g = load_text(tmp_path, text)
    st = g.new_state(2, seed=0)
    take(st, "keep")
    assert st.vars[st.var_base[g.layout.var_names.index("returns")]] == 1


def test_fmt_keeps_a_zero_sum_returns_declaration():
    text = COIN.replace("RETURNS", "zero_sum   returns( p )=chips(p)-10")
    assert "zero_sum returns(p) = chips(p) - 10\n" in print_rules(text)
