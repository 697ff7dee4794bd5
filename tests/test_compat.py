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


# Games bundled after the last fixtures were made: their documents are of today's formats, which
# the other tests read; they get fixtures with the next format's folder.
ADDED_SINCE = {"reversi", "leduc"}


def test_every_bundled_game_has_fixtures():
    assert {p.name for p in GAME_DIRS if p.parent.name == "v1"} == set(RULES) - ADDED_SINCE


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


def _saved(rules: str, seed: int = 4, moves: int = 6) -> dict:
    game = meeple.load(str(ROOT / rules))
    state = game.new_state(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state.to_json()


def test_a_saved_state_names_its_format_and_game():
    doc = _saved("games/hare.rules")
    assert doc["meeple_state"] == 2 and len(doc["game"]) == 64
    game = meeple.load(str(ROOT / "games/hare.rules"))
    assert game.state_from_json(doc).to_json() == doc


@pytest.mark.parametrize("other, params", [("games/variants/hare-boost.rules", None),
                                           ("games/slipstream.rules", None),
                                           ("games/hare.rules", {"hand_size": 5})])
def test_a_state_does_not_load_into_another_game(other, params):
    doc = _saved("games/hare.rules")
    with pytest.raises(meeple.StateError, match="not a state of"):
        meeple.load(str(ROOT / other), params).state_from_json(doc)


def test_a_comment_in_the_rules_does_not_orphan_saved_states(tmp_path):
    text = (ROOT / "games/hare.rules").read_text(encoding="utf-8")
    (tmp_path / "hare.rules").write_text("# a comment that moves every line\n\n" + text, encoding="utf-8")
    doc = _saved("games/hare.rules")
    assert meeple.load(str(tmp_path / "hare.rules")).state_from_json(doc).to_json()["zones"] == doc["zones"]


def test_an_old_state_of_another_game_is_refused():
    doc = json.loads((COMPAT / "v1" / "hare" / "state-1.json").read_text(encoding="utf-8"))
    with pytest.raises(meeple.StateError, match="not a state of Slipstream"):
        meeple.load(str(ROOT / "games/slipstream.rules")).state_from_json(doc)


def test_a_state_of_an_unknown_format_is_refused():
    doc = {**_saved("games/hare.rules"), "meeple_state": 7}
    with pytest.raises(meeple.StateError, match="format 7"):
        meeple.load(str(ROOT / "games/hare.rules")).state_from_json(doc)


@pytest.mark.parametrize("damage", [lambda d: d.pop("zones"), lambda d: d.update(rng=[1, 2]),
                                    lambda d: d.update(history=[["chance"]])])
def test_a_damaged_state_is_a_state_error(damage):
    doc = _saved("games/hare.rules")
    damage(doc)
    with pytest.raises(meeple.StateError, match="damaged"):
        meeple.load(str(ROOT / "games/hare.rules")).state_from_json(doc)


def test_an_old_state_with_a_damaged_history_is_a_state_error():
    doc = json.loads((COMPAT / "v1" / "hare" / "state-1.json").read_text(encoding="utf-8"))
    doc["history"][3] = {"what": 1}
    with pytest.raises(meeple.StateError, match="step 4"):
        meeple.load(str(ROOT / "games/hare.rules")).state_from_json(doc)


@pytest.mark.parametrize("key, value", [("players", 99), ("zones", [[0]]), ("pc", 10**6), ("current", 7),
                                        ("locals", []), ("vars", None)])
def test_a_state_with_values_that_do_not_fit_is_a_state_error(key, value):
    doc = {**_saved("games/slipstream.rules"), key: value}
    with pytest.raises(meeple.StateError, match="damaged"):
        meeple.load(str(ROOT / "games/slipstream.rules")).state_from_json(doc)


def test_a_state_saved_by_a_meeple_that_compiled_otherwise_is_replayed():
    """pc and locals index the compiled program: a state whose program differs is rebuilt from its
    history, and must then be what the document says."""
    doc = _saved("games/hare.rules")
    game = meeple.load(str(ROOT / "games/hare.rules"))
    other = {**doc, "program": "0" * 64, "pc": 0, "locals": []}  # as an older compiler might have laid it out
    state = game.state_from_json(other)
    assert state.to_json() == doc
    damaged = {**other, "zones": [[0] * len(z) for z in doc["zones"]]}
    with pytest.raises(meeple.StateError, match="'zones' is not what its history gives"):
        game.state_from_json(damaged)


def test_an_old_record_is_compared_on_the_game_not_the_engines_bookkeeping(monkeypatch):
    monkeypatch.chdir(ROOT)
    report = replay_record(RECORDS[0])
    assert report.ok
    assert any("final state's hash is not compared" in w for w in report.warnings)


@pytest.mark.parametrize("broken", [{"history": None}, {"history": 5}, {"players": "3"}, {"players": None}])
def test_a_damaged_state_of_another_program_is_refused_by_name(broken):
    doc = {**_saved("games/hare.rules"), "program": "0" * 64, **broken}
    doc = {k: v for k, v in doc.items() if v is not None}
    with pytest.raises(meeple.StateError, match="damaged"):
        meeple.load(str(ROOT / "games/hare.rules")).state_from_json(doc)


def test_a_state_of_another_program_must_wait_where_its_history_leads():
    """restart_turn() moves a state where its history does not lead: another program cannot rebuild it."""
    game = meeple.load(str(ROOT / "games/luckydog.rules"))
    state = game.new_state(3, seed=3)
    rng = random.Random(3)
    while state.decision() != "road":
        state.apply(rng.choice(state.legal_actions()))
    state.apply(rng.choice(state.legal_actions()))  # the road is laid: the turn goes on
    assert state.decision() != "road"
    state.restart_turn()
    assert state.decision() == "road"
    doc = {**state.to_json(), "program": "0" * 64}
    with pytest.raises(meeple.StateError, match="'waiting' is not what its history gives"):
        game.state_from_json(doc)
