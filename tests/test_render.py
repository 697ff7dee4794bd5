"""Drawing a grid of tiles as text (``interpreter.render``) and playing a grid game in the terminal."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from meeple.interpreter.boards import TileShapes
from meeple.tools.cli import main
from meeple.interpreter.game import load
from meeple.tools.play import match_answer, placements
from meeple.tools.render import BoardView, Cell, draw_grid, draw_strip, draw_tile, paths_of, tag_letters

ROOT = Path(__file__).resolve().parents[1]
LUCKYDOG = str(ROOT / "games" / "luckydog.rules")
EDGE = {"N": 0, "E": 1, "S": 2, "W": 3}


def ends(*paths: str) -> tuple[int, int, int, int]:
    """A tile's ends from its paths written as edge letters: ends("NW", "SE")."""
    out = [0, 0, 0, 0]
    for p in paths:
        mask = sum(1 << EDGE[e] for e in p)
        for e in p:
            out[EDGE[e]] = mask
    return tuple(out)


def turned(*paths: str) -> list[tuple[int, int, int, int]]:
    """The ends of a tile in its four rotations, as the engine turns it."""
    shapes = TileShapes([{"paths": [list(p) for p in paths]}], EDGE, [0], "paths", [])
    return shapes.ends[0]


# ---- one tile ----
def test_straight_north_south_and_east_west():
    assert draw_tile(ends("NS")) == ["   │   ",
                                     "   │   ",
                                     "   │   "]
    assert draw_tile(ends("EW")) == ["       ",
                                     "───────",
                                     "       "]
    assert [draw_tile(e) for e in turned("NS")] == [draw_tile(ends("NS")), draw_tile(ends("EW"))] * 2


@pytest.mark.parametrize("rot,corner,rows", [
    (0, "└", ["   │   ", "   └───", "       "]),
    (1, "┌", ["       ", "   ┌───", "   │   "]),
    (2, "┐", ["       ", "───┐   ", "   │   "]),
    (3, "┘", ["   │   ", "───┘   ", "       "]),
])
def test_corner_in_each_rotation(rot, corner, rows):
    drawn = draw_tile(turned("NE")[rot])
    assert drawn == rows
    assert drawn[1][3] == corner


def test_junctions():
    assert draw_tile(ends("NEW")) == ["   │   ",
                                      "───┴───",
                                      "       "]
    assert [draw_tile(e)[1][3] for e in turned("NEW")] == ["┴", "├", "┬", "┤"]
    assert draw_tile(ends("NESW")) == ["   │   ",
                                       "───┼───",
                                       "   │   "]


def test_dead_end_is_a_stub():
    assert draw_tile(ends("N")) == ["   │   ",
                                    "   ●   ",
                                    "       "]
    assert draw_tile(ends("E")) == ["       ",
                                    "   ●───",
                                    "       "]
    assert draw_tile(ends("S"))[1:] == ["   ●   ", "   │   "]
    assert draw_tile(ends("W"))[1] == "───●   "


def test_two_separate_paths_are_two_corners():
    assert paths_of(ends("NW", "SE")) == [0b1001, 0b0110]
    assert draw_tile(ends("NW", "SE")) == ["  │    ",
                                           "──┘ ┌──",
                                           "    │  "]
    assert draw_tile(ends("NE", "SW")) == ["    │  ",
                                           "──┐ └──",
                                           "  │    "]
    # the engine's turns of the one give the other
    assert draw_tile(turned("NW", "SE")[1]) == draw_tile(ends("NE", "SW"))
    # two paths that cross without joining: one runs over the other
    assert draw_tile(ends("NS", "EW"))[1] in ("──│────", "────│──")


def test_narrow_tiles_and_bad_sizes():
    assert draw_tile(ends("NW", "SE"), width=5) == [" │   ", "─┘ ┌─", "   │ "]
    assert draw_tile(ends("NESW"), width=5, height=5) == ["  │  ", "  │  ", "──┼──", "  │  ", "  │  "]
    with pytest.raises(ValueError):
        draw_tile(ends("NS"), width=6)


def test_heavy_edges():
    assert draw_tile(ends("NESW"), heavy=0b0101) == ["   ┃   ", "───┼───", "   ┃   "]
    assert draw_tile(ends("NESW"), heavy=0b1010)[1] == "━━━┼━━━"


