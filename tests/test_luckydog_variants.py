"""The Lucky Dog variants in games/variants/: each loads, differs from games/luckydog.rules only
in the lines it means to change, and shows that change in play.

A variant is a full copy of the base rules (there is no ``extends`` yet). The diff test
keeps the copies honest: when games/luckydog.rules changes, a variant that was not changed
with it fails here, naming the lines that differ unexpectedly.
"""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import pytest

import interpreter

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "games" / "luckydog.rules"
ADJACENT = ROOT / "games" / "variants" / "luckydog-adjacent-start.rules"
DETOUR_ALL = ROOT / "games" / "variants" / "luckydog-detour-all.rules"

# Per variant: the base lines it removes and the lines it adds, in file order (leading comment
# blocks aside, and ignoring trailing whitespace).
INTENDED = {
    ADJACENT: (
        [
            'game "Lucky Dog"',
            "define start_allowed(t) = count(table) == 1",
            "                          or (touches_none(t) and any(one_apart(t, start(q)) for q in player))",
            "    place start_tile by p: 1 card from hand(p) onto table within 2 as t where start_allowed(t)",
            "    set start(p) = t",
            "      at e in edge where (t.signal and open(t, e)) or (not t.signal and first_end(t, e)) {",
        ],
        [
            'game "Lucky Dog (adjacent start)"',
            "# [setup 3] the variant: next to another player's start tile, sharing a side (the placement's",
            '# "matching" makes the edges meet); one square apart, as in the base game, when nothing fits there.',
            "define touches_start(t) = any(neighbour(t, e) != none and has_marker(neighbour(t, e)) for e in edge)",
            "define start_allowed(t) = count(table) == 1 or touches_start(t)",
            "define apart_allowed(t) = touches_none(t) and any(one_apart(t, start(q)) for q in player)",
            "    place start_tile by p: 1 card from hand(p) onto table within 1 matching as t where start_allowed(t)"
            " else {",
            "      place start_apart by p: 1 card from hand(p) onto table within 2 as u where apart_allowed(u)",
            "      set start(p) = u",
            "    }",
            "    if t != none {",
            "      set start(p) = t",
            "    }",
            "      at e in edge where (start(p).signal and open(start(p), e))",
            "                         or (not start(p).signal and first_end(start(p), e)) {",
        ],
    ),
    DETOUR_ALL: (
        [
            'game "Lucky Dog"',
            "zone detours per player public    # detour cards played onto a player",
            "# [the goal] 10 − accelerate + 2 × detour, never below 1.",
            "define target(p) = max(1, goal + sum(c.target_change for c in front(p))"
            " + sum(c.target_change for c in detours(p)))",
            "      detour q in player where q != current and count(hand(current) where target_change > 0) >= 1 {",
            "        move 1 detour from hand(current) to detours(q)",
        ],
        [
            'game "Lucky Dog (detour all)"',
            "zone detours per player public    # detour cards the player has played: each hits every other player",
            "# [the goal] the variant: 10 − accelerate + 2 × every detour the other players have played,"
            " never below 1.",
            "define target(p) = max(1, goal + sum(c.target_change for c in front(p))",
            "                          + sum(sum(c.target_change for c in detours(q)) for q in player where q != p))",
            "      detour where count(hand(current) where target_change > 0) >= 1 {",
            "        move 1 detour from hand(current) to detours(current)",
        ],
    ),
}


def body(path: Path) -> list[str]:
    """The file's lines after its leading block of comments and blank lines."""
    lines = [line.rstrip() for line in path.read_text(encoding="utf-8").splitlines()]
    first = next(i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#"))
    return lines[first:]


def changes(variant: Path) -> tuple[list[str], list[str]]:
    """(base lines the variant removes, lines it adds), in file order."""
    removed, added = [], []
    for line in difflib.unified_diff(body(BASE), body(variant), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        (removed if line.startswith("-") else added).append(line[1:])
    return removed, added


@pytest.mark.parametrize("variant", [ADJACENT, DETOUR_ALL], ids=lambda p: p.stem)
def test_variant_loads(variant: Path) -> None:
    game = interpreter.load(str(variant))
    state = game.new_state(4, seed=1)
    assert state.decision() == "start_tile"


@pytest.mark.parametrize("variant", [ADJACENT, DETOUR_ALL], ids=lambda p: p.stem)
def test_variant_differs_from_the_base_only_where_intended(variant: Path) -> None:
    removed, added = changes(variant)
    want_removed, want_added = INTENDED[variant]
    unexpected = ([f"- {line}" for line in removed if line not in want_removed]
                  + [f"+ {line}" for line in added if line not in want_added]
                  + [f"missing change: - {line}" for line in want_removed if line not in removed]
                  + [f"missing change: + {line}" for line in want_added if line not in added])
    assert not unexpected, (f"{variant.name} differs from {BASE.name} in lines it does not mean to change "
                            "(- base, + variant; update the variant, or INTENDED if the change is meant):\n"
                            + "\n".join(unexpected))
    assert (removed, added) == (want_removed, want_added)


# ---------------------------------------------------------------- adjacent start

def second_start_squares(path: Path, seed: int) -> list[tuple[int, int]]:
    """Where the second player may put their start tile, after the first went at the origin."""
    state = interpreter.load(str(path)).new_state(4, seed=seed)
    assert state.decision() == "start_tile"
    first = state.legal_actions()[0]
    assert " at 0,0 " in first.text
    state.apply(first)
    assert state.decision() == "marker"
    state.apply(state.legal_actions()[0])
    assert state.decision() == "start_tile"
    squares = set()
    for action in state.legal_actions():
        where = action.text.split(" at ")[1].split(" rotation ")[0]
        x, y = map(int, where.split(","))
        squares.add((x, y))
    return sorted(squares)


@pytest.mark.parametrize("seed", range(5))
def test_adjacent_start_tiles_share_a_side(seed: int) -> None:
    base = second_start_squares(BASE, seed)
    variant = second_start_squares(ADJACENT, seed)
    assert base and variant
    # Base: one empty square between the two start tiles, in a row or column.
    assert all((x == 0 or y == 0) and abs(x) + abs(y) == 2 for x, y in base)
    # Variant: next to the first start tile, sharing a side.
    assert all(abs(x) + abs(y) == 1 for x, y in variant)


# ---------------------------------------------------------------- detour all

def target(game, state, seat: int) -> int:
    call = {"node": "call", "func": "target", "args": [{"node": "int", "value": seat}]}
    return game.exprs.compile(call, {})(state)


def first_detour(path: Path, seed: int):
    """Play (roads at random, no effect card but a detour) until the first detour; returns
    (game, state, who played it, the action text)."""
    game = interpreter.load(str(path))
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
