"""Play a game in the terminal: one human seat against random bots.

At each of your decisions you see what your seat may see (``observation``), the
legal moves numbered, and answer with a number or a move's exact text. Bots
move at once; their moves are shown unless the move goes somewhere you may not
see. Works with piped input: one answer per line; end of input leaves the game.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

from .bots import RandomBot, derive_seed, sample_chance

HELP = """Answer with the number of a move, or its exact text.
  ?   this help and the moves again
  o   your view of the game again
  q   quit"""


def decision_visibility(game: Any) -> dict[str, bool]:
    """For each decision label, whether its moves land only in public zones (so others may see them)."""
    zones = {z["name"]: z["visibility"] for z in game.ir.get("zones", [])}
    shown: dict[str, bool] = {}

    def zone_of(expr: Any) -> str | None:
        if isinstance(expr, dict):
            if expr.get("node") == "name":
                return expr.get("id")
            if expr.get("node") == "call":
                return expr.get("func")
        return None

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if x.get("node") == "choose" and isinstance(x.get("label"), str):
                public = zones.get(zone_of(x.get("dest")) or "", "hidden") == "public"
                shown[x["label"]] = shown.get(x["label"], True) and public
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(game.ir)
    return shown


def _cards(content: Any) -> str:
    if isinstance(content, dict):
        if set(content) == {"size"}:
            n = content["size"]
            return f"[dim]{n} unseen[/dim]" if n else "—"
        if not content:
            return "—"
        return ", ".join(f"{name} ×{k}" if k != 1 else name for name, k in content.items())
    return str(content)


def _spaces(tags: list) -> str:
    """``; stream at 2, 11 (others plain)``: the usual tag is named once, the others by space."""
    laid = [t for t in tags if t is not None]
    if not laid:
        return ""
    common = max(set(laid), key=lambda t: (laid.count(t), str(t)))
    at: dict[Any, list[int]] = {}
    for i, t in enumerate(tags, 1):
        if t is not None and t != common:
            at.setdefault(t, []).append(i)
    parts = [f"{t} at {', '.join(map(str, where))}" for t, where in at.items()]
    unlaid = len(tags) - len(laid)
    rest = f"others {common}" + (f", {unlaid} not laid yet" if unlaid else "")
    return "; " + "; ".join(parts + [rest]) if parts else f"; all {common}" if not unlaid else f"; {rest}"


def render_observation(obs: dict[str, Any], seat: int, console: Any) -> None:
    """Draw an observation dict (as ``State.observation`` makes it) with rich."""
    from rich.table import Table

    known = {"seat", "players", "current", "turn", "to_move", "decision", "zones", "pieces", "podium",
             "tracks", "vars", "outcome", "winners", "scores"}
    head = f"[bold]Turn {obs.get('turn')}[/bold] · you are seat {seat} of {obs.get('players')}"
    if obs.get("decision"):
        head += f" · decision: [bold cyan]{obs['decision']}[/bold cyan]"
    console.print(head)

    tracks = obs.get("tracks") or {}
    pieces = obs.get("pieces") or {}
    podium = obs.get("podium") or {}
    if tracks:
        for name, spaces in tracks.items():
            console.print(f"[bold]{name}[/bold]: {len(spaces)} spaces" + _spaces(spaces))
            if podium.get(name):
                console.print("  podium: " + ", ".join(f"{i}. {p}" for i, p in enumerate(podium[name], 1)))
    if pieces:
        t = Table(title=None, show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("piece")
        t.add_column("space", justify="right")
        for name, pos in sorted(pieces.items(), key=lambda kv: -kv[1]):
            t.add_row(name, str(pos))
        console.print(t)

    zones = obs.get("zones") or {}
    if zones:
        t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("zone")
        t.add_column("contents")
        for name, content in zones.items():
            if isinstance(content, list):
                for owner, part in enumerate(content):
                    who = "[bold green]you[/bold green]" if owner == seat else f"seat {owner}"
                    t.add_row(f"{name} ({who})", _cards(part))
            else:
                t.add_row(name, _cards(content))
        console.print(t)

    for name, values in (obs.get("vars") or {}).items():
        if isinstance(values, list) and len(values) == obs.get("players") and len(values) > 1:
            console.print(f"{name}: " + ", ".join(f"seat {i}: {v}" for i, v in enumerate(values)))
        else:
            console.print(f"{name}: {values[0] if isinstance(values, list) and len(values) == 1 else values}")
    for key, value in obs.items():
        if key not in known:
            console.print(f"{key}: {value}")


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _read_line_from(stream: Any) -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        if stream is sys.stdin and _isatty(stream) and _isatty(sys.stdout):
            try:
                return input(prompt)  # line editing on a terminal
            except EOFError:
                return None
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = stream.readline()
        if line == "":
            return None
        line = line.rstrip("\r\n")
        if not _isatty(stream):  # piped answers are not echoed by a terminal: show them
            sys.stdout.write(line + "\n")
        return line
    return read


def play(game: Any, players: int, seat: int, seed: int | None = None, console: Any = None,
         read_line: Callable[[str], str | None] | None = None) -> int:
    """Run one game with a human at ``seat``; returns a process exit code (0, also on quit or end of input)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from .state import CHANCE, TERMINAL

    console = console or Console(highlight=False)
    read_line = read_line or _read_line_from(sys.stdin)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    state = game.new_state(players, seed=derive_seed(seed, 0, "chance"))
    bots = {s: RandomBot(derive_seed(seed, 0, "seat", s)) for s in range(players) if s != seat}
    chance_rng = random.Random(derive_seed(seed, 0, "explicit chance"))
    visible = decision_visibility(game)
    console.print(f"[bold]{escape(game.title)}[/bold] — {players} players, you are seat {seat} "
                  f"(seed {seed}). Type ? for help.")

    while True:
        now = state.current_player()
        if now == TERMINAL:
            break
        if now == CHANCE:  # only with explicit chance; a seeded state samples by itself
            state.apply(sample_chance(state, chance_rng))
            continue
        legal = state.legal_actions()
        if not legal:
            console.print(f"[red]No legal move for seat {now}: the game is stuck.[/red]")
            return 1
        if now != seat:
            action = bots[now].act(state)
            label = state.decision()
            if visible.get(label or "", False):
                console.print(f"seat {now} (bot): {escape(action.text)}")
            else:
                console.print(f"seat {now} (bot): [dim]{escape(label or 'a move')} (hidden from you)[/dim]")
            state.apply(action)
            continue

        console.rule(f"your move (seat {seat})")
        render_observation(state.observation(seat), seat, console)
        _list_moves(legal, console, escape)
        while True:
            answer = read_line(f"move 1..{len(legal)} (? help, q quit)> ")
            if answer is None:
                console.print("\nEnd of input: leaving the game.")
                return 0
            answer = answer.strip()
            if not answer:
                continue
            if answer.lower() in ("q", "quit", "exit"):
                console.print("Quit.")
                return 0
            if answer in ("?", "h", "help"):
                console.print(HELP)
                _list_moves(legal, console, escape)
                continue
            if answer.lower() == "o":
                render_observation(state.observation(seat), seat, console)
                continue
            chosen = None
            if answer.isdigit():
                k = int(answer)
                if 1 <= k <= len(legal):
                    chosen = legal[k - 1]
            else:
                wanted = " ".join(answer.split())
                chosen = next((a for a in legal if a.text == wanted), None)
            if chosen is None:
                console.print(f"[red]Not a legal move:[/red] {escape(answer)} — give a number 1..{len(legal)}, "
                              "a move's exact text, ? for help or q to quit.")
                continue
            console.print(f"you: {escape(chosen.text)}")
            state.apply(chosen)
            break

    console.rule("game over")
    console.print(f"Outcome: [bold]{state.outcome}[/bold] after {state.turns} turns")
    console.print("[dim]everything revealed:[/dim]")
    render_observation(game.observe(state, None), seat, console)
    winners = state.winners()
    t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    t.add_column("seat")
    t.add_column("score", justify="right")
    t.add_column("")
    scores = state.scores() if game.score is not None else [None] * players
    for s in range(players):
        who = "you" if s == seat else "bot"
        t.add_row(f"{s} ({who})", "" if scores[s] is None else str(scores[s]), "winner" if s in winners else "")
    console.print(t)
    if not winners:
        console.print("No winner.")
    elif seat in winners:
        console.print("[bold green]You win" + (" (shared)" if len(winners) > 1 else "") + "![/bold green]")
    else:
        console.print("Winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(f"seat {w}" for w in winners))
    reports = game.report_values(state)
    for label, value in reports.items():
        console.print(f"{escape(str(label))}: {escape(str(value))}")
    return 0


def _list_moves(legal: list, console: Any, escape: Callable[[str], str]) -> None:
    width = len(str(len(legal)))
    for i, a in enumerate(legal, 1):
        console.print(f"  {i:>{width}}. {escape(a.text)}")
