"""docs/errors.md is what users read about exit statuses and limits: it is held to the code."""

from __future__ import annotations

import re
from pathlib import Path

import meeple.dsl.limits as language
import meeple.tools.limits as tools
from meeple.dsl.variants import MAX_CHAIN
from meeple.tools.cli import build_parser

DOC = (Path(__file__).resolve().parents[1] / "docs" / "errors.md").read_text(encoding="utf-8")
INTERNAL = {"MAX_SUGGESTION_WORK"}  # a bound on the work of 'did you mean', not on the input


def test_every_limit_is_in_the_doc_with_its_value() -> None:
    for module in (language, tools):
        for name, value in vars(module).items():
            if name.startswith("MAX_") and name not in INTERNAL:
                assert f"{value:,}" in DOC, f"{module.__name__}.{name} = {value:,} is not in docs/errors.md"
    assert f"| variants of variants | {MAX_CHAIN} |" in DOC


def test_every_command_has_its_exit_status_in_the_doc() -> None:
    commands = set(build_parser().commands)
    documented = set(re.findall(r"^\| `(\w+)` \| ", DOC.split("By command, status 1 means:")[1], re.M))
    assert documented == commands


def test_every_help_points_at_the_doc_and_states_usage_as_2() -> None:
    for name, sub in build_parser().commands.items():
        text = sub.format_help()
        assert "docs/errors.md" in text and "2 for a usage" in text.replace("\n", " "), name
