"""The compile stage: generated code, capacity limits, zone flow, the parse cache."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from meeple.dsl.diagnostics import RuleRuntimeError

import meeple
from meeple.dsl import read_checked, read_ir
from meeple.dsl.cache import cache_dir
from meeple.interpreter.flow import varieties_by_zone
from meeple.interpreter.moves import CardChoice
from meeple.interpreter.program import CHOICE

SMALL = """
game "flow"
players 2..3
zone deck hidden
zone pool hidden
zone hand per player private
zone table public
zone kept per player private
cards coin in pool { 3 gold { value = 3 } }
cards gem in deck { 4 red { colour = 1 }  4 blue { colour = 2 } }
setup { for p in player { deal 1 from pool to kept(p)  deal 2 from deck to hand(p) } }
turn {
  choose play: 1..2 cards of one colour from hand(current) to table keeping count(table) <= 3
  refill hand(current) to 2 from deck reshuffling table
}
end when count(table) >= 3
"""

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def hare():
    return meeple.load("games/hare.rules")


def choice(game, label):
    return next(a for op, a, _ in game.code if op == CHOICE and a.label == label)


def test_zone_flow_follows_the_moves(tmp_path):
    path = tmp_path / "flow.rules"
    path.write_text(SMALL)
    held = varieties_by_zone(read_checked(str(path)))
    gold, red, blue = 0, 1, 2
    assert held["pool"] == {gold} and held["kept"] == {gold}
    assert held["hand"] == {red, blue} and held["table"] == {red, blue} and held["deck"] == {red, blue}


def test_hare_play_is_read_as_limits(hare):
    play = choice(hare, "play")
    names = hare.layout.variety_names
    limits = {tuple(names[i] for i in idx): bound for idx, bound in play.capacities}
    assert limits[("hare", "tortoise", "wolf", "howl_wolf", "fox", "sheep")] == 8
    assert limits[("wolf", "howl_wolf")] == 4 and limits[("hare",)] == 4
    assert choice(hare, "bet").capacities is None


def test_limits_give_the_same_moves_as_judging_each_candidate(hare):
    """The capacity shortcut must agree with evaluating 'keeping' once per candidate."""
    play = choice(hare, "play")
    rng = random.Random(3)
    compared = 0
    for seed in range(40):
        st = hare.new_state(4, seed=seed)
        while not st.is_terminal():
            if st.decision() == "play":
                fast = sorted(a.text for a in st.legal_actions())
                slow = sorted(a.text for a in CardChoice.legal(play, st))
                assert fast == slow
                compared += 1
            st.apply(rng.choice(st.legal_actions()))
    assert compared > 1000


def test_limits_that_only_their_choice_can_break_are_kept_and_set_zone_refuses_breaking_them(tmp_path):
    """A zone that starts empty and that no rule but one choice fills never passes that choice's
    limits: its code does not test them, so a position past them is refused where it is made."""
    path = tmp_path / "flow.rules"
    path.write_text(SMALL)
    game = meeple.load(str(path))
    assert [bound for _, bound in game.exprs.kept_limits["table"]] == [3]
    st = game.new_state(2, seed=1)
    with pytest.raises(ValueError, match="table' cannot hold 4 cards, more than the 3 its rules ever let it hold"):
        st.set_zone("table", {"red": 4})
    st.set_zone("table", {"red": 3})
    st.set_zone("hand", {"red": 4}, seat=st.current)


def test_a_hand_holding_more_cards_than_the_game_has_plays_as_judging_each_says(tmp_path):
    """The most of a variety that fits is read from a table by how many the hand holds, up to the
    game's cards of it; ``set_zone`` may put more there (it moves nothing else): the choice then
    works it out without that table, as judging each candidate does."""
    path = tmp_path / "flow.rules"
    path.write_text(SMALL)
    game = meeple.load(str(path))
    assert "_most_table(2, ((3, False),), 4)" in game.module.text()  # (the hand's count is an index)
    for seed in range(4):
        st = game.new_state(2, seed=seed)
        st.set_zone("hand", {"red": 9, "blue": 6}, seat=st.current)
        judged = CardChoice.legal(choice(game, "play"), st)
        assert sorted(a.text for a in st.legal_actions()) == sorted(a.text for a in judged) and len(judged) == 4
        st.play_out(random.Random(seed))  # (the pick written into the turn falls back as well)
        assert st.is_terminal()


def test_a_limit_below_0_is_never_kept(tmp_path):
    """The empty zone does not pass ``count(table) < 0``: every choice is turned away, as judging
    each says (a choice of nothing was offered, and a table of no entries read: an IndexError)."""
    path = tmp_path / "flow.rules"
    for play in ["choose play: 0..2 cards from hand(current) to table keeping count(table) < 0",
                 "choose play: 1..2 cards of one colour from hand(current) to table\n"
                 "    keeping count(table where colour == 1) < 0 and count(table) <= 3"]:
        path.write_text(SMALL.replace("choose play: 1..2 cards of one colour from hand(current) to table "
                                      "keeping count(table) <= 3", play))
        game = meeple.load(str(path))
        assert "table" not in game.exprs.kept_limits
        for seed in range(3):
            st = game.new_state(2, seed=seed)
            assert st.decision() == "play" and st.legal_actions() == [] == CardChoice.legal(choice(game, "play"), st)
            st.play_out(random.Random(seed))  # (stuck at once: no legal action)
            assert not st.is_terminal() and st.decision() == "play"


def test_limits_another_rule_can_break_are_tested_where_the_choice_is_made(tmp_path):
    # the setup fills the table too: past its limit, the choice has nothing to play
    path = tmp_path / "flow.rules"
    path.write_text(SMALL.replace("to hand(p) }", "to hand(p) }  deal 1 from deck to table"))
    game = meeple.load(str(path))
    assert "table" not in game.exprs.kept_limits
    st = game.new_state(2, seed=1)
    st.set_zone("hand", {"red": 2}, seat=st.current)
    st.set_zone("table", {"blue": 4})
    st.restart_turn()
    assert st.legal_actions() == [] and CardChoice.legal(choice(game, "play"), st) == []
    st.set_zone("table", {"blue": 2})
    st.restart_turn()
    judged = CardChoice.legal(choice(game, "play"), st)
    assert sorted(a.text for a in st.legal_actions()) == sorted(a.text for a in judged) and len(judged) == 1


def test_generated_counts_skip_what_a_zone_never_holds(hare):
    sources = [getattr(a, "source", "") for op, a, _ in hare.code if callable(a)]
    trigger = next(s for s in sources if "== 8" in s)
    bet_indices = [i for i, n in enumerate(hare.layout.variety_names) if n.endswith("_bet")]
    assert "z_table[0]" in trigger  # (the test below would hold of code that counts nothing)
    assert bet_indices and not any(f"z_table[{i}]" in trigger for i in bet_indices)


def test_parse_cache_returns_the_same_ir_and_notices_edits(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "flow.rules"
    path.write_text(SMALL)
    first, _ = read_ir(str(path))
    assert len(list(cache_dir().iterdir())) == 1
    again, _ = read_ir(str(path))
    assert again == first
    path.write_text(SMALL.replace("count(table) >= 3", "count(table) >= 2"))
    edited, _ = read_ir(str(path))
    assert edited != first and len(list(cache_dir().iterdir())) == 2


@pytest.mark.parametrize("damage", ["{not json", "{}", "changed"])
def test_a_damaged_cache_entry_is_ignored(tmp_path, monkeypatch, damage):
    """Not JSON, JSON that is no IR (it was trusted: a KeyError in every command), an IR with a
    value changed: the entry's first line is a hash of the rest, so none is taken."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "flow.rules"
    path.write_text(SMALL)
    first, _ = read_ir(str(path))
    entry = next(cache_dir().iterdir())
    if damage == "changed":
        digest, _, text = entry.read_text().partition("\n")
        assert '"range_decl","lo":2' in text
        entry.write_text(digest + "\n" + text.replace('"range_decl","lo":2', '"range_decl","lo":3', 1))
    else:
        entry.write_text(damage)
    again, _ = read_ir(str(path))
    assert again == first
    assert json.loads(next(cache_dir().iterdir()).read_text().partition("\n")[2]) == first  # written again


