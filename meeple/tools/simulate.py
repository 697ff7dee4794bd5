"""Many games between random players, on every core, summed up.

    from meeple.tools.simulate import simulate
    summary = simulate("games/x.rules", games=1000, players=4, seed=1)

Game ``i`` (0-based) is seeded from ``(seed, i)`` alone, both its chance and its
players' choices, and results are combined in game order: the same seed gives
the same summary whatever the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .bots import RandomBot, derive_seed
from .events import turns_played
from .limits import MAX_GAMES, GameTooLong, cores, time_limit
from .stats import percentile, rank_value, seat_balance, wilson

# outcome kinds of one game
END, STEP_CAP, STUCK, ERROR = "end", "step cap", "stuck", "error"

_worker: dict[str, Any] = {}


def game_seeds(seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """The chance seed and one bot seed per seat for game ``index`` of a run seeded ``seed``."""
    return derive_seed(seed, index, "chance"), [derive_seed(seed, index, "seat", s) for s in range(players)]


def play_one(game: Any, players: int, seed: int, index: int, records_dir: str | None = None,
             rules: str | None = None) -> tuple:
    """Play game ``index`` between random bots; returns (kind, turns, win shares, n_winners, reports, error,
    the rules' returns or None); the turns count the one the game ended in (``events.turns_played``)."""
    from meeple.interpreter.state import CHANCE, TERMINAL

    chance_seed, bot_seeds = game_seeds(seed, index, players)
    bots = [RandomBot(s) for s in bot_seeds]
    state = None
    try:
        with time_limit():
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
        if records_dir is not None:
            _write(records_dir, index, game, state, rules)
        if state.outcome is None:
            return (STUCK, turns_played(state), None, 0, None, None, None)
        if state.outcome not in ("end", "draw"):
            return (STEP_CAP, turns_played(state), None, 0, None, None, None)
        winners = state.winners()  # (the score and the reports are rules too: they may fail)
        reports = tuple(game.report_values(state).items())
        declared = tuple(state.returns()) if game.declared_returns is not None else None
        return (END, turns_played(state), tuple(state.win_shares()), len(winners), reports, None, declared)
    except Exception as e:  # noqa: BLE001 -- a rule that fails at run time, or an engine bug: count it, keep going
        from meeple.dsl.diagnostics import RuleRuntimeError
        what = "a rule failed" if isinstance(e, RuleRuntimeError) else "stopped" if isinstance(e, GameTooLong) \
            else f"{type(e).__name__} (not a rule's failure: a bug in meeple, please report it)"
        error = f"game {index + 1} (seed {seed}): {what}: {e}"
        if records_dir is not None and state is not None:
            try:
                _write(records_dir, index, game, state, rules)
            except Exception:  # noqa: BLE001 -- the record of a game that failed is a help, not a must
                pass
        return (ERROR, turns_played(state) if state is not None else 0, None, 0, None, error, None)


def record_path(records_dir: str, index: int) -> Path:
    return Path(records_dir) / f"game-{index + 1:05d}.jsonl"


def _write(records_dir: str, index: int, game: Any, state: Any, rules: str | None) -> None:
    from .records import write_record
    write_record(record_path(records_dir, index), game, state, game.params, rules)


# ---- workers ----
def _init_worker(path: str, params: dict[str, int], players: int, seed: int, records_dir: str | None) -> None:
    """A worker's game: the one its parent had loaded when it forked, else loaded again (a worker
    started afresh, as on macOS and Windows)."""
    if _worker.get("task") == (path, params, players, seed, records_dir):
        return
    from meeple.interpreter import load
    _worker.update(game=load(path, params or None), path=path, players=players, seed=seed, records_dir=records_dir,
                   task=(path, params, players, seed, records_dir))


def _run_chunk(bounds: tuple[int, int]) -> tuple[int, list[tuple]]:
    w = _worker
    start, stop = bounds
    return start, [play_one(w["game"], w["players"], w["seed"], i, w["records_dir"], w["path"])
                   for i in range(start, stop)]


CHUNK_MOST = 256  # games per task at most: a task costs the parent about a millisecond of its core


def plan(games: int, workers: int | None) -> tuple[int, int]:
    """The games per task and the number of processes actually used (at most the cores): at
    least 8 tasks per process, so that they end together, and at most ``CHUNK_MOST`` games each."""
    workers = max(1, min(workers if workers is not None else cores(), cores()))
    chunk = max(1, min(CHUNK_MOST, math.ceil(games / (workers * 8)))) if games else 1
    return chunk, max(1, min(workers, math.ceil(games / chunk)))


def simulate(path: str, games: int = 100, players: int | None = None, seed: int = 0,
             workers: int | None = None, params: dict[str, int] | None = None,
             records_dir: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` random games of the rules at ``path`` and summarise them.

    Raises ``dsl.RulesError`` when the rules do not load (or the player count does not fit).
    ``progress(done, total)`` is called as games finish. ``players`` defaults to the game's minimum.
    Memory does not grow with ``games``: tasks are handed out a few at a time and each result is
    added to a ``Tally`` in game order (so the summary is the same whatever the workers)."""
    return simulate_tally(path, games, players, seed, workers, params, records_dir, progress).summary(path, seed)


def simulate_tally(path: str, games: int = 100, players: int | None = None, seed: int = 0,
                   workers: int | None = None, params: dict[str, int] | None = None,
                   records_dir: str | None = None,
                   progress: Callable[[int, int], None] | None = None) -> Tally:
    """``simulate``'s games, as the ``Tally`` they make (its ``lengths``, the histogram of game
    lengths, are not in the summary)."""
    from meeple.interpreter import load
    from meeple.interpreter.game import check_players

    if not 0 <= games <= MAX_GAMES:
        raise ValueError(f"the number of games must be 0..{MAX_GAMES:,}, not {games}")
    params = dict(params or {})
    game = load(path, params or None)
    players = game.min_players if players is None else players
    check_players(game, players)
    if records_dir is not None:
        Path(records_dir).mkdir(parents=True, exist_ok=True)
    chunk, workers = plan(games, workers)
    tasks = ((s, min(s + chunk, games)) for s in range(0, games, chunk))
    tally = Tally(game, players)
    if progress is not None:
        progress(0, games)
    # This process's game, for the games played here, and for the workers: a worker forked from
    # it has it already (the load it saves is a tenth of a second per worker).
    _worker.update(game=game, path=path, players=players, seed=seed, records_dir=records_dir,
                   task=(path, params, players, seed, records_dir))

    def report() -> None:
        if progress is not None:
            progress(tally.games, games)

    try:
        if workers <= 1:
            for task in tasks:
                tally.add_all(_run_chunk(task)[1])
                report()
        else:
            _play_in_workers(tasks, workers, tally, (path, params, players, seed, records_dir), report)
    finally:
        _worker.clear()
    return tally


def _play_in_workers(tasks: Iterator[tuple[int, int]], workers: int, tally: Tally, task: tuple,
                     progress: Callable[[], None]) -> None:
    """The tasks played by a pool of ``workers`` processes, their results added in game order."""
    import multiprocessing
    from collections import deque
    with multiprocessing.Pool(workers, _init_worker, task) as pool:
        pending: deque = deque()  # in game order; a few per worker at a time
        for bounds in tasks:
            pending.append(pool.apply_async(_run_chunk, (bounds,)))
            while len(pending) >= workers * 4 or (pending and pending[0].ready()):
                tally.add_all(pending.popleft().get()[1])
                progress()
        while pending:
            tally.add_all(pending.popleft().get()[1])
            progress()


class Tally:
    """The summary of the games so far, in bounded memory: counts, and a histogram of game lengths
    (the median comes from it). Results must be added in game order."""

    def __init__(self, game: Any, players: int):
        self.game, self.players = game, players
        self.games = 0
        self.kinds = {END: 0, STEP_CAP: 0, STUCK: 0, ERROR: 0}
        self.draws = self.shared = 0
        self.lengths: dict[int, int] = {}  # turns of a completed game -> games
        self.wins = [0.0] * players
        self.returns = [0.0] * players if game.declared_returns is not None else None  # the rules' returns, summed
        self.reports: dict[str, dict[str, int]] = {label: {} for label, _, _ in game.reports}
        self.first_error: str | None = None

    def add_all(self, results: list[tuple]) -> None:
        for r in results:
            self.add(r)

    def add(self, result: tuple) -> None:
        kind, turns, shares, n_winners, reports, error, returns = result
        self.games += 1
        self.kinds[kind] += 1
        if kind == ERROR and self.first_error is None:
            self.first_error = error
        if kind != END:
            return
        self.lengths[turns] = self.lengths.get(turns, 0) + 1
        self.draws += n_winners == 0
        self.shared += n_winners > 1
        for s, x in enumerate(shares):
            self.wins[s] += x
        if returns is not None and self.returns is not None:
            for s, x in enumerate(returns):
                self.returns[s] += x
        for label, value in reports:
            key = value if isinstance(value, str) else _json_key(value)
            tally = self.reports.setdefault(label, {})
            tally[key] = tally.get(key, 0) + 1

    def _median(self) -> float | None:
        completed = self.kinds[END]
        if not completed:
            return None
        lo, hi = rank_value(self.lengths, (completed + 1) // 2), rank_value(self.lengths, completed // 2 + 1)
        return lo if completed % 2 else (lo + hi) / 2  # as statistics.median

    def summary(self, path: str, seed: int) -> dict[str, Any]:
        """The counts, with (since 0.2.0) a 95% interval on every share and the seat test: see
        ``stats``. The keys scripts read are never changed or removed; new ones are added."""
        n, completed = self.games, self.kinds[END]
        total_turns = sum(t * c for t, c in self.lengths.items())
        reports = {label: dict(sorted(t.items(), key=lambda kv: (-kv[1], kv[0]))) for label, t in self.reports.items()}
        return {
            "rules": path,
            "title": self.game.title,
            "params": dict(self.game.params),
            "players": self.players,
            "seed": seed,
            "games": n,
            "completed": completed,
            "draws": self.draws,
            "shared": self.shared,
            "step_capped": self.kinds[STEP_CAP],
            "stuck": self.kinds[STUCK],
            "errors": self.kinds[ERROR],
            "first_error": self.first_error,
            "turns": {
                "mean": round(total_turns / completed, 3) if completed else None,
                "median": self._median(),
                "max": max(self.lengths) if self.lengths else None,
                "p10": percentile(self.lengths, 10),  # (nearest rank: 10% of the games ended by this turn)
                "p90": percentile(self.lengths, 90),
            },
            "wins_by_seat": [round(w, 6) for w in self.wins],
            "win_share_by_seat": [round(w / n, 6) if n else 0.0 for w in self.wins],
            # the mean of the rules' returns(p) over the completed games (None: the rules declare none)
            "mean_returns_by_seat": None if self.returns is None else
            [round(r / completed, 6) if completed else 0.0 for r in self.returns],
            "reports": reports,
            # the 95% Wilson interval of each share above (a shared win counts as its fraction; None: no games)
            "win_share_interval_by_seat": [_interval(w, n) for w in self.wins],
            "report_share_intervals": {label: {value: _interval(count, sum(t.values())) for value, count in t.items()}
                                       for label, t in reports.items()},
            # chi-square test of the wins against equal shares, over the completed games with a winner
            "seat_balance": seat_balance([round(w, 6) for w in self.wins], completed - self.draws),
        }


def summarise(results: list[tuple], game: Any, path: str, players: int, seed: int) -> dict[str, Any]:
    """Combine per-game results (in game order) into the summary."""
    tally = Tally(game, players)
    tally.add_all(results)
    return tally.summary(path, seed)


def _interval(k: float, n: int) -> list[float] | None:
    bounds = wilson(k, n)
    return None if bounds is None else [round(bounds[0], 6), round(bounds[1], 6)]


def _json_key(value: Any) -> str:
    import json
    return json.dumps(value)
