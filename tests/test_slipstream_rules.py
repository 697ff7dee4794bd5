"""One scenario per rule of Slipstream (docs/rules/slipstream.md), the game that
docs/authoring.md builds.

Each test builds a position, runs the step the rule is about and checks the result,
precisely enough that changing that rule in games/slipstream.rules makes it fail
(tests/test_slipstream_mutations.py checks this). Every test takes the compiled game as
its argument, so the mutation tests can run the very same scenarios against altered
copies of the rules. State internals are touched only through tests/slipstream_positions.py.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from rules_text import assert_doc_quotes
import slipstream_positions as P

CARDS = {"one": 8, "two": 8, "three": 4, "shove": 4}
STEPS = {"one": 1, "two": 2, "three": 3}
FAR = 9  # a space out of reach of the pawns the scenarios move (no slipstream by accident)


@pytest.fixture(scope="module")
def game():
    return P.load()


def position(g, *, players: int = 2, seat: int = 0, spaces: Mapping[int, int] | None = None,
             hand: Mapping[str, int] | None = None, seed: int = 0):
    """A state at the "play" decision of ``seat``: the pawns on ``spaces`` (the others on the
    start), ``hand`` in the seat's hand (three cards by default: one, two, three)."""
    st = P.start(g, players, seed=seed)
    P.set_spaces(st, {s: 0 for s in range(players)})
    P.set_spaces(st, spaces or {})
    P.set_current(st, seat)
    P.set_zone(st, "hand", hand or {"one": 1, "two": 1, "three": 1}, seat=seat)
    return st


def texts(actions) -> set[str]:
    return {str(a) for a in actions}


# ---- players, components, setup ----
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players(game, players):
    assert P.start(game, players).players == players


@pytest.mark.parametrize("players", [1, 5])
def test_one_or_five_players_refused(game, players):
    with pytest.raises(ValueError):
        game.new_state(players, seed=0)


def test_components(game):
    """24 cards: 8 one, 8 two, 4 three, 4 shove."""
    st = game.new_state(3, seed=0)
    assert P.all_cards(st) == CARDS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_0_starts_and_everyone_is_dealt_three(game, players):
    for seed in range(8):
        st = P.start(game, players, seed=seed)
        assert st.current_player() == 0
        assert [sum(P.zone(st, "hand", s).values()) for s in range(players)] == [3] * players
        assert sum(P.zone(st, "deck").values()) == 24 - 3 * players
        assert P.spaces(st) == [0] * players


def test_hands_private_deck_hidden_table_and_discard_public(game):
    st = position(game, players=3, hand={"one": 1, "shove": 2})
    st.apply("play 1 one")
    for seat in range(3):
        zones = st.observation(seat)["zones"]
        assert set(zones["deck"]) == {"size"}
        assert zones["discard"] == {"one": 1} and zones["table"] == {}
        for other in range(3):
            shown = zones["hand"][other]
            assert (set(shown) != {"size"}) == (other == seat), (seat, other, shown)


# ---- a turn ----
def test_a_play_is_one_card_of_your_choice(game):
    st = position(game, hand={"one": 2, "three": 1, "shove": 1})
    assert texts(st.legal_actions()) == {"play 1 one", "play 1 three", "play 1 shove"}


@pytest.mark.parametrize("card", ["one", "two", "three"])
def test_a_run_card_moves_your_pawn_its_steps(game, card):
    st = position(game, spaces={1: FAR}, hand={card: 1, "shove": 2})
    st.apply(f"play 1 {card}")
    assert P.spaces(st) == [STEPS[card], FAR]


def test_slipstream_one_more_when_stopping_on_a_rival(game):
    st = position(game, spaces={1: 2})
    st.apply("play 1 two")
    assert P.spaces(st) == [3, 2]


def test_no_slipstream_when_passing_or_stopping_behind_a_rival(game):
    st = position(game, spaces={1: 1})
    st.apply("play 1 two")  # passes the rival on 1
    assert P.spaces(st) == [2, 1]
    st = position(game, spaces={1: 3})
    st.apply("play 1 two")  # stops just behind the rival on 3
    assert P.spaces(st) == [2, 3]


