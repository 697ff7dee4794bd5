"""Gavel (tests/fixtures/good/gavel.rules), an open auction: the rules held to a model of them
written here in Python, and each rule's change caught.

``referee_game`` plays random games and, after every move, compares the state with what the model
says the rules make of it: the legal bids, the price, the last bidder, who dropped out, who bids
next, the coins, where each lot went, the auctioneer, and at the end the scores and the winners.
The mutation tests at the end change one rule of the file at a time (tests/mutations.py) and check
that a scenario of this file then fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import meeple
from mutations import assert_caught, assert_unique_ids, rep
from rules_text import take

RULES = Path(__file__).parent / "fixtures" / "good" / "gavel.rules"
GEMS = ("ruby", "jade", "pearl")
LOTS = {f"lot_{g}_{w}": 1 for g in GEMS for w in range(1, 5)}
PURSE, STEP = 12, 3


def load(path: Path | str = RULES):
    return meeple.load(str(path))


@pytest.fixture(scope="module")
def game():
    return load()


def worth(lot: str) -> int:
    return int(lot.rsplit("_", 1)[1])


def gem(lot: str) -> str:
    return lot.split("_")[1]


def everything(st) -> dict:
    return st.observation(None)


def scripted(g, players: int, auctioneer: int, lots: list[str]):
    """A game whose chance is told: ``auctioneer`` first, the lots put up in the order given."""
    st = g.new_state(players, chance="explicit")
    chance(st, f"auctioneer = seat {auctioneer}")
    chance(st, f"deal {lots[0]}")
    return st


def chance(st, text: str) -> None:
    outcome = next((a for a, _ in st.chance_outcomes() if a.text == text), None)
    assert outcome is not None, f"{text!r} is not a chance outcome: {[a.text for a, _ in st.chance_outcomes()]}"
    st.apply(outcome)


class Model:
    """The rules of Gavel as they read, kept beside the engine's state."""

    def __init__(self, obs: dict) -> None:
        self.players = obs["players"]
        self.coins = [PURSE] * self.players
        self.auctioneer = obs["vars"]["auctioneer"][0]
        self.price, self.high = 0, None
        self.dropped = [False] * self.players
        self.current = self.auctioneer
        self.won: list[dict[str, int]] = [{} for _ in range(self.players)]
        self.discard: dict[str, int] = {}
        self.sold = False  # the last move closed the auction (a new lot is dealt, or the game is over)

    def legal(self) -> list[str]:
        raises = [f"raise {n}" for n in range(1, STEP + 1) if self.price + n <= self.coins[self.current]]
        return raises + ["drop"]

    def apply(self, move: str, lot: str) -> None:
        me = self.current
        if move == "drop":
            self.dropped[me] = True
        else:
            self.price += int(move.split()[1])
            self.high = me
        bidders = self.players - sum(self.dropped)
        self.sold = bidders == 0 or (self.high is not None and bidders == 1)
        if not self.sold:
            self.current = next(p % self.players for p in range(me + 1, me + self.players)
                                if not self.dropped[p % self.players])
            return
        if self.high is None:
            self.discard[lot] = self.discard.get(lot, 0) + 1
        else:
            self.coins[self.high] -= self.price
            if self.high != self.auctioneer:
                self.coins[self.auctioneer] += self.price
            self.won[self.high][lot] = 1
        self.auctioneer = (self.auctioneer + 1) % self.players
        self.current = self.auctioneer
        self.price, self.high = 0, None
        self.dropped = [False] * self.players

    def scores(self) -> list[int]:
        return [sum(worth(c) for c in won) + 4 * min(sum(gem(c) == g for c in won) for g in GEMS) + coins
                for won, coins in zip(self.won, self.coins)]

    def winners(self) -> list[int]:
        best = max(zip(self.scores(), self.coins))
        return [p for p in range(self.players) if (self.scores()[p], self.coins[p]) == best]


