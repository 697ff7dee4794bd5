"""What tests of rules written as text share: load a game from text, the errors the checker gives
a text, take an action by its text, and hold a game's rules doc (docs/rules/NAME.md) to its file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meeple
from meeple.dsl import RulesError


def load_text(tmp_path: Path, text: str, name: str = "game.rules"):
    path = tmp_path / name
    path.write_text(text)
    return meeple.load(str(path))


def errors_of(tmp_path: Path, text: str) -> list[str]:
    """The messages of the errors (not warnings) the front end gives ``text``."""
    with pytest.raises(RulesError) as e:
        load_text(tmp_path, text, "bad.rules")
    return [d.message for d in e.value.diagnostics if d.kind == "error"]


def take(st, text: str) -> None:
    """Apply the legal action shown as ``text``."""
    action = next((a for a in st.legal_actions() if a.text == text), None)
    assert action is not None, f"{text!r} is not legal: {[a.text for a in st.legal_actions()][:12]}"
    st.apply(action)


def assert_doc_quotes(doc: Path, rules: Path, tests: dict, inline: str = "") -> None:
    """``doc`` quotes ``rules``: every line of its code blocks (and every inline quote matching the
    pattern ``inline``) is a line of the file, "..." aside; every ``test_...`` it names is in ``tests``."""
    text = doc.read_text()
    lines = {" ".join(line.split()) for line in rules.read_text().splitlines()}
    quoted = [" ".join(line.split()) for block in re.findall(r"```\n(.*?)```", text, flags=re.DOTALL)
              for line in block.splitlines()]
    if inline:
        quoted += [" ".join(q.split()) for q in re.findall(inline, text)]
    missing = [q for q in quoted if q and q != "..." and q not in lines]
    assert not missing, missing
    named = set(re.findall(r"`(test_\w+)`", text))
    assert named and all(name in tests for name in named), named - set(tests)