def test_no_cache_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MEEPLE_NO_CACHE", "1")
    path = tmp_path / "flow.rules"
    path.write_text(SMALL)
    read_ir(str(path))
    assert not (tmp_path / "cache").exists()


def test_the_small_game_plays_with_its_limits(tmp_path):
    path = tmp_path / "flow.rules"
    path.write_text(SMALL)
    game = meeple.load(str(path))
    rng = random.Random(1)
    for seed in range(30):
        st = game.new_state(2, seed=seed)
        while not st.is_terminal():
            acts = st.legal_actions()
            assert acts
            for a in acts:
                picked = a.payload
                assert len({game.layout.attr_table["colour"][i] for i, _ in picked}) == 1
            st.apply(rng.choice(acts))
        assert st.outcome == "end"


# ---- regressions found in review: each file is a minimal game (tests/fixtures/engine) ----
ENGINE = "tests/fixtures/engine"


def reports(name: str) -> dict:
    game = meeple.load(f"{ENGINE}/{name}.rules")
    return game.report_values(game.new_state(2, seed=1))


def test_max_over_a_kind_of_one_value():
    assert reports("max_over_one_piece") == {"m": 0}


def test_a_filter_inside_a_filter_reads_its_own_card():
    assert reports("nested_filter") == {"n": 5}


def test_vars_start_with_their_values_whatever_the_order():
    assert reports("var_start_values") == {"b": 7, "a": 5}


def test_a_define_parameter_named_like_a_zone_counts_the_zone_passed():
    assert reports("param_named_like_zone") == {"via define": 3, "direct": 3}


def test_a_limit_through_a_define_is_read_as_bound_not_as_spelled():
    game = meeple.load(f"{ENGINE}/limit_through_define.rules")
    st = game.new_state(2, seed=1)
    st.set_zone("hand", {"a": 3}, st.current)  # the current player holds 3: small(current) fails
    spec = game.code[st.pc][1]  # the compiled choice: its limits and the test as written agree
    assert st.legal_actions() == [] == CardChoice.legal(spec, st)


def test_moving_all_of_a_zone_onto_itself_keeps_its_cards(tmp_path) -> None:
    """It once emptied the zone: the count was added, then the zone set to 0, on the same list."""
    import meeple
    path = tmp_path / "g.rules"
    path.write_text('game "G"\nplayers 2..2\nzone pile public\ncards c in pile { 3 a }\n'
                    'turn {\n  move all from pile to pile\n  end game\n}\n')
    state = meeple.load(str(path)).new_state(2, seed=1)
    assert state.is_terminal() and state.observation(0)["zones"]["pile"] == {"a": 3}


def test_cards_moved_by_a_move_where_are_counted_and_moved_on_from_there() -> None:
    """'move 2 from deck to stash where rank == high' is one of the ways cards reach a zone
    (interpreter/flow.py): the stash's count sees them, and 'move all' takes them on to the hand
    (it once counted 0 there, and 'move all' then lost them)."""
    import random

    import meeple
    game = meeple.load(str(Path(__file__).parent / "fixtures" / "engine" / "stash.rules"))
    st = game.new_state(2, seed=3)
    st.play_out(random.Random(3))
    assert st.is_terminal() and st.var("seen") == 5  # (2, 2, 1, 0 high cards in the stash)
    hands = [st.observation(p)["zones"]["hand"][p] for p in (0, 1)]
    assert hands == [{"card_high": 3}, {"card_high": 2}], hands


NONE_PIECE = """game "G"
players 2..2
track lane { spaces 3 }
pieces runner on lane { red blue }
var first = none
var seen = 0
turn {
  set first = at_place(lane, 1)
  set seen = {query}
  end game
}
"""


