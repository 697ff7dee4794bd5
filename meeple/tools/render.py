"""Draw a grid of placed tiles as lines of text (``draw_grid``), and read a game's
observation into the plain data it draws (``BoardView``).

A tile is a box of ``width`` × ``height`` characters (odd sizes, 7 × 3 by default)
with its paths in box-drawing characters, made from the tile's ``ends``: per edge
(N=0, E=1, S=2, W=3) the bit mask of the edges of the path that ends there, 0 if
none (as ``boards.Board.ends``). One path is drawn through the centre of the box:
``│`` joins N and S, ``└`` N and E, ``┼`` all four, and a path with a single end is
a stub ending in ``●``. Separate paths on one tile are drawn side by side,
each through its own point (the corners {N, W} and {S, E} are ``┘`` and ``┌``).

Over the paths: short tags (a letter per per-tile var that is set, in the top left
corner), player marks (the seat's digit, on the edge the mark stands at, or in
the top right corner) and, for a blocked tile, hatching (``░``) in its blank space.
Empty squares inside the board show ``·``, squares offered to the player ``+``.

Everything about a particular game (which var is a tag, which is a mark, what
its letter is) comes from the game's declarations, in ``BoardView``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence

from meeple.dsl.checked import TILE_VAR
from meeple.dsl.walk import nodes

N, E, S, W = 0, 1, 2, 3
EDGE_LETTERS = ("N", "E", "S", "W")
# Box-drawing characters by the directions a character's lines go (bit e for edge e).
BOX = {0: " ", 1: "╵", 2: "╶", 4: "╷", 8: "╴", 5: "│", 10: "─", 3: "└", 6: "┌", 12: "┐", 9: "┘",
       7: "├", 14: "┬", 13: "┤", 11: "┴", 15: "┼"}
STUB = "●"
HATCH = "░"
EMPTY = "·"
SPOT = "+"


@dataclass(frozen=True)
class Cell:
    """One tile to draw: its square, its path ends, and what stands on it."""

    x: int
    y: int
    ends: tuple[int, int, int, int]
    tags: str = ""                                   # letters of the per-tile vars that are set
    marks: tuple[tuple[int, Optional[int]], ...] = ()  # (seat, edge or None)
    hatched: bool = False
    heavy: int = 0                                   # edges (a mask) whose paths are drawn heavy


def paths_of(ends: Sequence[int]) -> list[int]:
    """The distinct paths of a tile (as edge masks), in the order of their first edge."""
    out: list[int] = []
    for m in ends:
        if m and m not in out:
            out.append(m)
    return out


def _edges(mask: int) -> list[int]:
    return [e for e in range(4) if mask >> e & 1]


def _hubs(paths: list[int], width: int) -> list[int]:
    """The column each path is drawn through: the centre for one path; else side by side,
    a path going west to the left of one going east."""
    cx = width // 2
    if len(paths) <= 1:
        return [cx] * len(paths)
    lo, hi = max(1, cx - (len(paths) - 1)), min(width - 2, cx + (len(paths) - 1))
    if len(paths) == 2:
        cols = [cx - 1, cx + 1]
    else:
        cols = [round(lo + i * (hi - lo) / (len(paths) - 1)) for i in range(len(paths))]

    def westness(m: int) -> int:
        return (m >> W & 1) - (m >> E & 1)
    order = sorted(range(len(paths)), key=lambda i: (-westness(paths[i]), i))
    hubs = [0] * len(paths)
    for col, i in zip(cols, order):
        hubs[i] = col
    return hubs


def draw_tile(ends: Sequence[int], width: int = 7, height: int = 3, tags: str = "",
              marks: Iterable[tuple[int, Optional[int]]] = (), hatched: bool = False,
              heavy: int = 0) -> list[str]:
    """One tile as ``height`` strings of ``width`` characters; the paths to the edges in the
    mask ``heavy`` are drawn in heavy lines (``┃``, ``━``)."""
    if width < 3 or height < 3 or width % 2 == 0 or height % 2 == 0:
        raise ValueError(f"a tile is drawn in an odd number (at least 3) of columns and rows, not {width}×{height}")
    cx, cy = width // 2, height // 2
    bits: dict[tuple[int, int], int] = {}   # (col, row) → directions of the lines there
    owner: dict[tuple[int, int], int] = {}  # (col, row) → the path drawn there (the first one wins)
    edge_at = {N: (cx, 0), E: (width - 1, cy), S: (cx, height - 1), W: (0, cy)}
    stubs: set[tuple[int, int]] = set()
    arm: dict[tuple[int, int], int] = {}  # (col, row) → the edge whose path runs there
    paths = paths_of(ends)
    for k, (mask, hx) in enumerate(zip(paths, _hubs(paths, width))):
        mine: dict[tuple[int, int], int] = {}
        for e in _edges(mask):
            if e == N:
                run = [(hx, r) for r in range(0, cy)]
                edge_at[N] = (hx, 0)
            elif e == S:
                run = [(hx, r) for r in range(cy + 1, height)]
                edge_at[S] = (hx, height - 1)
            elif e == W:
                run = [(c, cy) for c in range(0, hx)]
            else:
                run = [(c, cy) for c in range(hx + 1, width)]
            line = (1 << N | 1 << S) if e in (N, S) else (1 << E | 1 << W)
            for p in run:
                mine[p] = mine.get(p, 0) | line
                if owner.get(p, k) == k:
                    arm.setdefault(p, e)
            mine[(hx, cy)] = mine.get((hx, cy), 0) | 1 << e
        if len(_edges(mask)) == 1:
            stubs.add((hx, cy))
        for p, b in mine.items():
            if owner.setdefault(p, k) == k:
                bits[p] = bits.get(p, 0) | b
    grid = [[" "] * width for _ in range(height)]
    for (c, r), b in bits.items():
        if (c, r) in stubs and b in (1, 2, 4, 8):
            grid[r][c] = STUB
        elif heavy >> arm.get((c, r), 4) & 1 and b in (5, 10):
            grid[r][c] = "┃" if b == 5 else "━"
        else:
            grid[r][c] = BOX[b]
    fixed: set[tuple[int, int]] = set()  # characters that hatching must not cover

    def put(text: str, spots: Iterable[tuple[int, int]]) -> None:
        chars = iter(text)
        for c, r in spots:
            if grid[r][c] == " " and (c, r) not in fixed:
                ch = next(chars, None)
                if ch is None:
                    return
                grid[r][c] = ch
                fixed.add((c, r))

    corner_left = [(c, r) for r in (0, height - 1) for c in range(width)]
    corner_right = [(c, r) for r in (0, height - 1) for c in reversed(range(width))]
    for seat, edge in marks:
        digit = str(seat)[-1]
        if edge is not None and edge_at[edge] not in fixed:
            c, r = edge_at[edge]
            grid[r][c] = digit
            fixed.add((c, r))
        else:
            put(digit, corner_right)
    put(tags, corner_left)
    if hatched:
        for r in range(height):
            for c in range(width):
                if grid[r][c] == " " and (c, r) not in fixed:
                    grid[r][c] = HATCH
    return ["".join(row) for row in grid]


def _blank(width: int, height: int, centre: str) -> list[str]:
    rows = [" " * width for _ in range(height)]
    cy, cx = height // 2, width // 2
    rows[cy] = " " * cx + centre + " " * (width - cx - 1)
    return rows


def draw_grid(cells: Sequence[Cell], width: int = 7, height: int = 3,
              spots: Iterable[tuple[int, int]] = (), coords: bool = True) -> list[str]:
    """The board as lines: x along the top, y down the left (largest at the top).

    ``spots``: empty squares to mark (e.g. where a tile may go); the board spans the
    tiles and these. Returns no lines when there is nothing to draw."""
    spots = set(spots)
    squares = {(c.x, c.y) for c in cells} | spots
    if not squares:
        return []
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    by_square = {(c.x, c.y): c for c in cells}
    label_w = max(len(str(y)) for y in range(y0, y1 + 1)) if coords else 0
    margin = " " * (label_w + 1) if coords else ""
    lines: list[str] = []
    if coords:
        # each column's number starts over the tile's middle (its minus sign one to the left)
        heads = [(" " * (width // 2 - (x < 0)) + str(x)).ljust(width) for x in range(x0, x1 + 1)]
        lines.append((margin + "".join(heads)).rstrip())
    for y in range(y1, y0 - 1, -1):
        boxes = []
        for x in range(x0, x1 + 1):
            c = by_square.get((x, y))
            if c is not None:
                boxes.append(draw_tile(c.ends, width, height, c.tags, c.marks, c.hatched, c.heavy))
            else:
                boxes.append(_blank(width, height, SPOT if (x, y) in spots else EMPTY))
        for r in range(height):
            head = (str(y).rjust(label_w) + " " if r == height // 2 else margin) if coords else ""
            lines.append((head + "".join(b[r] for b in boxes)).rstrip())
    return lines


def draw_strip(items: Sequence[tuple[str, Sequence[int]] | tuple[str, Sequence[int], int]], width: int = 7,
               height: int = 3, gap: int = 2, max_width: int = 0) -> list[str]:
    """Tiles side by side, each with a caption under it (e.g. a tile in each rotation);
    an item is (caption, ends) or (caption, ends, heavy edges). Wrapped into more strips
    when ``max_width`` is given."""
    cell_w = max([width] + [len(item[0]) for item in items])
    per_row = max(1, (max_width + gap) // (cell_w + gap)) if max_width else max(1, len(items))
    lines: list[str] = []
    for first in range(0, len(items), per_row):
        chunk = items[first:first + per_row]
        boxes = [draw_tile(item[1], width, height, heavy=item[2] if len(item) > 2 else 0) for item in chunk]
        for r in range(height):
            lines.append((" " * gap).join(b[r].center(cell_w) for b in boxes).rstrip())
        lines.append((" " * gap).join(item[0].center(cell_w) for item in chunk).rstrip())
    return lines


def tag_letters(names: Sequence[str]) -> dict[str, str]:
    """A distinct capital letter per name: its first letter, else its next letters, else any free one."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        pool = [ch.upper() for ch in name if ch.isalpha()] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        letter = next((ch for ch in pool if ch not in taken), "?")
        taken.add(letter)
        out[name] = letter
    return out