def check(st, model: Model) -> None:
    obs = everything(st)
    v = obs["vars"]
    assert v["coins"] == model.coins
    assert v["auctioneer"] == [model.auctioneer]
    assert v["price"] == [model.price]
    assert v["high"] == [-1 if model.high is None else model.high]
    assert v["dropped"] == model.dropped
    assert obs["zones"]["won"] == model.won
    assert obs["zones"]["discard"] == model.discard
    if not st.is_terminal():
        assert st.current_player() == model.current
        assert sorted(a.text for a in st.legal_actions()) == sorted(model.legal())
        assert sum(obs["zones"]["block"].values()) == 1


def referee_game(g, players: int = 3, games: int = 12, seed: int = 0) -> None:
    """Random games, each move checked against the model; at the end, the results."""
    for i in range(games):
        st = g.new_state(players, seed=seed + i)
        rng = random.Random(seed + i)
        model = Model(everything(st))
        check(st, model)
        while not st.is_terminal():
            lot = next(iter(everything(st)["zones"]["block"]))
            move = rng.choice(model.legal())
            take(st, move)
            model.apply(move, lot)
            check(st, model)
        assert st.outcome == "end"
        assert not everything(st)["zones"]["lots"] and model.sold  # the game ends as the last lot is sold
        assert st.scores() == model.scores()
        assert st.winners() == model.winners()


# ---- players and components ----
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players(game, players):
    assert game.new_state(players, seed=0).players == players


@pytest.mark.parametrize("players", [1, 5])
def test_one_or_five_players_refused(game, players):
    with pytest.raises(ValueError):
        game.new_state(players, seed=0)


def test_twelve_lots_of_three_gems_worth_one_to_four(game):
    obs = everything(game.new_state(2, seed=1))
    zones = obs["zones"]
    assert {**zones["lots"], **zones["block"]} == LOTS
    assert game.layout.attr_table["worth"][game.layout.variety_names.index("lot_jade_3")] == 3


def test_coins_are_private_the_lots_hidden_what_is_won_public(game):
    st = scripted(game, 3, 0, ["lot_ruby_2"])
    take(st, "raise 2")
    take(st, "drop")
    take(st, "drop")  # seat 0 buys its own lot: the bank is paid
    chance(st, "deal lot_pearl_4")
    for seat in range(3):
        obs = st.observation(seat)
        assert obs["vars"]["coins"] == [(PURSE - 2 if s == 0 else PURSE) if s == seat else None for s in range(3)]
        assert set(obs["zones"]["lots"]) == {"size"} and obs["zones"]["lots"]["size"] == 10
        assert obs["zones"]["block"] == {"lot_pearl_4": 1} and obs["zones"]["won"][0] == {"lot_ruby_2": 1}


# ---- setup ----
@pytest.mark.parametrize("players", [2, 4])
def test_a_random_auctioneer_opens_the_first_lot(game, players):
    st = game.new_state(players, chance="explicit")
    assert sorted(a.text for a, _ in st.chance_outcomes()) == [f"auctioneer = seat {p}" for p in range(players)]
    for first in range(players):
        st = scripted(game, players, first, ["lot_jade_1"])
        obs = everything(st)
        assert st.current_player() == first and obs["vars"]["auctioneer"] == [first]
        assert obs["zones"]["block"] == {"lot_jade_1": 1} and obs["vars"]["coins"] == [PURSE] * players


# ---- an auction ----
def test_a_raise_is_one_to_three_coins_and_never_more_than_you_have(game):
    st = scripted(game, 2, 0, ["lot_ruby_4"])
    assert [a.text for a in st.legal_actions()] == ["raise 1", "raise 2", "raise 3", "drop"]
    for move in ("raise 3", "raise 3", "raise 3"):  # 9
        take(st, move)
    assert [a.text for a in st.legal_actions()] == ["raise 1", "raise 2", "raise 3", "drop"]  # 12 is affordable
    take(st, "raise 2")  # seat 1: 11
    assert [a.text for a in st.legal_actions()] == ["raise 1", "drop"]  # seat 0 has 12