@pytest.mark.parametrize("query", ["pos(first)", "place(first)", "finished(first)", "pos(at_place(lane, 2))"])
def test_a_piece_query_of_none_is_a_runtime_error(tmp_path, query) -> None:
    """It read the last piece (none is -1, and P[-1] is a Python list's last item)."""
    path = tmp_path / "g.rules"
    text = NONE_PIECE.replace("{query}", query)
    path.write_text(text.replace("var seen = 0", "var seen = false") if "finished" in query else text)
    with pytest.raises(RuleRuntimeError, match="a piece is none"):
        meeple.load(str(path)).new_state(2, seed=1)


def test_piece_queries_of_named_and_looped_pieces_still_read_them(tmp_path) -> None:
    path = tmp_path / "g.rules"
    path.write_text(NONE_PIECE.replace("set first = at_place(lane, 1)", "move blue by 2")
                    .replace("{query}", "pos(blue) * 10 + sum(pos(r) for r in runner)"))
    state = meeple.load(str(path)).new_state(2, seed=1)
    assert state.is_terminal() and state.observation(0)["vars"]["seen"] == [22]


def test_a_piece_attribute_that_some_card_lacks_is_checked(tmp_path) -> None:
    path = tmp_path / "g.rules"
    cards = "zone pile public\ncards c in pile { 1 plain  1 red_card { who = red } }\n"
    path.write_text(NONE_PIECE.replace("turn {", cards + "turn {", 1)
                    .replace("{query}", "sum(pos(c.who) for c in pile)"))
    with pytest.raises(RuleRuntimeError, match="a piece is none"):
        meeple.load(str(path)).new_state(2, seed=1)


NEVER_SET = """game "never set"
players 2..2
zone deck hidden
zone hand per player private
cards card in deck { 5 plain }
var leader = none
setup {
  deal 1 from deck to hand(current)
  if count(deck) > 100 { set leader = current }
}
turn {
  deal 1 from deck to hand(leader)
  end game
}
"""


def test_a_rules_error_at_run_time_names_the_rules_line_and_the_var(tmp_path):
    path = tmp_path / "never_set.rules"
    path.write_text(NEVER_SET)
    game = meeple.load(str(path))
    with pytest.raises(meeple.RuleRuntimeError) as info:
        game.new_state(2, seed=1)
    e = info.value
    assert (e.file, e.line, e.col) == (str(path), 12, 3)
    assert str(e) == f"{path}:12:3: a player is none here: var 'leader' holds none (it was never set)"
    import pickle
    assert str(pickle.loads(pickle.dumps(e))) == str(e)  # simulate's workers send it back whole


def test_a_position_is_read_and_set_up_by_the_rules_names():
    """State.zone / set_zone / var / set_var: the public way to read or arrange a position."""
    game = meeple.load(str(ROOT / "games" / "slipstream.rules"))
    st = game.new_state(2, seed=1)
    hand = st.zone("hand", 0)
    assert sum(hand.values()) == game.params["hand_size"]
    st.set_zone("hand", {"one": 2}, 0)
    assert st.zone("hand", 0) == {"one": 2}
    assert all(str(a).startswith("play") and "one" in str(a) for a in st.legal_actions() if "play" in str(a))
    st.set_var("space", 7, 1)
    assert st.var("space", 1) == 7 and st.var("space", 0) == 0
    with pytest.raises(ValueError, match="per player"):
        st.var("space")
    with pytest.raises(KeyError, match="no zone 'hnad'"):
        st.zone("hnad", 0)
    with pytest.raises(KeyError, match="no card varieties"):
        st.set_zone("hand", {"seven": 1}, 0)
    with pytest.raises(ValueError, match="seats 0..1"):
        st.zone("hand", 2)


def test_set_zone_refuses_a_variety_no_rule_brings_there():
    game = meeple.load(str(ROOT / "games" / "hare.rules"))
    st = game.new_state(3, seed=1)
    with pytest.raises(ValueError, match="no rule ever brings"):
        st.set_zone("table", {"hare_bet": 1})  # bet cards never reach the table
    st.set_zone("table", {"hare": 1})
    assert st.zone("table") == {"hare": 1}


def test_a_loop_variable_hides_a_card_attribute_of_its_name(tmp_path):
    """Inside 'where', a loop variable named like a card attribute is the loop variable (as the
    checker binds it), also in a 'where' nested in the loop's body."""
    path = tmp_path / "s.rules"
    path.write_text((ROOT / "games" / "slipstream.rules").read_text(encoding="utf-8")
                    + 'report "n" = count(table where any(count(table where steps == 3) > 0 for steps in 3..3))\n')
    game = meeple.load(str(path))
    st = game.new_state(2, seed=1)
    st.set_zone("table", {"one": 2})
    assert game.report_values(st)["n"] == 2


OPERATORS = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!="]


@pytest.mark.parametrize("op", OPERATORS)
def test_folded_and_run_time_operators_agree(tmp_path, op):
    """dsl/fold.py is the one table of what an operator gives: the compiler folds known operands
    with it, and the code that runs with unknown ones (read from vars) gives the same values."""
    from meeple.dsl import fold
    pairs = [(7, 2), (-7, 2), (7, -2), (7, 0), (0, 0), (3, 3)]
    reports = "".join(f'report "run {i}" = a{i} {op} b{i}\nreport "fold {i}" = ({x}) {op} ({y})\n'
                      for i, (x, y) in enumerate(pairs))
    varlines = "".join(f"var a{i} = {x}\nvar b{i} = {y}\n" for i, (x, y) in enumerate(pairs))
    sets = "".join(f"  set a{i} = a{i}\n" for i in range(len(pairs)))  # the vars are written: not constants
    path = tmp_path / "ops.rules"
    path.write_text(f'game "ops"\nplayers 2..2\n{varlines}turn {{\n{sets}  end game\n}}\n{reports}')
    game = meeple.load(str(path))
    values = game.report_values(game.new_state(2, seed=1))
    for i, (x, y) in enumerate(pairs):
        assert values[f"run {i}"] == values[f"fold {i}"] == fold.binary(op, x, y), (op, x, y)