# ---- overlays ----
def test_tags_markers_and_hatching():
    drawn = draw_tile(ends("NE"), tags="PC", marks=[(2, 0)], hatched=True)
    assert drawn[0].startswith("PC")
    assert drawn[0][3] == "2"                 # seat 2's marker stands on the north edge
    assert drawn[1] == "░░░└───"
    assert drawn[2] == "░" * 7
    drawn = draw_tile(ends("NE"), marks=[(1, None), (3, 1)])
    assert drawn[0][-1] == "1"                # no edge: in the top right corner
    assert drawn[1][-1] == "3"                # on the east edge
    assert draw_tile(ends("NS"), marks=[(0, 0), (1, 0)])[0].count("0") == 1  # a second marker moves aside


def test_tag_letters_are_distinct():
    assert tag_letters(["policed", "closed"]) == {"policed": "P", "closed": "C"}
    assert tag_letters(["policed", "parked", "pp"]) == {"policed": "P", "parked": "A", "pp": "B"}


# ---- a board ----
def test_grid_coordinates_empty_squares_and_spots():
    cells = [Cell(0, 0, ends("EW")), Cell(1, 0, ends("NW")), Cell(1, 1, ends("S"))]
    lines = draw_grid(cells, spots=[(-1, 0)])
    assert lines == [
        "    -1      0      1",
        "",
        "1    ·      ·      ●",
        "                   │",
        "                   │",
        "0    +   ──────────┘",
        "",
    ]
    # x along the top, centred on each tile; y on the middle row, largest first
    assert lines[0].split() == ["-1", "0", "1"]
    assert [line.split()[0] for line in lines[1:] if line[:2].strip()] == ["1", "0"]
    assert draw_grid([]) == []
    assert draw_grid(cells, coords=False)[1:] == ["   ·      ●", "          │", "          │", "──────────┘", ""]


def test_grid_shows_tags_and_markers():
    cells = [Cell(0, 0, ends("NESW"), tags="P", marks=((0, 3),), heavy=0b0101),
             Cell(0, -1, ends("NS"), tags="C", hatched=True)]
    lines = draw_grid(cells)
    assert lines == ["      0",
                     "   P  ┃",
                     " 0 0──┼───",   # y 0, then seat 0's marker on the west edge
                     "      ┃",
                     "   C░░│░░░",
                     "-1 ░░░│░░░",
                     "   ░░░│░░░"]


def test_strip_with_captions_wraps():
    items = [(f"r{r}", e) for r, e in enumerate(turned("NE"))]
    lines = draw_strip(items)
    assert lines[-1].split() == ["r0", "r1", "r2", "r3"]
    assert len(lines) == 4
    assert len(draw_strip(items, max_width=20)) == 8


# ---- a game's board ----
@pytest.fixture(scope="module")
def game():
    return load(LUCKYDOG)


def play_first(game, seed: int, moves: int):
    st = game.new_state(3, seed=seed)
    for _ in range(moves):
        st.apply(st.legal_actions()[-1])
    return st


def test_board_view_reads_the_declarations(game):
    view = BoardView(game)
    assert view.active and view.grid_name == "table"
    assert view.letters == {"policed": "P", "closed": "C"}
    assert view.hatch == {"closed"}               # the route's 'blocked' reads it
    assert view.marks == [("start", "start_edge")]
    assert view.heavy_attrs == ["red"]


def test_board_view_cells_and_values(game):
    view = BoardView(game)
    st = play_first(game, 3, 6)
    obs = st.observation(0)
    cells = view.cells(obs)
    assert [(c.x, c.y) for c in cells] == [(t["x"], t["y"]) for t in obs["grid"]]
    starts = obs["vars"]["start"]
    for seat, t in enumerate(starts):
        if t >= 0:
            assert seat in [s for s, _ in cells[t].marks]
            edge = obs["vars"]["start_edge"][seat]
            assert view.value_text("start_edge", edge, obs) == "NESW"[edge]
            assert view.value_text("start", t, obs) == f"{obs['grid'][t]['x']},{obs['grid'][t]['y']}"
    # a closed tile is tagged and hatched
    obs["grid"][0]["closed"] = True
    cell = view.cells(obs)[0]
    assert "C" in cell.tags and cell.hatched
    lines = view.draw(obs, spots=[(9, 9)])
    assert any("C = closed" in line for line in lines)
    assert any("+ you may place here" in line for line in lines)


