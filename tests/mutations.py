"""What the mutation tests of every game share: a one-line change to a rules file, and the
check that the scenario of the changed rule then fails.

A mutation is (id, change, scenario): ``change`` turns the rules text into the altered text,
``scenario`` is a rule scenario taking the compiled game. ``assert_caught`` writes the altered
copy, checks that it still loads (so the failure is the rule's, not a syntax error's) and that
the scenario fails on it: an assertion fails, or the engine refuses a step it takes (an illegal move,
a rules error such as zero-sum returns that no longer add up to 0).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from meeple import IllegalAction, RuleRuntimeError

Change = Callable[[str], str]


def rep(old: str, new: str) -> Change:
    """Replace the one occurrence of ``old``."""
    def change(text: str) -> str:
        assert text.count(old) == 1, f"expected exactly one {old!r} in the rules file"
        return text.replace(old, new)
    return change


def assert_caught(tmp_path: Path, source: str, name: str, load: Callable, change: Change,
                  scenario: Callable) -> None:
    mutated = change(source)
    assert mutated != source
    path = tmp_path / name
    path.write_text(mutated)
    g = load(path)  # the altered rules are still a valid game
    with pytest.raises((AssertionError, IllegalAction, ValueError, RuleRuntimeError, pytest.fail.Exception)):
        scenario(g)


def assert_unique_ids(mutations: list[tuple]) -> None:
    assert len({m[0] for m in mutations}) == len(mutations)