def test_the_turn_skips_players_who_dropped_out(game):
    st = scripted(game, 4, 1, ["lot_pearl_2"])
    take(st, "raise 1")  # seat 1
    take(st, "drop")     # seat 2
    take(st, "raise 1")  # seat 3
    take(st, "raise 1")  # seat 0
    assert st.current_player() == 1
    take(st, "raise 1")  # seat 1
    assert st.current_player() == 3  # (not seat 2, who dropped out)


def test_the_last_bidder_pays_the_auctioneer_and_takes_the_lot(game):
    st = scripted(game, 3, 2, ["lot_jade_3", "lot_ruby_1"])
    take(st, "raise 2")  # seat 2, the auctioneer
    take(st, "raise 3")  # seat 0: 5
    take(st, "drop")     # seat 1
    take(st, "drop")     # seat 2: seat 0 buys
    obs = everything(st)
    assert obs["zones"]["won"][0] == {"lot_jade_3": 1} and not obs["zones"]["block"]
    assert obs["vars"]["coins"] == [PURSE - 5, PURSE, PURSE + 5]
    chance(st, "deal lot_ruby_1")
    assert st.current_player() == 0 and everything(st)["vars"]["auctioneer"] == [0]  # the next auctioneer opens
    assert everything(st)["vars"]["dropped"] == [False] * 3 and everything(st)["vars"]["price"] == [0]


def test_a_lot_nobody_bids_on_is_thrown_out(game):
    st = scripted(game, 2, 0, ["lot_pearl_3", "lot_ruby_1"])
    take(st, "drop")
    assert st.current_player() == 1 and everything(st)["zones"]["block"] == {"lot_pearl_3": 1}
    take(st, "drop")
    obs = everything(st)
    assert obs["zones"]["discard"] == {"lot_pearl_3": 1} and obs["vars"]["coins"] == [PURSE, PURSE]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_follow_the_rules(game, players):
    referee_game(game, players)


# ---- the end ----
def test_lots_sets_and_coins_score(game):
    """Seat 0 buys a set of three gems for 1 coin each (two from seat 1, the auctioneer then, one
    from the bank, being the auctioneer itself); every other lot is thrown out."""
    three = ["lot_ruby_4", "lot_jade_1", "lot_pearl_2"]
    lots = three + [lot for lot in LOTS if lot not in three]
    st = scripted(game, 2, 1, lots)
    for i in range(len(lots)):
        moves = {0: ["drop", "raise 1"], 1: ["raise 1", "drop"], 2: ["drop", "raise 1"]}.get(i, ["drop", "drop"])
        for move in moves:
            take(st, move)
        if i + 1 < len(lots):
            chance(st, f"deal {lots[i + 1]}")
    assert st.is_terminal() and st.outcome == "end"
    assert everything(st)["vars"]["coins"] == [PURSE - 3, PURSE + 2]
    assert st.scores() == [4 + 1 + 2 + 4 + PURSE - 3, PURSE + 2]
    assert st.winners() == [0]


def test_coins_break_a_tie(game):
    st = scripted(game, 2, 0, ["lot_ruby_1"] + [lot for lot in LOTS if lot != "lot_ruby_1"])
    take(st, "raise 1")  # seat 0 buys its own lot for 1: 1 + 11 against 12
    take(st, "drop")
    rest = [lot for lot in LOTS if lot != "lot_ruby_1"]
    for lot in rest:
        chance(st, f"deal {lot}")
        take(st, "drop")
        take(st, "drop")
    assert st.scores() == [PURSE, PURSE] and st.winners() == [1]


# ---- each rule's change is caught ----
def scenario(test: Callable, **kw) -> Callable:
    return lambda g: test(g, **kw)


