"""What users hold today keeps working: IR documents, records and saved states made by an
earlier meeple (``tests/fixtures/compat/<version>/``, made by ``make_fixtures.py``) load,
replay and restore, and play the game their rules file plays now."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import meeple
from meeple.tools.records import replay_record

ROOT = Path(__file__).resolve().parents[1]
COMPAT = ROOT / "tests" / "fixtures" / "compat"
GAME_DIRS = sorted(p for p in COMPAT.glob("v*/*") if p.is_dir())
RULES = {p.stem: p for p in [*ROOT.glob("games/*.rules"), *ROOT.glob("games/variants/*.rules")]}


def _ids(paths):
    return [f"{p.parent.name}/{p.name}" for p in paths]


def _playout(game, players: int, seed: int) -> list[tuple]:
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return [*state.history(), state.outcome, tuple(state.winners())]


def test_every_bundled_game_has_fixtures():
    assert {p.name for p in GAME_DIRS if p.parent.name == "v1"} == set(RULES)


@pytest.mark.parametrize("folder", GAME_DIRS, ids=_ids(GAME_DIRS))
def test_old_ir_plays_the_game_of_its_rules_file(folder):
    old = meeple.load(str(folder / "ir.json"))
    now = meeple.load(str(RULES[folder.name]))
    players = min(now.max_players, 3)
    for seed in (1, 2):
        assert _playout(old, players, seed) == _playout(now, players, seed)


RECORDS = sorted(COMPAT.glob("v*/*/records/*.jsonl"))


@pytest.mark.parametrize("record", RECORDS, ids=_ids(RECORDS))
def test_old_record_replays(record, monkeypatch):
    monkeypatch.chdir(ROOT)  # a record names its rules file as it was given: relative to the repository
    report = replay_record(record)
    assert report.ok, report.problems
    assert report.broken is None


STATES = sorted(COMPAT.glob("v*/*/state-*.json"))


@pytest.mark.parametrize("saved", STATES, ids=_ids(STATES))
def test_old_state_restores_and_plays_on(saved):
    doc = json.loads(saved.read_text(encoding="utf-8"))
    game = meeple.load(str(RULES[saved.parent.name]))
    state = game.state_from_json(doc)
    assert not state.is_terminal()
    assert [list(h) for h in state.history()] == doc["history"]
    replayed = game.new_state(doc["players"], chance="explicit")
    for _, text in doc["history"]:
        replayed.apply(text)
    assert state.observation(0) == replayed.observation(0)
    assert [str(a) for a in state.legal_actions()] == [str(a) for a in replayed.legal_actions()]
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.outcome in ("end", "draw", "step cap")
