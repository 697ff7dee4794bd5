"""The semantic checker (dsl.check): one test per kind of problem it reports, each with
its exact message and position, and all of a file's problems at once."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.dsl import RulesError, RulesSemanticError, ir_from_text, read_ir
from meeple.dsl.check import check

BASE = """\
game "Base"
players 2..4

param goal = 10 in 5..20 "points that end the game"
param laps = 6 in 4..12 "spaces on the track"

enum colour { red blue }

track lane {
  spaces laps
  tiles { 2 mud, (laps - 2) grass }
}
pieces runner on lane { fox hen }

zone deck hidden
zone pile public
zone hand per player private

cards chip in deck {
  6 red_chip { colour = red, value = 1 }
  6 blue_chip { colour = blue, value = 2 }
}

var points per player = 0
var roll = 1

define total(p) = points(p) + count(hand(p))

setup {
  for p in player {
    deal 2 from deck to hand(p)
  }
}

phase race {
  move fox by roll stopping at mud
}

turn {
  set roll = random 1..3
  choose play: 1 card from hand(current) to pile
  set points(current) = points(current) + sum(c.value for c in pile)
  move all from pile to deck
  deal 1 from deck to hand(current)
  if count(deck where colour == red) > 3 {
    run race
  }
}

end when any(total(p) >= goal for p in player) or finished(fox)

score(p) = points(p)
"""


def locate(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based line and column of the ``nth`` occurrence of ``needle``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def change(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, f"{old!r} is not in the text exactly once"
    return text.replace(old, new)


def diagnostics(text: str, params: dict[str, int] | None = None) -> list[tuple[str, int, int, str]]:
    try:
        found = check(ir_from_text(text, "t.rules"), "t.rules", params)
    except RulesSemanticError as e:  # found while parsing (a word outside a closed vocabulary): then the rest
        found = [*e.diagnostics, *check(e.partial_ir, "t.rules", params)]
    return [(d.kind, d.line, d.col, d.message) for d in found]


def errors(text: str, params: dict[str, int] | None = None) -> list[tuple[int, int, str]]:
    return [(line, col, message) for kind, line, col, message in diagnostics(text, params) if kind == "error"]


def one_error(text: str, needle: str, message: str, nth: int = 0) -> None:
    """``text`` has exactly one error: ``message``, at the ``nth`` ``needle``."""
    assert errors(text) == [(*locate(text, needle, nth), message)]


def test_base_game_is_clean() -> None:
    assert diagnostics(BASE) == []


# ---- names -------------------------------------------------------------------------


@pytest.mark.parametrize("old, new, needle, message", [
    ("move fox by roll", "move fox by rol", "rol ", "unknown name 'rol' (did you mean 'roll'?)"),
    ("move fox by roll", "move fxo by roll", "fxo", "unknown name 'fxo' (did you mean 'fox'?)"),
    ("any(total(p) >= goal", "any(totl(p) >= goal", "totl(p)", "unknown query 'totl' (did you mean 'total'?)"),
    ("stopping at mud", "stopping at mdu", "mdu", "unknown tag 'mdu' (did you mean 'mud'?)"),
    ("pieces runner on lane", "pieces runner on lain", "lain", "unknown track 'lain' (did you mean 'lane'?)"),
    ("cards chip in deck", "cards chip in dekc", "dekc", "unknown zone 'dekc' (did you mean 'deck'?)"),
    ("colour = blue,", "colour = bleu,", "colour = bleu", "unknown value 'bleu' (did you mean 'blue'?)"),
    ("    run race", "    run rcae", "rcae", "unknown phase 'rcae' (did you mean 'race'?)"),
    ("set roll = random", "set rol = random", "rol = random", "unknown var 'rol' (did you mean 'roll'?)"),
    ("c.value for c", "c.valeu for c", "c.valeu",
     "unknown card attribute 'valeu' (did you mean 'value'?)"),
    ("sum(c.value for c in pile)", "summ(c.value for c in pile)", "summ(",
     "unknown aggregate 'summ' (did you mean 'sum'?)"),
    ("move fox by roll", "move fox by dice", "dice", "unknown name 'dice'"),
])
def test_unknown_names_with_did_you_mean(old: str, new: str, needle: str, message: str) -> None:
    text = change(old, new)
    found = [e for e in errors(text) if e[2] == message]
    assert found == [(*locate(text, needle), message)]
    if "phase" not in message:
        assert len(errors(text)) == 1


def test_unknown_phase_leaves_the_phase_unused() -> None:
    text = change("    run race", "    run rcae")
    assert diagnostics(text) == [
        ("error", *locate(text, "rcae"), "unknown phase 'rcae' (did you mean 'race'?)"),
        ("warning", *locate(text, "race {"), "phase 'race' never runs"),
    ]


# ---- types -------------------------------------------------------------------------


@pytest.mark.parametrize("old, new, needle, message", [
    ("if count(deck where colour == red) > 3 {", "if count(deck where colour == red) {", "count(deck where",
     "'if' must be true/false, not a number"),
    ("move fox by roll", "move fox by roll > 1", "roll > 1", "the steps must be a number, not true/false"),
    ("move fox by roll", "move deck by roll", "deck by", "'move ... by' needs a piece, not a zone"),
    ("set roll = random 1..3", "set roll = finished(hen)", "set roll",
     "'roll' holds a number but is set to true/false"),
    ("score(p) = points(p)", "score(p) = points(p) > 0", "points(p) > 0", "'score' must be a number, not true/false"),
    ("or finished(fox)", "or fox == 1", "fox == 1", "cannot compare a value of 'runner' with a number"),
    ("or finished(fox)", "or finished(red)", "red)\n", "'finished' needs a piece, not a value of 'colour'"),
    ("or finished(fox)", "or finished(fox, hen)", "finished(fox, hen)", "'finished' takes 1 argument, not 2"),
    ("end when any(total(p) >= goal for p in player) or finished(fox)", "end when count(deck)", "count(deck)",
     "'end when' must be true/false, not a number"),
    ("move all from pile to deck", "move all from pile to roll", "roll\n", "expected a zone, found a number"),
    ("c.value for c in pile", "c.value for c in roll", "roll)",
     "cannot loop over a number: expected a kind, a zone, 'player' or a range"),
    ("c.value for c in pile", "fox.value for c in pile", "fox.value",
     "only cards and tiles have attributes; this is a value of 'runner'"),
    ("deal 2 from deck to hand(p)", "deal 2 from deck to hand(2)", "2)\n", "the player of 'hand' must be a player, "
                                                                          "not a number"),
    ("(laps - 2) grass", "(laps > 2) grass", "laps > 2", "a count must be a number, not true/false"),
    ("sum(c.value for c in pile)", "(if roll > 1 then 1 else true)", "if roll > 1",
     "the branches give a number and true/false"),
    ("6 blue_chip { colour = blue, value = 2 }", "6 blue_chip { colour = blue, value = true }", "value = true",
     "attribute 'value' is true/false here but a number on card 'red_chip'"),
])
def test_wrong_types(old: str, new: str, needle: str, message: str) -> None:
    one_error(change(old, new), needle, message)


def test_case_needs_else_and_one_type() -> None:
    text = change("sum(c.value for c in pile)", "case roll { 1: 2, 2: 1 }")
    one_error(text, "case roll", "a case needs an 'else: ...' for values no arm matches")
    text = change("sum(c.value for c in pile)", "case roll { 1: 2, fox: 1, else: 0 }")
    one_error(text, "fox: 1", "case on a number cannot match a value of 'runner'")
    text = change("sum(c.value for c in pile)", "case roll { 1: 2, 2: false, else: 0 }")
    one_error(text, "false", "the cases give a number and true/false")


@pytest.mark.parametrize("arms", ["1: wood, else: none", "1: none, 2: wood, else: grain"])
def test_a_case_may_give_none_where_its_values_are_values_of_a_kind(tmp_path: Path, arms: str) -> None:
    """As 'if ... then wood else none' may: none stands for no value of the kind (or no player),
    in any arm; with numbers it is still an error."""
    path = tmp_path / "c.rules"
    body = 'game "C"\nplayers 2\nenum res { wood grain ore }\nvar r = none\nvar die = 0\nturn {\n' \
        f'  set die = random 1..6\n  set r = case die {{ {arms} }}\n  end game\n}}\nreport "r" = r\n'
    path.write_text(body)
    read_ir(str(path))
    path.write_text(body.replace("var r = none", "var r = 0").replace("wood,", "3,").replace("wood }", "3 }")
                    .replace("grain }", "4 }"))
    with pytest.raises(RulesSemanticError, match="the cases give"):
        read_ir(str(path))


def test_an_unknown_start_value_is_reported_once() -> None:
    """The var's type is unknown after the error: no follow-on 'holds any' error, no repeat."""
    text = change("var roll = 1", "var roll = dice")
    one_error(text, "dice", "unknown name 'dice'")