def test_restart_turn_takes_the_turn_again_in_the_arranged_position():
    game = meeple.load(str(ROOT / "games" / "slipstream.rules"))
    st = game.new_state(2, seed=3)
    seat = st.current_player()
    st.set_zone("hand", {"three": 1}, seat)
    st.restart_turn()
    assert st.current_player() == seat and st.decision() == "play"
    assert [str(a) for a in st.legal_actions() if str(a).startswith("play")] == ["play 1 three"]


@pytest.mark.parametrize("name, line", [("none_seat_of_a_per_player_var", 20), ("none_seat_through_a_let", 20)])
def test_a_player_that_is_none_is_an_error_not_another_slot(name, line):
    """`set b(leader) = 5` and `count(hand(q))` with `let q = leader`, leader never set: they once
    wrote another var and counted another zone."""
    game = meeple.load(f"{ENGINE}/{name}.rules")
    with pytest.raises(RuleRuntimeError, match="a player is none here") as info:
        game.new_state(2, seed=1)
    assert info.value.line == line


@pytest.mark.parametrize("players", [2, 3])
def test_limits_known_as_the_game_runs_give_the_same_moves_as_judging_each(players):
    """The generated legal function of a choice under limits, with an upper bound read from a var
    (0..most), a group of two varieties alike and groups of one, and of a choice with no limits,
    against the test judged once per candidate, in random play. Each action comes once."""
    game = meeple.load(f"{ENGINE}/limits_known_as_it_runs.rules")
    rng = random.Random(players)
    seen = {"take": 0, "give": 0, "back": 0, "spare": 0}
    for seed in range(60):
        st = game.new_state(players, seed=seed)
        while not st.is_terminal():
            spec = game.code[st.pc][1]
            fast = [a.text for a in st.legal_actions()]
            assert len(fast) == len(set(fast))
            assert sorted(fast) == sorted(a.text for a in CardChoice.judged(spec, st))
            seen[spec.label] += 1
            st.apply(rng.choice(st.legal_actions()))
    assert min(seen.values()) > 300


def test_a_clone_plays_on_as_the_original_would_with_its_own_random_numbers(hare):
    """A seeded state's clone draws the same cards the original would, and drawing in one
    does not move the other's random numbers."""
    st = hare.new_state(4, seed=11)
    rng = random.Random(2)
    for _ in range(15):
        st.apply(rng.choice(st.legal_actions()))
    copy = st.clone()
    for state in (st, copy):  # the same moves in both, one after the other
        moves = random.Random(5)
        while not state.is_terminal():
            state.apply(moves.choice(state.legal_actions()))
    assert copy.history() == st.history() and copy.outcome == st.outcome
    assert len(st.history()) > 60


def test_a_decision_by_a_player_var_that_holds_none_is_a_rules_error(tmp_path) -> None:
    """Not seat -1 (which is CHANCE): the rules line of the decision and the var's name."""
    rules = tmp_path / "who.rules"
    rules.write_text('game "Who"\nplayers 2\nvar who = none\nvar w = 0\nzone deck hidden\n'
                     'zone table public\ncards c in deck {\n  20 a\n}\nturn {\n  if w > 1000 {\n'
                     '    set who = current\n  }\n  choose play by who: 1 card from deck to table\n}\n'
                     'end when count(table) > 30\n', encoding="utf-8")
    game = meeple.load(str(rules))
    for chance in (None, "explicit"):
        state = game.new_state(2, seed=1, chance=chance)
        with pytest.raises(RuleRuntimeError, match="var 'who' holds none") as info:
            state.current_player()
        assert info.value.line == 14
        with pytest.raises(RuleRuntimeError, match="var 'who' holds none"):
            state.apply(state.legal_actions()[0])


def test_a_report_of_a_player_shows_the_seat_and_none_by_name(tmp_path):
    """A player is reported as 'seat N' and none as 'none' (they were shown as 0 and -1)."""
    path = tmp_path / "who.rules"
    path.write_text('game "Who"\nplayers 2\nvar who = none\nvar last = none\nvar n = 0\nturn {\n  choose go {\n'
                    '    up { set n = n + 1  set last = current }\n  }\n}\nend when n > 2\nscore(p) = n\n'
                    'report "who" = who\nreport "last" = last\nreport "me" = current\nreport "n" = n\n')
    g = meeple.load(str(path))
    assert g.report_values(g.new_state(2, seed=0)) == {"who": "none", "last": "none", "me": "seat 0", "n": 0}


def test_none_in_one_branch_of_an_if_stands_for_a_player(tmp_path):
    """``if t then who else none`` is a player, as none stands for one elsewhere (it was refused:
    'the branches give a player and no value')."""
    path = tmp_path / "pick.rules"
    path.write_text('game "Pick"\nplayers 2\nvar who = none\nvar n = 0\nturn {\n  choose go {\n'
                    '    up { set n = n + 1  set who = if n > 1 then current else none }\n  }\n}\n'
                    'end when n > 3\nscore(p) = n\nreport "who" = if n > 0 then who else none\n'
                    'define m = max(1)\n')
    with pytest.raises(meeple.RulesError, match="'max' takes 2 or more numbers, not 1"):
        meeple.load(str(path))
    path.write_text(path.read_text().replace("define m = max(1)\n", ""))
    g = meeple.load(str(path))
    st = g.new_state(2, seed=0)
    seen = [g.report_values(st)["who"]]
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
        seen.append(g.report_values(st)["who"])
    assert seen[:2] == ["none", "none"] and set(seen[2:]) <= {"seat 0", "seat 1"} and len(seen) == 5


def test_a_saved_state_with_a_card_where_no_rule_brings_it_is_refused():
    """The compiled rules look only at the varieties a zone can hold (a draw finds its card among
    them): a saved state with a gem in the deck, where no rule brings one, is damaged."""
    from meeple.interpreter.game import StateError
    g = meeple.load(str(Path(__file__).parent / "fixtures" / "engine" / "two_kinds_of_cards.rules"))
    doc = g.new_state(2, seed=3).to_json()
    assert g.state_from_json(doc).to_json() == doc
    doc["zones"][0], doc["zones"][1] = [0, 0, 4], [3, 2, 0]
    with pytest.raises(StateError, match=r"zone 'deck' holds \['ruby'\], which no rule ever brings there"):
        g.state_from_json(doc)


