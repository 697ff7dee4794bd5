"""Invariants of the hand-written Hare and Tortoise baselines: the tuned one (bench/hare_baseline.py)
and the first one, kept to measure it against (bench/hare_baseline_old.py). Both play these rules."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
hare = importlib.import_module("bench.hare_baseline")  # (the helpers read its constants: the same in both)
BASELINES = ["bench.hare_baseline", "bench.hare_baseline_old"]


@pytest.fixture(name="hare", params=BASELINES)
def _hare(request):  # each test runs on both baselines
    return importlib.import_module(request.param)

GAMES_PER_COUNT = 200


def check_turn(game: hare.HareGame) -> None:
    """Called after setup and after every turn: nothing is lost or overfull."""
    assert game.cards_accounted() == hare.RACE_CARDS
    # A full table, or 4 cards of one animal, always triggers a race that clears it.
    assert sum(game.table) < hare.TABLE_MAX
    assert all(game.on_table(a) < hare.ANIMAL_MAX for a in range(len(hare.ANIMALS)))
    assert all(sum(hand) == hare.HAND_SIZE for hand in game.hands)
    assert all(n >= 0 for hand in game.hands for n in hand)
    finished = [a for a, p in enumerate(game.position) if p >= hare.FINISH]
    assert sorted(finished) == sorted(game.podium)


def expected_scores(result: dict) -> list[int]:
    """Scores recomputed from the bets and the podium, one bet card at a time."""
    points = dict(zip(result["podium"], hare.POINTS))
    return [sum(points.get(animal, 0) for animal in bets) for bets in result["bets"]]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_invariants(hare, players: int) -> None:
    draws = 0
    for seed in range(GAMES_PER_COUNT):
        result = hare.play_random_game(
            players, random.Random(seed * 10 + players), check_turn
        )
        if result["draw"]:
            # Only the step cap can end a game in a draw; then nobody wins.
            assert result["decisions"] >= hare.STEP_CAP
            assert result["winners"] == []
            draws += 1
            continue

        podium = result["podium"]
        assert len(podium) == 3
        assert len(set(podium)) == 3
        for animal, position in result["positions"].items():
            assert (position >= hare.FINISH) == (animal in podium)

        bets_per_player = 3 if players == 2 else 2
        assert [len(bets) for bets in result["bets"]] == [bets_per_player] * players
        assert result["scores"] == expected_scores(result)
        assert sum(result["scores"]) == sum(expected_scores(result))

        winners = result["winners"]
        assert winners
        top = max(result["scores"])
        assert all(result["scores"][seat] == top for seat in winners)
        assert result["turns"] == result["decisions"] - players
    # 5000 decisions is far beyond a real game (about 60 turns with 4 players).
    assert draws == 0


def test_tie_break_prefers_best_placed_bet(hare) -> None:
    game = hare.HareGame(3, random.Random(1))
    game.podium = [hare.FOX, hare.HARE, hare.SHEEP]
    game.over = True
    # Seat 0: 2nd + 3rd = 5; seat 1: 1st = 5; seat 2: 2nd + 3rd = 5 as well.
    game.bets = [
        [hare.HARE, hare.SHEEP],
        [hare.FOX, hare.WOLF],
        [hare.SHEEP, hare.HARE],
    ]
    result = game.result()
    assert result["scores"] == [5, 5, 5]
    assert result["winners"] == [1]
    # Same best place for all tied players: a shared win.
    game.bets = [
        [hare.HARE, hare.SHEEP],
        [hare.SHEEP, hare.HARE],
        [hare.WOLF, hare.TORTOISE],
    ]
    assert game.result()["winners"] == [0, 1]


def test_movement_rules(hare) -> None:
    game = hare.HareGame(4, random.Random(2))
    game.streams = {3, 7}
    game.position = [0, 0, 0, 0, 0]
    assert game.destination(hare.HARE, 4) == 2  # on the start line it never sleeps
    game.position = [5, 5, 2, 1, 0]
    assert game.destination(hare.HARE, 4) == 5  # leads (tied): sleeps
    assert game.destination(hare.HARE, 3) == 7
    assert game.destination(hare.HARE, 0) == 5
    game.position = [5, 6, 2, 1, 0]
    assert game.destination(hare.HARE, 4) == 7  # not leading
    game.podium = [hare.TORTOISE]
    assert game.destination(hare.HARE, 4) == 5  # leads among those still racing
    game.podium = []
    assert [game.destination(hare.TORTOISE, x) for x in range(5)] == [7, 7, 7, 7, 8]
    assert [game.destination(hare.WOLF, x) for x in range(5)] == [2, 3, 3, 4, 5]
    assert [game.destination(hare.FOX, x) for x in range(5)] == [1, 2, 3, 4, 5]
    assert [game.destination(hare.SHEEP, x) for x in range(5)] == [0, 2, 3, 3, 3]
    game.position[hare.SHEEP] = 3  # starting on a stream does not stop it again
    assert game.destination(hare.SHEEP, 4) == 7
    game.position[hare.SHEEP] = 8
    assert game.destination(hare.SHEEP, 4) == 13


def test_howl_race_moves_only_the_wolf(hare) -> None:
    game = hare.HareGame(4, random.Random(3))
    game.table[hare.C_HOWL] = 1
    game.table[hare.C_WOLF] = 1
    game.table[hare.C_FOX] = 3
    discarded = len(game.discard)
    game.race()
    assert game.position == [0, 0, 1, 0, 0]
    assert sum(game.table) == 0
    assert len(game.discard) == discarded + 5


def test_third_finisher_ends_race_at_once(hare) -> None:
    game = hare.HareGame(4, random.Random(4))
    game.position = [11, 11, 11, 11, 11]
    game.table[hare.C_HARE] = 1
    game.table[hare.C_FOX] = 2
    game.table[hare.C_SHEEP] = 1
    game.race()
    # Hare, tortoise (no card needed) and fox finish in movement order; the
    # wolf has no card, and the sheep would finish too but never moves.
    assert game.podium == [hare.HARE, hare.TORTOISE, hare.FOX]
    assert game.position[hare.SHEEP] == 11
    assert game.over


def test_legal_plays_are_distinct_multisets_within_limits(hare) -> None:
    game = hare.HareGame(4, random.Random(5))
    hand = game.hands[game.current]
    hand[:] = [0, 0, 2, 2, 0, 2]  # 2 wolf, 2 howl wolf, 2 sheep
    game.table[:] = [0, 0, 1, 0, 0, 2]
    plays = game.legal_plays()
    assert len(plays) == len(set(plays))
    wolf_plays = {
        (dict(p).get(hare.C_WOLF, 0), dict(p).get(hare.C_HOWL, 0)) for p in plays
    }
    wolf_plays.discard((0, 0))
    # Room: 5 on the table, 3 more wolves at most (1 already there).
    assert wolf_plays == {(1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2)}
    assert ((hare.C_SHEEP, 1),) in plays
    assert ((hare.C_SHEEP, 2),) in plays
    assert len(plays) == 9


def test_the_tuned_turn_plays_each_legal_play_for_its_number() -> None:
    """The tuned baseline counts the plays and works out the k-th: k = 0, 1, ... give legal_plays() in order."""
    import copy
    tuned = importlib.import_module("bench.hare_baseline")
    seen = 0
    for seed in range(30):
        game = tuned.HareGame(4, random.Random(seed))
        for _ in range(seed % 7):
            game.turn()
        plays = game.legal_plays()
        for k, play in enumerate(plays):
            trial = copy.deepcopy(game)
            hand = list(trial.hands[trial.current])
            numbers = iter([(k + 0.5) / len(plays)])
            real = trial.rand
            trial.rand = lambda numbers=numbers, real=real: next(numbers, None) or real()
            assert trial.turn()
            for ctype, n in play:
                hand[ctype] -= n
            played = trial.hands[game.current]
            assert [min(h, p) for h, p in zip(hand, played)] == hand, (seed, k, play)  # then drew back up
            seen += 1
    assert seen > 100


def test_the_tuned_baseline_plays_the_same_game_as_the_first() -> None:
    """Same rules, same random bots: over 3,000 games the length and the winners' scores agree."""
    tuned, old = (importlib.import_module(m) for m in BASELINES)
    stats = []
    for module in (tuned, old):
        rng = random.Random(11)
        games = [module.play_random_game(4, rng) for _ in range(3000)]
        stats.append((sum(g["turns"] for g in games) / 3000, sum(max(g["scores"]) for g in games) / 3000))
    (turns_a, best_a), (turns_b, best_b) = stats
    assert abs(turns_a - turns_b) < 0.03 * turns_b and abs(best_a - best_b) < 0.03 * best_b, stats


def test_the_bytecode_profile_counts_the_engine_and_the_baseline(capsys) -> None:
    """``bench/profile_playouts.py --bytecodes`` (the profile of the closing notes of issue 13):
    per game, the functions of each side and their bytecodes, which add up to the total."""
    profile = importlib.import_module("bench.profile_playouts")
    profile.main(["--bytecodes", "hare", "2", "1000"])  # (every function)
    out = capsys.readouterr().out
    sections = [s for s in out.split("\n\n") if s.strip()]
    assert [s.split(":")[0] for s in sections] == ["engine", "tuned baseline"]
    for section in sections:
        lines = section.splitlines()
        total = int(lines[0].split(":")[1].split()[0].replace(",", ""))
        rows = [int(line.split()[0].replace(",", "")) for line in lines[2:]]
        assert total > 1000 and abs(sum(rows) - total) <= len(rows), section  # (each row rounded)
    assert "turn_play" in sections[0] and "run (baseline)" in sections[1]