# ---- answers ----
class Move:
    def __init__(self, text: str):
        self.text = text


def test_placements_and_answers():
    legal = [Move("road nothing"), Move("road curve at -5,0 rotation 0"), Move("road curve at -5,0 rotation 1"),
             Move("road straight at 2,-1 rotation 1")]
    assert [(p.number, p.tile, p.x, p.y, p.rotation) for p in placements(legal)] == [
        (2, "curve", -5, 0, 0), (3, "curve", -5, 0, 1), (4, "straight", 2, -1, 1)]
    for answer in ("road curve at -5,0 rotation 1", "curve at -5,0 rotation 1", "curve at -5, 0  rotation 1",
                   "curve -5,0 1", "curve -5,0 r1", "Curve -5,0 1", "road curve -5,0 1"):
        assert match_answer(answer, legal, "road") == (legal[2], []), answer
    assert match_answer("nothing", legal, "road") == (legal[0], [])
    assert match_answer("straight 2,-1", legal, "road") == (legal[3], [])   # the only rotation there
    assert match_answer("curve -5,0", legal, "road") == (None, legal[1:3])  # which rotation?
    assert match_answer("curve -5,0 2", legal, "road") == (None, [])
    assert match_answer("road", legal, "road") == (None, legal)
    options = [Move("stop"), Move("police 0,0"), Move("police 1,0")]
    assert match_answer("effect police 1, 0", options, "effect") == (options[2], [])
    assert match_answer("stop", options, "effect") == (options[0], [])


def test_typed_words_may_each_be_a_beginning_and_words_may_be_left_out():
    """Issue 17: 'two' is 'play 1 two', 'play 2 tor' is 'play 2 tortoise', 'fox' is 'bet 1 fox'."""
    legal = [Move("play 1 two"), Move("play 2 tortoise"), Move("play 1 tortoise"), Move("bet 1 fox"),
             Move("bet 1 wolf")]
    assert match_answer("two", legal, "play") == (legal[0], [])
    assert match_answer("play 2 tor", legal, "play") == (legal[1], [])
    assert match_answer("fox", legal, "play") == (legal[3], [])
    assert match_answer("FOX", legal, "play") == (legal[3], [])
    assert match_answer("1 tort", legal, "play") == (legal[2], [])
    assert match_answer("tor", legal, "play") == (None, legal[1:3])  # several fit: they are listed
    assert match_answer("tortoise 2", legal, "play") == (None, [])  # in order only
    assert match_answer("play 3", legal, "play") == (None, [])


