"""The corpus of mistakes (tests/fixtures/mistakes/, format in tests/mistakes.py): every case
gives its stated exit status, names its place and says its message, within 500 MB of address
space and 20 s, and never a traceback or "internal error"."""

from __future__ import annotations

from pathlib import Path

import pytest

from mistakes import cases, problems, read_case, run_case

CASES = cases()


def test_the_corpus_covers_every_command() -> None:
    read = [read_case(p) for p in CASES]
    assert len(read) >= 80
    commands = {c.command[0] for c in read}
    assert commands >= {"validate", "ir", "simulate", "fuzz", "fmt", "diff", "replay", "play"}, commands
    assert {c.exit for c in read} >= {0, 1, 2}
    assert all(c.exit != 3 for c in read)  # 3 is a bug in meeple: never the right answer


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_mistake(path: Path, tmp_path: Path) -> None:
    case = read_case(path)
    outcome = run_case(case, tmp_path / "case")
    wrong = problems(case, outcome)
    assert not wrong, f"{case.title}\n{'; '.join(wrong)}\n--- output:\n{outcome.output}"


@pytest.mark.parametrize("name", ["001-keyword-typo-turn", "054-record-missing-file", "061-games-zero",
                                  "073-play-gibberish"])
def test_a_case_forked_from_the_server_answers_as_a_new_process_does(name: str, tmp_path: Path) -> None:
    # (the corpus runs forked, tests/forkserver.py; a user runs a new process)
    case = read_case(next(p for p in CASES if p.stem == name))
    fresh, forked = run_case(case, tmp_path / "fresh", fresh=True), run_case(case, tmp_path / "forked", fresh=False)
    assert (forked.code, forked.output) == (fresh.code, fresh.output)