# ---- counts ------------------------------------------------------------------------


@pytest.mark.parametrize("old, new, needle, message", [
    ("choose play: 1 card", "choose play: 3..1 cards", "3..1", "impossible choice: at least 3 and at most 1 cards"),
    ("choose play: 1 card", "choose play: -1..1 card", "-1..1", "cannot choose -1 cards"),
    ("choose play: 1 card", "choose play: 1..65 cards", "65", "choosing up to 65 cards at once is beyond the "
                                                              "limit of 64"),
    ("6 red_chip", "(2 - goal) red_chip", "2 - goal", "a count of cards cannot be negative (-8)"),
    ("6 red_chip", "roll red_chip", "roll red_chip", "a count here must be a number or made of params"),
    ("players 2..4", "players 3..2", "players", "players 3..2: the range runs backwards; write 'players 2..3'"),
    ("players 2..4", "players 1..17", "players", "players 1..17: a game is for 1 to 16 players"),
])
def test_impossible_counts(old: str, new: str, needle: str, message: str) -> None:
    one_error(change(old, new), needle, message)


def test_too_many_cards() -> None:
    text = change("6 red_chip", "60000 red_chip").replace("6 blue_chip", "60000 blue_chip")
    one_error(text, "cards chip", "the game has 120,000 cards; at most 100,000 are allowed")
    text = change("6 red_chip", "100001 red_chip")
    assert errors(text) == [(*locate(text, "100001"), "100,001 cards is more than the limit of 100,000"),
                            (*locate(text, "cards chip"), "the game has 100,007 cards; at most 100,000 are allowed")]


def test_too_many_spaces() -> None:
    text = change("spaces laps", "spaces laps * 2000")
    assert errors(text) == [(*locate(text, "laps * 2000"), "12,000 spaces is more than the limit of 10,000"),
                            (*locate(text, "track lane"), "track 'lane' has 12000 spaces but its tiles add up to 6")]


