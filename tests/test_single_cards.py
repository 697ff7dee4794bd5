"""One particular card (docs/language.md, "move ... to"): 'move c to zone' of the card a loop or an
option took from a zone, beside "draw" and "pass" in one decision; the zones it can reach; and the
mistakes around it."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple import RuleRuntimeError
from rules_text import errors_of, load_text, take

EIGHTS = Path(__file__).parent / "fixtures" / "good" / "eights.rules"

GAME = """
game "Cards"
players 2
zone deck hidden
zone pile public
zone hand per player public
cards chip in deck {
  2 red  { colour = 1 }
  2 blue { colour = 2 }
}
setup {
  deal 2 from deck to hand(seat(0))
}
turn {
  TURN
  end game
}
"""


def zone(st, name: str, owner: int | None = None) -> dict:
    z = st.observation(None)["zones"][name]
    return z[owner] if owner is not None else z


def test_a_decision_offers_each_card_beside_draw_and_pass(tmp_path):
    turn = """choose go {
    play c in hand(current) {
      move c to pile
    }
    draw {
      deal 1 from deck to hand(current)
    }
    pass {
    }
  }"""
    g = load_text(tmp_path, GAME.replace("TURN", turn))
    st = g.new_state(2, chance="explicit")
    for outcome in ("deal red", "deal blue"):
        st.apply(next(a for a, _ in st.chance_outcomes() if a.text == outcome))
    assert [a.text for a in st.legal_actions()] == ["play red", "play blue", "draw", "pass"]
    take(st, "play blue")
    assert zone(st, "pile") == {"blue": 1} and zone(st, "hand", 0) == {"red": 1}


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_a_loop_moves_the_cards_it_runs_over(tmp_path, chance):
    turn = "for c in hand(current) where c.colour == 1 {\n    move c to pile\n  }"
    g = load_text(tmp_path, GAME.replace("TURN", turn).replace("deal 2 from", "deal 4 from"))
    st = g.new_state(2, seed=1) if chance == "seeded" else g.new_state(2, chance="explicit")
    while st.is_chance_node():
        st.apply(st.chance_outcomes()[0][0])
    assert st.is_terminal()
    assert zone(st, "pile") == {"red": 2} and zone(st, "hand", 0) == {"blue": 2}


def test_a_card_moved_twice_is_a_rules_error(tmp_path):
    turn = "for c in hand(current) {\n    move c to pile\n    move c to deck\n  }"
    g = load_text(tmp_path, GAME.replace("TURN", turn))
    with pytest.raises(RuleRuntimeError, match="'(red|blue)' is no longer in the zone it was taken from"):
        g.new_state(2, seed=0)


def test_a_card_moved_reaches_its_zone_for_later_choices(tmp_path):
    # cards reach 'pile' only by 'move c to pile': a choice from the pile must still see them
    turn = """for c in hand(current) {
    move c to pile
  }
  choose back: 1 card from pile to hand(current)"""
    g = load_text(tmp_path, GAME.replace("TURN", turn))
    st = g.new_state(2, seed=3)
    assert st.decision() == "back" and len(st.legal_actions()) >= 1
    take(st, st.legal_actions()[0].text)
    assert sum(zone(st, "hand", 0).values()) == 1 and sum(zone(st, "pile").values()) == 1


def test_eights_plays_to_its_end_and_keeps_every_card():
    g = meeple.load(str(EIGHTS))
    import random
    for seed in range(40):
        st = g.new_state(3, seed=seed)
        rng = random.Random(seed)
        while st.outcome is None:
            legal = st.legal_actions()
            plays = [a for a in legal if a.text.startswith("play ")]
            for a in plays:  # a card offered is one the player holds, and it fits the pile
                assert a.text.removeprefix("play ") in zone(st, "hand", st.current_player())
            st.apply(rng.choice(legal))
        obs = st.observation(None)["zones"]
        held = sum(sum(h.values()) for h in obs["hand"])
        assert held + sum(obs["pile"].values()) + obs["deck"].get("size", sum(obs["deck"].values())) == 12


@pytest.mark.parametrize("turn, message", [
    ("move red to pile", "'red' is a variety of cards, not one card"),
    ("let n = 1\n  move n to pile", "'move ... to' needs a piece, not a number"),
    ("for c in hand(current) {\n    move c to 3\n  }", "expected a zone, found a number"),
])
def test_mistakes_with_one_card_are_told(tmp_path, turn, message):
    assert any(m.startswith(message) for m in errors_of(tmp_path, GAME.replace("TURN", turn)))


def test_a_card_moved_to_its_own_zone_is_warned_about(tmp_path):
    g = load_text(tmp_path, GAME.replace("TURN", "for c in hand(current) {\n    move c to hand(current)\n  }"))
    assert "the card goes from a zone to that same zone: nothing changes" in [w.message for w in g.warnings]


def test_tricks_the_winner_of_a_trick_leads_the_next_and_suit_is_followed():
    g = meeple.load(str(Path(__file__).parent / "fixtures" / "good" / "tricks.rules"))
    attrs = g.layout.attr_table
    names = g.layout.variety_names
    import random
    for seed in range(20):
        st = g.new_state(3, seed=seed)
        rng = random.Random(seed)
        trick: list[tuple[int, str]] = []
        while st.outcome is None:
            me = st.current_player()
            hand = st.observation(me)["zones"]["hand"][me]
            legal = [a.text.removeprefix("play ") for a in st.legal_actions()]
            if trick:  # following: the suit led, if the hand has it
                led = attrs["suit"][names.index(trick[0][1])]
                same = [c for c in hand if attrs["suit"][names.index(c)] == led]
                assert sorted(legal) == sorted(same or hand)
            card = rng.choice(legal)
            take(st, f"play {card}")
            trick.append((me, card))
            if len(trick) == 3:
                led = attrs["suit"][names.index(trick[0][1])]
                winner = max((attrs["rank"][names.index(c)], p) for p, c in trick
                             if attrs["suit"][names.index(c)] == led)[1]
                if st.outcome is None:
                    assert st.current_player() == winner
                trick = []
        assert sum(st.scores()) == 4
