"""The Lucky Dog variants in games/variants/: each is a short file that extends
games/luckydog.rules, changes only what it means to change, and shows that change in play.

``meeple diff``'s comparison (dsl/compare.py) lists what a variant changes, declaration by
declaration; INTENDED keeps that list, and for a replaced setup or turn (copied from the base
with a few lines changed) the lines that differ, so that a change of the base that the copy
misses fails here.
"""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import luckydog_positions as P
import pytest
import test_luckydog_rules as R

import meeple
from meeple.dsl import read_ir, read_text
from meeple.dsl.compare import compare

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "games" / "luckydog.rules"
VARIANTS = ROOT / "games" / "variants"
ADJACENT = VARIANTS / "luckydog-adjacent-start.rules"
DETOUR_ALL = VARIANTS / "luckydog-detour-all.rules"
SHORT = VARIANTS / "luckydog-short.rules"

# Per variant: what it changes, as (what, kind, name) of dsl.compare; for a replaced block, the
# base lines it removes and the lines it adds there (code lines only, trailing whitespace dropped).
INTENDED = {
    ADJACENT: {
        ("changed", "game", None): None,
        ("changed", "define", "start_allowed"): None,
        ("added", "define", "touches_start"): None,
        ("added", "define", "apart_allowed"): None,
        ("changed", "rule", "[start_tile]"): (
            ["place start_tile by p: 1 card from hand(p) onto table within 2 as t where start_allowed(t)"],
            ["place start_tile by p: 1 card from hand(p) onto table within 1 matching as t where start_allowed(t)"
             " else {",
             "  place start_apart by p: 1 card from hand(p) onto table within 2 as u where apart_allowed(u)",
             "  set start(p) = u",
             "}"]),
        ("changed", "rule", "[marker.at]"): (
            ["at e in edge where (t.signal and open(t, e)) or (not t.signal and first_end(t, e)) {"],
            ["at e in edge where (start(p).signal and open(start(p), e))",
             "                   or (not start(p).signal and first_end(start(p), e)) {"]),
        ("removed", "rule", "in setup"): None,
        ("added", "rule", "after [start_tile]"): None,
    },
    DETOUR_ALL: {
        ("changed", "game", None): None,
        ("changed", "define", "target"): None,
        ("changed", "rule", "[effect.detour]"): (
            ["detour q in player where q != current and count(hand(current) where target_change > 0) >= 1 {",
             "  move 1 detour from hand(current) to detours(q)"],
            ["detour where count(hand(current) where target_change > 0) >= 1 {",
             "  move 1 detour from hand(current) to detours(current)"]),
    },
    SHORT: {
        ("changed", "game", None): None,
        ("param", "param", "goal"): None,
    },
}


def differences(variant: Path) -> list:
    old, _ = read_ir(str(BASE))
    new, _ = read_ir(str(variant))
    texts = {f: read_text(f) for ir in (old, new) for f in (ir.get("sources") or [ir["source"]])}
    return compare(old, new, texts)