def test_a_saved_state_past_a_limit_its_rules_keep_is_refused(hare):
    """Hare's table is filled only by the play, which keeps it to 8 cards: the compiled play never
    tests that, so a saved state with 9 there (cards moved from the deck, their number kept) is
    damaged."""
    from meeple.interpreter.game import StateError
    doc = hare.new_state(4, seed=3).to_json()
    slots = [hare.layout.zone_names[zi] for zi, _ in hare.zone_slots(4)]
    slot_table, slot_deck = slots.index("table"), slots.index("deck")
    names = hare.layout.variety_names
    hares, foxes = names.index("hare"), names.index("fox")
    for v, n in ((hares, 4), (foxes, 4)):
        doc["zones"][slot_deck][v] -= n
        doc["zones"][slot_table][v] += n
    assert hare.state_from_json(doc)  # 8 on the table: a position the rules can reach
    doc["zones"][slot_deck][foxes] -= 1
    doc["zones"][slot_table][foxes] += 1
    with pytest.raises(StateError, match="zone 'table' holds 9 cards, more than the 8 its rules ever let it hold"):
        hare.state_from_json(doc)


def test_none_from_an_if_taken_as_a_seat_is_a_rules_error(tmp_path):
    """``tally(if c then none else current)`` (and through a let): none where a seat is needed is
    a rules error at its line, as a var's none is; it was written into the var before it."""
    from meeple.dsl.diagnostics import RuleRuntimeError
    head = 'game "Cond"\nplayers 2\nmax_steps 50\nvar rounds = 0\nvar tally per player = 0\nturn {\n'
    tail = '  set rounds = rounds + 1\n}\nend when rounds >= 4\nscore(p) = tally(p)\n'
    for body, line in (("  set tally(if current == seat(0) then none else current) = 5\n", 7),
                       ("  let q = if current == seat(0) then none else current\n  set tally(q) = 5\n", 8)):
        path = tmp_path / "cond.rules"
        path.write_text(head + body + tail)
        with pytest.raises(RuleRuntimeError, match="a player is none here") as info:
            meeple.load(str(path)).new_state(2, seed=1)
        assert info.value.line == line


@pytest.mark.parametrize("where, value, line", [
    ("set", "99999999 * 99999999 * 99999", 6),  # a constant the compiler works out
    ("set", "max(9007199254740991 * 3, 1)", 6),
    ("set", "-9007199254740991 - 9007199254740991", 6),
    ("start", "big * big", 4),  # a var's start value, from a param
])
def test_a_number_past_the_limit_is_a_rules_error_where_it_is_made(tmp_path, where, value, line):
    """Numbers are within ±(2**53 - 1): a value kept past it is a rules error at the statement (or
    the var's declaration) that makes it, whether the compiler worked it out or the game did, not
    a number kept and reported later (or never)."""
    from meeple.dsl.diagnostics import RuleRuntimeError
    start, made = ("0", value) if where == "set" else (value, "x + 0")
    rules = tmp_path / "big.rules"
    rules.write_text(f'game "Big"\nplayers 2\nparam big = 9007199254740991 in 1..9007199254740991\nvar x = {start}\n'
                     f'turn {{\n  set x = {made}\n  end game\n}}\n')
    game = meeple.load(str(rules))
    with pytest.raises(RuleRuntimeError, match=r"beyond the numbers meeple supports") as info:
        game.new_state(2, seed=1)
    assert info.value.line == line


@pytest.mark.parametrize("bounds, message", [
    ("(x - 5)..x", r"the range -9007199254740996\.\.-9007199254740991 goes beyond the numbers meeple "
                   r"supports \(-9,007,199,254,740,991\.\.9,007,199,254,740,991\)$"),
    ("x..(x + 20000)", r"the range -9007199254740991\.\.-9007199254720991 has 20,001 values; "
                       r"at most 10,000 are allowed$"),
])
def test_a_range_worked_out_at_run_time_says_which_limit_it_passes(tmp_path, bounds, message):
    """A loop's range worked out as the game runs: past the numbers meeple supports, or longer than
    a range may be, each said on its own (not one message naming both limits)."""
    from meeple.dsl.diagnostics import RuleRuntimeError
    rules = tmp_path / "range.rules"
    rules.write_text(f'game "Range"\nplayers 2\nvar x = 0\nvar n = 0\n'
                     f'turn {{\n  set x = -9007199254740991\n  for i in {bounds} {{\n    set n = n + 1\n  }}\n'
                     f'  end game\n}}\n')
    game = meeple.load(str(rules))
    with pytest.raises(RuleRuntimeError, match=message):
        game.new_state(2, seed=1)


def _luckydog_state():
    return meeple.load(str(ROOT / "games" / "luckydog.rules")).new_state(3, seed=1)


def _damaged(doc: dict, key: str, value) -> dict:
    import copy
    out = copy.deepcopy(doc)
    if key == "zones[1][0]":
        out["zones"][1][0] = value
    elif key == "rng":
        out["rng"][1][0] = value
    elif key == "a card of another variety":  # (as many cards as before: one of them changed)
        zone = next(z for z in out["zones"] if any(z) and len(z) > 1)
        i = next(i for i, n in enumerate(zone) if n)
        zone[i] -= 1
        zone[(i + 1) % len(zone)] += value
    elif key == "every var":
        out["vars"] = [value] * len(out["vars"])
    elif key == "locals":
        out["locals"] = ["x"] * len(out["locals"])
    else:
        out[key] = value
    return out