def test_slipstream_once_per_run(game):
    """The extra space may land on another rival: no second extra space."""
    st = position(game, players=3, spaces={1: 2, 2: 3})
    st.apply("play 1 two")
    assert P.spaces(st) == [3, 2, 3]


def test_shove_sends_a_rival_of_your_choice_back_two(game):
    st = position(game, players=3, spaces={0: 4, 1: 5, 2: 7}, hand={"shove": 1, "one": 2})
    st.apply("play 1 shove")
    assert st.decision() == "shove" and st.current_player() == 0
    assert texts(st.legal_actions()) == {"back seat 1", "back seat 2"}  # never yourself
    st.apply("back seat 2")
    assert P.spaces(st) == [4, 5, 5]  # the shover does not move, nor does anyone ride a slipstream


def test_a_shove_is_no_run(game):
    """The shover stays put even on a rival's space."""
    st = position(game, spaces={0: 5, 1: 5}, hand={"shove": 1, "one": 2})
    st.apply("play 1 shove")
    st.apply("back seat 1")
    assert P.spaces(st) == [5, 3]


@pytest.mark.parametrize("before,after", [(1, 0), (0, 0), (2, 0), (3, 1)])
def test_a_shove_never_sends_a_pawn_behind_the_start(game, before, after):
    st = position(game, spaces={0: FAR, 1: before}, hand={"shove": 1, "one": 2})
    st.apply("play 1 shove")
    st.apply("back seat 1")
    assert P.spaces(st) == [FAR, after]


def test_the_card_is_discarded_and_the_hand_refilled_to_three(game):
    st = position(game, hand={"one": 1, "two": 1, "three": 1})
    deck = sum(P.zone(st, "deck").values())
    st.apply("play 1 three")
    assert P.zone(st, "discard") == {"three": 1} and P.zone(st, "table") == {}
    assert sum(P.zone(st, "hand", 0).values()) == 3
    assert sum(P.zone(st, "deck").values()) == deck - 1


def test_the_discard_is_reshuffled_when_the_deck_runs_out(game):
    st = position(game, hand={"one": 1, "two": 1, "three": 1})
    P.set_zone(st, "hand", {"two": 3}, seat=1)
    P.set_zone(st, "deck", {})
    P.set_zone(st, "discard", {"one": 7, "two": 4, "three": 3, "shove": 4})
    st.apply("play 1 three")
    # the played card went to the discard first, then the whole discard became the deck
    assert sum(P.zone(st, "hand", 0).values()) == 3
    assert P.zone(st, "discard") == {}
    assert sum(P.zone(st, "deck").values()) == 18
    assert P.all_cards(st) == CARDS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_turn_passes_clockwise(game, players):
    st = position(game, players=players)
    for seat in [*range(1, players), 0]:
        st.apply(st.legal_actions()[0])
        while st.decision() == "shove":
            st.apply(st.legal_actions()[0])
        assert st.current_player() == seat


# ---- the end ----
@pytest.mark.parametrize("start,card,over", [(13, "two", True), (12, "three", True), (14, "three", True),
                                             (12, "two", False), (13, "one", False)])
def test_the_game_ends_as_soon_as_a_pawn_reaches_fifteen(game, start, card, over):
    st = position(game, spaces={0: start, 1: 3}, hand={card: 1, "shove": 2})
    st.apply(f"play 1 {card}")
    assert st.is_terminal() == over
    if over:
        assert sum(P.zone(st, "hand", 0).values()) == 2  # nothing happens after the finish: no refill
        assert st.winners() == [0]


def test_the_furthest_pawn_wins_and_scores_are_spaces(game):
    st = position(game, players=3, seat=2, spaces={0: 10, 1: 12, 2: 14})
    st.apply("play 1 one")
    assert st.is_terminal() and st.winners() == [2]
    assert st.scores() == [10, 12, 15]


def test_random_games_end_with_one_winner(game):
    for seed in range(6):
        st = game.new_state(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
            assert P.all_cards(st) == CARDS
        assert st.outcome == "end" and len(st.winners()) == 1
        assert max(P.spaces(st)) >= 15


def test_rules_doc_quotes_the_rules_file():
    """docs/rules/slipstream.md quotes slipstream.rules: every quoted line is in it, every test it names exists."""
    assert_doc_quotes(P.RULES.parents[1] / "docs" / "rules" / "slipstream.md", P.RULES, globals())
