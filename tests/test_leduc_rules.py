"""Leduc hold'em (games/leduc.rules), rule by rule: one scenario per rule of docs/rules/leduc.md,
and whole games compared move by move with an independent Leduc written from OpenSpiel's
leduc_poker (tests/leduc_reference.py); with OpenSpiel installed (``pip install open_spiel``),
with it too. Chance is explicit in the scenarios: each deal is an action, ``deal king_1``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from leduc_reference import ACTION_NAMES, CARD_NAMES, CHANCE, Leduc
from rules_text import assert_doc_quotes
from rules_text import take as take_move

RULES = Path(__file__).resolve().parents[1] / "games" / "leduc.rules"


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def g():
    return load()


def take(st, text: str) -> None:
    """Apply the move, or at a chance node the outcome, shown as ``text``."""
    if not st.is_chance_node():
        return take_move(st, text)
    outcome = next((a for a, _ in st.chance_outcomes() if a.text == text), None)
    assert outcome is not None, f"{text!r} is no outcome: {[a.text for a, _ in st.chance_outcomes()]}"
    st.apply(outcome)


def dealt(g, mine: str, theirs: str):
    """A game where seat 0 was dealt ``mine`` and seat 1 ``theirs``: seat 0 to bet."""
    st = g.new_state(2, chance="explicit")
    take(st, f"deal {mine}")
    take(st, f"deal {theirs}")
    return st


def play(st, *moves: str) -> None:
    for m in moves:
        take(st, m)


def var(st, name: str):
    v = st.observation(None)["vars"][name]
    return v[0] if len(v) == 1 and name not in ("money", "in_pot", "out") else v


def moves(st) -> list[str]:
    return [a.text for a in st.legal_actions()]


def test_six_cards_two_suits_of_jack_queen_and_king(g):
    st = g.new_state(2, chance="explicit")
    outcomes = st.chance_outcomes()
    assert [a.text for a, _ in outcomes] == [f"deal {c}" for c in CARD_NAMES]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    ranks = [g.layout.attr_table["rank"][g.layout.variety_names.index(c)] for c in CARD_NAMES]
    assert ranks == [1, 1, 2, 2, 3, 3]


def test_each_player_antes_one_chip_of_a_hundred(g):
    st = dealt(g, "jack_1", "queen_1")
    assert (var(st, "money"), var(st, "in_pot"), var(st, "pot"), var(st, "stake")) == ([99, 99], [1, 1], 2, 1)


def test_one_private_card_each_seat_0_first_then_seat_0_bets(g):
    st = g.new_state(2, chance="explicit")
    take(st, "deal king_2")
    assert st.observation(0)["zones"]["hand"][0] == {"king_2": 1}
    assert st.chance_outcomes()[-1][1] == pytest.approx(1 / 5)  # one card fewer to deal
    take(st, "deal jack_1")
    assert st.current_player() == 0 and st.decision() == "bet"
    assert st.observation(1)["zones"]["hand"] == [{"size": 1}, {"jack_1": 1}]  # the other's card is hidden


def test_fold_only_when_there_is_a_bet_to_match(g):
    st = dealt(g, "jack_1", "queen_1")
    assert moves(st) == ["call", "raise"]
    take(st, "raise")
    assert moves(st) == ["fold", "call", "raise"]


def test_a_fold_ends_the_game_and_the_last_player_in_takes_the_pot(g):
    st = dealt(g, "jack_1", "king_1")
    play(st, "raise", "fold")
    assert st.is_terminal() and var(st, "out") == [False, True]
    assert st.returns() == [1.0, -1.0] and st.winners() == [0]


def test_a_call_matches_the_bet_and_a_check_puts_nothing_in(g):
    st = dealt(g, "jack_1", "king_1")
    take(st, "call")
    assert var(st, "in_pot") == [1, 1]
    play(st, "raise")
    take(st, "call")
    assert (var(st, "in_pot"), var(st, "pot"), var(st, "money")) == ([3, 3], 6, [97, 97])


def test_a_raise_adds_2_in_the_first_round_and_4_in_the_second(g):
    st = dealt(g, "jack_1", "king_1")
    take(st, "raise")
    assert (var(st, "stake"), var(st, "in_pot")) == (3, [3, 1])
    play(st, "call", "deal queen_1", "raise")
    assert (var(st, "stake"), var(st, "in_pot")) == (7, [7, 3])


def test_at_most_two_raises_a_round(g):
    st = dealt(g, "jack_1", "king_1")
    play(st, "raise", "raise")
    assert moves(st) == ["fold", "call"]
    play(st, "call", "deal queen_1")
    assert moves(st) == ["call", "raise"]


ROUNDS = [("call", "call"), ("raise", "call"), ("call", "raise", "call"), ("raise", "raise", "call"),
          ("call", "raise", "raise", "call")]


@pytest.mark.parametrize("bets", ROUNDS)
def test_a_round_ends_when_all_check_or_all_call_the_last_raise(g, bets):
    st = dealt(g, "jack_1", "king_1")
    for i, b in enumerate(bets):
        assert st.current_player() == i % 2  # the players bet in turn
        take(st, b)
    assert st.is_chance_node() and var(st, "round") == 2


def test_the_public_card_comes_after_the_first_round_and_seat_0_bets_first_again(g):
    st = dealt(g, "jack_1", "king_1")
    play(st, "call", "raise", "call")  # seat 0 closed the round: seat 0 still opens the next
    assert [a.text for a, _ in st.chance_outcomes()] == ["deal jack_2", "deal queen_1", "deal queen_2", "deal king_2"]
    take(st, "deal queen_2")
    assert st.observation(1)["zones"]["community"] == {"queen_2": 1}
    assert st.current_player() == 0 and moves(st) == ["call", "raise"] and var(st, "calls") == 0


def showdown(g, mine: str, theirs: str, public: str):
    st = dealt(g, mine, theirs)
    play(st, "raise", "call", f"deal {public}", "call", "call")
    assert st.is_terminal()
    return st


def test_a_pair_with_the_public_card_beats_any_high_card(g):
    st = showdown(g, "jack_1", "king_1", "jack_2")
    assert st.returns() == [3.0, -3.0] and st.winners() == [0]


def test_else_the_higher_card_wins(g):
    st = showdown(g, "queen_1", "king_1", "jack_1")
    assert st.returns() == [-3.0, 3.0] and st.winners() == [1]


def test_with_the_same_high_card_the_lower_card_decides(g):
    st = showdown(g, "queen_1", "jack_1", "king_1")  # king and queen against king and jack
    assert st.returns() == [3.0, -3.0]


def test_equal_hands_split_the_pot(g):
    st = showdown(g, "queen_1", "queen_2", "king_1")
    assert st.returns() == [0.0, 0.0] and st.winners() == [0, 1]


def test_the_result_is_in_chips_and_zero_sum(g):
    st = dealt(g, "king_1", "jack_1")
    play(st, "raise", "raise", "call", "deal queen_1", "raise", "raise", "call")
    assert st.returns() == [13.0, -13.0]  # the ante, two raises of 2 and two of 4
    assert var(st, "money") == [113, 87] and var(st, "pot") == 0


def _same_game(g, seed: int) -> int:
    """One random game in step with the reference; the number of bets."""
    rng = random.Random(seed)
    st, ref = g.new_state(2, chance="explicit"), Leduc()
    bets = 0
    while not ref.is_terminal():
        assert not st.is_terminal()
        if ref.player == CHANCE:
            assert st.is_chance_node()
            got = [(a.text, p) for a, p in st.chance_outcomes()]
            assert got == [(f"deal {CARD_NAMES[c]}", pytest.approx(p)) for c, p in ref.chance_outcomes()]
            a = rng.choice(ref.legal_actions())
            ref.apply(a)
            take(st, f"deal {CARD_NAMES[a]}")
            continue
        assert st.current_player() == ref.player
        assert moves(st) == [ACTION_NAMES[a] for a in ref.legal_actions()]
        a = rng.choice(ref.legal_actions())
        ref.apply(a)
        take(st, ACTION_NAMES[a])
        bets += 1
    assert st.is_terminal()
    assert st.returns() == ref.returns()
    return bets


def test_random_games_play_as_the_reference_does(g):
    bets = [_same_game(g, seed) for seed in range(300)]
    assert max(bets) >= 6 and min(bets) == 2  # long games and a quick fold both came up


def test_against_openspiel_when_it_is_installed(g):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("leduc_poker")
    for seed in range(200):
        rng, state, st = random.Random(seed), game.new_initial_state(), g.new_state(2, chance="explicit")
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [(a.text, p) for a, p in st.chance_outcomes()] == \
                    [(f"deal {CARD_NAMES[c]}", pytest.approx(p)) for c, p in outcomes]
                a = rng.choice([c for c, _ in outcomes])
                take(st, f"deal {CARD_NAMES[a]}")
            else:
                assert st.current_player() == state.current_player()
                assert moves(st) == [ACTION_NAMES[a] for a in state.legal_actions()]
                a = rng.choice(state.legal_actions())
                take(st, ACTION_NAMES[a])
            state.apply_action(a)
        assert st.is_terminal() and st.returns() == state.returns()


def test_rules_doc_quotes_the_rules_file():
    """docs/rules/leduc.md quotes leduc.rules: every quoted line is in it, every test it names exists."""
    assert_doc_quotes(RULES.parents[1] / "docs" / "rules" / "leduc.md", RULES, globals())
