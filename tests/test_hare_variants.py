"""The Hare and the Tortoise variants in games/variants/: each shows its difference from
games/hare.rules in play, from positions built as in tests/test_hare_rules.py (whose helpers
this module uses), and keeps the base game's rules where it does not mean to change them.

State internals are touched only through tests/positions.py.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path

import positions as P
import pytest
import test_hare_rules as R

from meeple.dsl import read_ir, read_text
from meeple.dsl.compare import compare

VARIANTS = Path(__file__).resolve().parents[1] / "games" / "variants"
ANIMALS = R.ANIMALS


@pytest.fixture(scope="module")
def base():
    return P.load()


def last(table: Mapping[str, int], animal: str) -> dict[str, int]:
    """``table`` with ``animal`` last, so that R.trigger plays a card of that animal."""
    return {**{a: n for a, n in table.items() if a != animal}, animal: table[animal]}


def tokens(st) -> list[int]:
    """Whose +2 token is still unused (the var is public: any seat's view shows it)."""
    return st.observation(0)["vars"]["token"]


# ---------------------------------------------------------------- what each variant changes

# Per variant, what it changes as (what, kind, name) of dsl.compare (``meeple diff``, rule by rule);
# for a changed rule, the base's code lines it takes out (None: not checked), so that a variant that
# changes more of the base than it means to fails here.
INTENDED = {
    "hare-boost": {("changed", "game", None): None, ("added", "zone", "played"): None,
                   ("added", "var", "token"): None, ("added", "var", "boosted"): None,
                   ("added", "define", "lift"): None, ("added", "report", "tokens used"): None,
                   ("changed", "rule", "[play]"): [
                       "choose play: 1..animal_limit cards of one animal from hand(current) to table",
                       "  keeping count(table) <= table_limit",
                       "          and all(on_table(a) <= animal_limit for a in animal)"],
                   ("added", "rule", "after [play]"): None,
                   ("changed", "rule", "[hare]"): ["move hare by 2"],
                   ("changed", "rule", "[tortoise]"): ["move tortoise by (if on_table(tortoise) == 4 then 2 else 1)"],
                   ("changed", "rule", "[wolf]"): [
                       "move wolf by (if on_table(wolf) >= 3 then on_table(wolf) - 1 else min(on_table(wolf), 1))"],
                   ("changed", "rule", "[fox]"): ["move fox by on_table(fox)"],
                   ("changed", "rule", "[sheep]"): ["move sheep by on_table(sheep) + 1 stopping at stream"],
                   ("added", "rule", "before [after_race]"): None,
                   ("changed", "invariant", "cards_kept"): None,
                   ("changed", "invariant", "table_within_its_limits"): None,
                   ("added", "invariant", "a_token_is_used_once"): None,
                   ("added", "invariant", "a_token_lies_with_its_cards"): None},
    "hare-delayed-howl": {("changed", "game", None): None, ("added", "var", "silenced"): None,
                          ("changed", "define", "howling"): None, ("added", "rule", "in [race_trigger]"): None,
                          ("added", "invariant", "silence_set_by_a_race"): None},
    "hare-long-track": {("changed", "game", None): None, ("param", "param", "track_length"): None,
                        ("param", "param", "stream_count"): None},
    "hare-six-animals": {("changed", "game", None): None, ("changed", "pieces", "animal"): None,
                         ("changed", "cards", "race"): None, ("changed", "cards", "bet"): None,
                         ("added", "define", "trails"): None, ("added", "rule", "before [after_race]"): None,
                         ("changed", "invariant", "cards_kept"): None},
}


def code(lines: list[str]) -> list[str]:
    """The lines of a declaration without its header and its comment lines."""
    return [line.rstrip() for line in lines
            if line.strip() and not line.lstrip().startswith(("#", "phase ", "replace "))]


@pytest.mark.parametrize("name", list(INTENDED))
def test_variant_changes_only_what_it_means_to(name):
    path = VARIANTS / f"{name}.rules"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# The Hare and the Tortoise, variant ")
    assert [line for line in lines if line.strip() and not line.startswith("#")][0] == 'extends "../hare.rules"'
    old, _ = read_ir(str(P.RULES))
    new, _ = read_ir(str(path))
    texts = {f: read_text(f) for ir in (old, new) for f in (ir.get("sources") or [ir["source"]])}
    found = {(d.what, d.kind, d.name): d for d in compare(old, new, texts)}
    assert set(found) == set(INTENDED[name])
    for key, left_out in INTENDED[name].items():
        if left_out is not None:
            diff = difflib.unified_diff(code(found[key].old_lines), code(found[key].new_lines), lineterm="", n=0)
            removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
            assert removed == left_out, f"{name}: its copy of the base's {key[1]} misses a change of the base"


# ---------------------------------------------------------------- boost

@pytest.fixture(scope="module")
def boost():
    return P.load(VARIANTS / "hare-boost.rules")


def boosted(g, table: Mapping[str, int], animal: str, token: bool = True, **kw):
    """The player to move plays the last card (of ``animal``) that makes the table hold ``table``,
    putting their +2 token with it (or keeping it)."""
    st = R.trigger(R.position(g, **kw), last(table, animal))
    assert st.decision() == "boost" and R.texts(st.legal_actions()) == {f"boost {animal}", "keep"}
    st.apply(f"boost {animal}" if token else "keep")
    return st


CASES = [(a, x) for a in ANIMALS for x in range(1, 5)]


@pytest.mark.parametrize("animal,x", CASES)
def test_boost_the_animal_moves_two_more_than_in_the_base_game(base, boost, animal, x):
    pos = {"hare": 3, "fox": 5, "tortoise": 2}  # the hare does not lead: it runs with four cards too
    table = R.with_x(animal, x)
    st = R.race(base, last(table, animal), pos=pos)
    moved = P.position(st, animal) - pos.get(animal, 0)
    assert moved > 0 and P.zone(st, "table") == {}
    st = boosted(boost, table, animal, pos=pos)
    assert P.position(st, animal) - pos.get(animal, 0) == moved + 2
    assert P.zone(st, "table") == {} and tokens(st) == [0, 1, 1]
    # the others move as in the base game, and a player who keeps the token changes nothing
    kept = boosted(boost, table, animal, token=False, pos=pos)
    assert P.positions(kept) == {**P.positions(st), animal: P.position(st, animal) - 2}
    assert tokens(kept) == [1, 1, 1]


def test_boost_nothing_for_an_animal_that_does_not_move(boost):
    # the hare asleep: four cards while it leads
    st = boosted(boost, {"hare": 4}, "hare", pos={"hare": 6, "fox": 5, "tortoise": 2})
    assert P.position(st, "hare") == 6 and tokens(st) == [0, 1, 1]
    # silenced by a howl: only the wolf moves
    start = {a: 3 for a in ANIMALS}
    st = boosted(boost, {"howl_wolf": 1, "hare": 2, "sheep": 2, "fox": 3}, "fox", pos=start)
    assert P.positions(st) == {**start, "wolf": 4}
    # on the podium already
    st = boosted(boost, R.full_table({"fox": 2}), "fox", podium=["fox"])
    assert P.podium(st) == ["fox"] and P.position(st, "sheep") == 4


def test_boost_stream_stops_still_apply(base, boost):
    table, pos = {"fox": 3, "hare": 2, "sheep": 3}, {"sheep": 2}
    st = R.race(base, table, pos=pos, streams=(7, 11))
    assert P.position(st, "sheep") == 6                       # 2 + 4: the stream at 7 is not reached
    st = boosted(boost, table, "sheep", pos=pos, streams=(7, 11))
    assert P.position(st, "sheep") == 7                       # 2 + 4 + 2 = 8, but the stream at 7 stops it
    st = boosted(boost, table, "sheep", pos=pos, streams=(10, 11))
    assert P.position(st, "sheep") == 8


def test_boost_the_token_waits_for_the_race_of_its_cards_and_tokens_add_up(boost):
    st = R.position(boost, players=3)
    for seat in range(3):
        P.set_zone(st, "hand", {"fox": 2, "sheep": 4}, seat=seat)
    st.apply("play 1 fox")
    st.apply("boost fox")                  # seat 0: no race yet, the token lies with its fox card
    assert st.current_player() == 1 and P.zone(st, "table") == {"fox": 1} and P.position(st, "fox") == 0
    st.apply("play 1 fox")
    st.apply("boost fox")                  # seat 1: a second token with the foxes
    st.apply("play 2 fox")
    st.apply("keep")                       # seat 2: four foxes, the race
    assert P.position(st, "fox") == 4 + 2 + 2 and P.position(st, "tortoise") == 1
    assert tokens(st) == [0, 0, 1]
    # the tokens are spent: the next race moves the fox by its cards only
    R.trigger(st, {"fox": 4})              # seat 0 again: no token, no boost decision
    assert st.decision() == "play" and P.position(st, "fox") == 12 and P.podium(st) == ["fox"]


def test_boost_once_per_game(boost):
    st = boosted(boost, {"fox": 4}, "fox", players=2)
    assert tokens(st) == [0, 1] and st.current_player() == 1
    st.apply(st.legal_actions()[0])        # seat 1 plays: it still has its token
    assert st.decision() == "boost"
    st.apply("keep")
    assert st.current_player() == 0
    st.apply(st.legal_actions()[0])        # seat 0 plays: its token is spent, no decision
    assert st.decision() == "play" and st.current_player() == 1 and tokens(st) == [0, 1]


# ---------------------------------------------------------------- delayed howl

@pytest.fixture(scope="module")
def delayed():
    return P.load(VARIANTS / "hare-delayed-howl.rules")


def silenced(st) -> bool:
    """The next race phase is silenced (the var is public: any seat's view shows it)."""
    (value,) = st.observation(0)["vars"]["silenced"]
    return value


def test_delayed_howl_silences_the_next_race_phase(base, delayed):
    start = {a: 3 for a in ANIMALS}
    howl = {"howl_wolf": 1, "hare": 2, "fox": 2, "sheep": 3}
    # the base game: the howl silences the race its cards trigger
    assert P.positions(R.race(base, howl, pos=start)) == {**start, "wolf": 4}
    # the variant: the turn the howl wolf is played, the others still move
    st = R.race(delayed, howl, pos=start)
    after = {"hare": 5, "tortoise": 4, "wolf": 4, "fox": 5, "sheep": 7}
    assert P.positions(st) == after and silenced(st)
    # the next turn's race: only the wolf moves (it has no card: it stays)
    R.trigger(st, {"fox": 4})
    assert P.positions(st) == after and st.current_player() == 2
    assert not silenced(st)
    # and the one after it runs as usual
    R.trigger(st, {"fox": 4})
    assert P.positions(st) == {**after, "tortoise": 5, "fox": 9}


def test_delayed_howl_a_howl_in_a_silenced_race_silences_the_next_one(delayed):
    start = {a: 3 for a in ANIMALS}
    st = R.race(delayed, {"howl_wolf": 1, "hare": 3, "fox": 4}, pos=start)
    after = {**start, "hare": 5, "tortoise": 4, "wolf": 4, "fox": 7}
    assert P.positions(st) == after
    R.trigger(st, {"howl_wolf": 1, "wolf": 3})        # silenced: the wolf alone runs, and it howls again
    assert P.positions(st) == {**after, "wolf": 7}
    R.trigger(st, {"fox": 4})                         # so this one is silenced too
    assert P.positions(st) == {**after, "wolf": 7}
    R.trigger(st, {"fox": 4})
    assert P.positions(st) == {**after, "wolf": 7, "tortoise": 5, "fox": 11}


# ---------------------------------------------------------------- long track

@pytest.fixture(scope="module")
def long_track():
    return P.load(VARIANTS / "hare-long-track.rules")


def test_long_track_fifteen_spaces_three_streams_by_chance(long_track):
    seen = set()
    for seed in range(20):
        st = long_track.new_state(3, seed=seed)
        assert P.track_length(st) == 15
        tags = P.tags(st)
        assert tags.count("stream") == 3 and tags.count("plain") == 12
        seen.add(tuple(P.streams(st)))
    assert len(seen) > 10
    st = long_track.new_state(3, chance="explicit")
    assert {str(a): p for a, p in st.chance_outcomes()} == pytest.approx(
        {"course 1 stream": 3 / 15, "course 1 plain": 12 / 15})


def test_long_track_the_finish_is_four_spaces_further(base, long_track):
    fox = last(R.with_x("fox", 2), "fox")
    st = R.race(base, fox, pos={"fox": 10})
    assert P.podium(st) == ["fox"]                           # 12: across the line of 11 spaces
    st = R.race(long_track, fox, pos={"fox": 10}, streams=(13, 14, 15))
    assert P.position(st, "fox") == 12 and P.podium(st) == []
    st = R.race(long_track, fox, pos={"fox": 13}, streams=(3, 4, 5))
    assert P.position(st, "fox") == 15 and P.podium(st) == []
    st = R.race(long_track, fox, pos={"fox": 14}, streams=(3, 4, 5))
    assert P.podium(st) == ["fox"] and P.place(st, "fox") == 1


# ---------------------------------------------------------------- six animals

@pytest.fixture(scope="module")
def six():
    return P.load(VARIANTS / "hare-six-animals.rules")


def test_six_animals_components_and_the_mouse_cards_are_dealt(six):
    assert P.animals(six) == [*ANIMALS, "mouse"]
    st = six.new_state(4, seed=0)
    assert P.all_cards(st) == {**R.RACE_CARDS, "mouse": 15, **R.BET_CARDS, "mouse_bet": 1}
    in_hands = bets = 0
    for seed in range(12):
        st = P.start(six, 4, seed=seed)
        in_hands += sum(P.zone(st, "hand", s).get("mouse", 0) for s in range(4))
        bets += sum(P.zone(st, "bets", s).get("mouse_bet", 0) for s in range(4))
        assert six.broken_invariants(st) == []
    assert in_hands > 0 and bets > 0
    st = P.start(six, 3, seed=0)
    P.set_zone(st, "hand", {"mouse": 3, "hare": 3}, seat=st.current_player())
    assert R.texts(st.legal_actions()) >= {"play 1 mouse", "play 2 mouse", "play 3 mouse"}


def mouse_moves(g, x: int, pos: Mapping[str, int], podium=()) -> int:
    st = R.race(g, last(R.with_x("mouse", x), "mouse"), pos=pos, podium=podium)
    return P.position(st, "mouse") - pos["mouse"]


def test_six_animals_the_mouse_runs_by_its_own_rule(six):
    level = {a: 3 for a in ANIMALS}
    # as many spaces as its cards when some animal is level with it or behind it
    assert [mouse_moves(six, x, {**level, "mouse": 3}) for x in range(1, 5)] == [1, 2, 3, 4]
    assert mouse_moves(six, 2, {**level, "hare": 1, "mouse": 2}) == 2
    # two more when it is behind every other animal still racing
    assert [mouse_moves(six, x, {**level, "mouse": 1}) for x in range(1, 5)] == [3, 4, 5, 6]
    # an animal behind it is enough, but the animals on the podium do not count
    assert mouse_moves(six, 2, {**level, "mouse": 1, "wolf": 0}) == 2
    assert mouse_moves(six, 2, {"hare": 3, "tortoise": 3, "fox": 3, "sheep": 3, "mouse": 1}, podium=["wolf"]) == 4
    # no card, no move
    st = R.race(six, {"fox": 4}, pos={"mouse": 1, "hare": 3, "wolf": 3, "sheep": 3})
    assert P.position(st, "mouse") == 1


def test_six_animals_the_mouse_moves_last_and_counts_for_the_hare_s_lead(base, six):
    on_last = {a: 11 for a in [*ANIMALS, "mouse"]}
    st = R.race(six, {"fox": 2, "sheep": 2, "mouse": 4}, pos=on_last)
    assert P.podium(st) == ["tortoise", "fox", "sheep"] and P.position(st, "mouse") == 11
    assert st.is_terminal()
    # the hare leads the five of the base game and sleeps; the mouse is ahead of it here
    pos = {"hare": 6, "fox": 5, "tortoise": 2}
    assert P.position(R.race(base, {"hare": 4}, pos=pos), "hare") == 6
    assert P.position(R.race(six, {"hare": 4}, pos={**pos, "mouse": 7}), "hare") == 8


# ---------------------------------------------------------------- the rest is the base game

UNCHANGED = [R.test_hare_moves_two_with_any_card_zero_without, R.test_hare_sleeps_with_four_cards_while_leading,
             R.test_tortoise_one_space_even_without_cards_two_with_four, R.test_wolf_moves,
             R.test_fox_moves_as_many_as_its_cards, R.test_sheep_moves_one_more_than_its_cards,
             R.test_sheep_stops_at_the_first_stream_it_enters, R.test_table_limits_make_plays_illegal]


@pytest.mark.parametrize("name", ["hare-delayed-howl", "hare-long-track", "hare-six-animals"])
def test_the_base_scenarios_the_variant_does_not_touch_still_hold(name):
    g = P.load(VARIANTS / f"{name}.rules")
    for scenario in UNCHANGED:
        scenario(g)