def test_track_tiles_must_add_up_to_its_spaces() -> None:
    text = change("(laps - 2) grass", "(laps - 3) grass")
    one_error(text, "track lane", "track 'lane' has 6 spaces but its tiles add up to 5")


def test_track_tiles_are_checked_with_the_params_given() -> None:
    text = change("(laps - 2) grass", "4 grass")
    assert errors(text) == []
    assert errors(text, {"laps": 8}) == [(*locate(text, "track lane"), "track 'lane' has 8 spaces but its tiles "
                                                                        "add up to 6")]


# ---- params ------------------------------------------------------------------------


def test_param_default_out_of_range() -> None:
    text = change("param goal = 10 in 5..20", "param goal = 30 in 5..20")
    one_error(text, "param goal", "param 'goal' = 30 lies outside its range 5..20")


def test_param_with_an_empty_range() -> None:
    text = change("param goal = 10 in 5..20", "param goal = 10 in 20..5")
    one_error(text, "param goal", "param 'goal' has an empty range 20..5")


def test_param_set_out_of_range() -> None:
    assert errors(BASE, {"goal": 50}) == [(*locate(BASE, "param goal"), "param 'goal' was set to 50, outside its "
                                                                         "range 5..20")]


def test_unknown_param_given(tmp_path: Path) -> None:
    path = tmp_path / "base.rules"
    path.write_text(BASE)
    with pytest.raises(RulesError) as info:
        read_ir(str(path), {"gaol": 12})
    assert [d.message for d in info.value.diagnostics] == [
        "unknown param 'gaol' (did you mean 'goal'?); the rules declare goal, laps"]


# ---- duplicates ----------------------------------------------------------------------


@pytest.mark.parametrize("old, new, needle, nth, message", [
    ("zone pile public\n", "zone pile public\nzone pile hidden\n", "pile", 1, "zone 'pile' is declared twice"),
    ("var roll = 1\n", "var roll = 1\nvar deck = 0\n", "deck = 0", 0, "var 'deck' clashes with the zone of the "
                                                                       "same name"),
    ("enum colour { red blue }", "enum colour { red blue }\nenum colour { green }", "colour {", 1,
     "kind 'colour' is declared twice"),
    ("pieces runner on lane { fox hen }", "pieces runner on lane { fox hen red }", "red }", 0,
     "value 'red' clashes with the value of the same name"),
    ("param laps", "param lane = 1 in 0..2 \"x\"\nparam laps", "lane {", 0,
     "track 'lane' clashes with the param of the same name"),
    ("phase race {", "phase race { }\nphase race {", "race {", 1, "phase 'race' is declared twice"),
    ("  6 blue_chip", "  1 red_chip { value = 1 }\n  6 blue_chip", "red_chip {", 1, "card 'red_chip' is declared "
                                                                                     "twice"),
    ("var roll = 1\n", "var roll = 1\nvar pos = 0\n", "pos", 0, "'pos' is a built-in name and cannot be declared"),
])
def test_duplicate_declarations(old: str, new: str, needle: str, nth: int, message: str) -> None:
    text = change(old, new)
    assert [e for e in errors(text) if e[2] == message] == [(*locate(text, needle, nth), message)]
    assert len(errors(text)) == 1


def test_pieces_listing_a_piece_twice() -> None:
    text = change("{ fox hen }", "{ fox hen fox }")
    assert (*locate(text, "pieces runner"), "pieces 'runner' lists a piece twice") in errors(text)


def test_a_single_declaration_given_twice_is_a_parse_error() -> None:
    with pytest.raises(RulesError) as info:
        ir_from_text(change("players 2..4\n", "players 2..4\nplayers 2..3\n"), "t.rules")
    assert [(d.line, d.col, d.message) for d in info.value.diagnostics] == [(3, 1, "'players' is declared twice")]


# ---- per-player things ----------------------------------------------------------------


@pytest.mark.parametrize("old, new, needle, message", [
    ("deal 1 from deck to hand(current)", "deal 1 from deck to hand", "hand\n", "zone 'hand' is per player: "
                                                                               "write hand(p)"),
    ("set points(current) = points(current) + sum", "set points = points(current) + sum", "points =",
     "var 'points' is per player: write points(p)"),
    ("score(p) = points(p)", "score(p) = points", "points\n", "var 'points' is per player: write points(p)"),
    ("move all from pile to deck", "move all from pile(current) to deck", "pile(current)",
     "'pile' is shared: it takes no player"),
    ("set roll = random", "set roll(current) = random", "roll(current)", "var 'roll' is shared: it takes no player"),
    ("cards chip in deck", "cards chip in hand", "hand {", "cards start in a shared zone; 'hand' is per player"),
])
def test_per_player_and_shared(old: str, new: str, needle: str, message: str) -> None:
    one_error(change(old, new), needle, message)


# ---- loops in the rules -----------------------------------------------------------------


def test_phase_that_runs_itself() -> None:
    text = change("  move fox by roll stopping at mud\n", "  move fox by roll stopping at mud\n  run race\n")
    one_error(text, "race {", "phase 'race' runs itself (rules may not loop)")


