"""How much work a command takes on: every limit of the tools in one place (the language's
are in ``meeple.dsl.limits``). Each is checked before the work it bounds, so that a mistyped
``--games 10000000000`` is an argument error at once, not 4 GB of memory later.

docs/errors.md lists them for users.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

MAX_GAMES = 100_000_000  # meeple simulate --games (a summary is a few counters whatever the number)
MAX_RECORDED_GAMES = 100_000  # meeple simulate --records: one file per game
MAX_EXAMPLES = 1_000_000  # meeple fuzz --examples
MAX_SHRINK_SECONDS = 3_600  # meeple fuzz --shrink-time
MAX_SEED = 2**64 - 1  # --seed is a whole number in -MAX_SEED..MAX_SEED
MAX_ARGUMENT_DIGITS = 30  # digits of any number typed on the command line or as a move
MAX_RECORD_BYTES = 50_000_000  # a record read by meeple replay
MAX_RECORD_PARAMS = 1_000  # params named in a record's header
MAX_RECORD_LINES = 1_000_002  # its lines: a header, one per step (a game's max_steps is at most 10**6), a result
MAX_MOVE_CHARS = 1_000  # a move typed in meeple play
MAX_PACE_SECONDS = 60  # meeple play --watch --pace: seconds between two moves
# Seconds one game may run in simulate or replay: each step's loops are bounded, and so are the
# steps, but a valid game may still loop a million times between two decisions, a million times.
MAX_GAME_SECONDS = 600


def cores() -> int:
    """The cores this process may run on (a container may allow fewer than the machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class GameTooLong(Exception):
    """A game ran past ``MAX_GAME_SECONDS``."""


@contextlib.contextmanager
def time_limit(seconds: float = MAX_GAME_SECONDS) -> Iterator[None]:
    """Raise ``GameTooLong`` in the code run inside, past ``seconds`` of wall time (a timer
    signal: in the main thread of a process on Unix; elsewhere there is no limit)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def too_long(signum: int, frame: Any) -> None:
        raise GameTooLong(f"the game ran for more than {seconds:,} s without ending (its rules may loop a long "
                          f"time between decisions)")
    before = signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
