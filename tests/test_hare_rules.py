"""One scenario per rule of The Hare and the Tortoise (docs/rules/hare.md).

Each test builds a position, runs the step the rule is about and checks the
result, precisely enough that changing that rule in games/hare.rules makes it
fail (tests/test_hare_mutations.py checks this for many rules). Every test takes
the compiled game as its argument, so the mutation tests can run the very same
scenarios against altered copies of the rules.

State internals are touched only through tests/positions.py.
"""

from __future__ import annotations

from collections.abc import Mapping

import positions as P
import pytest

from meeple import CHANCE
from rules_text import assert_doc_quotes

ANIMALS = ["hare", "tortoise", "wolf", "fox", "sheep"]
RACE_CARDS = {"hare": 18, "tortoise": 17, "wolf": 13, "howl_wolf": 3, "fox": 15, "sheep": 15}
BET_CARDS = {f"{a}_bet": 1 for a in ANIMALS}
FAR_STREAMS = (10, 11)  # out of reach of the movement scenarios that start on the start line


@pytest.fixture(scope="module")
def game():
    return P.load()


# ---- building scenarios (public API + positions.py only) ----
def position(g, *, players: int = 3, seat: int = 0, pos: Mapping[str, int] | None = None,
             podium=(), streams=FAR_STREAMS, seed: int = 0):
    """A state at a "play" decision of ``seat``, the track, pieces and podium as given,
    table and discard empty."""
    st = P.start(g, players, seed=seed)
    P.set_tags(st, streams)
    P.set_podium(st, podium)
    P.set_positions(st, {a: 0 for a in ANIMALS if a not in podium})
    if pos:
        P.set_positions(st, pos)
    P.set_zone(st, "table", {})
    P.set_zone(st, "discard", {})
    P.set_current(st, seat)
    return st


def trigger(st, table: Mapping[str, int], discard: Mapping[str, int] | None = None):
    """The player to move plays the last card that makes the table hold ``table``."""
    last = [v for v, c in table.items() if c][-1]
    before = dict(table)
    before[last] -= 1
    P.set_zone(st, "table", before)
    if discard is not None:
        P.set_zone(st, "discard", discard)
    filler = "hare" if last == "tortoise" else "tortoise"
    P.set_zone(st, "hand", {last: 1, filler: 5}, seat=st.current_player())
    st.apply(f"play 1 {last}")
    return st


def race(g, table: Mapping[str, int], **kw):
    return trigger(position(g, **kw), table)


def full_table(table: Mapping[str, int]) -> dict[str, int]:
    """``table`` topped up to exactly 8 cards with other animals (at most 3 of each)."""
    out = dict(table)
    for a in ["fox", "sheep", "wolf", "tortoise", "hare"]:
        if a in out:
            continue
        add = min(3, 8 - sum(out.values()))
        if add > 0:
            out[a] = add
    assert sum(out.values()) == 8 and max(out.values()) <= 4
    return out


def with_x(animal: str, x: int) -> dict[str, int]:
    """A table that starts a race with exactly ``x`` cards of ``animal``."""
    return {animal: 4} if x == 4 else full_table({animal: x})


def moves(g, animal: str, x: int, **kw) -> int:
    st = race(g, with_x(animal, x), **kw)
    return P.position(st, animal) - (kw.get("pos") or {}).get(animal, 0)


def texts(actions) -> set[str]:
    return {str(a) for a in actions}


def run_chance(st):
    """Apply the first outcome of each chance node up to a decision."""
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])


# ---- components and setup ----
def test_components(game):
    """81 race cards (16 wolves, 3 of them howling) and one bet card per animal."""
    st = game.new_state(3, seed=0)
    assert P.all_cards(st) == {**RACE_CARDS, **BET_CARDS}
    assert P.animals(game) == ANIMALS