@pytest.mark.parametrize("game, key, value", [
    ("slipstream", "turns", None), ("slipstream", "turns", -1), ("slipstream", "podium", None),
    ("slipstream", "bags", None), ("slipstream", "tags", None), ("slipstream", "outcome", "banana"),
    ("slipstream", "outcome", 5), ("slipstream", "pc", True), ("slipstream", "vars", None),
    ("slipstream", "zones[1][0]", 10**19), ("slipstream", "rng", -1), ("hare", "pos", None),
    ("hare", "track_length", [10**9]), ("luckydog", "grid", None), ("luckydog", "every var", 10**6),
    ("luckydog", "grid", {"tiles": [[0, 0, 99, 0]], "vars": [[], []]}),
    ("slipstream", "pc", 0), ("hare", "pc", 2), ("luckydog", "pc", 4),  # (no decision there)
    ("slipstream", "locals", "every local a string"),
    ("hare", "a card of another variety", 1), ("luckydog", "a card of another variety", 1),
])
def test_a_damaged_saved_state_is_refused_as_damaged(game, key, value):
    """Each part of a saved state is checked for its type and range (and the cards kept, of each
    variety: a zone of 10**19 cards hung the next step, a hand of more cards of a variety than the
    game has would index past a table made for them), so that a damaged one is a StateError when read, never
    a Python error at a later step or a game that plays on wrongly."""
    from meeple.interpreter.game import StateError
    g = meeple.load(str(ROOT / "games" / f"{game}.rules"))
    st = g.new_state(3 if game == "luckydog" else 2, seed=5)
    moves = random.Random(1)
    for _ in range(12):
        st.apply(moves.choice(st.legal_actions()))
    doc = st.to_json()
    assert g.state_from_json(doc).to_json() == doc
    with pytest.raises(StateError, match="the saved state is damaged"):
        g.state_from_json(_damaged(doc, key, value))


@pytest.mark.parametrize("zones", [[], "abc", [[1]], [{"a": 1}]])
def test_a_saved_state_whose_zones_do_not_fit_is_told_so(zones):
    """Zones of the wrong shape are said to be what is wrong (the count of cards by variety, made
    from them, once answered with an IndexError)."""
    from meeple.interpreter.game import StateError
    g = meeple.load(str(ROOT / "games" / "luckydog.rules"))
    doc = g.new_state(3, seed=1).to_json()
    with pytest.raises(StateError, match="its 'zones' does not fit this game"):
        g.state_from_json({**doc, "zones": zones})


@pytest.mark.parametrize("call, error", [
    (lambda g, st: g.new_state(players="3"), TypeError), (lambda g, st: g.new_state(2, seed=[1]), TypeError),
    (lambda g, st: g.query(st, "space", -1), ValueError), (lambda g, st: g.query(st, "space", 2), ValueError),
    (lambda g, st: g.query(st, "space", "x"), ValueError), (lambda g, st: g.query(st, "drafting", 5), ValueError),
    (lambda g, st: st.set_zone("hand", {"one": -3}, 0), ValueError),
    (lambda g, st: st.set_var("space", [1], 0), ValueError), (lambda g, st: st.observation(99), ValueError),
    (lambda g, st: st.zone("hand", 1.5), ValueError), (lambda g, st: st.play_out(None), TypeError),
    (lambda g, st: g.query(None, "drafting", 0), TypeError), (lambda g, st: g.describe(0), TypeError),
    (lambda g, st: g.query(_luckydog_state(), "drafting", 0), ValueError),  # (a state of another game)
    (lambda g, st: g.observe(_luckydog_state(), 0), ValueError),
    (lambda g, st: _luckydog_state().game.route(_luckydog_state(), "drive", 3), ValueError),  # (3 players)
    (lambda g, st: _luckydog_state().game.route(_luckydog_state(), "drive", 2**70), TypeError),
    (lambda g, st: _luckydog_state().game.route(st, "drive", 0), ValueError),
    (lambda g, st: g.why_won(_luckydog_state()), ValueError), (lambda g, st: g.why_won(None), TypeError),
    (lambda g, st: g.why_ended(_luckydog_state()), ValueError), (lambda g, st: g.why_ended(None), TypeError),
    (lambda g, st: g.zone_view(_luckydog_state(), 0), ValueError), (lambda g, st: g.zone_view(None, 0), TypeError),
    (lambda g, st: g.zone_view(st, 5), ValueError), (lambda g, st: g.observe(st, -1), ValueError),
    (lambda g, st: g.shown(st, 2), ValueError), (lambda g, st: g.cap_reached(None), TypeError),
    (lambda g, st: g.broken_invariants(_luckydog_state()), ValueError),
    (lambda g, st: g.broken_invariants(st, _luckydog_state()), ValueError),
])
def test_the_python_api_says_what_is_wrong_with_an_argument(call, error):
    """A call with an argument of the wrong type or range gets an error that says so, never a
    Python error from inside the engine, nor a value for a seat the game has not."""
    g = meeple.load(str(ROOT / "games" / "slipstream.rules"))
    st = g.new_state(2, seed=1)
    with pytest.raises(error) as info:
        call(g, st)
    assert str(info.value) and type(info.value) is error


@pytest.mark.parametrize("game", ["slipstream", "luckydog"])
def test_a_saved_state_waiting_in_a_loop_needs_the_loops_items_and_a_place_in_them(game):
    """A state that waits inside a 'for' loop holds the loop's items and its index into them;
    either damaged is refused when read (it was an IndexError or a TypeError at a later step)."""
    from meeple.interpreter.game import StateError
    g = meeple.load(str(ROOT / "games" / f"{game}.rules"))
    moves = random.Random(3)
    st = g.new_state(3, seed=3)
    while not any(first <= st.pc < end for first, end, _, _ in g.loops):
        st.apply(moves.choice(st.legal_actions()))
    doc = st.to_json()
    assert g.state_from_json(doc).to_json() == doc
    _, _, items, index = next(loop for loop in g.loops if loop[0] <= st.pc < loop[1])
    for slot, value in ((index, -10**6), (index, len(doc["locals"][items]) + 1), (items, 0)):
        damaged = _damaged(doc, "locals", None)
        damaged["locals"] = list(doc["locals"])
        damaged["locals"][slot] = value
        with pytest.raises(StateError, match="its 'locals' does not fit"):
            g.state_from_json(damaged)


