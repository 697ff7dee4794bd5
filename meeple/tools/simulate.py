"""Many games between random players, on every core, summed up.

    from meeple.tools.simulate import simulate
    summary = simulate("games/x.rules", games=1000, players=4, seed=1)

Game ``i`` (0-based) is seeded from ``(seed, i)`` alone, both its chance and its
players' choices, and results are combined in game order: the same seed gives
the same summary whatever the number of workers.
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .bots import RandomBot, derive_seed

# outcome kinds of one game
END, STEP_CAP, STUCK, ERROR = "end", "step cap", "stuck", "error"

_worker: dict[str, Any] = {}


def game_seeds(seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """The chance seed and one bot seed per seat for game ``index`` of a run seeded ``seed``."""
    return derive_seed(seed, index, "chance"), [derive_seed(seed, index, "seat", s) for s in range(players)]


def play_one(game: Any, players: int, seed: int, index: int, records_dir: str | None = None,
             rules: str | None = None) -> tuple:
    """Play game ``index`` between random bots; returns (kind, turns, returns, n_winners, reports, error)."""
    from meeple.interpreter.state import CHANCE, TERMINAL

    chance_seed, bot_seeds = game_seeds(seed, index, players)
    bots = [RandomBot(s) for s in bot_seeds]
    state = None
    try:
        state = game.new_state(players, seed=chance_seed)
        while True:
            seat = state.current_player()
            if seat == TERMINAL:
                break
            if seat == CHANCE:  # a seeded state samples chance itself; never expected here
                raise RuntimeError("a seeded game stopped at a chance node")
            legal = state.legal_actions()
            if not legal:
                break
            state.apply(bots[seat].rng.choice(legal))
    except Exception as e:  # noqa: BLE001 -- a rule that fails at run time, or an engine bug: count it, keep going
        error = f"game {index + 1}: {type(e).__name__}: {e}"
        if records_dir is not None and state is not None:
            _write(records_dir, index, game, state, rules)
        return (ERROR, state.turns if state is not None else 0, None, 0, None, error)
    if records_dir is not None:
        _write(records_dir, index, game, state, rules)
    if state.outcome is None:
        return (STUCK, state.turns, None, 0, None, None)
    if state.outcome not in ("end", "draw"):
        return (STEP_CAP, state.turns, None, 0, None, None)
    winners = state.winners()
    reports = tuple(game.report_values(state).items())
    return (END, state.turns, tuple(state.returns()), len(winners), reports, None)


def record_path(records_dir: str, index: int) -> Path:
    return Path(records_dir) / f"game-{index + 1:05d}.jsonl"


def _write(records_dir: str, index: int, game: Any, state: Any, rules: str | None) -> None:
    from .records import write_record
    write_record(record_path(records_dir, index), game, state, game.params, rules)


# ---- workers ----
def _init_worker(path: str, params: dict[str, int], players: int, seed: int, records_dir: str | None) -> None:
    from meeple.interpreter import load
    _worker.update(game=load(path, params or None), path=path, players=players, seed=seed, records_dir=records_dir)


def _run_chunk(bounds: tuple[int, int]) -> tuple[int, list[tuple]]:
    w = _worker
    start, stop = bounds
    return start, [play_one(w["game"], w["players"], w["seed"], i, w["records_dir"], w["path"])
                   for i in range(start, stop)]


def plan(games: int, workers: int | None) -> tuple[list[tuple[int, int]], int]:
    """The chunks of game numbers [start, stop) and the number of processes actually used."""
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    chunk = max(1, min(64, math.ceil(games / (workers * 8)))) if games else 1
    tasks = [(s, min(s + chunk, games)) for s in range(0, games, chunk)]
    return tasks, max(1, min(workers, len(tasks)))


def simulate(path: str, games: int = 100, players: int | None = None, seed: int = 0,
             workers: int | None = None, params: dict[str, int] | None = None,
             records_dir: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` random games of the rules at ``path`` and summarise them.

    Raises ``dsl.RulesError`` when the rules do not load (or the player count does not fit).
    ``progress(done, total)`` is called as games finish. ``players`` defaults to the game's minimum."""
    from meeple.interpreter import load
    from meeple.interpreter.game import check_players

    if games < 0:
        raise ValueError("the number of games cannot be negative")
    params = dict(params or {})
    game = load(path, params or None)
    players = game.min_players if players is None else players
    check_players(game, players)
    if records_dir is not None:
        Path(records_dir).mkdir(parents=True, exist_ok=True)
    tasks, workers = plan(games, workers)
    by_start: dict[int, list[tuple]] = {}
    done = 0
    if progress is not None:
        progress(0, games)
    if workers <= 1:
        _worker.update(game=game, path=path, players=players, seed=seed, records_dir=records_dir)
        for task in tasks:
            start, results = _run_chunk(task)
            by_start[start] = results
            done += len(results)
            if progress is not None:
                progress(done, games)
        _worker.clear()
    else:
        import multiprocessing
        with multiprocessing.Pool(workers, _init_worker, (path, params, players, seed, records_dir)) as pool:
            for start, results in pool.imap_unordered(_run_chunk, tasks):
                by_start[start] = results
                done += len(results)
                if progress is not None:
                    progress(done, games)
    results = [r for start in sorted(by_start) for r in by_start[start]]
    return summarise(results, game, path, players, seed)


def summarise(results: list[tuple], game: Any, path: str, players: int, seed: int) -> dict[str, Any]:
    """Combine per-game results (in game order) into the summary."""
    n = len(results)
    kinds = [r[0] for r in results]
    completed = [r for r in results if r[0] == END]
    turns = [r[1] for r in completed]
    wins = [0.0] * players
    for r in completed:
        for s, x in enumerate(r[2]):
            wins[s] += x
    labels = [label for label, _, _ in game.reports]
    tallies: dict[str, dict[str, int]] = {label: {} for label in labels}
    for r in completed:
        for label, value in r[4]:
            key = value if isinstance(value, str) else _json_key(value)
            tally = tallies.setdefault(label, {})
            tally[key] = tally.get(key, 0) + 1
    errors = [r[5] for r in results if r[0] == ERROR]
    return {
        "rules": path,
        "title": game.title,
        "params": dict(game.params),
        "players": players,
        "seed": seed,
        "games": n,
        "completed": len(completed),
        "draws": sum(1 for r in completed if r[3] == 0),
        "shared": sum(1 for r in completed if r[3] > 1),
        "step_capped": kinds.count(STEP_CAP),
        "stuck": kinds.count(STUCK),
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "turns": {
            "mean": round(statistics.fmean(turns), 3) if turns else None,
            "median": statistics.median(turns) if turns else None,
            "max": max(turns) if turns else None,
        },
        "wins_by_seat": [round(w, 6) for w in wins],
        "win_share_by_seat": [round(w / n, 6) if n else 0.0 for w in wins],
        "reports": {label: dict(sorted(t.items(), key=lambda kv: (-kv[1], kv[0]))) for label, t in tallies.items()},
    }


def _json_key(value: Any) -> str:
    import json
    return json.dumps(value)