def test_phases_that_run_each_other() -> None:
    text = change("phase race {\n", "phase rest {\n  run race\n}\n\nphase race {\n  run rest\n")
    assert errors(text) == [(*locate(text, "rest {"), "phase 'rest' runs itself (rules may not loop)"),
                            (*locate(text, "race {"), "phase 'race' runs itself (rules may not loop)")]


def test_define_that_uses_itself() -> None:
    text = change("define total(p) = points(p) + count(hand(p))", "define total(p) = points(p) + total(p)")
    one_error(text, "total(p)\n", "define 'total' uses itself (rules may not loop)")


def test_defines_that_use_each_other() -> None:
    text = change("define total(p) = points(p) + count(hand(p))",
                  "define total(p) = points(p) + extra(p)\ndefine extra(p) = total(p) - 1")
    one_error(text, "total(p) - 1", "define 'total' uses itself (rules may not loop)")


def test_define_never_used_is_still_checked() -> None:
    text = change("var roll = 1\n", "var roll = 1\ndefine lead(p) = pointz(p) - 1\n")
    assert diagnostics(text) == [
        ("error", *locate(text, "pointz"), "unknown query 'pointz' (did you mean 'points'?)"),
        ("warning", *locate(text, "lead("), "define 'lead' is never used"),
    ]


def test_var_start_value_can_use_only_earlier_vars() -> None:
    text = change("var roll = 1", "var roll = 1 + bonus\nvar bonus = 2")
    one_error(text, "bonus\n", "var 'bonus' has no value yet: a var's start value can use only the vars declared "
                               "before it")
    text = change("var roll = 1", "var roll = roll + 1")
    one_error(text, "roll + 1", "var 'roll' has no value yet: a var's start value can use only the vars declared "
                                "before it")
    assert errors(change("var roll = 1", "var bonus = 2\nvar roll = bonus + 1")) == []


# ---- unused things, missing things ------------------------------------------------------


@pytest.mark.parametrize("statement, warned", [
    ("move all from pile to pile", True),
    ("deal 1 from deck to deck", True),
    ("move 1 red_chip from hand(current) to hand(current)", True),
    ("deal 1 from deck to deck reshuffling pile", False),  # an empty deck takes the pile's cards first
    ("move all from hand(current) to pile", False),
])
def test_cards_moved_to_the_zone_they_come_from_are_a_warning(statement: str, warned: bool) -> None:
    text = change("  move all from pile to deck\n", f"  move all from pile to deck\n  {statement}\n")
    warning = ("warning", *locate(text, statement), "the cards go from a zone to that same zone: nothing changes")
    assert (warning in diagnostics(text)) is warned
    assert errors(text) == []


@pytest.mark.parametrize("old, new, message", [
    ("score(p) = points(p)", "score(p) = 3", "score(p) does not read 'p', so it is the same for every player: every "
     "game that has a winner is a shared win of all the players (a cooperative game means that; else write what "
     "player 'p' scores, as in score(p) = count(hand(p)))"),
    ("score(p) = points(p)", "score(p) = points(p)\ntiebreak(q) = count(pile)",
     "tiebreak(q) does not read 'q', so it is the same for every player: it never breaks a tie"),
])
def test_a_score_or_tiebreak_the_same_for_every_player_is_a_warning(old: str, new: str, message: str) -> None:
    text = change(old, new)
    last = new.splitlines()[-1]  # the warning is at its parameter
    line, col = locate(text, last)
    assert ("warning", line, col + last.index("(") + 1, message) in diagnostics(text)
    assert errors(text) == []
    assert not [d for d in diagnostics(BASE) if "does not read" in d[-1]]  # score(p) = points(p) reads it


DRAWS_INTO_ITSELF = "the refill draws from the zone it fills: that zone never grows, so a refill that draws never " \
    "ends (the step cap stops the game)"
REFILLED_RESHUFFLED = "the refill reshuffles the zone it fills into its source: when the source runs out, the " \
    "cards drawn go back, and the refill never ends (the step cap stops the game)"
PILE_IS_SOURCE = "the pile reshuffled is the zone drawn from: the reshuffle does nothing"


@pytest.mark.parametrize("statement, at, message", [
    ("refill hand(current) to 3 from hand(current)", "refill", DRAWS_INTO_ITSELF),
    ("refill pile to 3 from pile reshuffling deck", "refill", DRAWS_INTO_ITSELF),
    ("refill pile to 3 from deck reshuffling pile", "pile\n", REFILLED_RESHUFFLED),
    ("refill pile to 3 from deck reshuffling deck", "deck\n", PILE_IS_SOURCE),
    ("deal 2 from deck to pile reshuffling deck", "deck\n", PILE_IS_SOURCE),
    ("refill pile to 3 from deck reshuffling hand(current)", None, None),
    ("refill hand(current) to 3 from hand(next(current))", None, None),
    ("deal 1 from deck to pile reshuffling pile", None, None),  # turn a card over; the pile is the next deck
])
def test_a_draw_into_the_zone_it_draws_from_is_a_warning(statement: str, at: str | None, message: str | None) -> None:
    """A refill from the zone it fills, or reshuffling that zone into its source, once short of its
    size draws until the step cap (it validated without a word); a reshuffle of the zone drawn
    from does nothing."""
    text = change("  move all from pile to deck\n", f"  move all from pile to deck\n  {statement}\n")
    found = [d for d in diagnostics(text) if d[3] in (DRAWS_INTO_ITSELF, REFILLED_RESHUFFLED, PILE_IS_SOURCE)]
    if message is None:
        assert found == []
    else:
        where = text.index(at, text.index(statement))
        assert found == [("warning", text.count("\n", 0, where) + 1, where - text.rfind("\n", 0, where), message)]
    assert errors(text) == []