FAR = """game "Far"
players 2
{track} lane {{ spaces 1 }}
pieces runner on lane {{ x }}
var n = 0
turn {{
  move x by {steps}
  set n = n + 1
  choose go {{ on {{ }} }}
}}
end when n >= 3
score(p) = n
"""


@pytest.mark.parametrize("track", ["track", "circuit"])
def test_a_piece_moved_far_is_saved_and_restored(tmp_path, track):
    """A piece's progress grows past its track's end (a move of 20,001 on a track of 1 space),
    and lap after lap on a circuit: a state the engine made loads again whatever it is (a pos
    over 20,000 was refused as damaged, and fuzz, which round-trips states, failed inside)."""
    rules = tmp_path / "far.rules"
    rules.write_text(FAR.format(track=track, steps=20001))
    g = meeple.load(str(rules))
    st = g.new_state(2, seed=1)
    st.apply(st.legal_actions()[0])
    assert st.pos == [40002]
    doc = st.to_json()
    assert g.state_from_json(doc).to_json() == doc


@pytest.mark.parametrize("track", ["track", "circuit"])
def test_a_piece_moved_past_the_largest_number_is_a_rules_error(tmp_path, track):
    """Progress is a number like a var's: a move that takes it past ±(2**53 - 1) is a rules error
    at the move (a saved state holds no larger pos), on a plain track too, where the move is
    written out in the game's module (it went past, and the state it made was refused)."""
    from meeple.interpreter.game import StateError
    rules = tmp_path / "far.rules"
    rules.write_text(FAR.format(track=track, steps=9007199254740991))
    g = meeple.load(str(rules))
    st = g.new_state(2, seed=1)
    assert st.pos == [9007199254740991]
    assert g.state_from_json(st.to_json()).pos == st.pos
    with pytest.raises(RuleRuntimeError, match=r"'x' would be moved to progress 18,014,398,509,481,982: beyond "
                                               r"the numbers meeple supports") as info:
        st.apply(st.legal_actions()[0])
    assert info.value.line == 7
    doc = st.to_json()
    doc["pos"] = [9007199254740992]
    with pytest.raises(StateError, match="its 'pos' does not fit"):
        g.state_from_json(doc)


@pytest.mark.parametrize("game", ["hare", "luckydog", "slipstream", "reversi", "leduc"])
def test_a_saved_state_with_a_damaged_local_is_refused_or_plays_on(game):
    """Each local holds what the compiler puts there: a loop's items a list, the others a number;
    a seat, a tile, a card, a cell or a kind's value one of the game's; an option's number, a
    track's space, the dice left within their range. A local damaged to something else is refused
    when read, or is harmless: the game plays on (a placed tile of 7 or [] in Lucky Dog loaded, then
    failed inside the next legal_actions or apply with an IndexError or a TypeError)."""
    from meeple.interpreter.game import StateError
    g = meeple.load(str(ROOT / "games" / f"{game}.rules"))
    for seed, steps in ((1, 3), (2, 9), (3, 20)):
        st = g.new_state(min(4, g.max_players), seed=seed)
        moves = random.Random(seed)
        for _ in range(steps):
            if not st.is_terminal():
                st.apply(moves.choice(st.legal_actions()))
        doc = st.to_json()
        assert g.state_from_json(doc).to_json() == doc
        for slot in range(len(doc["locals"])):
            for value in (7, -5, 10**6, [], [0], [10**6], [1, 2, 3]):
                damaged = json.loads(json.dumps(doc))
                damaged["locals"][slot] = value
                try:
                    again = g.state_from_json(damaged)
                except StateError as e:
                    assert "its 'locals' does not fit this game" in str(e)
                    continue
                then = random.Random(1)
                for _ in range(6):
                    if again.is_terminal() or not again.legal_actions():
                        break
                    try:
                        again.apply(then.choice(again.legal_actions()))
                    except RuleRuntimeError:
                        break


@pytest.mark.parametrize("params", [{"finish": "13"}, {1: 2}, {"finish": None}, {"finish": 13.0},
                                    {"finish": True}, [("finish", 13)], "finish=13"])
def test_params_given_from_python_are_a_dict_of_names_to_numbers(params):
    """Params of another shape are the caller's mistake, said as such (a TypeError), not a Python
    error from inside the checker nor an error blamed on the rules file."""
    rules = str(ROOT / "games" / "slipstream.rules")
    with pytest.raises(TypeError, match="params is a dict of param names") as info:
        meeple.load(rules, params)
    assert type(info.value) is TypeError
    with pytest.raises(TypeError, match="params is a dict of param names"):
        meeple.Game(meeple.load(rules).ir, params)
    with pytest.raises(TypeError, match="load takes the path"):
        meeple.load(None)


def test_reveal_given_no_zone_of_the_state_says_so():
    st = meeple.load(str(ROOT / "games" / "slipstream.rules")).new_state(2, seed=1)
    with pytest.raises(TypeError, match="one of the state's zones"):
        st.reveal(None, 0)
    with pytest.raises(TypeError, match="one of the state's zones"):
        st.reveal(list(st.zones[0]), 0)  # (a copy is no zone of the state)
    with pytest.raises(ValueError, match="seat 2"):
        st.reveal(st.zones[0], 2)
    with pytest.raises(ValueError, match="variety 99"):
        st.reveal(st.zones[0], 0, 99)


