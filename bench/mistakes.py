"""Benchmark: how long and how much memory each case of the corpus of mistakes takes.

Usage::

    python bench/mistakes.py [--slowest N] [--json]

Runs every case of tests/fixtures/mistakes/ one after the other (as ``tests/test_mistakes.py``
does, but each in a fresh Python process, as a user runs it: 500 MB of address space, 20 s at
most) and prints the slowest cases' wall time and peak resident memory, and whether each gave
its stated answer. Target: every case well under 2 s and 500 MB. Exits 1 when a case gives a
wrong answer or misses the target.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mistakes import cases, problems, read_case, run_case  # noqa: E402

TIME_TARGET_S = 2.0
MEMORY_TARGET_MB = 500


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slowest", type=int, default=10, help="cases to list (default 10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in cases():
            case = read_case(path)
            outcome = run_case(case, Path(tmp) / case.name, fresh=True)
            rows.append({"case": case.name, "command": case.command[0], "seconds": round(outcome.seconds, 3),
                         "peak_mb": round(outcome.peak_kib / 1024, 1), "wrong": problems(case, outcome)})
    rows.sort(key=lambda r: -r["seconds"])
    wrong = [r for r in rows if r["wrong"]]
    over = [r for r in rows if r["seconds"] >= TIME_TARGET_S or r["peak_mb"] >= MEMORY_TARGET_MB]
    if args.json:
        print(json.dumps({"cases": len(rows), "slowest": rows[:args.slowest], "wrong": wrong,
                          "targets": {"seconds": TIME_TARGET_S, "peak_mb": MEMORY_TARGET_MB}}, indent=2))
    else:
        total = sum(r["seconds"] for r in rows)
        print(f"corpus of mistakes: {len(rows)} cases, {total:.1f} s in all; "
              f"slowest {min(args.slowest, len(rows))} (target: each < {TIME_TARGET_S:g} s and "
              f"< {MEMORY_TARGET_MB} MB):")
        print(f"  {'case':<44} {'command':<9} {'seconds':>8} {'peak MB':>8}")
        for r in rows[:args.slowest]:
            print(f"  {r['case']:<44} {r['command']:<9} {r['seconds']:>8.2f} {r['peak_mb']:>8.1f}")
        print(f"  largest peak: {max(r['peak_mb'] for r in rows):.1f} MB "
              f"({max(rows, key=lambda r: r['peak_mb'])['case']})")
        for r in wrong:
            print(f"  WRONG {r['case']}: {'; '.join(r['wrong'])}")
    return 1 if wrong or over else 0


if __name__ == "__main__":
    sys.exit(main())