@pytest.mark.parametrize("old, new, needle, message, hidden", [
    ("  move all from pile to deck\n",
     "  move all from pile to deck\n  for q in player {\n    choose swap {\n"
     "      pair a in hand(q), q in player { move a to hand(q) }\n      pass\n    }\n  }\n", "q in player { move",
     "option variable 'q' hides the loop variable 'q' of line {line}: inside, 'q' means this option variable; rename "
     "one of them", "q in player {\n"),
    ("points(p) + count(hand(p))", "sum(points(p) for p in player)", "p in player)",
     "loop variable 'p' hides the parameter 'p' of line {line}: inside, 'p' means this loop variable; rename one of "
     "them", "p)"),
    ("  move all from pile to deck\n", "  move all from pile to deck\n  let n = 2\n"
     "  for c in pile { set roll = sum(n for n in 1..3) }\n", "n in 1..3",
     "loop variable 'n' hides the 'let' name 'n' of line {line}: inside, 'n' means this loop variable; rename one of "
     "them", "n = 2"),
    ("    deal 2 from deck to hand(p)\n", "    deal 2 from deck to hand(p)\n    for p in 1..2 { set roll = p }\n",
     "p in 1..2", "loop variable 'p' hides the loop variable 'p' of line {line}: inside, 'p' means this loop "
     "variable; rename one of them", "p in player"),
])
def test_a_variable_that_hides_a_local_it_stands_in_is_warned(old, new, needle, message, hidden) -> None:
    """``for q in player { choose x { pair a in hand(q), q in player ... } }``: the option's 'q' hides
    the loop's, and the option reads hand(q) with its own (surely not what was meant). A loop's or an
    option's variable named as a local around it is warned at both places."""
    text = change(old, new)
    [found] = [d for d in check(ir_from_text(text, "t.rules"), "t.rules") if "hides" in d.message]
    line, col = locate(text, hidden)
    assert (found.kind, found.line, found.col) == ("warning", *locate(text, needle))
    assert found.message == message.format(line=line)
    name = message.split("'")[1]
    assert found.notes == (f"the hidden '{name}' is bound at t.rules:{line}:{col}",)
    assert errors(text) == []


def test_the_same_name_in_scopes_side_by_side_is_not_warned() -> None:
    """The base game binds 'p' in the setup's loop, a define and the end's 'any': none is inside another;
    two variables of one option of the same name are an error of its own, not this warning too."""
    assert diagnostics(BASE) == []
    text = change("  move all from pile to deck\n", "  move all from pile to deck\n  choose two {\n"
                                                     "    pair q in player, q in player { set roll = 1 }\n  }\n")
    assert [m for kind, _, _, m in diagnostics(text) if "'q'" in m] == ["'q' is bound twice in option 'pair'"]


def test_unused_declarations_are_warnings(tmp_path: Path) -> None:
    text = change("var roll = 1\n", "var roll = 1\nparam spare = 1 in 0..2\nzone attic public\ndefine idle = 1\n"
                                    "phase nap { }\nvar unread = 0\n")
    assert diagnostics(text) == [
        ("warning", *locate(text, "spare"), "param 'spare' is never used"),
        ("warning", *locate(text, "attic"), "zone 'attic' is never used"),
        ("warning", *locate(text, "idle"), "define 'idle' is never used"),
        ("warning", *locate(text, "nap"), "phase 'nap' never runs"),
        ("warning", *locate(text, "unread"), "var 'unread' is never used"),
    ]
    path = tmp_path / "t.rules"
    path.write_text(text)
    ir, warnings = read_ir(str(path))
    assert len(warnings) == 5 and all(w.kind == "warning" for w in warnings)


def test_missing_players() -> None:
    assert errors(change("players 2..4\n", "")) == [
        (1, 1, "the game does not say how many play: add 'players MIN..MAX'")]


def test_missing_turn() -> None:
    text = BASE[:BASE.index("turn {")] + BASE[BASE.index("end when"):]
    assert diagnostics(text) == [
        ("error", 1, 1, "the game has no 'turn { ... }' block"),
        ("warning", *locate(text, "pile"), "zone 'pile' is never used"),
        ("warning", *locate(text, "race {"), "phase 'race' never runs"),
    ]


def test_max_steps_is_checked_without_players() -> None:
    """With the line and column of 'max_steps' (it had none: the long hostile-input run found it)."""
    text = change("players 2..4\n", "max_steps 2000000\n")
    assert [(line, m) for line, _, m in errors(text)] == [
        (locate(text, "max_steps 2000000")[0], "max_steps must be within 1..1000000"),
        (1, "the game does not say how many play: add 'players MIN..MAX'")]
    assert errors(text)[0][:2] == locate(text, "max_steps 2000000")


# ---- all at once -------------------------------------------------------------------------