# ---- playing through piped input ----
def run_play(capsys, monkeypatch, answers: str, seed: int = 4) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code = main(["play", LUCKYDOG, "--players", "3", "--seat", "0", "--seed", str(seed)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


def test_play_draws_the_grid_and_takes_a_placement(capsys, monkeypatch):
    code, out = run_play(capsys, monkeypatch, "")
    assert code == 1 and "End of input" in out  # (before the game ended)
    # the board: x along the top, y down the left, squares open to a tile marked
    assert re.search(r"^table: \d+ tiles?$", out, re.MULTILINE)
    header = re.search(r"^\s+(-?\d+(?:\s+-?\d+)+)$", out, re.MULTILINE)
    assert header, out
    xs = [int(v) for v in header.group(1).split()]
    assert xs == list(range(xs[0], xs[0] + len(xs)))
    assert re.search(r"^ ?0 .*[┼┴├┬┤│─└┌┐┘●]", out, re.MULTILINE)
    assert "+ you may place here" in out
    assert "tiles you may place, by rotation" in out
    # the bots' placements land on the open table: shown
    assert re.search(r"seat \d \(bot\): start_tile \S+ at -?\d+,-?\d+ rotation \d", out)
    first = re.search(r"'(\S+) (-?\d+),(-?\d+) (\d+)'", out)
    assert first, out
    tile, x, y, r = first.groups()

    code, out = run_play(capsys, monkeypatch, f"{tile} at {x},{y} rotation {r}\n")
    assert code == 1
    assert f"you: start_tile {tile} at {x},{y} rotation {r}" in out
    assert "Not a legal move" not in out
    assert out.rstrip().endswith("End of input before the game ended: leaving it.")
    # the tile is on the next board drawn, with the seat's marker once it has an edge
    assert out.count("table: ") >= 2

    code, out = run_play(capsys, monkeypatch, f"{tile} {x},{y}\n{tile} {x},{y} {r}\nq\n")
    assert code == 0 and "Which one?" in out and f"you: start_tile {tile} at {x},{y} rotation {r}" in out
    assert "Quit." in out


def test_play_many_moves_listed_compactly(capsys, monkeypatch):
    code, out = run_play(capsys, monkeypatch, "1\n" * 3)
    assert code == 1  # the answers ran out before the game ended
    table = re.search(r"^  tile +at +r0 +r1", out, re.MULTILINE)
    assert table, out
    moves = re.findall(r"move 1\.\.(\d+)", out)
    assert any(int(n) > 12 for n in moves)


def test_play_whole_game_by_numbers(capsys, monkeypatch):
    code, out = run_play(capsys, monkeypatch, "1\n" * 3000, seed=2)
    assert code == 0
    assert "game over" in out and "everything revealed" in out
    assert "tiles on the table:" in out


def test_many_moves_in_columns_keep_their_numbers():
    from rich.console import Console
    from rich.markup import escape

    from meeple.tools.play import _list_moves

    legal = [Move("stop")] + [Move(f"police {x},{y}") for x in range(-2, 3) for y in range(-1, 2)]
    console = Console(width=80, file=io.StringIO(), highlight=False)
    _list_moves(legal, console, escape, placements(legal))
    out = console.file.getvalue()
    assert len(out.splitlines()) < len(legal) / 2
    for i, m in enumerate(legal, 1):
        assert re.search(rf"(^|\s){i}\. {re.escape(m.text)}(\s|$)", out, re.MULTILINE), m.text


def test_a_track_is_a_row_of_spaces_with_tags_and_pieces() -> None:
    from meeple.tools.play import track_row
    lines = track_row(["mud", "grass", "mud"], {"red": 1, "blue": 1, "green": 0, "gold": 4}, ["gold"])
    assert lines[0].split() == ["0", "1", "2", "3"]
    assert lines[1].split() == ["start", "mud", "grass", "mud"]
    assert lines[2].split() == ["green", "red"] and lines[3].split() == ["blue"]
    assert lines[2].index("red") == lines[1].index("mud")  # under its space
    assert lines[-1] == "  past the end: 1. gold"


def test_a_long_track_wraps_to_the_width() -> None:
    from meeple.tools.play import track_row
    lines = track_row(["plain"] * 30, {"hare": 25}, [], width=40)
    assert all(len(line) <= 40 for line in lines)
    numbers = [int(n) for line in lines if line.split() and line.split()[0].isdigit() for n in line.split()]
    assert numbers == list(range(31))
    assert any("hare" in line for line in lines)


def test_a_track_that_lays_no_tiles_shows_its_untagged_spaces_as_plain() -> None:
    """Tags at fixed places on a track without tiles: the other spaces have no tag for good,
    not one to come (no ``?``, no "not laid yet"); the tags are named by space."""
    from meeple.tools.play import _spaces, track_row
    tags = [None, "mud", None, "mud", None, None]
    assert _spaces(tags, plain=True) == "; mud at 2, 4; others untagged"
    row = track_row(tags, {"red": 3}, [], plain=True)
    assert "?" not in "\n".join(row) and row[1].split() == ["start", "mud", "mud"]
    # tiles still to lay (explicit chance): each tag laid so far by space, and how many are to come
    assert _spaces(tags) == "; mud at 2, 4; 4 not laid yet"
    assert track_row(tags, {}, [])[1].split() == ["start", "?", "mud", "?", "mud", "?", "?"]


def test_play_draws_a_track_with_tags_at_fixed_places_and_no_tiles(tmp_path) -> None:
    import subprocess
    import sys
    rules = tmp_path / "plain.rules"
    rules.write_text('game "P"\nplayers 2\ntrack lane {\n  spaces 6\n  mud at 2, 4\n}\n'
                     'pieces runner on lane { red blue }\nturn {\n  choose go by current {\n'
                     '    red_runs {\n      move red by 1\n    }\n    blue_runs {\n      move blue by 1\n    }\n'
                     '  }\n}\nend when finishers(lane) >= 1\n', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "meeple", "play", str(rules), "--seed", "1"], input="q\n",
                         capture_output=True, text=True, timeout=120).stdout
    assert "lane: 6 spaces; mud at 2, 4; others untagged" in out, out
    assert "not laid yet" not in out and "?" not in out.split("lane:")[1].split("1. ")[0], out


def test_a_very_long_track_leaves_out_the_spaces_with_nothing_of_note() -> None:
    from meeple.tools.play import track_row
    tags = ["plain"] * 10_000
    tags[499] = "mud"
    lines = track_row(tags, {"hare": 7000, "fox": 12}, [], width=80)
    text = "\n".join(lines)
    assert len(lines) < 12 and "…" in text
    numbers = {int(w) for line in lines for w in line.split() if w.isdigit()}
    assert numbers == {0, 12, 500, 7000, 10000} and "mud" in text and "hare" in text


def test_play_shows_flags_as_yes_no_no_player_as_a_dash_and_turns_from_1(tmp_path):
    """Issue 17's defaults: no 'False', no '-1', no 'Turn 0'."""
    from rich.console import Console

    import meeple
    from meeple.tools.play import render_observation
    path = tmp_path / "g.rules"
    path.write_text('game "Flags"\nplayers 2\nvar done = false\nvar who = none\nvar n = 0\n'
                    'turn {\n  choose go {\n    go {\n      set who = current\n      set n = n + 1\n    }\n  }\n}\n'
                    'end when n >= 3\n')
    g = meeple.load(str(path))
    st = g.new_state(2, seed=0)
    out = io.StringIO()
    render_observation(st.observation(0), 0, Console(file=out, width=100, color_system=None),
                       var_types=g.checked.var_types)
    text = out.getvalue()
    assert "Turn 1 ·" in text and "done: no" in text and "who: —" in text and "-1" not in text


def test_a_finished_game_says_why_it_ended(tmp_path):
    """Issue 17: the end and its reason: the 'end when' that holds, with its line; 'end game'; the step cap."""
    import random as _random

    import meeple
    hare = meeple.load(str(Path(__file__).resolve().parents[1] / "games" / "hare.rules"))
    st = hare.new_state(3, seed=1)
    assert hare.why_ended(st) is None
    st.play_out(_random.Random(1))
    assert hare.why_ended(st).startswith("end when finishers(course) >= podium_size (")
    assert hare.why_ended(st).endswith("hare.rules:111)")
    path = tmp_path / "g.rules"
    path.write_text('game "Short"\nplayers 2\nmax_steps 5\nvar n = 0\nturn {\n  choose go {\n    up {\n'
                    '      set n = n + 1\n    }\n    stop {\n      end game with no winner\n    }\n  }\n}\n')
    g = meeple.load(str(path))
    st = g.new_state(2, seed=0)
    st.apply("stop")
    assert g.why_ended(st) == "an 'end game with no winner' of the rules"
    st = g.new_state(2, seed=0)
    while not st.is_terminal():
        st.apply("up")
    assert g.why_ended(st) == "the step cap: 5 steps"


def test_the_rules_say_what_play_shows_and_observations_do_not_change(tmp_path):
    """Issue 17: 'show' values, labels for vars, varieties and decisions, vars hidden from play."""
    from rich.console import Console

    import meeple
    from meeple.tools.play import render_observation
    path = tmp_path / "g.rules"
    text = ('game "Shown"\nplayers 2\nzone deck public\ncards c in deck {\n  2 red_card\n}\nvar n = 0\n'
            'var busy = false\nturn {\n  choose go {\n    go {\n      set n = n + 1\n    }\n  }\n}\n'
            'end when n >= 3\n')
    path.write_text(text)
    plain = meeple.load(str(path))
    path.write_text(text + 'show "double" (p) = 2 * n + number(p)\nlabel n "count"\nlabel busy hidden\n'
                    'label red_card "red card"\nlabel go "move on"\n')
    g = meeple.load(str(path))
    st = g.new_state(2, seed=0)
    assert g.game_hash == plain.game_hash and st.observation(0) == plain.new_state(2, seed=0).observation(0)
    assert g.shown(st) == [("double", [0, 1])]
    out = io.StringIO()
    render_observation(st.observation(0), 0, Console(file=out, width=100, color_system=None),
                       var_types=g.checked.var_types, labels=g.labels, shown_values=g.shown(st))
    text = out.getvalue()
    assert "decision: move on" in text and "count: 0" in text and "busy" not in text
    assert "red card ×2" in text and "double: seat 0: 0, seat 1: 1" in text