def test_track_has_eleven_spaces_two_of_them_streams_by_chance(game):
    seen = set()
    for seed in range(40):
        st = game.new_state(3, seed=seed)
        assert P.track_length(st) == 11
        tags = P.tags(st)
        assert len(tags) == 11 and tags.count("stream") == 2 and tags.count("plain") == 9
        seen.add(tuple(P.streams(st)))
    assert len(seen) > 10  # where the streams lie is chance
    # The tiles are drawn one space at a time from 2 streams and 9 plains.
    st = game.new_state(3, chance="explicit")
    assert {str(a): p for a, p in st.chance_outcomes()} == pytest.approx(
        {"course 1 stream": 2 / 11, "course 1 plain": 9 / 11})
    st.apply("course 1 stream")
    st.apply("course 2 stream")
    assert [str(a) for a, _ in st.chance_outcomes()] == ["course 3 plain"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bets_dealt_one_each_two_with_two_players_rest_unseen(game, players):
    st = game.new_state(players, seed=players)
    per_seat = 2 if players == 2 else 1
    dealt = []
    for seat in range(players):
        bets = P.zone(st, "bets", seat)
        assert sum(bets.values()) == per_seat and set(bets) <= set(BET_CARDS)
        dealt += list(bets)
    assert len(set(dealt)) == len(dealt)
    assert sum(P.zone(st, "bet_pile").values()) == 5 - players * per_seat
    for seat in range(players):
        zones = st.observation(seat)["zones"]
        assert zones["bet_pile"] == {"size": 5 - players * per_seat}  # nobody sees the rest
        for other in range(players):
            if other != seat:
                assert zones["bets"][other] == {"size": per_seat}
                assert zones["hand"][other] == {"size": 7}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seven_dealt_one_moved_to_bets_six_kept(game, players):
    st = game.new_state(players, seed=10 + players)
    first = st.current_player()
    assert sum(P.zone(st, "deck").values()) == 81 - 7 * players
    choosers, chosen = [], {}
    while st.decision() == "bet":
        seat = st.current_player()
        hand = P.zone(st, "hand", seat)
        assert sum(hand.values()) == 7
        assert texts(st.legal_actions()) == {f"bet 1 {v}" for v in hand}
        action = st.legal_actions()[-1]
        chosen[seat] = str(action).removeprefix("bet 1 ")
        choosers.append(seat)
        st.apply(action)
    assert choosers == [(first + i) % players for i in range(players)]
    bets_each = 3 if players == 2 else 2
    for seat in range(players):
        assert sum(P.zone(st, "hand", seat).values()) == 6
        bets = P.zone(st, "bets", seat)
        assert sum(bets.values()) == bets_each and bets.get(chosen[seat], 0) >= 1
    assert st.decision() == "play" and st.current_player() == first


def test_second_bet_is_a_choice_among_distinct_cards(game):
    st = game.new_state(3, seed=5)
    seat = st.current_player()
    P.set_zone(st, "hand", {"wolf": 2, "howl_wolf": 1, "fox": 3, "sheep": 1}, seat=seat)
    assert texts(st.legal_actions()) == {"bet 1 wolf", "bet 1 howl_wolf", "bet 1 fox", "bet 1 sheep"}
    st.apply("bet 1 howl_wolf")
    assert P.zone(st, "bets", seat).get("howl_wolf") == 1
    assert P.zone(st, "hand", seat) == {"wolf": 2, "fox": 3, "sheep": 1}


def test_start_player_is_random_and_chosen_before_the_bets(game):
    players = 4
    st = game.new_state(players, chance="explicit")
    while st.current_player() == CHANCE and not str(st.chance_outcomes()[0][0]).startswith("current"):
        st.apply(st.chance_outcomes()[0][0])
    # a uniform pick among the seats, before any card is dealt
    assert {str(a): p for a, p in st.chance_outcomes()} == pytest.approx(
        {f"current = seat {s}": 1 / players for s in range(players)})
    assert not any(t.startswith("deal") for _, t in st.history())
    st.apply("current = seat 2")
    run_chance(st)
    # the chosen seat bets first, then the others clockwise, then it plays first
    order = []
    while st.decision() == "bet":
        order.append(st.current_player())
        st.apply(st.legal_actions()[0])
        run_chance(st)
    assert order == [2, 3, 0, 1]
    assert st.decision() == "play" and st.current_player() == 2
    assert {game.new_state(players, seed=s).current_player() for s in range(40)} == set(range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players(game, players):
    assert game.new_state(players, seed=0).decision() == "bet"


@pytest.mark.parametrize("players", [1, 6])
def test_one_or_six_players_refused(game, players):
    with pytest.raises(ValueError):
        game.new_state(players, seed=0)


# ---- the card phase ----
def test_a_play_is_one_to_four_cards_of_one_animal(game):
    st = position(game)
    P.set_zone(st, "hand", {"hare": 5, "fox": 1}, seat=0)
    assert texts(st.legal_actions()) == {"play 1 hare", "play 2 hare", "play 3 hare", "play 4 hare",
                                         "play 1 fox"}


def test_howl_and_plain_wolves_are_distinct_moves(game):
    st = position(game)
    P.set_zone(st, "hand", {"wolf": 2, "howl_wolf": 2, "sheep": 2}, seat=0)
    assert texts(st.legal_actions()) == {
        "play 1 wolf", "play 2 wolf", "play 1 howl_wolf", "play 2 howl_wolf",
        "play 1 wolf + 1 howl_wolf", "play 1 wolf + 2 howl_wolf", "play 2 wolf + 1 howl_wolf",
        "play 2 wolf + 2 howl_wolf", "play 1 sheep", "play 2 sheep"}


def test_table_limits_make_plays_illegal(game):
    st = position(game)
    P.set_zone(st, "table", {"hare": 3, "fox": 2, "sheep": 2})
    P.set_zone(st, "hand", {"hare": 2, "tortoise": 2, "wolf": 1, "fox": 1}, seat=0)
    # at most 8 on the table, at most 4 hares
    assert texts(st.legal_actions()) == {"play 1 hare", "play 1 tortoise", "play 1 wolf", "play 1 fox"}
    P.set_zone(st, "table", {"fox": 2})
    P.set_zone(st, "hand", {"fox": 3, "sheep": 3}, seat=0)
    # at most 4 foxes
    assert texts(st.legal_actions()) == {"play 1 fox", "play 2 fox", "play 1 sheep", "play 2 sheep",
                                         "play 3 sheep"}


def test_cards_of_podium_animals_may_be_played(game):
    st = position(game, podium=["fox"])
    P.set_zone(st, "hand", {"fox": 2, "sheep": 4}, seat=0)
    assert {"play 1 fox", "play 2 fox"} <= texts(st.legal_actions())


def test_refill_to_six(game):
    st = position(game)
    P.set_zone(st, "hand", {"hare": 6}, seat=0)
    deck = sum(P.zone(st, "deck").values())
    st.apply("play 2 hare")
    assert sum(P.zone(st, "hand", 0).values()) == 6
    assert sum(P.zone(st, "deck").values()) == deck - 2
    assert P.zone(st, "table") == {"hare": 2}


def test_refill_reshuffles_the_discard_when_the_deck_runs_out(game):
    st = position(game)
    P.set_zone(st, "hand", {"hare": 6}, seat=0)
    P.set_zone(st, "deck", {"fox": 1})
    P.set_zone(st, "discard", {"sheep": 5, "wolf": 3})
    st.apply("play 3 hare")
    hand = P.zone(st, "hand", 0)
    assert sum(hand.values()) == 6
    assert hand["hare"] == 3 and hand["fox"] == 1
    assert hand.get("sheep", 0) + hand.get("wolf", 0) == 2
    assert P.zone(st, "discard") == {}
    assert sum(P.zone(st, "deck").values()) == 6
    assert P.zone(st, "table") == {"hare": 3}  # the table is not the discard


# ---- when a race runs ----
def raced(st) -> bool:
    """The tortoise moves in every race without a howl; it stands on 0 in these scenarios."""
    return P.position(st, "tortoise") == 1 and P.zone(st, "table") == {}


@pytest.mark.parametrize("table", [
    {"hare": 2, "fox": 3, "sheep": 3},   # exactly 8
    {"fox": 4},                          # exactly 4 foxes
    {"hare": 1, "sheep": 4},             # exactly 4 sheep
    {"wolf": 2, "fox": 2, "sheep": 4},   # both
])
def test_race_runs_at_exactly_eight_or_four_of_one_animal(game, table):
    assert raced(race(game, table))


@pytest.mark.parametrize("table", [
    {"hare": 1, "fox": 3, "sheep": 3},   # 7 cards, no 4 of a kind
    {"fox": 3},
    {"fox": 3, "sheep": 3},
    {"tortoise": 1},
])
def test_no_race_otherwise(game, table):
    st = race(game, table)
    assert not raced(st)
    assert P.zone(st, "table") == table
    assert set(P.positions(st).values()) == {0}
    assert st.current_player() == 1 and st.decision() == "play"


# ---- the race: each animal ----
def test_hare_moves_two_with_any_card_zero_without(game):
    assert [moves(game, "hare", x) for x in range(5)] == [0, 2, 2, 2, 2]
    # with 4 cards it still runs 2 when it is not in the lead
    assert moves(game, "hare", 4, pos={"hare": 3, "fox": 5}) == 2


def test_hare_sleeps_with_four_cards_while_leading(game):
    assert moves(game, "hare", 4, pos={"hare": 6, "fox": 5, "tortoise": 2}) == 0      # alone in the lead
    assert moves(game, "hare", 4, pos={"hare": 6, "fox": 6, "tortoise": 2}) == 0      # tied for the lead
    assert moves(game, "hare", 3, pos={"hare": 6, "fox": 5}) == 2                     # only with four
    # the lead is judged among the animals not on the podium
    assert moves(game, "hare", 4, pos={"hare": 6, "sheep": 5}, podium=["fox"]) == 0


def test_hare_does_not_sleep_on_the_start_line(game):
    # everybody on the start line: the hare is (tied) in the lead, yet it runs
    assert moves(game, "hare", 4) == 2
    assert moves(game, "hare", 4, podium=["fox"]) == 2


def test_tortoise_one_space_even_without_cards_two_with_four(game):
    assert [moves(game, "tortoise", x) for x in range(5)] == [1, 1, 1, 1, 2]


def test_wolf_moves(game):
    assert [moves(game, "wolf", x) for x in range(5)] == [0, 1, 1, 2, 3]


def test_fox_moves_as_many_as_its_cards(game):
    assert [moves(game, "fox", x) for x in range(5)] == [0, 1, 2, 3, 4]


def test_sheep_moves_one_more_than_its_cards(game):
    assert [moves(game, "sheep", x) for x in range(5)] == [0, 2, 3, 4, 5]


def test_howl_only_the_wolf_moves(game):
    start = {"hare": 3, "tortoise": 3, "wolf": 3, "fox": 3, "sheep": 3}
    st = race(game, {"howl_wolf": 1, "hare": 2, "fox": 2, "sheep": 3}, pos=start)
    assert P.positions(st) == {**start, "wolf": 4}
    # all wolves count for the wolf, howling or not
    st = race(game, {"wolf": 2, "howl_wolf": 1, "hare": 2, "fox": 2, "tortoise": 1}, pos=start)
    assert P.positions(st) == {**start, "wolf": 5}
    # the howl silences this race only: the next one runs as usual
    trigger(st, {"fox": 4})
    assert P.positions(st) == {**start, "wolf": 5, "tortoise": 4, "fox": 7}


def test_sheep_stops_at_the_first_stream_it_enters(game):
    st = race(game, {"sheep": 3, "fox": 3, "hare": 2}, pos={"sheep": 2, "fox": 2, "hare": 2},
              streams=(4, 8))
    assert P.position(st, "sheep") == 4          # 2 + 4 = 6, but the stream at 4 stops it
    assert P.position(st, "fox") == 5            # other animals cross streams
    assert P.position(st, "hare") == 4
    # next race it walks off the stream as usual: 4 + 3 = 7 (the stream at 8 is not reached)
    trigger(st, {"sheep": 2, "fox": 3, "hare": 3})
    assert P.position(st, "sheep") == 7
    # two streams on the way: the first one stops it
    st = race(game, {"sheep": 4}, pos={"sheep": 1}, streams=(3, 5))
    assert P.position(st, "sheep") == 3
    # a stream on the last space keeps it from finishing
    st = race(game, {"sheep": 4}, pos={"sheep": 9}, streams=(3, 11))
    assert P.position(st, "sheep") == 11 and P.podium(st) == []


def test_sheep_without_cards_stays(game):
    st = race(game, {"fox": 4}, pos={"sheep": 5})
    assert P.position(st, "sheep") == 5


def test_animals_may_share_a_space(game):
    st = race(game, full_table({"hare": 1, "fox": 2, "sheep": 1}))
    assert P.position(st, "hare") == P.position(st, "fox") == P.position(st, "sheep") == 2


# ---- the race: order, podium, end ----
def test_movement_order_hare_tortoise_wolf(game):
    on_last = {a: 11 for a in ANIMALS}
    st = race(game, {"hare": 2, "wolf": 2, "fox": 2, "sheep": 2}, pos=on_last)
    assert P.podium(st) == ["hare", "tortoise", "wolf"]
    assert P.position(st, "fox") == P.position(st, "sheep") == 11  # the game ended first


def test_movement_order_wolf_fox_sheep(game):
    st = race(game, {"wolf": 2, "fox": 3, "sheep": 3},
              pos={"hare": 11, "tortoise": 9, "wolf": 11, "fox": 11, "sheep": 11})
    assert P.podium(st) == ["wolf", "fox", "sheep"]


def test_crossing_the_finish_line_takes_the_highest_free_place(game):
    st = race(game, with_x("fox", 2), pos={"fox": 9})
    assert P.position(st, "fox") == 11 and P.podium(st) == []      # on the last space: still racing
    st = race(game, with_x("fox", 2), pos={"fox": 10})
    assert P.podium(st) == ["fox"] and P.place(st, "fox") == 1      # 12: across the line
    st = race(game, with_x("fox", 3), pos={"fox": 10}, podium=["wolf"])
    assert P.podium(st) == ["wolf", "fox"] and P.place(st, "fox") == 2
    assert not st.is_terminal()


def test_podium_animals_do_not_move(game):
    st = race(game, {"fox": 4, "tortoise": 2, "hare": 2}, podium=["tortoise", "fox"], pos={"hare": 3})
    assert P.position(st, "tortoise") == P.position(st, "fox") == 12
    assert P.podium(st) == ["tortoise", "fox"]
    assert P.position(st, "hare") == 5 and not st.is_terminal()


def test_game_ends_as_soon_as_the_third_animal_finishes(game):
    st = race(game, {"hare": 2, "sheep": 2, "fox": 4}, podium=["fox", "wolf"],
              pos={"hare": 11, "tortoise": 5, "sheep": 3})
    assert P.podium(st) == ["fox", "wolf", "hare"]
    assert st.is_terminal() and st.outcome == "end" and st.legal_actions() == []
    assert P.position(st, "tortoise") == 5 and P.position(st, "sheep") == 3  # nobody moved after


def test_table_goes_to_the_discard_after_a_race(game):
    st = position(game)
    trigger(st, {"fox": 4, "sheep": 2, "howl_wolf": 1, "hare": 1}, discard={"hare": 3})
    assert P.zone(st, "table") == {}
    assert P.zone(st, "discard") == {"hare": 4, "fox": 4, "sheep": 2, "howl_wolf": 1}


@pytest.mark.parametrize("players,seat", [(3, 1), (3, 2), (2, 1), (5, 3)])
def test_next_player_after_the_one_who_started_the_race(game, players, seat):
    st = race(game, {"fox": 4}, players=players, seat=seat)
    assert raced(st)
    assert st.decision() == "play" and st.current_player() == (seat + 1) % players


# ---- the end ----
def finish(g, bets: list[dict[str, int]], podium: list[str]):
    """A game that has just ended with this podium; seat i holds bets[i]."""
    st = position(g, players=len(bets), podium=podium[:2], pos={podium[2]: 11})
    for seat, b in enumerate(bets):
        P.set_zone(st, "bets", b, seat=seat)
    trigger(st, full_table({podium[2]: 2}))
    assert st.is_terminal() and P.podium(st) == podium
    return st


def test_scores_five_three_two_per_bet_card(game):
    st = finish(game, [{"fox_bet": 1, "fox": 1},          # a doubled bet scores twice
                       {"hare_bet": 1, "howl_wolf": 1},   # a howl wolf is a wolf bet
                       {"sheep_bet": 1, "tortoise": 1}],
                ["fox", "wolf", "sheep"])
    assert st.scores() == [10, 3, 2]
    assert st.winners() == [0]
    st = finish(game, [{"fox_bet": 1, "wolf_bet": 1, "sheep": 1},
                       {"hare_bet": 1, "tortoise_bet": 1, "hare": 1}],
                ["fox", "wolf", "sheep"])
    assert st.scores() == [10, 0] and st.winners() == [0]


def test_tie_goes_to_the_best_placed_bet(game):
    st = finish(game, [{"wolf_bet": 1, "sheep": 1},     # 3 + 2, best 2nd
                       {"fox_bet": 1, "hare": 1},       # 5 + 0, best 1st
                       {"sheep_bet": 1, "wolf": 1}],    # 2 + 3, best 2nd
                ["fox", "wolf", "sheep"])
    assert st.scores() == [5, 5, 5]
    assert st.winners() == [1]
    # a higher score beats a better placed bet
    st = finish(game, [{"wolf_bet": 1, "wolf": 1}, {"fox_bet": 1, "hare": 1}], ["fox", "wolf", "sheep"])
    assert st.scores() == [6, 5] and st.winners() == [0]


def test_shared_win_when_still_tied(game):
    st = finish(game, [{"wolf_bet": 1, "sheep": 1},     # 5, best 2nd
                       {"fox_bet": 1, "hare": 1},       # 5, best 1st
                       {"tortoise_bet": 1, "fox": 1}],  # 5, best 1st
                ["fox", "wolf", "sheep"])
    assert st.scores() == [5, 5, 5]
    assert st.winners() == [1, 2]
    assert st.returns() == [0.0, 0.5, 0.5]


def test_a_whole_game_keeps_its_cards(game):
    """Random playouts: cards are never lost, the podium fills, the game ends."""
    import random
    for seed in range(4):
        st = game.new_state(2 + seed, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
            assert P.all_cards(st) == {**RACE_CARDS, **BET_CARDS}
        assert st.outcome == "end" and len(P.podium(st)) == 3
        assert len(set(P.podium(st))) == 3


def test_rules_doc_quotes_the_rules_file():
    """docs/rules/hare.md quotes hare.rules: every quoted line is in it, every test it names exists."""
    assert_doc_quotes(P.RULES.parents[1] / "docs" / "rules" / "hare.md", P.RULES, globals(),
                      inline=r"`((?:define|param) [^`]*)`")
