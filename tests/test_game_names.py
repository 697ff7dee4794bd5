"""The engine knows no game: no distinctive name of a bundled game (its card varieties and kinds,
pieces, enum values, track tags and phases, read from the games' own IR) appears in the code of
the language, the engine or the tools. A few generic words the games also use are allowed."""

from __future__ import annotations

import re
from pathlib import Path

from meeple.dsl import read_checked

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted([*ROOT.glob("games/*.rules"), *ROOT.glob("games/variants/*.rules")])
# Words a game uses that are also the language's own or plain English in the code.
GENERIC = {"N", "E", "S", "W", "edge",  # the grid's built-in edges
           "NE", "SE", "SW", "NW", "direction",  # a board's built-in directions
           "move",  # a statement of the language
           "one", "two", "three", "plain", "straight", "construction"}  # English in comments


def distinctive_names() -> set[str]:
    names: set[str] = set()
    for path in GAMES:
        sym = read_checked(str(path)).symbols
        names |= {*sym.varieties, *sym.card_kinds, *sym.kinds, *sym.value_kind, *sym.phases, *sym.all_tags(),
                  *sym.boards, *(v for v, d in sym.vars.items() if d.get("grid") in sym.boards)}
    return names - GENERIC


def test_the_games_have_distinctive_names():
    names = distinctive_names()
    assert len(names) >= 25
    assert {"race", "stream", "crossroads", "shove", "felt", "disc", "jack_1", "playing_card"} <= names


def test_no_game_name_in_the_code():
    names = distinctive_names()
    word = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    found = []
    for path in sorted((ROOT / "meeple").rglob("*")):
        if path.suffix not in (".py", ".lark", ".json"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = {w for w in word.findall(line) if w in names or w.lower() in names}
            found += [f"{path.relative_to(ROOT)}:{n}: {w}" for w in sorted(hits)]
    assert found == []
