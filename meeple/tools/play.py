"""Play a game in the terminal: one human seat against random bots.

At each of your decisions you see what your seat may see (``observation``), the
board drawn when the game has a grid (``render``), the legal moves numbered, and
answer with a number or a move's text: the decision's name may be left out, a
placement written short (``<tile> x,y r``), and each word typed may be the
beginning of a word of the move, in order, with words of the move left out
(``red`` for ``play 1 red``) when only one move fits. A decision with one move
only is taken for you. Many moves are listed compactly (placements as rows of
tile and square by rotation). Bots move at once; their moves are shown unless
the move goes somewhere you may not see. Works with piped input: one answer per
line; end of input leaves the game.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from typing import Any, NamedTuple, Optional

from .bots import RandomBot, derive_seed, sample_chance
from .events import (Change, changes, labelled_cards, labelled_move, move_shown, move_visibility, per_player_chance,
                     shown_value, turns_played, unseen_view, wrapped)
from .limits import MAX_ARGUMENT_DIGITS, MAX_MOVE_CHARS

FEW_MOVES = 6  # legal moves a message names all of, for an answer that is none of them

HELP = """Answer with the number of a move, or its text. Each word you type may be the
  beginning of a word of the move, in order, and words may be left out: 'red'
  is 'play 1 red', 'play 2 bl' is 'play 2 blue', if only one move fits; the
  parts of a name joined by '_' count as words too: 'hearts 3' is
  'play card_hearts_3'."""
HELP_TILES = """  A placement may be written '<tile> at x,y rotation r', '<tile> x,y r' or
  '<tile> x,y r<r>'; x grows to the right, y upwards, and rotation r turns the
  tile r quarter turns clockwise (the tiles you may place are drawn in each
  rotation)."""
HELP_KEYS = """  ?   this help and the moves again
  o   your view of the game again
  m   the moves again"""
HELP_TILE_KEY = "  t   the tiles you may place, in each rotation"
HELP_END = """  u   take back your last move (and the bots' moves since); chance is drawn
      anew after it, but what you saw stays seen: a bot's hidden choice made
      before your move is not made again
  q   quit"""


def help_text(tiles: bool) -> str:
    """What ``?`` says: with the placement's forms and the ``t`` key when the game places tiles."""
    return "\n".join([HELP, *([HELP_TILES] if tiles else []), HELP_KEYS, *([HELP_TILE_KEY] if tiles else []),
                      HELP_END])


# The canonical text of a placement (``moves.Placement.text``).
PLACEMENT = re.compile(r"^(?P<label>\S+) (?P<tile>\S+) at (?P<x>-?\d+),(?P<y>-?\d+) rotation (?P<r>\d+)$")
# A placement as a player may write it, once normalised (``_norm``), without the decision's name.
SHORT_PLACEMENT = re.compile(r"^(?P<tile>\S+) (?:at )?(?P<x>-?\d+),(?P<y>-?\d+)"
                             r"(?: (?:rotation |rot |r)?(?P<r>\d+))?$")
COMPACT_AT = 12  # more moves than this are listed compactly


class Placement(NamedTuple):
    number: int  # the move's number in the list (from 1)
    tile: str
    x: int
    y: int
    rotation: int


def placements(legal: list) -> list[Placement]:
    """The legal moves that lay a tile, read from their canonical text."""
    out = []
    for i, a in enumerate(legal, 1):
        m = PLACEMENT.match(a.text)
        if m:
            out.append(Placement(i, m["tile"], int(m["x"]), int(m["y"]), int(m["r"])))
    return out




def _cards(content: Any, labels: Any = None, me: str = "you") -> str:
    if not isinstance(content, dict):
        return str(content)
    labels = labels or {}

    def named(counts: dict) -> list[str]:  # (each variety as the rules label it)
        return [f"{labels.get(v) or v} ×{k}" if k != 1 else f"{labels.get(v) or v}" for v, k in counts.items()]
    if unseen_view(content):  # a zone this seat may not see: its size, and the cards shown to it
        known = content.get("known") or {}
        unseen = content["size"] - sum(known.values())
        parts = named(known)
        if parts:
            parts[-1] += f" [dim](shown to {me})[/dim]"
        if unseen:
            parts.append(f"[dim]{unseen} unseen[/dim]")
        return ", ".join(parts) or "—"
    return ", ".join(named(content)) or "—"


LONG_TRACK = 60  # a track of more spaces is drawn without its spaces that hold nothing of note


def track_row(tags: list, pieces: dict[str, int], podium: list[str], width: int = 80,
              plain: bool = False) -> list[str]:
    """A track drawn as a row of spaces, as many to a line as ``width`` allows: each space's
    number, its tag (``start`` at 0; ``?`` for a tile not laid yet, nothing on a ``plain``
    track, one that lays no tiles, where a space without a tag has none for good) and the
    pieces on it, one under the other; then the pieces past the last space, in the order
    they finished. On a long track the spaces with no piece and the usual tag are left out (…)."""
    spaces = len(tags)
    on: dict[int, list[str]] = {}
    for piece, pos in pieces.items():
        if pos <= spaces:
            on.setdefault(pos, []).append(piece)
    shown = range(spaces + 1)
    if spaces > LONG_TRACK:  # only the start, the end, the spaces with pieces and the rarer tags
        laid = [t for t in tags if t is not None]
        common = max(set(laid), key=laid.count) if laid else None
        shown = [n for n in shown if n in (0, spaces) or n in on or tags[n - 1] != common]
    columns = []
    for k, n in enumerate(shown):
        if k and n != shown[k - 1] + 1:
            columns.append((["…"], 1))  # (spaces left out: nothing on them, the usual tag)
        cell = [str(n), "start" if n == 0 else (tags[n - 1] or ("" if plain else "?")), *on.get(n, [])]
        columns.append((cell, max(len(c) for c in cell)))
    lines: list[str] = []
    row: list[tuple[list[str], int]] = []
    used = 2

    def flush() -> None:
        depth = max(len(cell) for cell, _ in row)
        for k in range(depth):
            text = "  " + "  ".join((cell[k] if k < len(cell) else "").ljust(w) for cell, w in row)
            lines.append(text.rstrip())
    for cell, w in columns:
        if row and used + w + 2 > width:
            flush()
            row, used = [], 2
        row.append((cell, w))
        used += w + 2
    flush()
    done = list(podium) + sorted(p for p, pos in pieces.items() if pos > spaces and p not in podium)
    if done:
        lines.append("  past the end: " + ", ".join(f"{i}. {p}" for i, p in enumerate(done, 1)))
    return lines


def _spaces(tags: list, plain: bool = False) -> str:
    """``; mud at 2, 11; others plain``: the usual tag is named once, the others by space. On a
    ``plain`` track (one that lays no tiles) a space without a tag has none for good: ``; mud
    at 2, 4; others untagged``; on another, its tile is not laid yet, and then every tag laid
    is named by space (the usual one so far is no guide to the others)."""
    laid = [t for t in tags if t is not None]
    if not laid:
        return ""
    at: dict[Any, list[int]] = {}  # each tag laid → its spaces
    for i, t in enumerate(tags, 1):
        if t is not None:
            at.setdefault(t, []).append(i)
    if len(laid) < len(tags):
        rest = "others untagged" if plain else f"{len(tags) - len(laid)} not laid yet"
        return "; " + "; ".join([f"{t} at {', '.join(map(str, where))}" for t, where in at.items()] + [rest])
    common = max(at, key=lambda t: (len(at[t]), str(t)))
    parts = [f"{t} at {', '.join(map(str, where))}" for t, where in at.items() if t != common]
    return "; " + "; ".join(parts + [f"others {common}"]) if parts else f"; all {common}"


def board_value(view: Any, name: str, value: Any, obs: dict[str, Any]) -> Any:
    """A var's value as the board names it (a tile by its square, an edge by its letter, none as
    —), in a game with tiles (``view``: its ``render.BoardView``); else the value as it is."""
    if view is None or not view.active or obs.get("grid") is None:
        return value
    text = view.value_text(name, value, obs)
    return "—" if text == "none" else text


def render_observation(obs: dict[str, Any], seat: int, console: Any, view: Any = None,
                       spots: Any = (), plain: Any = (), var_types: Any = None, labels: Any = None,
                       shown_values: Any = None, compact: bool = False, board: bool = True, me: str = "you") -> None:
    """Draw an observation dict (as ``State.observation`` makes it) with rich; with a
    ``render.BoardView`` its grid is drawn last (``spots``: squares to mark as open to you).
    ``plain``: the tracks that lay no tiles (a space without a tag there is not waiting for one).
    ``var_types`` (the checked game's): a var holding no player, value or cell is shown as "—".
    Flags are shown as yes/no, turns counted from 1 (issue 17's defaults). ``labels`` (the rules'
    ``label``s: name → text, None for a var never shown) and ``shown_values`` (``Game.shown``) are
    what the rules want a person to see. ``me``: how the view names ``seat``, "you" unless someone
    watches it play ("seat 1"); ``seat`` None: the whole game's view."""
    from .markup import escape
    from rich.table import Table

    # (the rules' words are text, never rich markup)
    written = labels or {}  # (as the rules write them: the board of cells is escaped as a whole)
    labels = {k: escape(v) if isinstance(v, str) else v for k, v in written.items()}
    shown_values = [(escape(str(title)), values) for title, values in shown_values or []]

    known = {"seat", "players", "current", "turn", "to_move", "decision", "zones", "pieces", "podium",
             "tracks", "piece_tracks", "vars", "outcome", "winners", "scores", "board", "circuits", "piece_spaces",
             "home_stretch", "var_shown"}
    cells = obs.get("board") if isinstance(obs.get("board"), dict) else None
    drawn, board = board, view is not None and view.active and obs.get("grid") is not None
    if board:
        known.add("grid")

    types = var_types or {}

    def shown(name: str, value: Any) -> Any:
        value = shown_value(value, str(types.get(name, "")))
        if value in ("?", "yes", "no", "—"):
            return value
        return board_value(view, name, value, obs)
    turn = obs.get("turn")
    head = f"[bold]{'Setup' if turn == 'setup' else f'Turn {turn + 1}' if isinstance(turn, int) else turn}[/bold]" \
        + (f" · you are seat {seat} of {obs.get('players')}" if seat is not None and me == "you" else
           f" · as seat {seat} sees it, of {obs.get('players')}" if seat is not None else
           f" · {obs.get('players')} player{'s' if obs.get('players') != 1 else ''}, everything shown")
    if obs.get("decision"):
        head += f" · decision: [bold cyan]{labels.get(obs['decision']) or obs['decision']}[/bold cyan]"
    console.print(head)

    tracks = obs.get("tracks") or {}
    pieces = obs.get("pieces") or {}
    podium = obs.get("podium") or {}
    on = obs.get("piece_tracks") or {}
    if tracks:
        from .markup import escape
        where = obs.get("piece_spaces") or {}
        home = obs.get("home_stretch") or {}
        for name, spaces in tracks.items():
            loop = name in (obs.get("circuits") or [])
            console.print(f"[bold]{escape(name)}[/bold]: {'a circuit of ' if loop else ''}{len(spaces)} spaces"
                          + _spaces(spaces, name in plain))
            done = podium.get(name) or []  # (a finished piece on a circuit stands on no space: not at the start)
            here = {p: pos if p in done and where.get(p) == 0 else where.get(p, pos) for p, pos in pieces.items()
                    if on.get(p, name) == name and p not in home}
            for line in track_row(spaces, here, podium.get(name) or [], console.width, name in plain):
                console.print(escape(line), highlight=False)
            homed = [f"{p} {k} of {n}" for p, (k, n) in home.items() if on.get(p, name) == name]
            if homed:
                console.print(escape("  in their home stretch: " + ", ".join(homed)), highlight=False)
    elif pieces:
        t = Table(title=None, show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("piece")
        t.add_column("space", justify="right")
        for name, pos in pieces.items():  # (in the order the rules declare them: rows stay put)
            t.add_row(name, str(pos))
        console.print(t)

    zones = obs.get("zones") or {}
    if zones:
        t = Table(show_header=not compact, header_style="bold", box=None, pad_edge=False)
        t.add_column("zone")
        t.add_column("contents")
        for name, content in zones.items():
            if isinstance(content, list) and compact:  # one line: each player's part after the other
                t.add_row(name, " · ".join(f"{f'[bold green]{me}[/bold green]' if owner == seat else f'seat {owner}'}: "
                                           f"{_cards(part, labels, me)}" for owner, part in enumerate(content)))
            elif isinstance(content, list):
                for owner, part in enumerate(content):
                    who = f"[bold green]{me}[/bold green]" if owner == seat else f"seat {owner}"
                    t.add_row(f"{name} ({who})", _cards(part, labels, me))
            else:
                t.add_row(name, _cards(content, labels, me))
        console.print(t)

    if cells is not None:
        from .markup import escape
        for line in board_of_cells(cells, spots, written):
            console.print(escape(line), highlight=False)
    named = obs.get("var_shown") or {}
    for name, values in (obs.get("vars") or {}).items():
        if cells is not None and name in (cells.get("vars") or {}):
            continue  # drawn on the board
        if name in labels and labels[name] is None:
            continue  # the rules' own bookkeeping: 'label NAME hidden'
        if name == "next" and values == [-1] and name not in labels:
            continue  # (who moves after this turn: worth a line only once the rules set it)
        title = labels.get(name) or name
        if name in named and not board:  # a value of a kind, a cell: by its name
            values = named[name]
        if isinstance(values, list) and len(values) == obs.get("players") and len(values) > 1:
            console.print(f"{title}: " + ", ".join(f"seat {i}: {shown(name, v)}" for i, v in enumerate(values)))
        else:
            value = values[0] if isinstance(values, list) and len(values) == 1 else values
            console.print(f"{title}: {shown(name, value)}")
    single = []  # (compact: the values that are one for the game, on one line)
    for title, values in shown_values or []:  # the rules' 'show': what they want a player to see
        if len(values) > 1:
            console.print(f"{title}: " + ", ".join(f"seat {i}: {v}" for i, v in enumerate(values)))
        elif compact:
            single.append(f"{title}: {values[0] if values else ''}")
        else:
            console.print(f"{title}: {values[0] if values else ''}")
    if single:
        console.print(" · ".join(single))
    for key, value in obs.items():
        if key not in known:
            console.print(f"{key}: {value}")
    if board and drawn:
        render_board(obs, console, view, spots)


def cell_label(value: Any, var: str) -> str:
    """What stands on a cell, as the observation gives a per-cell var: a player's seat number, a
    value's name, a number, or the var's initial for true; "" for nothing (none, false, 0)."""
    if value is None or value is False or value == 0:
        return ""
    if value is True:
        return var[:1]
    if isinstance(value, str) and value.startswith("seat "):
        return value[5:]
    return str(value)


def board_of_cells(board: dict[str, Any], spots: Any = (), labels: Optional[dict[str, Any]] = None) -> list[str]:
    """A board of cells as text: row y = rows-1 at the top, x growing to the right, the
    coordinates around it; each cell shows what its per-cell vars hold (several joined by "/"),
    "." an empty cell, "+" an empty cell a move of yours can take (``spots``: (x, y) pairs); one
    that holds something and that a move can take, what it holds then "+" (``4+``).
    ``labels``: the rules' labels (a var labelled hidden is left out, another goes by its label)."""
    columns, rows = board.get("columns", 0), board.get("rows", 0)
    labels = labels or {}
    kept = {name: v for name, v in (board.get("vars") or {}).items() if not (name in labels and labels[name] is None)}
    called = [labels.get(name) or name for name in kept]
    if len(set(called)) < len(called):  # (two vars that would go by one name: each by its own)
        called = list(kept)
    values = dict(zip(called, kept.values()))
    if not (isinstance(columns, int) and isinstance(rows, int)) or columns * rows <= 0:
        return []
    spots = set(spots)
    labels = {}
    for c in range(columns * rows):
        parts = [cell_label(v[c], name) for name, v in values.items() if isinstance(v, list) and c < len(v)]
        labels[c] = "/".join(p for p in parts if p)
        if (c % columns, c // columns) in spots:  # (a cell a move takes: "+", after what is on it)
            labels[c] += "+"
    width = max([len(str(columns - 1)), *(len(t) for t in labels.values())])
    side = len(str(rows - 1))
    head = " " * (side + 2) + " ".join(str(x).rjust(width) for x in range(columns))
    names = ", ".join(values) or "nothing"
    out = [f"{board.get('name', 'board')}: {columns} × {rows} cells, showing {names}"
           + ("; + marks a cell you can take" if spots else ""), head]
    for y in reversed(range(rows)):
        row = []
        for x in range(columns):
            text = labels[y * columns + x] or "."
            row.append(text.rjust(width))
        out.append(f"{str(y).rjust(side)}  " + " ".join(row) + f"  {y}")
    out.append(head)
    return out


def cell_spots(legal: list) -> list[tuple[int, int]]:
    """The cells ``x,y`` that the legal actions' texts name."""
    found = set()
    for a in legal:
        for word in getattr(a, "text", "").split():
            x, comma, y = word.partition(",")
            if comma and x.isdigit() and y.isdigit():
                found.add((int(x), int(y)))
    return sorted(found)


def render_board(obs: dict[str, Any], console: Any, view: Any, spots: Any = ()) -> None:
    """The grid of an observation, drawn; narrower tiles when the wide ones would not fit."""
    from .markup import escape

    grid = obs.get("grid") or []
    spots = list(spots)
    console.print(f"[bold]{escape(view.grid_name)}[/bold]: {len(grid)} tile{'s' if len(grid) != 1 else ''}")
    lines = view.draw(obs, 7, 3, spots, console.width)
    if lines and max(len(line) for line in lines) > console.width:
        lines = view.draw(obs, 5, 3, spots, console.width)
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def render_tiles(places: list[Placement], console: Any, view: Any) -> None:
    """The tiles a placement may lay, each in the rotations that look different."""
    from .render import draw_strip

    names = list(dict.fromkeys(p.tile for p in places))
    items = [(f"{name} r{r}", view.variety_ends(name, r), view.heavy(name, r))
             for name in names for r in view.rotations(name)]
    console.print("tiles you may place, by rotation (r = quarter turns clockwise):")
    for line in draw_strip(items, max_width=console.width):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def _isatty(source: Any) -> bool:
    try:
        return bool(source.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _read_line_from(source: Any) -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        if source is sys.stdin and _isatty(source) and _isatty(sys.stdout):
            try:
                return input(prompt)  # line editing on a terminal
            except EOFError:
                return None
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = source.readline(MAX_MOVE_CHARS + 1)  # no more: a longer answer is not a move
        if line == "":
            return None
        if not line.endswith("\n"):  # the rest of an overlong line is dropped, unread into memory
            rest = line
            while rest and not rest.endswith("\n"):
                rest = source.readline(MAX_MOVE_CHARS + 1)
        line = line.rstrip("\r\n")
        if not _isatty(source):  # piped answers are not echoed by a terminal: show them (control characters escaped)
            from meeple.dsl.diagnostics import printable
            sys.stdout.write(printable(line if len(line) <= 80 else line[:80] + "...") + "\n")
        return line
    return read


class Snapshot(NamedTuple):
    """The game just before a person's move, to go back to with ``u``."""
    state: Any
    seat: int
    move: str


class Session:
    """One game at the terminal: people at ``seats``, random bots at the others.

    What each step did is said as the seat at the screen sees it (``eyes``). With several people
    (hot seat), the screen is passed between them: before a person's decision when another had
    the screen, a "pass the screen" prompt, then what changed since that person last looked.
    On a terminal (``screen``) the screen is redrawn at each of a person's decisions: the game
    as they see it, the recent log, the moves; piped, everything is printed as it happens."""

    LOG_LINES = 200  # recent log lines kept for the screen (as many as fit are drawn)

    def __init__(self, game: Any, players: int, seats: list[int], seed: int, console: Any,
                 read_line: Callable[[str], str | None], ask_forced: bool, screen: bool,
                 watch: Optional["Watch"] = None):
        from .events import Listener
        self.game, self.players, self.seats, self.seed = game, players, seats, seed
        self.watch = watch  # (no person plays: every seat is a bot, watched)
        self.console, self.read_line, self.ask_forced, self.screen = console, read_line, ask_forced, screen
        self.typed_ahead: str | None = None  # a move typed where the screen was passed: the next answer
        self.listener = Listener(game, players)
        self.state = game.new_state(players, seed=derive_seed(seed, 0, "chance"), listen=self.listener)
        self.bots = {s: RandomBot(derive_seed(seed, 0, "seat", s)) for s in range(players) if s not in seats}
        self.chance_rng = random.Random(derive_seed(seed, 0, "explicit chance"))
        self.visible = move_visibility(game)
        self.owned = per_player_chance(game)  # (vars a chance step sets for one seat: told with its seat)
        self.plain = {t["name"] for t in game.ir["tracks"] if not t["tiles"]}  # (no tile to wait for there)
        self.view = None
        if game.layout.shapes is not None:
            from .render import BoardView
            self.view = BoardView(game)
        self.eyes: Any = seats[0] if seats else watch.seat if watch else None  # whose view the screen shows
        self.moves_watched = 0
        self.last_seen = {s: self.state.observation(s) for s in seats}  # (hot seat: what each person saw last)
        self.undo: list[Snapshot] = []
        self.undone = 0  # moves taken back so far (each draws chance anew after it)
        self.log: list[Any] = []  # (a line with markup, or a line of 'changes' as a Change or str)
        self.opening = self.turns_without_decisions()

    # ---- saying ----
    def say(self, text: str) -> None:
        """A line of the log: printed, and kept for the screen's redraw."""
        self.log.append(text)
        del self.log[:-self.LOG_LINES]
        self.console.print(text)

    def say_change(self, line: str) -> None:
        """A line of what a step did (``events.changes``), under the step's line: as many lines as
        the screen's width needs, broken between two entries, never inside one."""
        self.log.append(("·", line))
        del self.log[:-self.LOG_LINES]
        for text in self.change_lines(line, self.console.width):  # (a line of one entry: wrapped as words)
            self.console.print(text, soft_wrap=isinstance(line, Change))

    @staticmethod
    def change_lines(line: str, width: int) -> list[str]:
        """A line of ``changes`` as the lines (with markup) that show it in ``width`` columns."""
        from rich.cells import cell_len

        from .markup import escape
        return [f"  [dim]{escape(text[2:])}[/dim]" for text in wrapped(line, width, "  · ", cell_len)]

    def log_lines(self, width: int) -> list[str]:
        """The log as lines (with markup) for a column ``width`` wide."""
        out: list[str] = []
        for entry in self.log:
            out += self.change_lines(entry[1], width) if isinstance(entry, tuple) else [entry]
        return out

    def who(self, s: int) -> str:
        if self.watch is not None:
            return f"seat {s} (bot)"
        return "you" if s == self.eyes else (f"seat {s}" if s in self.seats else f"seat {s} (bot)")

    def told(self, action: Any) -> None:
        """Apply ``action``, then say what it changed that the seat at the screen may see: the
        move's own doing, then each chance event that came after it (a card drawn, a die, the next
        turn's roll) on a line of its own, with what that did."""
        game, eyes = self.game, self.eyes
        start = self.state.clone(log=False)
        steps_before = len(self.state.log)
        before = self.state.observation(eyes)
        self.state.apply(action)
        after = self.state.observation(eyes)
        heard = self.listener.take()
        steps = _steps_since(self.state, steps_before)
        told = self.step_by_step(start, steps, after) if len(steps) > 1 else None
        if told is None:  # (one step, or steps that cannot be told apart: all at once)
            told = [("·", line) for line in changes(before, after, game.labels, game.checked.var_types, heard,
                                                     self.value_text, self.you)]
        for kind, line in told:
            self.say_change(line) if kind == "·" else self.say(line)
        if len(self.seats) == 1:
            self.last_seen[eyes] = after

    def step_by_step(self, start: Any, steps: list, after: dict, moved: bool = True) -> list[tuple[str, str]] | None:
        """What each of ``steps`` (a move, then the chance events it ran into; chance events only
        when not ``moved``) did, as the seat at the screen sees it, played again from ``start`` with
        chance taken as it came: a line per chance event, and a "·" line per change. None when
        playing them again does not end where the game is (``after``: that seat's view of it)."""
        from meeple.dsl.diagnostics import RuleRuntimeError

        from .events import cell_chance, chance_hidden_from, chance_owner, owned_chance
        from .markup import escape
        from .records import hidden_chance

        game, eyes = self.game, self.eyes
        walk = start
        walk.rng = None  # (chance as the steps say: each one on its own)
        walk.listen = self.listener
        out: list[tuple[str, str]] = []
        seen, everything = walk.observation(eyes), game.observe(walk, None)
        try:
            for i, (_, text) in enumerate(steps, start=0 if moved else 1):
                was = walk.clone(log=False) if i else None
                owner = chance_owner(game, walk) if i and self.owned else None  # (a roll of some seat's)
                walk.apply(text)
                now_seen, now_everything = walk.observation(eyes), game.observe(walk, None)
                if i:  # (the move's own line is said already)
                    hidden = eyes is not None and (
                        hidden_chance(game, was, text, now_seen, eyes, everything, now_everything) if owner is None
                        else chance_hidden_from(game, was, owner, eyes))
                    said = "" if owner is None else owned_chance(game, was, text, owner, hidden) + " "
                    if hidden:
                        out.append(("", f"chance: {escape(said)}[dim](hidden from {self.you})[/dim]"))
                    else:
                        said = said.strip() or cell_chance(game, was, text)
                        out.append(("", f"chance: {escape(labelled_cards(game, said))}"))
                out += [("·", line) for line in changes(seen, now_seen, game.labels, game.checked.var_types,
                                                         self.listener.take(), self.value_text, self.you)]
                seen, everything = now_seen, now_everything
        except (RuleRuntimeError, ValueError):  # (a step that fails again, IllegalAction included): told all at once
            self.listener.take()
            return None
        return out if seen == after and walk.current_player() == self.state.current_player() else None

    def turns_without_decisions(self) -> tuple[Any, list] | None:
        """When whole turns went by before the first decision (a game of chance alone, or turns that
        ask nobody anything: the seeded state plays them as it is made), the game as its setup left
        it and the chance steps since, to be told one by one (``tell_opening``) rather than the
        screen opening on a game long under way, or over; None when the first decision, or the
        end, comes in the first turn with nothing of it played by chance."""
        from meeple.interpreter.state import TERMINAL
        st, game = self.state, self.game
        if st.turns == 0 and st.current_player() != TERMINAL:
            return None
        walk = game.new_state(self.players, chance="explicit")
        steps = _steps_since(st, 0)
        k = 0
        while k < len(steps) and walk.turns == 0 and walk.pc < game.turn_start:
            walk.apply(steps[k][1])  # (the setup's own chance: the game at the start shows it done)
            k += 1
        return (walk, steps[k:]) if k < len(steps) else None

    def tell_opening(self) -> None:
        """What the turns before the first decision did, a line per chance event (``step_by_step``)."""
        if self.opening is None:
            return
        start, steps = self.opening
        self.listener.take()  # (what the seeded state heard as it was made: told again below)
        told = self.step_by_step(start.clone(log=False), steps, self.state.observation(self.eyes), moved=False)
        for kind, line in told or []:
            self.say_change(line) if kind == "·" else self.say(line)

    def value_text(self, name: str, value: Any, obs: dict) -> Any:
        return board_value(self.view, name, value, obs)

    def move_text(self, text: str) -> str:
        """A move of the decision the state is at, as the rules label it (``events.labelled_move``)."""
        return labelled_move(self.game, self.state, text)

    # ---- the game ----
    def run(self) -> int:
        """Play to the end; the exit code: 0 when the game ended or a person quit, 1 when it got
        stuck or the input ended before the game did."""
        from .markup import escape

        from meeple.interpreter.state import CHANCE, TERMINAL

        game, players = self.game, self.players
        if self.watch is not None:
            return self.run_watched()
        you = (f"you are seat {self.seats[0]}" if len(self.seats) == 1 else
               f"seats {', '.join(map(str, self.seats))} are played here, passing the screen")
        self.console.print(f"[bold]{escape(game.title)}[/bold] — {players} player{'s' if players != 1 else ''}, {you} "
                           f"(seed {self.seed}). Type ? for help.")
        self.tell_opening()
        while True:
            st = self.state
            now = st.current_player()
            if now == TERMINAL:
                break
            if now == CHANCE:  # only with explicit chance; a seeded state samples by itself
                self.told(sample_chance(st, self.chance_rng))
                continue
            legal = st.legal_actions()
            if not legal:
                self.console.print(f"[red]No legal move for seat {now}: the game is stuck.[/red]")
                return 1
            if now not in self.seats:
                self.bot_moves(now)
                continue
            if now != self.eyes:
                passed = self.pass_screen(now)
                if passed is None or passed == "q":
                    return 1 if passed is None else 0
            if len(legal) == 1 and not self.ask_forced:
                self.typed_ahead = None  # (typed for this seat's move, which is taken for it)
                self.say(f"{self.who(now)}: {escape(self.move_text(legal[0].text))} "
                         f"[dim](the only move: taken for you)[/dim]")
                self.told(legal[0])
                continue
            answer = self.ask(now, legal)
            if answer is None or answer == "q":
                return 1 if answer is None else 0
        self.game_over()
        return 0

    @property
    def you(self) -> str:
        """The seat whose view the screen shows, as a line names it."""
        return f"seat {self.eyes}" if self.watch is not None else "you"

    def bot_moves(self, seat: int) -> None:
        """A bot's move: said (hidden where it may show the seat at the screen what it may not
        see), applied, and what it did told."""
        from .markup import escape
        st = self.state
        action = self.bots[seat].act(st)
        label = st.decision()
        if self.eyes in (None, seat) or move_shown(self.visible, label, action.text):
            self.say(f"{self.who(seat)}: {escape(self.move_text(action.text))}")
        else:
            said = self.game.labels.get(label or "") or label or "a move"
            self.say(f"{self.who(seat)}: [dim]{escape(said)} (hidden from {self.you})[/dim]")
        self.told(action)

    def run_watched(self) -> int:
        """``--watch``: the bots play every seat, a move at a time: on Enter (q quits), or one every
        ``pace`` seconds, or, with input that is not a terminal and no pace, as fast as they go.
        The exit code: 0 when the game ended or the watcher quit, 1 when it got stuck or the input
        ended before the game did."""
        import time

        from .markup import escape

        from meeple.interpreter.state import TERMINAL
        watch, game, players = self.watch, self.game, self.players
        assert watch is not None
        whose = "everything shown" if self.eyes is None else f"as seat {self.eyes} sees it"
        how = f"a move every {watch.pace:g} s (Ctrl-C stops)" if watch.pace is not None else \
            "Enter for each move, q quits" if watch.step else "straight through"
        self.console.print(f"[bold]{escape(game.title)}[/bold] — {players} player{'s' if players != 1 else ''}, "
                           f"{'all bots' if players != 1 else 'a bot'}, watched ({whose}; {how}; seed {self.seed}).")
        if not self.screen:
            self.show_watched()
        self.tell_opening()
        while self.state.current_player() != TERMINAL:
            now = self.state.current_player()
            if not self.state.legal_actions():
                self.console.print(f"[red]No legal move for seat {now}: the game is stuck.[/red]")
                return 1
            if self.screen:
                self.draw_watched()
            if watch.step:
                answer = self.read_line(f"move {self.moves_watched + 1}, seat {now}: Enter plays it (q quits)> ")
                if answer is None:
                    self.console.print("\nEnd of input before the game ended: leaving it.")
                    return 1
                if answer.strip().lower() in ("q", "quit", "exit"):
                    self.console.print("Quit.")
                    return 0
            elif watch.pace and self.moves_watched:
                time.sleep(watch.pace)
            self.moves_watched += 1
            self.bot_moves(now)
        self.game_over()
        return 0

    def show_watched(self) -> None:
        """Printed as it goes (not on a screen redrawn): the game at the start, as it is watched."""
        st, game = self.state if self.opening is None else self.opening[0], self.game
        self.console.rule("the game at the start")
        render_observation(self.seen(self.eyes, st), self.eyes, self.console, self.view, (), self.plain,
                           game.checked.var_types, game.labels, game.shown(st, self.eyes), me=self.you)
        self.console.rule()

    def draw_watched(self) -> None:
        """On a terminal: the screen redrawn before each move watched: the game, the recent log,
        and what comes next."""
        from .markup import escape
        st, game, console = self.state, self.game, self.console
        watch = self.watch
        assert watch is not None
        column = _column(console, console.width)
        how = f"a move every {watch.pace:g} s · Ctrl-C stops" if watch.pace is not None else \
            "Enter: next move · q quits"
        column.print(f"[bold]{escape(game.title)}[/bold] — watching, "
                     + ("everything shown" if self.eyes is None else f"as seat {self.eyes} sees it")
                     + f" · seed {self.seed} · {how}")
        render_observation(self.seen(self.eyes), self.eyes, column, self.view, (), self.plain,
                           game.checked.var_types, game.labels, game.shown(st, self.eyes), compact=True, me=self.you)
        info = column.file.getvalue().splitlines()
        room = max(console.height - len(info) - 3, 0)  # (the recent rule, the prompt)
        column = _column(console, console.width)
        if self.log and room > 0:
            column.rule("recent", style="dim")
            for line in self.log_lines(column.width)[-room:]:
                column.print(line, no_wrap=True, overflow="ellipsis")
        console.clear()
        console.file.write("".join(line + "\n" for line in info + column.file.getvalue().splitlines()))
        console.file.flush()

    def seen(self, seat: int, state: Any = None) -> dict[str, Any]:
        """What ``seat`` sees now (or in ``state``), its turn named "setup" while the setup's
        decisions are taken (the first turn is not played yet: both were "Turn 1")."""
        state = self.state if state is None else state
        obs = state.observation(seat)
        if state.outcome is None and state.pc < self.game.turn_start:
            obs["turn"] = "setup"
        return obs

    def pass_screen(self, seat: int) -> str | None:
        """Hot seat: hand the screen to ``seat`` and tell what changed since it last looked; "q"
        when the person quits there, None when input ended."""
        self.wipe()
        self.console.rule(f"seat {seat} to play")
        self.typed_ahead = None  # (what was typed for another seat is not this one's)
        answer = self.read_line(f"Pass the screen to seat {seat}, then press Enter (q quits)> ")
        if answer is None:
            self.console.print("\nEnd of input before the game ended: leaving it.")
            return None
        if answer.strip().lower() in ("q", "quit", "exit"):
            self.console.print("Quit.")
            return "q"
        if answer.strip():  # (a move typed at once, or a script's next line: it answers the move prompt)
            self.typed_ahead = answer
        self.wipe()
        self.eyes = seat
        self.log = []
        now = self.state.observation(seat)
        lines = changes(self.last_seen[seat], now, self.game.labels, self.game.checked.var_types,
                        value_text=self.value_text)
        self.say(f"seat {seat}, since you last looked:" if lines else f"seat {seat}: nothing you see has changed")
        for line in lines:
            self.say_change(line)
        return ""

    def wipe(self) -> None:
        """On a terminal: the screen cleared, and its scrollback too (what the person before saw)."""
        if self.screen:
            self.console.clear()
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def draw(self, seat: int, legal: list, places: list, spots: list, shown: list[str]) -> None:
        """The game as ``seat`` sees it and the moves; on a screen, redrawn from the top, the zones
        of each player folded into one line, with as much of the recent log as the screen holds
        (at least a few lines: a taller game scrolls, the moves and the prompt stay in sight)."""
        from .markup import escape
        st, game, console = self.state, self.game, self.console

        def view() -> None:
            render_observation(self.seen(seat), seat, console, self.view, spots, self.plain,
                               game.checked.var_types, game.labels, game.shown(st, seat), compact=self.screen)

        def moves(tiles: bool = True, listed: bool = True) -> None:
            if places and self.view is not None:
                if tiles:
                    render_tiles(places, console, self.view)
                else:
                    console.print("[dim](t shows the tiles you may place in each rotation)[/dim]")
            if listed:
                _list_moves(legal, console, escape, places, shown)
            else:
                example = f"; or a tile, square and rotation: '{places[0].tile} {places[0].x},{places[0].y} " \
                          f"{places[0].rotation}'" if places else ""
                console.print(f"{len(legal)} moves: m lists them{escape(example)}")
        if not self.screen:
            console.rule(f"your move (seat {seat})")
            view()
            moves()
            return
        obs = self.seen(seat)
        board, legend = [], []
        if self.view is not None and self.view.active and obs.get("grid") is not None:
            from .render import draw_grid
            board = [f"{self.view.grid_name}: {len(obs['grid'])} tiles", *draw_grid(self.view.cells(obs), 7, 3, spots)]
            legend = self.view.legend(obs, bool(spots), console.width)
        side = console.width - max((len(line) for line in board), default=0) - 3  # (the board's right)
        if board and side < 40:  # too narrow beside the board: the board on top
            board, legend, side = [], [], console.width
        with console.capture() as bottom:
            moves()
        bottom_text = bottom.get()
        column = _column(console, side if board else console.width)
        column.print(f"[bold]{escape(game.title)}[/bold] — seat {seat}" + (
            "" if len(self.seats) == 1 else " (hot seat)") + f" · seed {self.seed} · ? help, u undo, q quit")
        render_observation(obs, seat, column, self.view, spots, self.plain, game.checked.var_types,
                           game.labels, game.shown(st, seat), compact=True, board=not board)
        info = column.file.getvalue().splitlines()
        least = len(info) + (5 if self.log else 0)  # (the view, and a few lines of the log under it)
        folds = [{"tiles": False}] + ([{"tiles": False, "listed": False}] if len(legal) > COMPACT_AT else [])
        for fold in folds:  # too tall: the tiles, then a long list of moves, fold away (t, m show them)
            if max(len(board), least) + len(legend) + bottom_text.count("\n") + 1 <= console.height:
                break
            with console.capture() as bottom:
                moves(**fold)
            bottom_text = bottom.get()
        room = console.height - bottom_text.count("\n") - 2 - len(legend)  # (the recent rule, the prompt)
        room = max(room - len(info), len(board) - len(info) - 1, 0)  # (a small terminal: no log)
        column = _column(console, side if board else console.width)
        if self.log and room > 0:
            column.rule("recent", style="dim")
            for line in self.log_lines(column.width)[-room:]:
                column.print(line, no_wrap=True, overflow="ellipsis")
        log = column.file.getvalue().splitlines()
        self.wipe() if len(self.seats) > 1 else console.clear()
        if board:  # the board on the left; the view and the recent log beside it
            right = info + log
            for i in range(max(len(board), len(right))):
                left = board[i] if i < len(board) else ""
                console.file.write(left.ljust(console.width - side - 3) + "   " + (right[i] if i < len(right) else "")
                                   + "\n")
            console.file.write("".join(line + "\n" for line in legend))
        else:
            console.file.write("".join(line + "\n" for line in info + log))
        console.file.write(bottom_text)
        console.file.flush()

    def ask(self, seat: int, legal: list) -> str | None:
        """A person's move: applied, and "" returned; "q" when they quit, None when input ended."""
        from .markup import escape
        console, st = self.console, self.state
        label = st.decision() or ""
        places = placements(legal)
        spots = sorted({(p.x, p.y) for p in places}) or (cell_spots(legal) if self.game.layout.board_name else [])
        shown = [self.move_text(a.text) for a in legal]
        self.draw(seat, legal, places, spots, shown)
        while True:
            answer, self.typed_ahead = self.typed_ahead, None
            if answer is None:
                answer = self.read_line(f"move 1..{len(legal)} (? help, u undo, q quit)> ")
            if answer is None:  # a script's answers ran out before the game ended: not a success
                console.print("\nEnd of input before the game ended: leaving it.")
                return None
            answer = answer.strip()
            if len(answer) > MAX_MOVE_CHARS:
                console.print(f"[red]Not a legal move:[/red] an answer longer than {MAX_MOVE_CHARS:,} characters; "
                              f"give a number 1..{len(legal)} or a move's text.")
                continue
            if not answer:
                continue
            word = answer.lower()
            if word in ("q", "quit", "exit"):
                console.print("Quit.")
                return "q"
            if answer in ("?", "h", "help"):
                console.print(help_text(self.view is not None), markup=False)
                _list_moves(legal, console, escape, places, shown)
                continue
            if word == "o":
                self.draw(seat, legal, places, spots, shown)
                continue
            if word == "t":
                if places and self.view is not None:
                    render_tiles(places, console, self.view)
                else:
                    console.print("No tiles to place in this decision.")
                continue
            if word == "m":
                _list_moves(legal, console, escape, places, shown)
                continue
            if word in ("u", "undo"):
                if self.take_back(seat):
                    return ""
                continue
            chosen, candidates = None, []
            if re.fullmatch(r"[0-9]+", answer):
                k = int(answer) if len(answer) <= MAX_ARGUMENT_DIGITS else 0
                if 1 <= k <= len(legal):
                    chosen = legal[k - 1]
                else:
                    console.print(f"[red]Not a legal move:[/red] there are moves 1..{len(legal)}, "
                                  f"not {escape(answer if len(answer) <= 20 else answer[:20] + '...')}.")
                    continue
            else:
                chosen, candidates = match_answer(answer, legal, label, shown)
            if chosen is None and len(candidates) > 1:
                listed = ", ".join(f"{legal.index(a) + 1}. {shown[legal.index(a)]}" for a in candidates[:6])
                more = f" and {len(candidates) - 6} more" if len(candidates) > 6 else ""
                console.print(f"[yellow]Which one?[/yellow] {escape(answer)} could be {escape(listed)}{more}.")
                continue
            if chosen is None:
                import difflib
                close = difflib.get_close_matches(answer, shown, n=1, cutoff=0.6)
                hint = f" (did you mean '{escape(close[0])}'?)" if close else ""
                if not close and len(legal) <= FEW_MOVES:  # (what is legal, said: for a word of another game)
                    listed = ", ".join(f"{i}. {text}" for i, text in enumerate(shown, 1))
                    hint = f"; the moves are {escape(listed)}"
                console.print(f"[red]Not a legal move:[/red] {escape(repr(answer)[1:-1])}{hint} — give a number "
                              f"1..{len(legal)}, a move's text, ? for help, m for the moves, u to undo or q to quit.")
                continue
            self.undo.append(Snapshot(st.clone(), seat, shown[legal.index(chosen)]))
            self.say(f"{self.who(seat)}: {escape(shown[legal.index(chosen)])}")
            self.told(chosen)
            if len(self.seats) > 1:
                self.last_seen[seat] = self.state.observation(seat)
            return ""

    def take_back(self, seat: int) -> bool:
        """``u``: back to just before ``seat``'s last move (the bots' moves since are taken back too,
        never another person's). Chance is drawn anew from there: what came after the move taken
        back (a card drawn, a die) is not what comes now."""
        from .markup import escape
        mine = [i for i, snap in enumerate(self.undo) if snap.seat == seat]
        if not mine:
            self.console.print("Nothing of yours to take back yet.")
            return False
        others = {snap.seat for snap in self.undo[mine[-1] + 1:]}
        if others:
            self.console.print(f"seat {min(others)} has moved since your last move: only moves with nothing of "
                               f"another person's after them can be taken back.")
            return False
        snap = self.undo.pop()
        since = len([a for a, _, _ in self.state.log[len(snap.state.log):] if isinstance(a, int)]) - 1
        self.state = snap.state
        self.undone += 1
        if self.state.rng is not None:
            self.state.rng = random.Random(derive_seed(self.seed, self.undone, "chance after a take-back"))
        self.state.listen = self.listener
        self.listener.take()
        self.listener.end_at = None
        for s in self.seats:
            self.last_seen[s] = self.state.observation(s)
        self.say(f"[yellow]taken back:[/yellow] {escape(snap.move)}"
                 + (f" and the {since} move{'s' if since != 1 else ''} after it" if since > 0 else ""))
        return True

    def game_over(self) -> None:
        from .markup import escape
        from rich.table import Table

        st, game, console, players = self.state, self.game, self.console, self.players
        console.rule("game over")
        played = any(isinstance(actor, int) for actor, _, _ in st.log)
        in_setup = not played and st.turns == 0 and st.pc <= game.turn_start  # (an end moves on past itself)
        console.print(f"Outcome: [bold]{st.outcome}[/bold] " + ("in the setup, before anyone moved" if in_setup else
                                                                 f"in turn {turns_played(st)}"
                                                                 + ("" if played else ", before anyone moved")))
        why, won = game.why_ended(st, self.listener.end_at), game.why_won(st)
        if why:
            console.print(f"Why: {escape(why)}", soft_wrap=True)
        if won:
            console.print(f"Won by: {escape(won)}", soft_wrap=True)
        console.print("[dim]everything revealed:[/dim]")
        everything = game.observe(st, None)
        everything["turn"] = turns_played(st) - 1  # (the turn it ended in, as the outcome says)
        render_observation(everything, self.eyes if self.watch is None else None, console, self.view, plain=self.plain,
                           var_types=game.checked.var_types, labels=game.labels, shown_values=game.shown(st))
        winners = st.winners()
        t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("seat")
        t.add_column("score", justify="right")
        t.add_column("")
        scores = st.scores() if game.score is not None else [None] * players
        returns = st.returns() if game.declared_returns is not None else None  # the rules' returns(p)
        if returns is not None:
            t.add_column("returns", justify="right")
        for s in range(players):
            who = ("you" if len(self.seats) == 1 else "here") if s in self.seats else "bot"
            t.add_row(f"{s} ({who})", "" if scores[s] is None else str(scores[s]), "winner" if s in winners else "",
                      *([f"{returns[s]:+g}"] if returns is not None else []))
        console.print(t)
        if not winners:
            console.print("No winner.")
        elif len(self.seats) == 1 and self.seats[0] in winners:
            console.print("[bold green]You win" + (" (shared)" if len(winners) > 1 else "") + "![/bold green]")
        else:
            console.print("Winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(f"seat {w}" for w in winners))
        for label, value in game.report_values(st).items():
            shown = str(value).lower() if isinstance(value, bool) else str(value)  # (a flag as simulate writes it)
            console.print(f"{escape(str(label))}: {escape(shown)}")


def _steps_since(state: Any, k: int) -> list[tuple[Any, str]]:
    """``state.history()[k:]``: the steps since the ``k``-th, without the texts of those before."""
    return [(actor, spec.text(p) if spec is not None else p)
            for actor, spec, p in state.log[k:]]


def _column(console: Any, width: int) -> Any:
    """A console that draws a column of the screen ``width`` wide, as ``console`` would (its
    colours), into a string (``.file.getvalue()``)."""
    import io

    from rich.console import Console
    return Console(file=io.StringIO(), width=width, height=console.height, force_terminal=console.is_terminal,
                   color_system=console.color_system, no_color=console.no_color, highlight=False)


class Watch(NamedTuple):
    """How ``play`` lets the bots play every seat for someone watching (``--watch``)."""
    seat: Optional[int] = None  # whose view is shown (None: everything)
    pace: Optional[float] = None  # seconds between two moves (None: ``step``, or straight through)
    step: bool = False  # wait for Enter before each move


def play(game: Any, players: int, seat: int | list[int], seed: int | None = None, console: Any = None,
         read_line: Callable[[str], str | None] | None = None, ask_forced: bool = False,
         record: str | None = None, screen: bool | None = None, watch: Optional[Watch] = None) -> int:
    """Run one game with people at ``seat`` (one seat, or several sharing the terminal) and random
    bots at the others; returns a process exit code: 0 when the game ended or a person quit, 1 when
    it got stuck or the input ended before the game did. A decision with one legal move only is
    taken for the player, with a line saying so, unless ``ask_forced``. ``record``: a file to write
    the game to (as it stands when play stops) for ``meeple replay``. ``screen``: redraw the screen
    at each decision (default: when input and output are both terminals)."""
    from rich.console import Console

    console = console or Console(highlight=False)
    if screen is None:
        screen = read_line is None and console.is_terminal and _isatty(sys.stdin)
    read_line = read_line or _read_line_from(sys.stdin)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    seats = [] if watch is not None else [seat] if isinstance(seat, int) else list(dict.fromkeys(seat))
    session = Session(game, players, seats, seed, console, read_line, ask_forced, screen, watch)
    if len(seats) > 1 and not screen:
        console.print("[yellow]Not a terminal (or --plain): nothing is hidden between the seats played here.[/yellow]")
    code = 1
    try:
        code = session.run()
    finally:
        if record is not None:
            code = _write_record(record, game, session.state, console) or code
    return code


def _write_record(path: str, game: Any, state: Any, console: Any) -> int:
    """Write the game played to ``path``: 0, or 1 (with a message) when it cannot be written."""
    from .markup import escape, file_name

    from .records import write_record
    try:
        write_record(path, game, state)
    except OSError as e:
        console.print(f"[red]cannot write {escape(file_name(path))}: "
                      f"{escape(str(e.strerror or e))}[/red]")
        return 1
    from .markup import shell_word
    console.print(f"written to {escape(file_name(path))}; replay it with: meeple replay {escape(shell_word(path))}"
                  + ("" if state.outcome is not None else " (the game was left unfinished)"), soft_wrap=True)
    return 0


def _norm(text: str) -> str:
    """A move's or an answer's text compared loosely: case, runs of spaces, spaces around commas."""
    return re.sub(r" ?, ?", ",", " ".join(text.split())).casefold()


def match_answer(answer: str, legal: list, label: str, shown: list[str] | None = None) -> tuple[Any, list]:
    """The legal move an answer written as text means: ``(move, [])``, or ``(None, candidates)``.

    Tried in turn: the move's text; without the decision's name in front (in the move or the
    answer); a short placement (``<tile> x,y r``, ``<tile> at x,y rotation r``); a beginning
    (in whole words) of exactly one move; words each the beginning of a word of exactly one move,
    in order, words of the move left out between them (``red`` for ``play 1 red``), and failing that
    with the parts of a name joined by ``_`` as words (``hearts 3`` for ``play card_hearts_3``).
    Several moves that fit are the candidates. ``shown``: each move's text as play shows it (with the rules'
    labels), matched as well as the move's own."""
    keys = []
    lab = _norm(label) + " " if label else None
    for i, a in enumerate(legal):
        key = []
        for text in dict.fromkeys([_norm(a.text), *([_norm(shown[i])] if shown else [])]):
            key += [text, text[len(lab):]] if lab and text.startswith(lab) and len(text) > len(lab) else [text]
        keys.append(key)
    said = _norm(answer)
    wanted = [said]
    if lab and said.startswith(lab) and len(said) > len(lab):
        wanted.append(said[len(lab):])
    for w in list(wanted):
        m = SHORT_PLACEMENT.match(w)
        if m:
            wanted.append(f"{m['tile']} at {m['x']},{m['y']}" + (f" rotation {m['r']}" if m["r"] else ""))
    for w in wanted:
        for a, ks in zip(legal, keys):
            if w in ks:
                return a, []
    for w in reversed(wanted):  # the most rewritten form first
        words = w.split()
        found = [a for a, ks in zip(legal, keys) if any(k.split()[:len(words)] == words for k in ks)]
        if len(found) == 1:
            return found[0], []
        if found:
            return None, found
    # each word said the beginning of a word of the move, in order, words of the move skipped
    # ('red' for 'play 1 red', 'play 2 bl' for 'play 2 blue')
    # ('hearts 3' for 'play card_hearts_3': a name joined by '_', as a generated deck names its cards,
    # counts its parts as words too, when its words alone fit no move)
    words = said.split()
    for split in (str.split, lambda k: k.replace("_", " ").split()):
        found = [a for a, ks in zip(legal, keys) if any(_words_begin(words, split(k)) for k in ks)]
        if len(found) > 1:  # ('n' for 'go N' rather than 'go NE': a word said whole wins)
            whole = [a for a, ks in zip(legal, keys)
                     if a in found and any(_words_begin(words, split(k), whole=True) for k in ks)]
            if len(whole) == 1:
                return whole[0], []
        if len(found) == 1:
            return found[0], []
        if found:
            return None, found
    return None, []


def _words_begin(said: list[str], move: list[str], whole: bool = False) -> bool:
    """Is each word of ``said`` the beginning of a word of ``move`` (with ``whole``, a word of it),
    in order (others between)?"""
    i = 0
    for w in said:
        while i < len(move) and not (move[i] == w if whole else move[i].startswith(w)):
            i += 1
        if i == len(move):
            return False
        i += 1
    return True


def _list_moves(legal: list, console: Any, escape: Callable[[str], str], places: list | None = None,
                shown: list[str] | None = None) -> None:
    width = len(str(len(legal)))
    texts = shown or [a.text for a in legal]
    if len(legal) <= COMPACT_AT:
        for i, text in enumerate(texts, 1):
            console.print(f"  {i:>{width}}. {escape(text)}")
        return
    placed = {p.number for p in places or ()}
    others = [f"{i:>{width}}. {text}" for i, text in enumerate(texts, 1) if i not in placed]
    _columns(others, console)
    if places:
        _placement_rows(places, legal, console)


def _columns(items: list[str], console: Any, gap: int = 3) -> None:
    """Items in as many columns as fit, read down each column."""
    if not items:
        return
    cell = max(len(t) for t in items)
    ncols = max(1, (console.width - 2 + gap) // (cell + gap))
    nrows = -(-len(items) // ncols)
    for r in range(nrows):
        row = [items[c * nrows + r].ljust(cell) for c in range(ncols) if c * nrows + r < len(items)]
        console.print(("  " + (" " * gap).join(row)).rstrip(), markup=False, highlight=False, soft_wrap=True)


def _placement_rows(places: list[Placement], legal: list, console: Any) -> None:
    """Placements in rows: one per tile and square, the move's number under each rotation."""
    rotations = sorted({p.rotation for p in places})
    rows: dict[tuple[str, int, int], dict[int, int]] = {}
    for p in places:
        rows.setdefault((p.tile, p.x, p.y), {})[p.rotation] = p.number
    label = PLACEMENT.match(legal[places[0].number - 1].text)["label"]
    first = places[0]
    console.print(f"{label}: answer a number, or tile, square and rotation, e.g. "
                  f"'{first.tile} {first.x},{first.y} {first.rotation}'", markup=False, highlight=False)
    tile_w = max(len("tile"), *(len(t) for t, _, _ in rows))
    sq_w = max(len("at"), *(len(f"{x},{y}") for _, x, y in rows))
    num_w = max(len(str(len(legal))), *(len(f"r{r}") for r in rotations))
    head = f"{'tile':<{tile_w}}  {'at':<{sq_w}}" + "".join(f"  {f'r{r}':>{num_w}}" for r in rotations)
    lines = []
    for (tile, x, y), by_rot in rows.items():
        lines.append(f"{tile:<{tile_w}}  {f'{x},{y}':<{sq_w}}"
                     + "".join(f"  {str(by_rot[r]) if r in by_rot else '·':>{num_w}}" for r in rotations))
    gap = 5
    ncols = max(1, min(3, (console.width - 2 + gap) // (len(head) + gap)))
    if len(lines) < 8:
        ncols = 1
    nrows = -(-len(lines) // ncols)
    columns = [lines[c * nrows:(c + 1) * nrows] for c in range(ncols)]
    console.print(("  " + (" " * gap).join([head] * len([c for c in columns if c]))).rstrip(),
                  markup=False, highlight=False, soft_wrap=True, style="bold")
    for r in range(nrows):
        row = [c[r] if r < len(c) else "" for c in columns if c]
        console.print(("  " + (" " * gap).join(t.ljust(len(head)) for t in row)).rstrip(),
                      markup=False, highlight=False, soft_wrap=True)