def test_all_errors_of_a_file_come_at_once(tmp_path: Path) -> None:
    text = change("param goal = 10 in 5..20", "param goal = 30 in 5..20")
    text = change("zone pile public\n", "zone pile public\nzone pile hidden\n", text)
    text = change("move fox by roll", "move fox by rol", text)
    path = tmp_path / "three.rules"
    path.write_text(text)
    with pytest.raises(RulesError) as info:
        read_ir(str(path))
    assert sorted((d.line, d.col, d.message) for d in info.value.diagnostics) == [
        (*locate(text, "param goal"), "param 'goal' = 30 lies outside its range 5..20"),
        (*locate(text, "pile", 1), "zone 'pile' is declared twice"),
        (*locate(text, "rol "), "unknown name 'rol' (did you mean 'roll'?)"),
    ]
    rendered = str(info.value)
    assert rendered.endswith("3 errors")
    assert f"{path}:{locate(text, 'rol ')[0]}:" in rendered


ORDER = """\
game "o"
players 2..2
zone deck hidden
zone hand per player public
cards c in deck { 4 a }
var leader = none
var ready = false
var n = 0
setup { deal 1 from deck to hand(current) }
turn {
  if ready { set n = count(hand(leader)) }
  set leader = SETTING
  set ready = true
  if n > 0 { end game }
}
"""


def test_a_var_from_none_is_typed_by_a_set_written_below_its_read() -> None:
    """``leader`` starts as none and is set to a player further down the file than it is read:
    the read is typed all the same; a set of another kind is still an error."""
    assert errors(ORDER.replace("SETTING", "current")) == []
    found = errors(ORDER.replace("SETTING", "3"))
    assert any("a var that starts as none can hold a player, a tile or a value of a kind, not a number "
               "(a var of numbers starts as a number" in m for _, _, m in found)


# ---- found by review: names the compiler reads from the checker's bindings ------------------

LUCKYDOG = Path(__file__).resolve().parents[1] / "games" / "luckydog.rules"


def _luckydog(tmp_path, old: str, new: str, extra: str = "") -> Path:
    text = LUCKYDOG.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "ld.rules"
    path.write_text(text.replace(old, new) + extra, encoding="utf-8")
    return path


def test_a_placement_counted_by_params_plays(tmp_path):
    """The '0..1 card' of a placement may be written with params (the checker types and binds them)."""
    path = _luckydog(tmp_path, "place road by current: 0..1 card", "place road by current: none_..one_ card",
                     '\nparam none_ = 0 in 0..1 "placements at least"\nparam one_ = 1 in 1..1 "at most"\n')
    game = meeple.load(str(path))
    state = game.new_state(3, seed=2)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(state.legal_actions()[-1])


@pytest.mark.parametrize("define, use, message", [
    ("define size(x) = count(x)", 'report "tiles" = size(table)',
     "count(...) of a grid names the grid itself, not a define's parameter that holds it"),
    ("define ntiles(g) = count(true for t in g)", 'report "tiles" = ntiles(table)',
     "a loop over a grid's tiles names the grid itself, not a define's parameter that holds it"),
])
def test_a_grid_through_a_define_parameter_is_an_error(tmp_path, define, use, message):
    anchor = "invariant police_within_the_supply"
    path = _luckydog(tmp_path, anchor, f"{define}\n{use}\n{anchor}")
    with pytest.raises(RulesError) as info:
        meeple.load(str(path))
    assert message in [d.message for d in info.value.diagnostics]


def test_was_inside_was_is_an_error(tmp_path):
    path = _luckydog(tmp_path, "invariant closed_tiles_stay_closed: count(closed(t) for t in table) >= was(",
                     "invariant closed_tiles_stay_closed: count(closed(t) for t in table) >= was(was(")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("for t in table))\n", "for t in table)))\n", 1), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        meeple.load(str(path))
    assert any("was(...) inside was(...)" in d.message for d in info.value.diagnostics)


SLIPSTREAM = Path(__file__).resolve().parents[1] / "games" / "slipstream.rules"


@pytest.mark.parametrize("invariant, ok", [
    ("count(table where was(steps) >= 1) >= 0", False),  # the card of the enclosing 'where'
    ("was(count(table where steps >= 1)) >= 0", True),   # the whole count, before the step
])
def test_was_cannot_read_the_card_of_an_enclosing_where(tmp_path, invariant, ok):
    path = tmp_path / "s.rules"
    path.write_text(SLIPSTREAM.read_text(encoding="utf-8") + f"invariant w: {invariant}\n", encoding="utf-8")
    if ok:
        meeple.load(str(path))
        return
    with pytest.raises(RulesError) as info:
        meeple.load(str(path))
    assert any("was(...) cannot read 'steps'" in d.message for d in info.value.diagnostics)


def test_a_route_parameter_named_like_a_route_is_not_a_route(tmp_path):
    """A second route whose parameter is named 'drive', like the first route: its clauses call no route."""
    text = (Path(__file__).resolve().parents[1] / "games" / "luckydog.rules").read_text(encoding="utf-8")
    path = tmp_path / "ld.rules"
    path.write_text(text + "route far(drive) on table {\n  start = start(drive)\n  start_edge = start_edge(drive)\n}\n"
                           'report "far" = far(current)\n', encoding="utf-8")
    game = meeple.load(str(path))
    assert game.route(game.new_state(3, seed=1), "far", 0) >= 0