class BoardView:
    """How one game's board is drawn, read from its declarations:

    * per-tile vars (``var x per <grid>``) that are set become tags, a letter each; those
      a route's ``blocked`` clause reads also hatch the tile;
    * per-player vars holding a tile become marks (the seat's digit on the tile); a
      per-player var holding an edge places the mark on that edge, when its name
      extends the tile var's name (``spot`` and ``spot_edge``) or it is the only one.
    """

    def __init__(self, game: Any):
        layout = game.layout
        self.shapes = layout.shapes
        self.variety = {name: i for i, name in enumerate(layout.variety_names)}
        types = game.checked.var_types
        decls = game.sym.vars
        self.grid_name = layout.grid_names[0] if layout.grid_names else "grid"
        paths_attr = game.sym.grids[self.grid_name]["paths"] if layout.grid_names else None
        # edge sets other than the paths (say, a marked axis) are drawn as heavy lines
        self.heavy_attrs = [a for a in (self.shapes.masks if self.shapes else ()) if a != paths_attr]
        self.tile_vars = [n for n in layout.tile_var_names if types.get(n) in ("bool", "int")]
        self.letters = tag_letters(self.tile_vars)
        blocked: set[str] = set()
        for route in game.ir.get("routes", ()):
            for clause in route.get("clauses", ()):
                if clause.get("name") == "blocked":
                    blocked |= {n["func"] for n in nodes(clause.get("value"))
                                if game.checked.what(n) == TILE_VAR}
        self.hatch = {n for n in self.tile_vars if n in blocked}
        per_player = [n for n in layout.var_names if decls[n]["per_player"]]
        self.tile_typed = [n for n in layout.var_names if types.get(n) == "tile"]
        self.edge_typed = [n for n in layout.var_names if types.get(n) == "kind:edge"]
        tile_marks = [n for n in per_player if n in self.tile_typed]
        edge_vars = [n for n in per_player if n in self.edge_typed]
        self.marks: list[tuple[str, Optional[str]]] = []
        for n in tile_marks:
            paired = [v for v in edge_vars if v.startswith(n + "_")]
            if not paired and len(tile_marks) == 1 and len(edge_vars) == 1:
                paired = edge_vars
            self.marks.append((n, paired[0] if paired else None))

    @property
    def active(self) -> bool:
        return self.shapes is not None

    def ends(self, tile: dict[str, Any]) -> tuple[int, int, int, int]:
        assert self.shapes is not None
        return self.shapes.ends[self.variety[tile["tile"]]][tile["rotation"] % 4]

    def variety_ends(self, name: str, rotation: int) -> tuple[int, int, int, int]:
        assert self.shapes is not None
        return self.shapes.ends[self.variety[name]][rotation % 4]

    def heavy(self, name: str, rotation: int) -> int:
        """The edges of a variety, turned, that are in one of its edge sets other than the paths."""
        assert self.shapes is not None
        v = self.variety[name]
        mask = 0
        for a in self.heavy_attrs:
            mask |= self.shapes.masks[a][v][rotation % 4]
        return mask

    def heavy_names(self, names: Iterable[str]) -> list[str]:
        """The edge-set attributes that some of these varieties have."""
        assert self.shapes is not None
        vs = [self.variety[n] for n in names]
        return [a for a in self.heavy_attrs if any(self.shapes.masks[a][v][0] for v in vs)]

    def rotations(self, name: str) -> tuple[int, ...]:
        """The rotations of a variety that look different (the others repeat one of them)."""
        assert self.shapes is not None
        return self.shapes.rotations[self.variety[name]]

    def cells(self, obs: dict[str, Any]) -> list[Cell]:
        """The tiles of an observation (``Game.observe``) as cells to draw."""
        grid = obs.get("grid") or []
        values = obs.get("vars") or {}
        marks: dict[int, list[tuple[int, Optional[int]]]] = {}
        for tile_var, edge_var in self.marks:
            tiles = values.get(tile_var) or []
            edges = (values.get(edge_var) or []) if edge_var else []
            for seat, t in enumerate(tiles):
                if isinstance(t, int) and not isinstance(t, bool) and 0 <= t < len(grid):
                    e = edges[seat] if seat < len(edges) else None
                    marks.setdefault(t, []).append((seat, e if isinstance(e, int) and 0 <= e < 4 else None))
        out = []
        for t, tile in enumerate(grid):
            tags = ""
            for n in self.tile_vars:
                v = tile.get(n)
                if v is True:
                    tags += self.letters[n]
                elif isinstance(v, int) and not isinstance(v, bool) and v:
                    tags += f"{self.letters[n]}{v}"
            out.append(Cell(tile["x"], tile["y"], self.ends(tile), tags, tuple(marks.get(t, ())),
                            any(tile.get(n) for n in self.hatch), self.heavy(tile["tile"], tile["rotation"])))
        return out

    def legend(self, obs: dict[str, Any], spots: bool = False, max_width: int = 0) -> list[str]:
        """What the letters, digits and marks on the board stand for (only those in use), in
        lines of at most ``max_width`` characters (0: one line)."""
        grid = obs.get("grid") or []
        parts = []
        for n in self.tile_vars:
            if any(tile.get(n) for tile in grid):
                parts.append(f"{self.letters[n]} = {n}" + (f" ({HATCH} blocked)" if n in self.hatch else ""))
        for tile_var, edge_var in self.marks:
            if any(isinstance(t, int) and 0 <= t < len(grid) for t in (obs.get("vars") or {}).get(tile_var, [])):
                parts.append(f"digit = {tile_var} of that seat" + (f", on its {edge_var}" if edge_var else ""))
        heavy = self.heavy_names({tile["tile"] for tile in grid})
        if heavy:
            parts.append("┃━ = " + ", ".join(heavy))
        parts.append(f"{EMPTY} empty")
        if spots:
            parts.append(f"{SPOT} you may place here")
        lines = [parts[0]]
        for part in parts[1:]:
            if max_width and len(lines[-1]) + 3 + len(part) > max_width:
                lines.append(part)
            else:
                lines[-1] += "   " + part
        return lines

    def draw(self, obs: dict[str, Any], width: int = 7, height: int = 3,
             spots: Iterable[tuple[int, int]] = (), max_width: int = 0) -> list[str]:
        """The board of an observation and its legend under it."""
        spots = list(spots)
        lines = draw_grid(self.cells(obs), width, height, spots)
        if not lines:
            return []
        return lines + self.legend(obs, bool(spots), max_width)

    def value_text(self, name: str, value: Any, obs: dict[str, Any]) -> Any:
        """A var's value as a reader wants it: a tile by its square, an edge by its letter."""
        if isinstance(value, bool) or not isinstance(value, int):
            return value
        if name in self.tile_typed:
            grid = obs.get("grid") or []
            return f"{grid[value]['x']},{grid[value]['y']}" if 0 <= value < len(grid) else "none"
        if name in self.edge_typed:
            return EDGE_LETTERS[value] if 0 <= value < 4 else "none"
        return value
