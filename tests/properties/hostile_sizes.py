"""Hostile sizes, run in a process of its own with its address space capped (``RLIMIT_AS``), so
that a case that would allocate without bound fails with ``MemoryError`` here instead of
swapping the machine: ``python tests/properties/hostile_sizes.py WORKDIR`` prints one JSON line
per case, ``{"case": ..., "outcome": ..., "line": ..., "col": ..., "message": ...}``; the
outcome is the exception's class name, or "played" when the game loaded and played.

Used by tests/properties/test_hostile_input.py, which says what each case must give.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import traceback
from pathlib import Path
from typing import Callable

MEMORY_CAP = 1536 * 2**20  # bytes of address space: the interpreter, lark and a game fit ten times over

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from hostile import HOST, HOST_END, HOST_TURN, play, sized  # noqa: E402


def big_file(path: Path) -> None:
    """50 MB: a game, then comment lines."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(HOST)
        line = "# " + "x" * 98 + "\n"
        f.write(line * (50 * 2**20 // len(line)))


def nested_ifs(ir: dict, n: int) -> str:
    """The IR with its turn inside ``n`` ifs (each two JSON levels deeper)."""
    body = ir["turn"]
    for _ in range(n):
        body = [{"node": "if", "test": {"node": "bool", "value": True}, "body": body, "else_": []}]
    return json.dumps({**ir, "turn": body})


def cases(work: Path) -> dict[str, Callable[[], Path]]:
    """Case name → writes the case's file and returns its path."""
    def text(name: str, content: str, suffix: str = ".rules") -> Callable[[], Path]:
        def make() -> Path:
            path = work / f"{name}{suffix}"
            path.write_text(content, encoding="utf-8")
            return path
        return make

    def made(name: str, writer: Callable[[Path], None], suffix: str = ".rules") -> Callable[[], Path]:
        def make() -> Path:
            path = work / f"{name}{suffix}"
            writer(path)
            return path
        return make

    from meeple.dsl import ir_from_text
    ir = json.dumps(ir_from_text(HOST, "mini.rules"))
    return {
        "deck_of_a_billion_cards": text("deck", sized("deck", 10**9)),
        "track_of_ten_million_spaces": text("track", sized("track", 10**7)),
        "parens_ten_thousand_deep": text("parens", sized("parens", 10**4)),
        "ifs_ten_thousand_deep": text("ifs", sized("ifs", 10**4)),
        "not_ten_thousand_times": text("nots", sized("nots", 10**4)),
        "else_if_ten_thousand_times": text("else_if", sized("else_if", 10**4)),
        "file_of_50_mb": made("big", big_file),
        "line_of_a_million_characters": text("line", HOST.replace("var roll = 0", "var roll = " + "1 + " * 250_000
                                                                  + "1", 1)),
        "number_10_to_the_100": text("number", sized("number", 10**100)),
        "number_of_5000_digits": text("digits", HOST.replace("var roll = 0", "var roll = " + "9" * 5000, 1)),
        "define_chain_3000_long": text("chain", sized("define_chain", 3000)),
        "define_doubling_40_times": text("doubling", sized("define_doubling", 40)),
        "phase_chain_3000_long": text("phases", sized("phase_chain", 3000)),
        "aggregates_70_deep": text("aggregates", sized("aggregates", 70)),
        "aggregates_20_deep": text("aggregates20", sized("aggregates", 20)),
        "five_thousand_unused_vars": text("unused", HOST + "".join(f"var unused{i} = {i}\n" for i in range(5000))),
        "three_thousand_unknown_names": text("unknown", sized("unknown_names", 3000)),
        "range_of_10_to_the_12": text("range", sized("range", 10**12)),
        "range_of_10_to_the_12_at_run_time": text("runtime_range", HOST.replace(
            "set roll = random 1..3", "set roll = random 1..3\n  set roll = random 1..(roll * 1000000000000)", 1)),
        "var_squared_every_turn": text("square", HOST.replace("var roll = 0", "var roll = 0\nvar big = 2", 1).replace(
            HOST_TURN, HOST_TURN + "  set big = big * big\n", 1).replace(HOST_END, "end when big < 0", 1)),
        "current_set_to_no_seat": text("current", HOST.replace(HOST_TURN, HOST_TURN + "  set current = players + 6\n",
                                                               1)),
        "ir_number_of_5000_digits": text("ir_digits", ir.replace('"max_steps": 300', '"max_steps": 1' + "0" * 5000),
                                         ".json"),
        "ir_float": text("ir_float", ir.replace('"max_steps": 300', '"max_steps": 300.0'), ".json"),
        "ir_nested_100000_deep": text("ir_deep", "[" * 100_000 + "]" * 100_000, ".json"),
        "ir_nested_300_deep": text("ir_deep300", nested_ifs(json.loads(ir), 150), ".json"),
    }


def run(name: str, make: Callable[[], Path]) -> dict:
    import meeple
    from meeple.dsl import RulesError
    from meeple.dsl.diagnostics import RuleRuntimeError
    out: dict = {"case": name}
    try:
        path = make()
        game = meeple.load(str(path))
        for seed in range(3):
            play(game, seed)
        out["outcome"] = "played"
    except RulesError as e:
        first = min((d for d in e.diagnostics if d.kind == "error"), key=lambda d: (d.line, d.col))
        out.update(outcome=type(e).__name__, line=first.line, col=first.col, path=first.path, message=first.message)
    except RuleRuntimeError as e:
        out.update(outcome="RuleRuntimeError", message=str(e))
    except BaseException as e:  # noqa: B036 - reported, not swallowed: the test fails on it
        out.update(outcome=type(e).__name__, message="".join(traceback.format_exception(e))[-2000:])
    return out


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    work = Path(sys.argv[1])
    os.environ["MEEPLE_NO_CACHE"] = "1"
    for name, make in cases(work).items():
        print(json.dumps(run(name, make)), flush=True)


if __name__ == "__main__":
    main()