def test_a_define_parameter_named_like_a_route_does_not_hide_a_route_call(tmp_path):
    """f(...) is always the global f: a route reached through a define whose parameter is named
    like it is still a route in a route."""
    text = (Path(__file__).resolve().parents[1] / "games" / "luckydog.rules").read_text(encoding="utf-8")
    path = tmp_path / "ld.rules"
    path.write_text(text + "define via(far) = far(current)\nroute far(q) on table {\n  start = start(q)\n"
                           "  start_edge = start_edge(q)\n  enough = via(q)\n}\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        meeple.load(str(path))
    assert any("uses a route (routes may not use routes)" in d.message for d in info.value.diagnostics)


@pytest.mark.parametrize("game", ["leduc", "reversi", "slipstream"])
def test_an_ir_decision_among_no_options_is_an_error_not_a_crash(tmp_path: Path, game: str) -> None:
    """The grammar asks for one option at least; an IR document may list none: that is said, with
    its JSON path, by every command that loads it (it was an IndexError while compiling)."""
    import json

    from meeple.tools.cli import main
    root = Path(__file__).resolve().parents[1]
    doc = ir_from_text((root / "games" / f"{game}.rules").read_text(encoding="utf-8"), f"{game}.rules")
    found = []

    def empty_first(x, path):
        if isinstance(x, dict):
            if x.get("node") == "choose_one" and not found:
                x["options"] = []
                found.append(f"{path}.options")
            for k, v in x.items():
                empty_first(v, f"{path}.{k}")
        elif isinstance(x, list):
            for i, v in enumerate(x):
                empty_first(v, f"{path}[{i}]")
    empty_first(doc, "$")
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RulesSemanticError) as info:
        meeple.load(str(path))
    assert any("has no option" in d.message and d.path == found[0] for d in info.value.diagnostics), \
        info.value.diagnostics
    for command in ("validate", "compile", "simulate"):
        assert main([command, str(path)]) == 1


UNSEEN = """game "Steal"
players 2
zone deck {deck}
zone hand per player {hand}
zone up public
cards c in deck {{ 5 gem {{ v = 5 }} 5 rock {{ v = 0 }} }}
setup {{ for p in player {{ deal 2 from deck to hand(p) }} }}
turn {{
  choose grab {{
    steal k in hand(next(current)) {{ move k to hand(current) }}
    pass
  }}
  for p in player {{
    choose own by p: 0..1 cards from hand(p) to up
  }}
  choose flip: 0..1 cards from deck to up
  if count(hand(current)) >= 4 {{ end game }}
}}
score(p) = sum(k.v for k in hand(p))
"""


@pytest.mark.parametrize("deck, hand, warned", [
    ("hidden", "private", [(10, "hand", "private to another player"), (16, "deck", "hidden")]),
    ("public", "public", []),
    ("private", "hidden", [(10, "hand", "hidden"), (14, "hand", "hidden"), (16, "deck", "private (seen by no one)")]),
])
def test_a_decision_among_cards_its_chooser_cannot_see_is_warned(tmp_path, deck, hand, warned):
    """The moves of a decision name the cards it chooses among: from a hidden zone, or another
    player's private one, they show the chooser what it holds (a player's own private hand, or a
    public zone, is not warned)."""
    path = tmp_path / "steal.rules"
    path.write_text(UNSEEN.format(deck=deck, hand=hand), encoding="utf-8")
    found = [(w.line, w.message) for w in meeple.dsl.read_checked(str(path)).warnings
             if "chooses among the cards" in w.message]
    assert [(line, f"zone '{zone}', which is {whose}") for line, zone, whose in warned] == \
        [(line, message.split(" chooses among the cards of ")[1].split(":")[0]) for line, message in found]


@pytest.mark.parametrize("source, warned", [("bag", True), ("hand(current)", False), ("hand(next(current))", True)])
def test_a_placement_from_a_zone_its_chooser_cannot_see_is_warned(tmp_path, source, warned):
    """A placement's moves name the tile cards it may place: from a hidden bag (a tile drawn
    and laid is dealt first) or a rival's hand, they show what the zone holds."""
    path = tmp_path / "lay.rules"
    path.write_text('game "Lay"\nplayers 2\ngrid table { tiles road paths roads }\nzone bag hidden\n'
                    'zone hand per player private\ncards road in bag { 4 straight { roads = [N S] } }\n'
                    'setup { for p in player { deal 2 from bag to hand(p) } }\n'
                    f'turn {{\n  place road by current: 0..1 card from {source} onto table as t\n'
                    '  if t == none { end game }\n}\nscore(p) = 0\n', encoding="utf-8")
    found = [w for w in meeple.dsl.read_checked(str(path)).warnings if "chooses among the cards" in w.message]
    assert [(w.line, w.message.startswith("decision 'road' chooses")) for w in found] == ([(9, True)] if warned else [])


def test_a_choice_from_a_zone_named_by_a_define_is_warned_as_that_zone(tmp_path):
    """A define that names a zone ('define theirs = hand(next(current))') stands for that zone: a
    choice among its cards is warned as one among the zone's (the chooser's own hand is not)."""
    path = tmp_path / "df.rules"
    path.write_text('game "t"\nplayers 2\nzone deck hidden\nzone hand per player private\nzone up public\n'
                    'cards c in deck { 5 gem { v = 5 } 5 rock { v = 0 } }\ndefine theirs = hand(next(current))\n'
                    'define mine = hand(current)\ndefine pile = deck\n'
                    'setup { for p in player { deal 2 from deck to hand(p) } }\nturn {\n'
                    '  choose grab: 0..1 cards from theirs to hand(current)\n  choose own: 0..1 cards from mine to up\n'
                    '  choose flip: 0..1 cards from pile to up\n  if count(hand(current)) >= 4 { end game }\n}\n'
                    'score(p) = sum(k.v for k in hand(p))\n', encoding="utf-8")
    found = [(w.line, w.col, w.message.split(":")[0]) for w in meeple.dsl.read_checked(str(path)).warnings
             if "chooses among the cards" in w.message]
    assert found == [(12, 32, "decision 'grab' chooses among the cards of zone 'hand', which is private to another "
                              "player"),
                     (14, 32, "decision 'flip' chooses among the cards of zone 'deck', which is hidden")]