def test_two_option_variables_over_one_zone_take_two_cards(tmp_path):
    """An option binding two cards of one zone offers a variety for both only when the zone holds
    two of it (it offered 'pair gem gem' with one gem there, and taking it was a rules error)."""
    rules = tmp_path / "two.rules"
    rules.write_text('game "Two"\nplayers 2\nzone deck hidden\nzone market public\nzone hand per player public\n'
                     'cards c in deck { 3 gem { v = 5 } 6 rock { v = 1 } }\nsetup { deal 3 from deck to market }\n'
                     'turn {\n  choose take {\n    pair a in market, b in market {\n      move a to hand(current)\n'
                     '      move b to hand(current)\n    }\n    pass\n  }\n  refill market to 3 from deck\n'
                     '  if count(deck) == 0 { end game }\n}\nscore(p) = sum(k.v for k in hand(p))\n')
    g = meeple.load(str(rules))
    seen_one = False
    for seed in range(60):
        st = g.new_state(2, seed=seed)
        r = random.Random(seed)
        while not st.is_terminal():
            market = dict(zip(g.layout.variety_names, st.zones[g.layout.shared_zone_slot["market"]]))
            texts = {a.text for a in st.legal_actions()}
            for v, n in market.items():
                assert (f"pair {v} {v}" in texts) == (n >= 2), (market, texts)
                seen_one = seen_one or n == 1
            st.apply(r.choice(st.legal_actions()))
    assert seen_one


def test_two_option_variables_over_one_zone_named_two_ways_take_two_cards(tmp_path):
    """The zone two variables take from is judged as the game runs (hand(current) and hand(q) with
    q the current player are one zone): every legal action applies (a card held once was offered
    for both, and taking it was a rules error)."""
    rules = tmp_path / "alias.rules"
    rules.write_text('game "Alias"\nplayers 2\nzone deck hidden\nzone market public\nzone hand per player public\n'
                     'cards c in deck { 4 gem { v = 5 } 4 rock { v = 1 } }\n'
                     'setup { for p in player { deal 2 from deck to hand(p) } }\n'
                     'turn {\n  choose give {\n    pair a in hand(current), q in player, b in hand(q) {\n'
                     '      move a to market\n      move b to market\n    }\n    pass\n  }\n'
                     '  if count(market) >= 4 { end game }\n}\nscore(p) = count(hand(p))\n')
    g = meeple.load(str(rules))
    applied = 0
    for seed in range(40):
        st = g.new_state(2, seed=seed)
        r = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            for action in legal:
                st.clone().apply(action)
                applied += 1
            st.apply(r.choice(legal))
    assert applied > 100


def test_a_saved_loop_over_seats_holding_none_is_refused():
    """A loop over the players never runs over none: a saved state whose loop items held -1 loaded,
    then the game waited on seat -1, a chance node with no outcomes (stuck)."""
    from meeple.interpreter.game import StateError
    g = meeple.load(str(ROOT / "games" / "hare.rules"))
    st = g.new_state(4, seed=1)
    doc = st.to_json()
    loops = [k for k, v in enumerate(doc["locals"]) if isinstance(v, list) and len(v) == 4]
    assert doc["waiting"] == "bet" and loops
    g.state_from_json(doc)
    for k in loops:
        damaged = json.loads(json.dumps(doc))
        damaged["locals"][k][-1] = -1
        with pytest.raises(StateError, match="its 'locals' does not fit"):
            g.state_from_json(damaged)


def test_a_limit_is_of_the_destination_when_both_name_the_same_zone_as_bound(tmp_path):
    """A count in ``keeping`` is a limit of the destination when its zone is the destination's
    expression with the names bound alike (``capacity._same``): through a define's parameter,
    with a seat that is itself a count (as the seat of the destination), but not for another
    seat or another zone."""
    head = """
game "t"
players 2
zone deck hidden
zone hand per player public
zone pile public
cards c in deck { 6 red { suit = 1, low }  6 green { suit = 1, low }  6 blue { suit = 2 }  6 black { suit = 3 } }
define target = if count(hand(current) where low) > 1 then current else next(current)
define room(z, n) = count(z) <= n
setup { deal 4 from deck to hand(current)  deal 6 from deck to pile }
"""
    cases = {
        "count(hand(target)) <= 8": [((0, 1, 2, 3), 8)],
        "room(hand(target), 7) and count(hand(target) where low) <= 5": [((0, 1, 2, 3), 7), ((0, 1), 5)],
        "room(hand(if count(hand(current) where low) > 1 then current else next(current)), 6)":
            [((0, 1, 2, 3), 6)],
        "count(hand(current)) <= 8": None,  # another seat (sometimes)
        "count(pile) <= 8": None,  # another zone
    }
    for keeping, limits in cases.items():
        path = tmp_path / "game.rules"
        path.write_text(head + f"turn {{\n  choose take: 1..3 cards of one suit from pile to hand(target) "
                               f"keeping {keeping}\n  end game\n}}\n")
        take = choice(meeple.load(str(path)), "take")
        assert take.capacities == limits, keeping


def test_a_new_games_generator_is_random_Random_of_its_seed():
    """``new_state(seed=N)`` makes its generator without ``Random.seed``'s Python layer: it is
    the one ``random.Random(N)`` makes, for every whole number (negative and large ones too)."""
    from meeple.interpreter.state import seeded_random
    for seed in (0, 1, -1, 7, 12345, 2**40 + 3, -(2**70)):
        made = seeded_random(seed)
        assert made.getstate() == random.Random(seed).getstate() and type(made) is random.Random
        assert made.gauss(0, 1) == random.Random(seed).gauss(0, 1)
    assert seeded_random(None).getstate() != seeded_random(None).getstate()  # (from the OS, as Random())


def test_a_game_can_draw_chance_from_the_callers_generator(hare):
    """new_state(rng=...): chance draws from the caller's generator itself, so one generator
    seeded once plays a whole game (chance and choices) and the same seed plays the same game."""
    def played(seed):
        rng = random.Random(seed)
        st = hare.new_state(4, rng=rng)
        assert st.rng is rng
        st.play_out(rng)
        return st.to_json()

    assert played(5) == played(5)
    assert played(5) != played(6)
    with pytest.raises(ValueError, match="rng or seed"):
        hare.new_state(4, seed=1, rng=random.Random(1))
    with pytest.raises(ValueError, match="rng or seed"):
        hare.new_state(4, chance="explicit", rng=random.Random(1))
    with pytest.raises(TypeError, match="random.Random"):
        hare.new_state(4, rng=7)
    with pytest.raises(TypeError, match="random.Random"):
        hare.new_state(4, rng=random.SystemRandom())
