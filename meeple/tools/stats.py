"""The statistics ``meeple simulate`` shows with its counts: intervals, the seat test, length rows.

No scipy: a Wilson score interval, and the chi-square survival function for a whole number of
degrees of freedom, each a few lines of ``math``.

A shared win is split (two winners: half a win each), so a seat's wins may be fractional. Both
the interval and the seat test take the fractions as they are: a seat's result in one game is a
number in [0, 1] with mean p, whose variance is at most p(1 - p), a whole win's or loss's (the
variance of a number in [0, 1] is largest when it is 0 or 1). Split wins can only make the true
spread smaller, so the interval is at least as wide as it should be, and the seat test's
p-value at least as large: they may understate the evidence, never overstate it.
"""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile: a two-sided 95% interval
LEVEL = 0.05  # a p-value below it is read as evidence of a seat advantage
MIN_EXPECTED = 5  # the chi-square test wants at least this many expected wins a seat


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of the proportion ``k / n`` (``k`` may be fractional: see the
    module's note); None when ``n`` is 0."""
    if n <= 0:
        return None
    p = min(max(k / n, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` (a whole number >= 1) degrees of freedom.

    Even df = 2m: e^(-x/2) * sum over i < m of (x/2)^i / i!. Odd df = 2m + 1: erfc(sqrt(x/2)) plus
    e^(-x/2) * sum over 1 <= i <= m of (x/2)^(i - 1/2) / Gamma(i + 1/2). The terms are summed as
    logarithms, so a large x gives 0, not an overflow."""
    if df < 1 or df != int(df):
        raise ValueError(f"degrees of freedom must be a whole number >= 1, not {df}")
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        terms = (i * math.log(h) - math.lgamma(i + 1) for i in range(df // 2))
        total = 0.0
    else:
        terms = ((i - 0.5) * math.log(h) - math.lgamma(i + 0.5) for i in range(1, df // 2 + 1))
        total = math.erfc(math.sqrt(h))
    total += sum(math.exp(t - h) for t in terms)
    return min(1.0, total)


def seat_balance(wins: list[float], decided: int) -> dict[str, Any]:
    """The chi-square goodness-of-fit test of the seats' wins against equal shares, over the
    ``decided`` games that had a winner (``sum(wins)``: shared wins split). ``chi2`` and ``p``
    are None when there is nothing to test or too few games (fewer than ``MIN_EXPECTED``
    expected wins a seat)."""
    seats = len(wins)
    out: dict[str, Any] = {"chi2": None, "df": max(0, seats - 1), "p": None, "games": decided}
    if seats < 2 or decided <= 0 or decided / seats < MIN_EXPECTED:
        return out
    expected = decided / seats
    chi2 = sum((w - expected) ** 2 for w in wins) / expected
    out["chi2"] = round(chi2, 4)
    out["p"] = float(f"{chi2_sf(chi2, seats - 1):.4g}")
    return out


def p_text(p: float) -> str:
    """``p = 0.41``, ``p = 0.003``, ``p < 0.001``; never rounded across the 0.05 line."""
    if p < 0.001:
        return "p < 0.001"
    text = f"{p:.2f}" if p >= 0.1 else f"{p:.3f}"
    digits = 4
    while p < LEVEL <= float(text) and digits < 12:  # (0.04999 is not shown as 0.0500)
        text = f"{p:.{digits}f}"
        digits += 1
    return f"p = {text}"


def balance_sentence(test: dict[str, Any], wins: list[float], draws: int) -> str:
    """``seat balance: ...``, one sentence for the test ``seat_balance`` made."""
    seats, decided = len(wins), test["games"]
    left_out = f"; {draws:,} draw{'s' if draws != 1 else ''} left out" if draws else ""
    if seats < 2:
        return "seat balance: one seat, nothing to compare"
    if decided <= 0:
        return f"seat balance: no game had a winner, nothing to test{f' ({draws:,} draws)' if draws else ''}"
    games = f"{decided:,} game{'s' if decided != 1 else ''} with a winner"
    if test["p"] is None:
        need = math.ceil(MIN_EXPECTED * seats)
        return (f"seat balance: the test needs more games: {decided:,} with a winner, at least {need:,} "
                f"({MIN_EXPECTED} a seat){left_out.replace(';', ',')}")
    if test["p"] >= LEVEL:
        return f"seat balance: no evidence of a seat advantage ({p_text(test['p'])}, {games}{left_out})"
    expected = decided / seats
    # the seat furthest from its share; of two as far (as with 2 seats), the one that wins more
    seat = max(range(seats), key=lambda s: (round(abs(wins[s] - expected), 6), wins[s] > expected))
    more = "more" if wins[seat] > expected else "less"
    return (f"seat balance: seat {seat} wins {more} than its share: {100 * wins[seat] / decided:.1f}% of "
            f"{games}, against {100 / seats:.1f}% if even ({p_text(test['p'])}{left_out})")


def rank_value(counts: dict[int, int], rank: int) -> int:
    """The value at ``rank`` (1-based) of the values counted ``{value: how many}``, in order."""
    seen = 0
    for value, count in sorted(counts.items()):
        seen += count
        if seen >= rank:
            return value
    raise ValueError(f"rank {rank} is past the {seen} values counted")


def percentile(counts: dict[int, int], q: float) -> int | None:
    """The nearest-rank ``q``-th percentile (0 < q <= 100) of the values counted: the least value
    that at least ``q``% of them do not exceed; None when nothing is counted."""
    n = sum(counts.values())
    return rank_value(counts, max(1, math.ceil(q / 100 * n))) if n else None


def length_rows(counts: dict[int, int], most: int = 12) -> list[tuple[int, int, int]]:
    """The rows of a histogram of game lengths, ``(first, last, games)``: bins of one width, at a
    multiple of it, at most ``most`` rows. When the 1% longest and shortest games stretch the range
    to more than twice the rest, they get a row of their own at each end (of whatever width)."""
    if not counts:
        return []
    lo, hi = min(counts), max(counts)
    a, b = percentile(counts, 1), percentile(counts, 99)
    assert a is not None and b is not None
    tails = hi - lo + 1 > 2 * (b - a + 1)
    if not tails:
        a, b = lo, hi
    room = most - 2 * tails
    width = 1
    while b // width - a // width + 1 > room:
        width += 1
    start, end = a // width * width, (b // width + 1) * width - 1
    edges = [(s, s + width - 1) for s in range(start, end + 1, width)]
    if tails and lo < start:
        edges.insert(0, (lo, start - 1))
    if tails and hi > end:
        edges.append((end + 1, hi))
    return [(f, t, sum(c for v, c in counts.items() if f <= v <= t)) for f, t in edges]