def test_a_choice_from_a_private_hand_named_by_a_player_name_is_not_warned(tmp_path):
    """A hand named by a name (a let that is current, an option's player pinned by 'where') may
    well be the chooser's own: not warned (they were, as another player's)."""
    path = tmp_path / "fp.rules"
    path.write_text('game "FP"\nplayers 2..3\nzone deck hidden\nzone pile public\nzone hand per player private\n'
                    'cards chip in deck { 6 red_chip { colour = 1 } 6 blue_chip { colour = 2 } }\n'
                    'setup { for p in player { deal 3 from deck to hand(p) } }\nturn {\n  let me = current\n'
                    '  choose f_alias by me: 0..1 card from hand(current) to pile\n'
                    '  choose f2_alias: 0..1 card from hand(me) to pile\n  choose i_own {\n'
                    '    take q in player, a in hand(q) where q == current { move a to pile }\n    pass\n  }\n'
                    '  refill hand(current) to 3 from deck reshuffling pile\n}\n'
                    'score(p) = 0 - count(hand(p))\nend when count(pile) > 30\n', encoding="utf-8")
    assert not [w for w in meeple.dsl.read_checked(str(path)).warnings if "chooses among" in w.message]


@pytest.mark.parametrize("value", ["3", "true"])
def test_a_tiles_paths_of_another_type_on_a_later_card_is_an_error_not_a_crash(tmp_path, value):
    """A grid's paths attribute given a number or a flag on a card after the first (which gives edge
    sets) failed inside the checker (TypeError, exit 3); it is the attribute's type error."""
    path = tmp_path / "g.rules"
    path.write_text('game "G"\nplayers 2\nzone deck hidden\nzone table public\ncards tile in deck {\n'
                    f'  1 a {{ roads = [N S] }}\n  1 b {{ roads = {value} }}\n}}\n'
                    'grid board { tiles tile paths roads }\nsetup { set current = 0 }\nturn { end game }\n',
                    encoding="utf-8")
    with pytest.raises(RulesError) as info:
        meeple.dsl.read_checked(str(path))
    assert any(d.line == 7 and "attribute 'roads' is" in d.message and "set of edges on card 'a'" in d.message
               for d in info.value.diagnostics), info.value.diagnostics


@pytest.mark.parametrize("seat, message", [
    ("4", "seat 4 does not exist: the game is for 2..4 players, seats 0..3"),
    ("-1", "seat -1 does not exist: the game is for 2..4 players, seats 0..3"),
    ("2 + 3", "seat 5 does not exist: the game is for 2..4 players, seats 0..3"),
])
def test_a_seat_written_out_that_no_count_of_players_has_is_an_error(seat: str, message: str) -> None:
    """seat(4) in a game for 2..4 players fails in every game it is read in: said by the checker, at the
    number (it was a run-time error only)."""
    text = change("set roll = random 1..3", f"set roll = number(seat({seat}))")
    line, col = locate(text, f"seat({seat})")
    assert errors(text) == [(line, col + len("seat("), message)]


@pytest.mark.parametrize("seat", ["3", "goal", "roll"])
def test_a_seat_that_some_count_of_players_has_or_that_is_worked_out_is_no_mistake(seat: str) -> None:
    """seat(3) exists with 4 players (a rule may read it only then); a param or a var is worked out as
    the game runs."""
    text = change("set roll = random 1..3", f"set roll = number(seat({seat}))")
    assert errors(text) == []


@pytest.mark.parametrize("test, shown", [
    ("c.colour < c.value", None),  # (one side a number: that side is said, as before)
    ("c < c", "a card with a card"),
    ("c.colour < fox", "a value of 'colour' with a value of 'runner'"),
])
def test_an_order_of_two_things_that_are_not_numbers_is_one_error(test: str, shown: str | None) -> None:
    text = change("set points(current) = points(current) + sum(c.value for c in pile)",
                  f"set points(current) = points(current) + count({test} for c in pile)")
    found = errors(text)
    if shown is None:
        assert [m for _, _, m in found] == ["'<' must be a number, not a value of 'colour'"]
    else:
        assert found == [(*locate(text, test), "'<' compares numbers, or values of one kind in the order "
                                               f"declared; not {shown}")]


@pytest.mark.parametrize("func", ["score", "tiebreak", "returns"])
def test_a_rule_that_reads_a_result_is_told_to_use_a_define(func: str) -> None:
    """'returns(p) = score(p) - 3' was "unknown query 'score' (did you mean 'space'?)"."""
    text = BASE + f"returns(p) = {func}(p) - 3\n"
    one_error(text, f"{func}(p) - 3", f"'{func}(p)' is worked out when the game ends, for the results; the rules "
                                      "cannot read it: name the expression with a define (define points(p) = ...) "
                                      "and use that in both")
