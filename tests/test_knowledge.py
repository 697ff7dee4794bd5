"""Knowledge (docs/language.md, "reveal"): cards shown to one player or to all, what each seat
knows of zones it may not see, forgotten as cards leave, in observations, saved states, clones,
records and the terminal; and 'move n from a to b where test', the variety taken from a value."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from meeple import RuleRuntimeError
from meeple.dsl import read_ir
from meeple.tools.fuzz import hidden_shown
from meeple.tools.play import render_observation
from meeple.tools.records import record_lines, replay_record
from rules_text import errors_of, load_text, take

FISH = Path(__file__).parent / "fixtures" / "good" / "fish.rules"

GAME = """
game "Cards"
players 3
zone deck hidden
zone pile hidden
zone table public
zone hand per player private
cards chip in deck {
  2 red  { colour = 1 }
  2 blue { colour = 2 }
  1 gold { colour = 3, rare }
}
setup {
  move 2 red from deck to hand(seat(0))
  move 1 blue from deck to hand(seat(0))
  move 1 gold from deck to hand(seat(0))
  set current = seat(0)
}
turn {
  TURN
  end game
}
"""


def game(tmp_path, turn: str, text: str = GAME):
    return load_text(tmp_path, text.replace("TURN", turn))


def view(st, seat: int, name: str, owner: int | None = None) -> dict:
    z = st.observation(seat)["zones"][name]
    return z[owner] if owner is not None else z


def test_a_zone_shown_to_one_player_is_known_to_that_player_only(tmp_path):
    g = game(tmp_path, "choose go {\n show {\n reveal hand(seat(0)) to seat(1)\n }\n }\n set current = seat(0)")
    st = g.new_state(3, seed=0)
    assert view(st, 1, "hand", 0) == {"size": 4}
    take(st, "show")
    assert view(st, 1, "hand", 0) == {"size": 4, "known": {"red": 2, "blue": 1, "gold": 1}}
    assert view(st, 2, "hand", 0) == {"size": 4}  # not shown to seat 2
    assert view(st, 0, "hand", 0) == {"red": 2, "blue": 1, "gold": 1}  # the owner sees it anyway
    assert "known" not in str(st.observation(None)["zones"])  # everything is seen: nothing to know
    assert all(hidden_shown(g, st, seat) is None for seat in range(3))


def test_one_card_shown_to_everyone(tmp_path):
    g = game(tmp_path, "choose go {\n show c in hand(current) {\n reveal c\n }\n }")
    st = g.new_state(3, seed=0)
    take(st, "show gold")
    for seat in (1, 2):
        assert view(st, seat, "hand", 0) == {"size": 4, "known": {"gold": 1}}


def test_a_card_shown_twice_counts_twice_up_to_the_cards_there(tmp_path):
    g = game(tmp_path, "for c in hand(current) where c.colour == 1 {\n reveal c to seat(2)\n reveal c to seat(2)\n }")
    st = g.new_state(3, seed=0)
    assert view(st, 2, "hand", 0) == {"size": 4, "known": {"red": 2}}  # 4 shows, 2 red cards there


def test_each_copy_a_loop_takes_is_shown(tmp_path):
    g = game(tmp_path, "for c in hand(current) {\n reveal c to seat(1)\n }")
    assert view(g.new_state(3, seed=0), 1, "hand", 0)["known"] == {"red": 2, "blue": 1, "gold": 1}


@pytest.mark.parametrize("leave, left", [
    ("move 1 red from hand(seat(0)) to table", {"red": 1, "blue": 1, "gold": 1}),
    ("move 1 from hand(seat(0)) to pile where colour == 2", {"red": 2, "gold": 1}),
    ("move 5 from hand(seat(0)) to pile where colour < 3", {"gold": 1}),
    ("move all from hand(seat(0)) to pile", None),
    ("for c in hand(seat(0)) where c.rare {\n move c to pile\n }", {"red": 2, "blue": 1}),
    ("deal 2 from hand(seat(0)) to pile", "two fewer"),
])
def test_cards_that_leave_the_zone_are_forgotten_there(tmp_path, leave, left):
    g = game(tmp_path, f"reveal hand(seat(0)) to seat(1)\n {leave}")
    st = g.new_state(3, seed=0)
    known = view(st, 1, "hand", 0).get("known")
    if left == "two fewer":  # two random cards left: the seat knows of exactly what is still there
        assert known == st.observation(None)["zones"]["hand"][0]
    else:
        assert known == left
    assert view(st, 1, "hand", 0)["size"] == sum(st.observation(None)["zones"]["hand"][0].values())


def test_a_card_that_leaves_is_forgotten_though_it_may_not_have_been_the_one_shown(tmp_path):
    g = game(tmp_path, "for c in hand(current) where c.colour == 1 {\n reveal c to seat(1)\n end game\n }")
    st = g.new_state(3, seed=0)
    assert view(st, 1, "hand", 0)["known"] == {"red": 1}  # one red shown of two
    g = game(tmp_path, "for c in hand(current) where c.colour == 1 {\n reveal c to seat(1)\n "
                       "move 1 red from hand(current) to table\n end game\n }")
    assert "known" not in view(g.new_state(3, seed=0), 1, "hand", 0)  # one red left: maybe the one shown


def test_a_card_moved_to_a_zone_the_seat_sees_is_seen_there_not_known(tmp_path):
    g = game(tmp_path, "for c in hand(current) where c.rare {\n reveal c to seat(1)\n move c to table\n }")
    st = g.new_state(3, seed=0)
    assert view(st, 1, "hand", 0) == {"size": 3} and view(st, 1, "table") == {"gold": 1}


def test_cards_drawn_from_a_shown_zone_and_a_choice_forget_them(tmp_path):
    text = GAME.replace("setup {", "setup {\n  reveal deck to seat(1)")
    g = game(tmp_path, "choose give: 1 card from hand(current) to pile\n deal 1 from deck to pile", text)
    for chance in (None, "explicit"):
        st = g.new_state(3, seed=0, chance=chance)
        assert view(st, 1, "deck")["known"] == {"blue": 1}  # shown before the setup moved the rest out
        st.apply(next(a for a in st.legal_actions() if a.text == "give 1 red"))
        if chance == "explicit":
            st.apply(st.chance_outcomes()[0][0])
        assert "known" not in view(st, 1, "deck")  # the blue was drawn


def test_a_reshuffled_pile_is_forgotten(tmp_path):
    text = GAME.replace("setup {", "setup {\n  move all from deck to pile\n  reveal pile to seat(2)")
    g = game(tmp_path, "deal 1 from deck to table reshuffling pile", text)
    st = g.new_state(3, seed=1)
    assert view(st, 2, "pile") == {"size": 0} and view(st, 2, "deck")["size"] == 4
    assert "known" not in view(st, 2, "deck")  # the cards went into the deck unseen


def test_showing_a_zone_to_its_owner_or_a_public_zone_changes_nothing(tmp_path):
    g = game(tmp_path, "reveal hand(current) to current\n reveal table")
    assert g.new_state(3, seed=0).known == {}
    _, warnings = read_ir(str(tmp_path / "game.rules"))
    assert [w.message for w in warnings if "reveal" in w.message] == \
        ["zone 'table' is public: everyone sees its cards already, and 'reveal' changes nothing"]


def test_what_is_known_is_saved_restored_cloned_and_replayed(tmp_path):
    g = game(tmp_path, "choose go {\n show c in hand(current) {\n reveal c to seat(2)\n }\n }\n "
                       "deal 1 from deck to hand(current)")
    st = g.new_state(3, seed=0)
    take(st, "show red")
    doc = st.to_json()
    assert doc["known"] == [[3, 2, [1, 0, 0]]]  # zone slot 3 (hand of seat 0), seat 2, one red
    assert g.state_from_json(doc).to_json() == doc
    copy = st.clone()
    copy.forget(copy.zones[3])
    assert copy.known == {} and st.known == {(3, 2): [1, 0, 0]}
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(record_lines(g, st, rules=str(tmp_path / "game.rules"))) + "\n")
    report = replay_record(record)  # (the final state's hash covers what is known)
    assert report.ok, report.problems


def test_a_damaged_known_part_of_a_saved_state_is_refused(tmp_path):
    from meeple.interpreter.game import StateError
    g = game(tmp_path, "reveal hand(seat(0)) to seat(1)")
    doc = g.new_state(3, seed=0).to_json()
    for bad in ("x", [[3, 1]], [[3, 1, [9, 9, 9]]], [[99, 1, [0, 0, 0]]], [[3, 7, [0, 0, 0]]]):
        with pytest.raises(StateError, match="damaged"):
            g.state_from_json({**doc, "known": bad})


def test_a_game_that_shows_nothing_saves_no_knowledge(tmp_path):
    g = game(tmp_path, "move 1 red from hand(current) to table")
    assert "known" not in g.new_state(3, seed=0).to_json()


def test_play_shows_what_a_seat_was_shown(tmp_path):
    g = game(tmp_path, "reveal hand(seat(0)) to seat(1)\n move 1 red from hand(seat(0)) to table")
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    render_observation(g.observe(g.new_state(3, seed=0), 1), 1, console, None, plain=True)
    assert "red, blue, gold (shown to you)" in out.getvalue()


def test_fuzz_catches_knowledge_of_cards_that_are_not_there(tmp_path):
    g = game(tmp_path, "reveal hand(seat(0)) to seat(1)")
    st = g.new_state(3, seed=0)
    assert hidden_shown(g, st, 1) is None
    st.known[3, 1][0] = 5  # (a bug's doing: five reds known, two there)
    assert hidden_shown(g, st, 1) == "hand of seat 0: cards known that are not there"


def test_showing_cards_to_nobody_is_a_rules_error_at_its_line(tmp_path):
    text = GAME.replace('zone deck hidden', 'zone deck hidden\nvar who = none')
    g = game(tmp_path, "set who = seat(1)\n set who = none\n reveal deck to who", text.replace(
        "var who = none", "var who = seat(0)"))
    with pytest.raises(RuleRuntimeError, match="the player to show the cards to is none here") as e:
        g.new_state(3, seed=0)
    assert "game.rules:" in str(e.value)


@pytest.mark.parametrize("stmt, message", [
    ("reveal red to seat(1)", "'red' is a variety of cards, not one card"),
    ("reveal 3", "'reveal' shows a card or a zone's cards, not a number"),
    ("reveal deck to 1", "who is shown"),
    ("move 1 from deck to table where 3", "'where' must be true/false, not a number"),
    ("move 1 from deck to 2 where rare", "expected a zone, found a number"),
    ("move -1 from deck to table where rare", "cards moved"),
])
def test_mistakes_are_told(tmp_path, stmt, message):
    found = errors_of(tmp_path, GAME.replace("TURN", stmt))
    assert any(message in m for m in found), found


def test_move_where_takes_the_varieties_in_their_order_up_to_the_amount(tmp_path):
    g = game(tmp_path, "let want = 2\n move 2 from hand(current) to table where colour >= want")
    st = g.new_state(3, seed=0)
    assert st.observation(None)["zones"]["table"] == {"blue": 1, "gold": 1}
    g = game(tmp_path, "move 3 from hand(current) to table where colour < 3")
    assert g.new_state(3, seed=0).observation(None)["zones"]["table"] == {"red": 2, "blue": 1}


def test_move_where_with_a_variety_from_a_var(tmp_path):
    text = GAME.replace("zone deck hidden", "zone deck hidden\nvar wanted per player = 0")
    g = game(tmp_path, "set wanted(current) = 2\n move 1 from hand(current) to table where colour == wanted(current)",
             text)
    assert g.new_state(3, seed=0).observation(None)["zones"]["table"] == {"blue": 1}


def test_fish_asking_shows_the_card_and_what_is_handed_over():
    import meeple
    g = meeple.load(str(FISH))
    st = g.new_state(2, seed=0)
    hands = st.observation(None)["zones"]["hand"]
    rank = {f"card_{s}_{f}": f for s in ("clubs", "diamonds", "hearts", "spades")
            for f in ("ace", "king", "queen", "jack", "ten")}
    asked = next(c for c in hands[0] if any(rank[d] == rank[c] for d in hands[1]))
    given = {d for d in hands[1] if rank[d] == rank[asked]}
    take(st, f"ask seat 1 {asked}")  # seat 1 holds the rank: hands it over, and seat 0 asks again
    assert view(st, 1, "hand", 0)["known"] == {c: 1 for c in st.observation(None)["zones"]["hand"][0]
                                                if rank[c] == rank[asked]}
    assert given | {asked} <= set(view(st, 1, "hand", 0)["known"])
    assert st.current_player() == 0


def test_a_card_shown_after_it_moved_is_shown_where_it_went(tmp_path):
    """From review: 'move c to pile' then 'reveal c' shows the card in the pile, not in the hand."""
    g = game(tmp_path, "choose go {\n toss c in hand(current) {\n move c to pile\n reveal c to seat(1)\n }\n }")
    st = g.new_state(3, seed=0)
    take(st, "toss red")
    assert view(st, 1, "hand", 0) == {"size": 3}
    assert view(st, 1, "pile") == {"size": 1, "known": {"red": 1}}


def test_showing_an_empty_zone_keeps_nothing(tmp_path):
    g = game(tmp_path, "reveal pile to seat(1)")
    st = g.new_state(3, seed=0)
    assert st.known == {} and view(st, 1, "pile") == {"size": 0}