SOURCE = RULES.read_text()
MUTATIONS: list[tuple[str, Callable[[str], str], Callable]] = [
    ("2 to 4 players", rep("players 2..4", "players 2..5"), scenario(test_one_or_five_players_refused, players=5)),
    ("a purse of 12", rep("param purse = 12", "param purse = 13"), scenario(test_random_games_follow_the_rules,
                                                                             players=2)),
    ("raises up to 3", rep("param step = 3", "param step = 2"),
     test_a_raise_is_one_to_three_coins_and_never_more_than_you_have),
    ("lots worth 1 to 4", rep("w in 1..4", "w in 1..5"), test_twelve_lots_of_three_gems_worth_one_to_four),
    ("coins private", rep("var coins per player private", "var coins per player"),
     test_coins_are_private_the_lots_hidden_what_is_won_public),
    ("lots hidden", rep("zone lots hidden", "zone lots public"),
     test_coins_are_private_the_lots_hidden_what_is_won_public),
    ("a random auctioneer", rep("set auctioneer = random player", "set auctioneer = seat(0)"),
     scenario(test_a_random_auctioneer_opens_the_first_lot, players=2)),
    ("the auctioneer opens", rep("set current = auctioneer", "set current = next(auctioneer)"),
     scenario(test_a_random_auctioneer_opens_the_first_lot, players=2)),
    ("a bid is affordable", rep("price + n <= coins(current)", "price + n < coins(current)"),
     test_a_raise_is_one_to_three_coins_and_never_more_than_you_have),
    ("a raise makes the bidder high", rep("set high = current", "set high = next(current)"),
     scenario(test_random_games_follow_the_rules, players=3)),
    ("those who dropped are skipped", rep(" and not dropped(p))", ")"), test_the_turn_skips_players_who_dropped_out),
    ("sold with one bidder left", rep("(high != none and bidders == 1)", "(high != none and bidders == 0)"),
     test_the_last_bidder_pays_the_auctioneer_and_takes_the_lot),
    ("no sale without a bid", rep("if bidders == 0 or", "if bidders == 1 or"), test_a_lot_nobody_bids_on_is_thrown_out),
    ("unsold lots thrown out", rep("move all from block to discard", "move all from block to won(auctioneer)"),
     test_a_lot_nobody_bids_on_is_thrown_out),
    ("the buyer pays", rep("set coins(high) = coins(high) - price", "set coins(high) = coins(high) - 1"),
     test_the_last_bidder_pays_the_auctioneer_and_takes_the_lot),
    ("the auctioneer is paid", rep("[pay] set coins(auctioneer) = coins(auctioneer) + price",
                                   "[pay] set coins(auctioneer) = coins(auctioneer)"),
     test_the_last_bidder_pays_the_auctioneer_and_takes_the_lot),
    ("the bank is paid by the auctioneer", rep("if high != auctioneer {", "if true {"),
     test_coins_are_private_the_lots_hidden_what_is_won_public),
    ("the buyer takes the lot", rep("move all from block to won(high)", "move all from block to won(auctioneer)"),
     test_the_last_bidder_pays_the_auctioneer_and_takes_the_lot),
    ("the auctioneer passes on", rep("set auctioneer = next(auctioneer)", "set auctioneer = previous(auctioneer)"),
     scenario(test_random_games_follow_the_rules, players=3)),
    ("dropping out lasts one lot", rep("  reset dropped\n", ""),
     test_the_last_bidder_pays_the_auctioneer_and_takes_the_lot),
    ("the price starts at 0", rep("  set price = 0\n", ""), test_the_last_bidder_pays_the_auctioneer_and_takes_the_lot),
    ("the end comes with the last lot", rep("if count(lots) == 0 {", "if count(lots) == 1 {"),
     scenario(test_random_games_follow_the_rules, players=2)),
    ("a set scores 4", rep("4 * sets(p)", "3 * sets(p)"), test_lots_sets_and_coins_score),
    ("coins score", rep("+ 4 * sets(p) + coins(p)", "+ 4 * sets(p)"), test_lots_sets_and_coins_score),
    ("coins break ties", rep("tiebreak(p) = coins(p)", "tiebreak(p) = 0 - coins(p)"), test_coins_break_a_tie),
]


def test_mutation_ids_are_unique():
    assert_unique_ids(MUTATIONS)


@pytest.mark.parametrize("change,scenario", [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_scenario_catches_the_changed_rule(tmp_path, change, scenario):
    assert_caught(tmp_path, SOURCE, "gavel.rules", load, change, scenario)