def code(lines: list[str]) -> list[str]:
    """The lines of a declaration without blank lines and comment lines, trailing whitespace dropped."""
    return [line.rstrip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def changed_lines(old: list[str], new: list[str]) -> tuple[list[str], list[str]]:
    """(code lines of ``old`` removed, code lines added), in order."""
    removed, added = [], []
    for line in difflib.unified_diff(code(old), code(new), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        (removed if line.startswith("-") else added).append(line[1:])
    return removed, added


@pytest.mark.parametrize("variant", list(INTENDED), ids=lambda p: p.stem)
def test_variant_is_a_short_file_extending_the_base(variant: Path) -> None:
    lines = variant.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# Lucky Dog, variant ")
    code = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    assert code[0] == 'extends "../luckydog.rules"'
    assert len(lines) < len(BASE.read_text(encoding="utf-8").splitlines()) / 2
    game = meeple.load(str(variant))
    assert game.new_state(4, seed=1).decision() == "start_tile"


@pytest.mark.parametrize("variant", list(INTENDED), ids=lambda p: p.stem)
def test_variant_changes_only_what_it_means_to(variant: Path) -> None:
    found = {(d.what, d.kind, d.name): d for d in differences(variant)}
    assert set(found) == set(INTENDED[variant])
    for key, lines in INTENDED[variant].items():
        if lines is not None:
            assert changed_lines(found[key].old_lines, found[key].new_lines) == lines, (
                f"{variant.name}: its {key[1]} differs from the base's in lines it does not mean to change "
                "(update the copy, or INTENDED if the change is meant)")


# ---------------------------------------------------------------- adjacent start

def second_start_squares(path: Path, seed: int) -> list[tuple[int, int]]:
    """Where the second player may put their start tile, after the first went at the origin."""
    state = meeple.load(str(path)).new_state(4, seed=seed)
    assert state.decision() == "start_tile"
    first = state.legal_actions()[0]
    assert " at 0,0 " in first.text
    state.apply(first)
    assert state.decision() == "marker"
    state.apply(state.legal_actions()[0])
    assert state.decision() == "start_tile"
    return sorted(R.squares(state.legal_actions()))


@pytest.mark.parametrize("seed", range(5))
def test_adjacent_start_tiles_share_a_side(seed: int) -> None:
    base = second_start_squares(BASE, seed)
    variant = second_start_squares(ADJACENT, seed)
    assert base and variant
    # Base: one empty square between the two start tiles, in a row or column.
    assert all((x == 0 or y == 0) and abs(x) + abs(y) == 2 for x, y in base)
    # Variant: next to the first start tile, sharing a side.
    assert all(abs(x) + abs(y) == 1 for x, y in variant)


def test_adjacent_start_one_apart_when_no_start_tile_fits() -> None:
    """Two dead ends facing each other, and the third player holds only crossroads: nothing fits
    beside them, so the tile goes one square apart from a start tile, as in the base game."""
    game = meeple.load(str(ADJACENT))
    st = R.setup_at_start_tile(game, players=3, seed=2)
    R.place_start(st, "dead_end", (0, 0), 0, "N")
    second = st.current_player()
    seat = (second + 1) % 3
    P.set_zone(st, "hand", {"dead_end": 1, "police": 4}, seat=second)
    st.apply("start_tile dead_end at 0,1 rotation 2")
    P.set_zone(st, "hand", {"crossroads": 2, "police": 3}, seat=seat)  # before its start tile comes up
    st.apply("at S")
    actions = st.legal_actions()
    assert st.decision() == "start_apart"
    assert R.squares(actions) == {(0, -2), (0, 3), (2, 0), (-2, 0), (2, 1), (-2, 1)}
    st.apply(next(a for a in actions if " at 2,0 " in str(a)))
    assert st.decision() == "marker" and st.current_player() == seat
    st.apply(st.legal_actions()[0])
    assert P.marker(st, seat)[0] == (2, 0)


# ---------------------------------------------------------------- detour all

def target(game, state, seat: int) -> int:
    return game.query(state, "target", seat)


def first_detour(path: Path, seed: int):
    """Play (roads at random, no effect card but a detour) until the first detour; returns
    (game, state, who played it, the action text)."""
    game = meeple.load(str(path))
    state = game.new_state(4, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        if state.decision() == "effect":
            detours = [a for a in actions if a.text.startswith("detour")]
            if detours:
                seat = state.current_player()
                assert all(target(game, state, s) == 10 for s in range(4))
                state.apply(detours[0])
                return game, state, seat, detours[0].text
            state.apply("stop")
        else:
            state.apply(rng.choice(actions))
    return None


@pytest.mark.parametrize("seed", range(3))
def test_a_detour_hits_every_other_player(seed: int) -> None:
    played = first_detour(BASE, seed)
    assert played is not None
    game, state, seat, text = played
    chosen = int(text.split("seat ")[1])
    assert chosen != seat
    assert [target(game, state, s) for s in range(4)] == [12 if s == chosen else 10 for s in range(4)]

    played = first_detour(DETOUR_ALL, seed)
    assert played is not None
    game, state, seat, text = played
    assert text == "detour"
    assert [target(game, state, s) for s in range(4)] == [10 if s == seat else 12 for s in range(4)]
    assert P.zone(state, "detours", seat) == {"detour": 1}


# ---------------------------------------------------------------- short

@pytest.mark.parametrize("tiles,wins_short", [(8, True), (7, False)])
def test_short_a_route_of_seven_wins(tiles: int, wins_short: bool) -> None:
    """Seat 0's marker at the west end of a row of straights: its route counts the tiles but the first."""
    for path, wins in [(BASE, False), (SHORT, wins_short)]:
        game = P.load(path)
        st = R.position(game, tiles=R.east(0, 0, tiles), markers={0: ((0, 0), "E")})
        assert P.route(st, 0) == tiles - 1 and P.target(st, 0) == (10 if path == BASE else 7)
        R.finish_turn(st)
        assert st.is_terminal() == wins
        if wins:
            assert st.outcome == "end" and st.winners() == [0]
        else:
            assert st.current_player() == 1
    # accelerate and detour cards change the shorter target as they change the base one
    st = R.position(P.load(SHORT), fronts={0: {"accelerate": 2}}, detours={0: {"detour": 1}})
    assert P.target(st, 0) == 7 - 2 + 2
