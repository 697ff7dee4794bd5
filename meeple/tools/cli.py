"""The ``meeple`` command: check, inspect, simulate, replay and play games written as rules files.

    meeple validate games/*.rules
    meeple simulate games/x.rules --games 1000 --players 4 --seed 1
    meeple play games/x.rules --players 3 --seat 0

Imports are kept lazy so that ``meeple validate`` stays quick.
"""

from __future__ import annotations

import argparse
import io
import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

PROG = "meeple"
INTERNAL_ERROR = 3  # the exit status of a bug in meeple (1: the input or a check failed; 2: usage)


def internal_error(e: BaseException) -> str:
    """What a user is told of a bug in meeple: that it is one, and how to report it."""
    return (f"meeple: internal error: {type(e).__name__}: {e}\n"
            f"This is a bug in meeple {_version()}, not a mistake in your input. Please report it with the "
            f"command you ran and its files; MEEPLE_DEBUG=1 shows the traceback.")


def _version() -> str:
    from meeple import __version__
    return __version__

DESCRIPTION = """\
meeple: a rules-as-data engine for tabletop games.

Write a game's rules as a text file (.rules), then check it, look at the
intermediate representation (IR) it compiles to, simulate thousands of games
between random players, replay recorded games, or play against bots.
Every command that takes a .rules file, but fmt, also takes an IR .json file."""

EPILOG = """\
examples:
  meeple validate games/*.rules                  check rules files, show errors with carets
  meeple ir games/mygame.rules > mygame.json     the checked IR as JSON
  meeple simulate games/mygame.rules --games 2000 --players 4 --seed 1
  meeple replay runs/game-00001.jsonl            check a recorded game still plays the same
  meeple play games/mygame.rules --players 3 --seat 0

Run 'meeple COMMAND --help' for a command's options."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Plain paragraphs are wrapped to the terminal; paragraphs with indented lines (examples) kept as written."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap
        paragraphs = []
        for para in text.split("\n\n"):
            lines = para.splitlines()
            if any(line.startswith(" ") for line in lines):
                paragraphs.append("\n".join(indent + line for line in lines))
            else:
                paragraphs.append(textwrap.fill(" ".join(lines), width, initial_indent=indent,
                                                subsequent_indent=indent))
        return "\n\n".join(paragraphs)


USAGE_EXITS = (" 2 for a usage mistake (an unknown option, a value out of range, a file that is not there); 3 for a "
               "bug in meeple. See docs/errors.md.")


class UsageError(Exception):
    """A mistake on the command line (a missing file, a value the game rules out): exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error names the command and points at --help."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n(run '{self.prog} --help' for help)\n")


# ---- argument types ----
def _param(text: str) -> tuple[str, int]:
    from meeple.dsl.limits import MAX_NUMBER
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected name=value, got {_shown(text)}")
    try:
        return name, _number(value, -MAX_NUMBER, MAX_NUMBER)
    except argparse.ArgumentTypeError as e:
        raise argparse.ArgumentTypeError(f"the value of {_shown(name)}: {e}") from None


def _number(text: str, least: int | None = None, most: int | None = None) -> int:
    """A whole number typed on the command line, within least..most (checked before any work)."""
    from .limits import MAX_ARGUMENT_DIGITS
    digits = text.strip().lstrip("+-")
    if len(digits) > MAX_ARGUMENT_DIGITS and digits.isdigit():
        raise argparse.ArgumentTypeError(f"a number of {len(digits):,} digits is too large"
                                         + (f" (at most {most:,})" if most is not None else ""))
    try:
        if not (digits.isascii() and digits.isdigit()):  # (Python's int() also reads '１６', '١' and '1_0')
            raise ValueError(text)
        n = int(text)
    except ValueError:
        other = any(c.isdigit() and not c.isascii() for c in text)  # (digits of another script, fullwidth)
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_shown(text)}"
                                         + (" (write it with the digits 0-9)" if other else "")) from None
    if least is not None and n < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, got {n}")
    if most is not None and n > most:
        raise argparse.ArgumentTypeError(f"must be at most {most:,}, got {n:,}")
    return n


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message: control characters escaped, long text cut."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _named(path: str) -> str:
    """A file name for a message: as it is, or quoted with its control characters escaped (an escape
    sequence in a name would be obeyed by the terminal)."""
    from .markup import file_name
    return file_name(path)


def _close_file(path: str) -> str:
    """'; did you mean NAME?' for a file name that is not there: the name with '.rules' or '.json' after
    it, or a name of its folder close to it ('slipstrem.rules'), if there is one."""
    import difflib
    try:
        for ext in (".rules", ".json"):
            if os.path.isfile(path + ext):
                return f" (did you mean {_named(path + ext)}?)"
        folder, name = os.path.split(path)
        names = [n for n in os.listdir(folder or ".") if n.endswith((".rules", ".json", ".jsonl"))][:10_000]
    except (OSError, ValueError):
        return ""
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.8)
    return f" (did you mean {_named(os.path.join(folder, close[0]))}?)" if close else ""


def _bounded(least: int | None, most: int | None, what: str) -> Any:
    def parse(text: str) -> int:
        return _number(text, least, most)
    parse.__name__ = what  # argparse names the type in "invalid <name> value"
    return parse


def _seats(text: str) -> list[int]:
    """``--seat 0`` or ``--seat 0,2``: the seats people play, each a whole number from 0."""
    parts = text.split(",")
    if len(parts) > 64:
        raise argparse.ArgumentTypeError(f"at most 64 seats, got {len(parts):,}")
    seats = [_number(part, 0, None) for part in parts]
    twice = next((seat for i, seat in enumerate(seats) if seat in seats[:i]), None)
    if twice is not None:
        raise argparse.ArgumentTypeError(f"seat {twice} is named twice")
    return seats


_seats.__name__ = "seat"


def _pace(text: str) -> float:
    """``--pace 0.5``: seconds between two moves watched, 0..MAX_PACE_SECONDS, decimals allowed."""
    import re

    from .limits import MAX_PACE_SECONDS
    number = r"\s*(?:[0-9]{1,6}(?:\.[0-9]{0,6})?|\.[0-9]{1,6})\s*"
    if re.fullmatch(r"\s*-" + number, text):
        raise argparse.ArgumentTypeError(f"must be at least 0 seconds, got {text.strip()}")
    if not re.fullmatch(number, text):
        raise argparse.ArgumentTypeError(f"expected seconds, a number such as 1 or 0.5, got {_shown(text)}")
    seconds = float(text)
    if seconds > MAX_PACE_SECONDS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_PACE_SECONDS} seconds, got {text.strip()}")
    return seconds


_pace.__name__ = "pace"


def _players_arg() -> Any:
    return _bounded(1, None, "players")  # (the game's own range is checked once it is loaded)


def _seed_arg() -> Any:
    from .limits import MAX_SEED
    return _bounded(-MAX_SEED, MAX_SEED, "seed")


def _add_params(p: argparse.ArgumentParser) -> None:
    p.add_argument("--param", "-p", metavar="NAME=VALUE", type=_param, action="append", default=[],
                   help="set a 'param' the rules declare (repeatable)")


def build_parser() -> argparse.ArgumentParser:
    from meeple import __version__

    from .limits import MAX_EXAMPLES, MAX_GAMES, MAX_SHRINK_SECONDS, cores
    parser = _Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG, formatter_class=_Formatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "validate", help="check rules files and report every problem", formatter_class=_Formatter,
        description="Load each file (parse, build the IR, check it, compile it) and report every problem "
                    "found, compiler style: file:line:col, the source line and a caret under the span.",
        epilog="examples:\n"
               "  meeple validate games/mygame.rules\n"
               "  meeple validate games/*.rules            several files; exit 1 if any has an error\n"
               "  meeple validate --json my.rules          diagnostics as a JSON list (for editors/CI)\n"
               "  meeple validate my.rules -p size=20\n\n"
               "exit status: 0 when every file is free of errors (warnings are fine); 1 when a file has errors;"
               + USAGE_EXITS)
    p.add_argument("files", nargs="+", metavar="FILE", help=".rules or IR .json file")
    p.add_argument("--json", action="store_true", help="print all diagnostics (errors and warnings) as one JSON list")
    _add_params(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser(
        "ir", help="print the checked IR of a rules file as JSON", formatter_class=_Formatter,
        description="Print the checked intermediate representation (IR) of a rules file as indented JSON. "
                    "The IR is what the interpreter runs; it validates against 'meeple schema'.",
        epilog="examples:\n"
               "  meeple ir games/mygame.rules > mygame.json\n"
               "  meeple simulate mygame.json --games 100     IR files work wherever rules files do\n\n"
               "exit status: 0 when the IR is printed; 1 when the file has errors;" + USAGE_EXITS)
    p.add_argument("file", metavar="FILE", help=".rules or IR .json file")
    _add_params(p)
    p.set_defaults(func=cmd_ir)

    p = sub.add_parser(
        "compile", help="print the Python module a rules file compiles to", formatter_class=_Formatter,
        description="Print the Python module that meeple makes of a rules file and runs: every function "
                    "under a comment naming the rules line it comes from (and showing it), the tables it "
                    "reads, and at the end the program the state steps through. A traceback through the "
                    "game's code shows these lines (docs/architecture.md: reading the compiled module).",
        epilog="examples:\n"
               "  meeple compile games/mygame.rules | less\n"
               "  meeple compile my.rules -p size=20 -o my_game.py    the code for those params, to a file\n\n"
               "exit status: 0 when the module is printed; 1 when the file has errors;" + USAGE_EXITS)
    p.add_argument("file", metavar="FILE", help=".rules or IR .json file")
    p.add_argument("-o", "--output", metavar="PATH", help="write the module to PATH instead of stdout")
    _add_params(p)
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser(
        "schema", help="print the JSON Schema of the IR", formatter_class=_Formatter,
        description="Print the JSON Schema that every IR document follows.",
        epilog="example:\n  meeple schema > ir.schema.json\n\n"
               "exit status: 0; 1 when meeple's own schema file cannot be read;" + USAGE_EXITS)
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser(
        "simulate", help="play many games between random players and sum them up", formatter_class=_Formatter,
        description="Play N games between random players (each picks uniformly among the legal moves) on all "
                    "cores and report completion, game length (with a histogram), wins by seat (with a test of "
                    "seat balance) and the rules' 'report' statistics, each share with its 95% interval. "
                    "Game i is seeded from (SEED, i): the same seed gives the same result whatever the number "
                    "of workers.",
        epilog="examples:\n"
               "  meeple simulate games/mygame.rules --games 2000 --players 4 --seed 1\n"
               "  meeple simulate games/mygame.rules --games 500 --players 3 --json > summary.json\n"
               "  meeple simulate games/mygame.rules --games 20 --records runs/\n"
               "  meeple replay runs/game-00001.jsonl\n"
               "  meeple simulate games/mygame.rules -p size=20 --workers 1\n\n"
               "counts: 'completed' games reached the rules' end; 'step-capped' hit max_steps; 'stuck' games had "
               "no legal move; 'errors' games hit a rule that failed at run time.\n\n"
               "statistics: each share has its 95% interval (Wilson score; a shared win counts as its fraction, "
               "which errs on the wide side). 'seat balance' is a chi-square test of the wins by seat "
               "against equal shares, over the completed games with a winner (draws left out): a p-value "
               "below 0.05 names the seat furthest from its share; with fewer than 5 expected wins a seat it "
               "says the test needs more games. The histogram shows the turns of the completed games.\n\n"
               "exit status: 0 when every game reached the rules' end; 1 when any errored, got stuck or hit "
               "the step cap (the summary is printed all the same), or the rules do not load;" + USAGE_EXITS)
    p.add_argument("file", metavar="FILE", help=".rules or IR .json file")
    p.add_argument("--games", "-n", type=_bounded(1, MAX_GAMES, "games"), default=100, metavar="N",
                   help=f"games to play (default 100, at most {MAX_GAMES:,})")
    p.add_argument("--players", type=_players_arg(), metavar="P", help="players per game (default: the game's minimum)")
    p.add_argument("--seed", type=_seed_arg(), default=0, metavar="S", help="base seed (default 0)")
    p.add_argument("--workers", "-j", type=_bounded(1, None, "workers"), metavar="K",
                   help=f"processes to use (default and most: the cores, {cores()} here)")
    p.add_argument("--records", metavar="DIR", help="write each game's record as DIR/game-00001.jsonl ...")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _add_params(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "fuzz", help="search for a game that breaks the rules' invariants", formatter_class=_Formatter,
        description="Let Hypothesis choose the number of players, every move and every chance outcome (with "
                    "--params, every param within its range too), and check after every step the built-in "
                    "invariants (every legal move applies, nobody is ever stuck, no card is created or lost, "
                    "the game ends within its step cap, states round-trip through JSON and replay, hidden "
                    "cards stay hidden) and the rules' own 'invariant name: test' declarations. A failure is "
                    "shrunk to a short game and written as a record that 'meeple replay' re-runs.",
        epilog="examples:\n"
               "  meeple fuzz games/mygame.rules --examples 500\n"
               "  meeple fuzz games/mygame.rules --params --seed 3    params within their declared ranges\n"
               "  meeple fuzz games/mygame.rules --record bad.jsonl  the failing game, if any, to bad.jsonl\n"
               "  meeple replay bad.jsonl --verbose                  the shrunk game, step by step\n\n"
               "Nothing is written into the current folder unless --record says so: Hypothesis's files\n"
               "and the failing game go under ~/.cache/meeple/fuzz/.\n\n"
               "exit status: 0 when no invariant broke (what was covered is printed); 1 when one did, or the "
               "rules do not load;" + USAGE_EXITS)
    p.add_argument("file", metavar="FILE", help=".rules or IR .json file")
    p.add_argument("--examples", "-n", type=_bounded(1, MAX_EXAMPLES, "examples"), default=100, metavar="N",
                   help=f"games to try (default 100, at most {MAX_EXAMPLES:,})")
    p.add_argument("--seed", type=_seed_arg(), metavar="S",
                   help="seed of the search (default: the same search every time)")
    p.add_argument("--params", action="store_true", help="let the search choose the params too")
    p.add_argument("--players", type=_players_arg(), metavar="P",
                   help="players per game (default: the search chooses, within the game's range)")
    p.add_argument("--shrink-time", type=_bounded(1, MAX_SHRINK_SECONDS, "seconds"), default=20, metavar="SECONDS",
                   help="how long to shrink a failing game to a shorter one (default 20)")
    p.add_argument("--thorough", action="store_true",
                   help="check the JSON round trip and hidden cards after every step, not every 64 (slower)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--record", metavar="PATH",
                   help="where to write a failing game (default: ~/.cache/meeple/fuzz/FILE-failure.jsonl, "
                        "under $XDG_CACHE_HOME when set; the path is printed)")
    _add_params(p)
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser(
        "fmt", help="print a rules file in canonical form (or check or rewrite it)", formatter_class=_Formatter,
        description="Print a rules file in its canonical form: two-space indents, one space around operators, "
                    "'{' at the end of its line, trailing comments lined up in each block, at most one blank line "
                    "between declarations. Comments, the order of declarations, and the line breaks a designer "
                    "put in long expressions are kept; the game it describes is the same (same IR).",
        epilog="examples:\n"
               "  meeple fmt games/mygame.rules                 the canonical form, on stdout\n"
               "  meeple fmt --check games/*.rules              exit 1 if a file is not in canonical form\n"
               "  meeple fmt --write games/mygame.rules         rewrite the file in place\n\n"
               "exit status: 0 when done (with --check: every file is canonical); 1 when a file does not "
               "parse, or --check finds one that is not canonical;" + USAGE_EXITS)
    p.add_argument("files", metavar="FILE", nargs="+", help=".rules files")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="print nothing but the files not in canonical form")
    mode.add_argument("--write", "-w", action="store_true", help="rewrite each file in canonical form")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser(
        "diff", help="what a variant changes of its base, in rule terms", formatter_class=_Formatter,
        description="Compare two games declaration by declaration (matched by kind and name): params whose "
                    "value or range differ, declarations added, removed or changed (with their lines from both "
                    "files), and the parts a game has one of (players, setup, turn, score, ...). With one file, "
                    "compare a variant with the base it extends. An IR document's lines are those of the rules "
                    "files it was made from, when they are at hand and still make it.",
        epilog="examples:\n"
               "  meeple diff games/variants/my-variant.rules            against the base it extends\n"
               "  meeple diff games/mygame.rules games/variants/my-variant.rules\n"
               "  meeple diff a.rules b.rules --json\n\n"
               "exit status: 0 when the games are the same; 1 when they differ (printed on stdout) or a file "
               "has errors (on stderr);" + USAGE_EXITS)
    p.add_argument("files", metavar="FILE", nargs="+", help="BASE VARIANT, or a VARIANT alone")
    p.add_argument("--json", action="store_true", help="print the differences as a JSON list")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser(
        "replay", help="re-run a game record and check it plays out the same", formatter_class=_Formatter,
        description="Re-run a game record (JSON lines, as 'simulate --records' writes them): load its rules "
                    "(as given, else relative to the record's folder), apply every recorded action, chance "
                    "included, checking who acts at each step, then compare the outcome, winners, scores, "
                    "turns and a hash of the final state. After every step it checks that no card was created "
                    "or lost and the rules' own invariants, and names the first one the game breaks (as in "
                    "the records 'meeple fuzz' writes).",
        epilog="examples:\n"
               "  meeple replay runs/game-00001.jsonl\n"
               "  meeple replay runs/game-00001.jsonl --verbose   every step as it is applied\n"
               "  meeple replay bad.jsonl                         the game 'meeple fuzz --record bad.jsonl' found\n\n"
               "exit status: 0 when the replay matches the record and no invariant breaks; 1 otherwise "
               "(the first differing step, or the broken invariant, is named, with its line in the record), "
               "or when the record cannot be read;" + USAGE_EXITS)
    p.add_argument("record", metavar="RECORD.jsonl", help="a game record")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="print every step, what it did (pieces moved, cards, vars, phases, reshuffles) and, "
                        "at the end, why the game ended")
    p.add_argument("--seat", type=_bounded(0, None, "seat"), metavar="K",
                   help="with --verbose: tell each step as seat K sees it (default: everything): another "
                        "seat's move is named as 'meeple play' names it to K (hidden when it can move a card "
                        "where K may not see it, name a card K may not see, or set a var K may not read), a "
                        "chance step when K could tell it from each other outcome; one that sets a seat's value "
                        "of a per-player var names that seat ('die 4 into face(seat 1)'), its value hidden where "
                        "K may not read it ('die ? into face(seat 1)')")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "play", help="play against random bots in the terminal", formatter_class=_Formatter,
        description="Play one game in the terminal against random bots. At each of your decisions you see "
                    "what your seat may see and the legal moves, numbered; answer with a number or the move's "
                    "text (each word may be the beginning of a word of the move, and words may be left out: "
                    "'red' for 'play 1 red'), '?' for help, 'q' to quit. A decision with one move only is "
                    "taken for you, with a line saying so (--ask-forced asks anyway). Under each move, what it "
                    "did as you see it, then each chance event it ran into (a card drawn, a die) on a "
                    "'chance:' line of its own; at the end, why the game ended. 'u' takes back your last move (and "
                    "the bots' moves since). Several seats (--seat 0,2) share the terminal: before each "
                    "one's decision the screen is passed, and each sees only its own view. Input may be "
                    "piped, one answer per line. With --watch, bots play every seat and you watch: "
                    "everything shown (or as --seat K sees it), a move each time you press Enter, or one "
                    "every --pace seconds.",
        epilog="examples:\n"
               "  meeple play games/mygame.rules --players 3 --seat 0\n"
               "  meeple play games/mygame.rules --players 4 --seat 2 --seed 7   the same deal every time\n"
               "  yes 1 | meeple play games/mygame.rules --players 2             always take the first move\n"
               "  meeple play games/mygame.rules --players 3 --seat 0,2          two people, one terminal\n"
               "  meeple play games/mygame.rules --record game.jsonl             then: meeple replay game.jsonl -v\n"
               "  meeple play games/mygame.rules --watch                         bots only: Enter for each move\n"
               "  meeple play games/mygame.rules --watch --pace 0.5 --seat 1     a move every half second, as "
               "seat 1 sees it\n\n"
               "seats are numbered from 0. On a terminal the screen is redrawn at each of your decisions "
               "(--plain prints everything as it happens, as piped play does).\n\n"
               "exit status: 0 when the game ended or you quit ('q'); 1 when the rules do not load, the game "
               "got stuck, or the input ended before the game did;" + USAGE_EXITS)
    p.add_argument("file", metavar="FILE", help=".rules or IR .json file")
    p.add_argument("--players", type=_players_arg(), metavar="N", help="players (default: the game's minimum)")
    p.add_argument("--seat", type=_seats, metavar="K[,K...]",
                   help="your seat, 0..N-1 (default 0); several, comma-separated, for people who share "
                        "the terminal (hot seat): between two of them the screen is passed with Enter (a move "
                        "typed there is that seat's move); with --watch, the one seat whose view is shown")
    p.add_argument("--seed", type=_seed_arg(), metavar="S", help="seed for chance and the bots (default: random)")
    p.add_argument("--ask-forced", action="store_true",
                   help="ask for your move even when there is only one (by default it is taken for you)")
    p.add_argument("--record", metavar="FILE",
                   help="write the game, as far as it went, as a record that 'meeple replay' replays")
    p.add_argument("--plain", action="store_true",
                   help="print everything as it happens, never redrawing the screen")
    p.add_argument("--watch", action="store_true",
                   help="no seat for you: bots play every seat and you watch, everything shown (--seat K: "
                        "as seat K sees it); on a terminal Enter plays the next move and q quits; with input "
                        "that is not a terminal (piped, a file) the game plays through without waiting")
    p.add_argument("--pace", type=_pace, metavar="S",
                   help="with --watch: a move every S seconds (0..60, e.g. 0.5), no Enter needed; 0 plays "
                        "through at once")
    _add_params(p)
    p.set_defaults(func=cmd_play)
    parser.commands = dict(sub.choices)  # type: ignore[attr-defined]
    return parser


# ---- helpers ----
def _err(text: str) -> None:
    print(text, file=sys.stderr)


def _params(args: argparse.Namespace) -> dict[str, int] | None:
    """The -p NAME=VALUE given, by name; a name given two values is a usage mistake (which one meant?)."""
    given: dict[str, int] = {}
    for name, value in getattr(args, "param", None) or []:
        if given.setdefault(name, value) != value:
            raise UsageError(f"-p {name}: given twice, {name}={given[name]} and {name}={value}; give each param once")
    return given or None


def _need_file(path: str) -> None:
    """A file named on the command line exists and is a file, else a usage error (exit 2)."""
    if "\0" in path:
        raise UsageError(f"{_shown(path)}: a file name cannot hold a NUL character")
    if not os.path.exists(path):
        raise UsageError(f"{_named(path)}: no such file{_close_file(path)}")
    if os.path.isdir(path):
        raise UsageError(f"{_named(path)}: is a folder, not a file")
    from meeple.dsl import not_a_file
    if not_a_file(path):  # (reading a pipe would wait for a writer)
        raise UsageError(f"{_named(path)}: is {not_a_file(path)}, not a file")


def _inputs(game: Any, path: str) -> tuple[str, ...]:
    """The files a command read the game from: the one named (a rules file or an IR document) and
    the rules files it was made of (a variant's bases)."""
    return (path, *(game.ir.get("sources") or [game.source_path]))


def _writable(path: str, option: str, not_of: tuple[str, ...] = ()) -> None:
    """The file ``option`` names, to write at the end of a command, can be written and is none of
    the files ``not_of`` (the rules it was made from): checked before any work."""
    if not path:
        raise UsageError(f"{option}: an empty file name")
    if "\0" in path:
        raise UsageError(f"{option} {_shown(path)}: a file name cannot hold a NUL character")
    if os.path.isdir(path):
        raise UsageError(f"{option} {_named(path)}: is a folder, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {_named(path)}: the folder {_named(str(folder))} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"{option} {_named(path)}: cannot be written here")
    for source in not_of:
        if os.path.exists(path) and os.path.exists(source) and os.path.samefile(path, source):
            what = "IR file" if source.endswith(".json") else "rules file"
            raise UsageError(f"{option} {_named(path)}: is the {what} {_named(source)}; writing there would "
                             f"overwrite it")


def _load(path: str, params: dict[str, int] | None) -> Any:
    """The game, or None after printing why not. A file that is not there, or a ``-p`` the rules
    do not allow, is a ``UsageError``."""
    from meeple.dsl import RulesError

    from meeple.interpreter import load
    _need_file(path)
    try:
        return load(path, params)
    except RulesError as e:
        _param_errors(e)
        _err(str(e))
    return None


def _param_errors(e: Any, path: str | None = None) -> None:
    """When an error of ``e`` is about a param given with -p, raise it as a usage error: the
    rules' other errors may only follow from the value (a count of tiles below 0), and are
    shown once the value is one the rules allow."""
    errors = [d for d in e.diagnostics if d.kind == "error" and d.param]
    if errors:
        of = f"{path}: " if path else ""  # (which file, when several are checked)
        raise UsageError("\n".join(f"-p {d.param}: {of}{d.message}" for d in errors))


def _players(game: Any, players: int | None) -> int:
    n = game.min_players if players is None else players
    if not game.min_players <= n <= game.max_players:
        raise UsageError(f"--players {n}: {game.title} is for {game.min_players}..{game.max_players} players")
    return n


# ---- commands ----
def cmd_validate(args: argparse.Namespace) -> int:
    from meeple.dsl import RulesError

    from meeple.interpreter import load
    failed = False
    all_diags: list[dict] = []
    for path in args.files:  # every file first: a usage mistake is said before any work
        _need_file(path)
    for path in args.files:
        try:
            game = load(path, _params(args))
        except RulesError as e:
            _param_errors(e, path if len(args.files) > 1 else None)
            failed = True
            if args.json:
                all_diags.extend(d.to_json() for d in e.diagnostics)
            else:
                _err(str(e))
            continue
        warnings = game.warnings
        if args.json:
            all_diags.extend(w.to_json() for w in warnings)
            continue
        print(f"{_named(path)}: ok ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})")
        if warnings:
            print(_render_warnings(warnings))
    if args.json:
        print(json.dumps(all_diags, indent=2))
    return 1 if failed else 0


def _render_warnings(warnings: list) -> str:
    """Warnings with their lines, each from its own file (a variant's base has its own)."""
    from meeple.dsl import RulesError, read_text
    from meeple.dsl.diagnostics import render_all
    texts: dict[str, str] = {}
    for file in {w.file for w in warnings}:
        if not file.endswith(".json"):
            try:
                texts[file] = read_text(file)
            except RulesError:
                pass
    return render_all(warnings, None, texts).rsplit("\n", 1)[0]  # (the count is on the 'ok' line)


def cmd_ir(args: argparse.Namespace) -> int:
    from meeple.dsl import RulesError, read_ir
    _need_file(args.file)
    try:
        ir, _warnings = read_ir(args.file, _params(args))
    except RulesError as e:
        _param_errors(e)
        _err(str(e))
        return 1
    print(json.dumps(ir, indent=2))
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    game = _load(args.file, _params(args))
    if game is None:
        return 1
    text = game.module.text()
    if args.output is not None:
        _writable(args.output, "-o", _inputs(game, args.file))
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except (OSError, ValueError) as e:
            raise UsageError(f"-o {args.output}: cannot write it ({getattr(e, 'strerror', None) or e})") from None
        _err(f"wrote {_named(args.output)} ({len(text.splitlines()):,} lines)")
    else:
        print(text, end="")
    return 0


def cmd_fmt(args: argparse.Namespace) -> int:
    from meeple.dsl import RulesError, RulesSyntaxError, read_text
    from meeple.dsl.printer import print_rules

    from .markup import shell_word
    if not args.check and not args.write and len(args.files) > 1:
        raise UsageError("printing goes to stdout, so give one file (or use --check or --write)")
    status = 0
    for path in args.files:
        _need_file(path)
        try:
            text = read_text(path)
            from meeple.dsl import looks_like_ir
            if looks_like_ir(path, text):
                _err(f"{_named(path)}: error: this is an IR document (JSON); meeple fmt formats rules files (.rules)")
                status = 1
                continue
            from meeple.dsl.text import a_record
            record = a_record(text, path)
            if record is not None:
                raise RulesSyntaxError([record], text)
            canonical = print_rules(text, path)
        except RulesError as e:
            _err(str(e))
            status = 1
            continue
        if args.check:
            if canonical != text:
                print(f"{_named(path)}: not in canonical form (meeple fmt --write {shell_word(path)})")
                status = max(status, 1)
        elif args.write:
            if canonical != text:
                try:
                    Path(path).write_text(canonical, encoding="utf-8")
                except OSError as e:
                    _err(f"meeple fmt: error: cannot write {_named(path)}: {e.strerror or e}")
                    status = 1
                    continue
                print(f"{_named(path)}: reformatted")
        else:
            sys.stdout.write(canonical)
    return status


def cmd_diff(args: argparse.Namespace) -> int:
    from meeple.dsl import RulesError, read_checked
    from meeple.dsl.compare import compare, render

    if len(args.files) > 2:
        raise UsageError("give BASE VARIANT, or a VARIANT alone")
    for path in args.files:
        _need_file(path)
    try:
        if len(args.files) == 1:
            variant = args.files[0]
            checked_new = read_checked(variant)  # first: a variant whose base is missing says so, at its 'extends'
            new_texts = _texts_of(variant, checked_new)
            base = _base_of(variant, checked_new)
            if base is None:  # (none, or an IR document alone)
                raise UsageError(f"{variant} extends no base; give the base too: meeple diff BASE {variant}")
        else:
            base, variant = args.files
            checked_new = read_checked(variant)
            new_texts = _texts_of(variant, checked_new)
        checked_old = read_checked(base)
        old, new = _written(checked_old), _written(checked_new)
        old_texts = _texts_of(base, checked_old)
    except RulesError as e:
        _err(str(e))
        return 1
    differences = compare(old, new, old_texts, new_texts)
    if args.json:
        print(json.dumps([d.to_json() for d in differences], indent=2, ensure_ascii=False))
    else:
        unseen = tuple(side for side, texts in (("old", old_texts), ("new", new_texts)) if not texts)
        print(render(differences, _named(base), _named(variant), unseen))
    return 1 if differences else 0


def _texts_of(path: str, game: Any) -> dict[str, str]:
    """The texts of the files ``game`` (read from ``path``) was written in, for the lines diff shows:
    a rules file's own and its bases'. An IR document's, the file given or a base, are those of the
    rules files it was made from (see ``_made_from``), never its JSON."""
    from meeple.dsl import read_text

    return _rules_texts({path: read_text(path), **game.texts})


def _rules_texts(texts: dict[str, str], seen: frozenset[str] = frozenset()) -> dict[str, str]:
    """The rules files' among ``texts`` (path → text), an IR document's standing for those of the
    rules files it was made from (``_made_from``; ``seen``: the documents on the way)."""
    from meeple.dsl import looks_like_ir

    out: dict[str, str] = {}
    for file, text in texts.items():
        out.update(_made_from(file, seen) if looks_like_ir(file, text) else {file: text})
    return out


def _made_from(path: str, seen: frozenset[str] = frozenset()) -> dict[str, str]:
    """The texts of the rules files the IR document at ``path`` was made from, read where its
    "sources" name them (as `meeple ir` wrote them, from the folder it ran in), and only when they
    still make exactly this document, positions and all: else none (a document's word alone never
    has a file shown, and lines of a file changed since would be the wrong ones). The game of one
    file (no "sources") also by the document's own path: a variant extending it points there. A
    source that is itself an IR document stands for the rules files it was made from in turn
    (``seen``: the documents on the way, a document that names itself standing for none)."""
    if path in seen or (made := _maker(path)) is None:
        return {}
    source, rules = made
    texts = _rules_texts(rules.texts, seen | {path})
    if not _written(rules).get("sources") and source in texts:
        texts[path] = texts[source]
    return texts


def _maker(path: str) -> tuple[str, Any] | None:
    """The rules file the IR document at ``path`` was made from (its "source") and its checked game,
    when it still makes exactly this document, positions and all; else None (see ``_made_from``)."""
    from meeple.dsl import RulesError, read_checked

    try:
        doc = _written(read_checked(path))
        source = doc.get("source")
        if not isinstance(source, str) or source == path or not Path(source).is_file():  # (not a pipe)
            return None
        rules = read_checked(source)
    except (RulesError, OSError, ValueError):
        return None
    return (source, rules) if _written(rules) == doc else None


def _base_of(path: str, game: Any) -> str | None:
    """The base the variant ``game`` (read from ``path``) extends, as its 'extends' names it (a rules
    file or an IR document): the first file read after its own (``variants.resolve`` reads it first).
    An IR document's, merged, is that of the rules file it was made from, when that still makes it
    (``_maker``); None when the game extends none, or the rules of the document are not at hand."""
    base = next((file for file in game.texts if file != path), None)
    if base is None and (made := _maker(path)) is not None:
        return _base_of(*made)
    return base


def _written(game: Any) -> dict[str, Any]:
    """A checked game's IR as ``read_ir`` gives it (its decks as written)."""
    return game.written if game.written is not None else game.ir


def cmd_schema(args: argparse.Namespace) -> int:
    from pathlib import Path

    import meeple.dsl as dsl
    path = Path(dsl.__file__).parent / "schema.json"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        _err(f"meeple: error: cannot read the schema {_named(str(path))}: {e.strerror or e}")
        return 1
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from meeple.dsl import RulesError

    from .limits import MAX_RECORDED_GAMES, cores
    from .simulate import simulate_tally

    if args.records and args.games > MAX_RECORDED_GAMES:
        raise UsageError(f"--records writes one file per game: at most {MAX_RECORDED_GAMES:,} games with it, "
                         f"not {args.games:,}")
    if args.records is not None and not args.records:
        raise UsageError("--records: an empty folder name")
    if args.records and os.path.exists(args.records) and not os.path.isdir(args.records):
        raise UsageError(f"--records {args.records}: is a file, not a folder")
    if args.workers is not None and args.workers > cores():
        _err(f"meeple simulate: note: --workers {args.workers} is more than the {cores()} cores here; "
             f"using {cores()}")
        args.workers = cores()
    params = _params(args)
    game = _load(args.file, params)
    if game is None:
        return 1
    players = _players(game, args.players)
    if args.records:
        try:
            os.makedirs(args.records, exist_ok=True)
        except OSError as e:  # a folder named on the command line that cannot be: a usage mistake
            raise UsageError(f"--records {args.records}: cannot make the folder: {e.strerror or e}") from None
        probe = os.path.join(args.records, f".meeple-{os.getpid()}.tmp")
        try:  # (a folder there that takes no file, as /proc: said now, not as each game's error)
            with open(probe, "w", encoding="utf-8"):
                pass
            os.remove(probe)
        except OSError as e:
            raise UsageError(f"--records {args.records}: cannot write a file there: {e.strerror or e}") from None
    progress, finish = _progress(args.games, quiet=args.json)
    t0 = time.perf_counter()
    try:
        tally = simulate_tally(args.file, games=args.games, players=players, seed=args.seed, workers=args.workers,
                               params=params, records_dir=args.records, progress=progress)
    except RulesError as e:
        finish()
        _err(str(e))
        return 1
    finish()
    wall = time.perf_counter() - t0
    summary = tally.summary(args.file, args.seed)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        from .simulate import plan
        _print_summary(summary, wall, plan(args.games, args.workers)[1], tally.lengths)
    unfinished = summary["errors"] + summary["stuck"] + summary["step_capped"]
    if unfinished:  # a script can gate on it: the summary is printed either way
        _err(f"meeple: {unfinished} of {summary['games']} games did not reach the rules' end (errors "
             f"{summary['errors']}, stuck {summary['stuck']}, step-capped {summary['step_capped']})")
        return 1
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    from hypothesis.configuration import set_hypothesis_home_dir

    from meeple.dsl.cache import cache_root
    from meeple.interpreter import load
    from .fuzz import fuzz

    # Hypothesis's own files go under the user's cache, never into the current folder
    set_hypothesis_home_dir(cache_root() / "fuzz" / "hypothesis")

    params = _params(args)
    game = _load(args.file, params)
    if game is None:
        return 1
    if args.players is not None:
        _players(game, args.players)
    if args.record is not None:  # (as play's: checked before the search, and never the rules file)
        _writable(args.record, "--record", _inputs(game, args.file))
    update, finish = _progress(args.examples, quiet=args.json, doing="fuzzing", steps=True)
    steps = {"done": 0, "game": 0, "in_game": 0}  # steps of the games before this one, and of this one

    def progress(example: int, step: int) -> None:
        if example != steps["game"]:
            steps["done"] += steps["in_game"]
            steps["game"] = example
        steps["in_game"] = step
        if update is not None:
            update(example - 1, args.examples, steps["done"] + step)
    try:
        report = fuzz(game, examples=args.examples, seed=args.seed, vary_params=args.params,
                      load=lambda p: load(args.file, {**(params or {}), **p}), progress=progress,
                      shrink_seconds=args.shrink_time, players=args.players, view_every=1 if args.thorough else 64)
    finally:
        finish()
    f = report.failure
    if f is not None and f.state is not None:
        rules = args.file
        try:
            if args.record is None:  # under the cache: the record names its rules by their full path
                args.record = str(cache_root() / "fuzz" / f"{Path(args.file).stem}-failure.jsonl")
                rules = os.path.abspath(args.file)
                Path(args.record).parent.mkdir(parents=True, exist_ok=True)
            from .records import write_record
            write_record(args.record, f.game, f.state, f.params, rules=rules,
                         then=(f.failed_move,) if f.failed_move else ())
        except OSError as e:
            _err(f"meeple: error: cannot write {_named(args.record)}: {e.strerror or e}")
            args.record = None
    if args.json:
        print(json.dumps(_fuzz_json(report, args), indent=2))
    else:
        _print_fuzz(report, args, game)
    return 0 if f is None else 1


def _fuzz_json(report: Any, args: argparse.Namespace) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "file": args.file, "games_finished": report.finished, "games_started": report.examples,
        "steps": report.steps, "players": report.players, "outcomes": report.outcomes,
        "decisions": sorted(report.decisions), "failure": None}
    f = report.failure
    if f is not None:
        doc["failure"] = {
            "invariant": f.invariant, "message": f.message, "line": f.at[0] if f.at else None,
            "column": f.at[1] if f.at else None, "params": f.params,
            "players": f.state.players if f.state is not None else None,
            "history": [{"actor": a, "action": t} for a, t in f.state.history()] if f.state is not None else [],
            "record": args.record if f.state is not None else None}
    return doc


def _print_fuzz(report: Any, args: argparse.Namespace, game: Any) -> None:
    from meeple.dsl.diagnostics import Diagnostic

    f = report.failure
    if f is None:
        from rich.console import Console
        # (on a terminal, long lines wrap between words; piped, each stays one line)
        say = Console(highlight=False, soft_wrap=not sys.stdout.isatty()).print
        outcomes = ", ".join(f"{n} {k}" for k, n in sorted(report.outcomes.items())) or "none finished"
        declared = [n for n, _, _ in game.invariants]
        say(f"{_named(args.file)}: no invariant broke in {report.finished} games played to the end "
            f"({report.examples} started, {report.steps} steps)", markup=False)
        say(f"  players (games started): {dict(sorted(report.players.items()))}; endings: {outcomes}", markup=False)
        say(f"  decisions seen: {', '.join(sorted(report.decisions)) or 'none'}", markup=False)
        say(f"  invariants checked: {len(declared)} declared"
            f"{' (' + ', '.join(declared) + ')' if declared else ''} and the built-in ones", markup=False)
        return
    print(f"{_named(args.file)}: invariant '{f.invariant}' broke: {f.message}")
    if f.at:  # in a variant, the invariant may be declared in one of its bases (the 5th number)
        sources = f.game.ir.get("sources") or [args.file]
        file = sources[f.at[4]] if len(f.at) > 4 and f.at[4] < len(sources) else args.file
        print(Diagnostic(file, f"invariant '{f.invariant}' is declared here", *f.at[:4],
                         kind="note").render(Path(file).read_text(encoding="utf-8")))
    if f.state is None:
        return
    history = f.state.history()
    tried = [f.failed_move] if f.failed_move else []  # (the step that fails is one of the game's)
    steps = len(history) + len(tried)
    moves = sum(1 for actor, _ in [*history, *tried] if actor != "chance")
    count = "no step, at the start" if not steps else f"{_plural(steps, 'step')} ({_plural(moves, 'move')})"
    print(f"the shortest game found: {count}, {_plural(f.state.players, 'player')}"
          f"{', params ' + str(f.params) if args.params else ''}" + (":" if history or f.failed_move else ""))
    shown = [f"  {'chance' if actor == 'chance' else f'seat {actor}'}: {text}" for actor, text in history]
    if f.failed_move:
        shown.append(f"  seat {f.failed_move[0]}: {f.failed_move[1]}   <- this move fails"
                     if f.failed_move[0] != "chance" else f"  chance: {f.failed_move[1]}   <- this outcome fails")
    if len(shown) > 60:  # a game stopped by the step cap: its start and its end tell the story
        shown[20:-30] = [f"  ... {len(shown) - 50} more steps ..."]
    print("\n".join(shown))
    if args.record:
        from .markup import file_name, shell_word
        print(f"written to {file_name(args.record)}; re-run it with: meeple replay {shell_word(args.record)}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _progress(total: int, quiet: bool, doing: str = "simulating", steps: bool = False):
    """A progress callback ``update(games done, total[, steps])`` and a finisher: a rich bar on a
    terminal (games done of the total, the steps played with ``steps``, the time left), else a
    line every few seconds."""
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        columns = [TextColumn(doing), BarColumn(), MofNCompleteColumn(), TextColumn("games")]
        if steps:
            columns.append(TextColumn("· {task.fields[steps]:,} steps"))
        bar = Progress(*columns, TimeRemainingColumn(), console=Console(stderr=True), auto_refresh=False,
                       transient=True)
        task = bar.add_task("games", total=total, steps=0)
        bar.start()
        shown = [0.0]

        def update(done: int, _total: int, played: int = 0) -> None:
            now = time.perf_counter()
            if now - shown[0] >= 0.1 or done >= _total:  # (at most ten redraws a second)
                shown[0] = now
                bar.update(task, completed=done, steps=played)
                bar.refresh()
        return update, bar.stop
    if quiet:
        return None, lambda: None
    last = [time.perf_counter()]

    def heartbeat(done: int, _total: int, played: int = 0) -> None:
        now = time.perf_counter()
        if now - last[0] >= 5 and done < _total:
            last[0] = now
            _err(f"{doing}: {done}/{_total} games" + (f", {played:,} steps" if steps else ""))
    return heartbeat, lambda: None


def _interval_text(bounds: list[float] | None) -> str:
    """``52.4–61.1%``: a share's 95% interval, in percent."""
    return "-" if bounds is None else f"{100 * bounds[0]:.1f}–{100 * bounds[1]:.1f}%"


def _length_lines(lengths: dict[int, int], turns: dict[str, Any], bar: int = 36) -> list[str]:
    """A histogram of game lengths in text, a row a range of turns, with its title."""
    from .stats import length_rows
    rows = length_rows(lengths)
    if not rows:
        return []
    total, top = sum(lengths.values()), max(c for _, _, c in rows)
    labels = [str(f) if f == t else f"{f}–{t}" for f, t, _ in rows]
    lw, cw = max(map(len, labels)), max(len(f"{c:,}") for _, _, c in rows)
    out = [f"turns per completed game (10% end by turn {turns['p10']}, median {turns['median']:g}, "
           f"90% by {turns['p90']})"]
    for label, (_, _, count) in zip(labels, rows):
        eighths = round(bar * 8 * count / top)
        drawn = "█" * (eighths // 8) + ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")[eighths % 8]
        if count and not drawn:
            drawn = "▏"  # a row with games is never drawn empty
        out.append(f"{label:>{lw}} │{drawn:<{bar}} {count:>{cw},} {100 * count / total:5.1f}%")
    return out


def _print_summary(s: dict, wall: float, workers: int, lengths: dict[int, int] | None = None) -> None:
    from rich.console import Console
    from .markup import escape
    from rich.table import Table
    from rich.text import Text

    from .stats import balance_sentence

    console = Console(highlight=False)
    n = s["games"]

    def pct(k: float) -> str:
        return f"{100 * k / n:.1f}%" if n else "-"

    params = ", ".join(f"{k}={v}" for k, v in s["params"].items())
    console.print(f"[bold]{escape(s['title'])}[/bold] ({escape(_named(s['rules']))}): {_plural(n, 'game')}, "
                  f"{_plural(s['players'], 'player')}, seed {s['seed']}")
    if params:
        console.print(f"params: {escape(params)}")

    t = Table(title="games", title_justify="left", header_style="bold")
    t.add_column("")
    t.add_column("count", justify="right")
    t.add_column("share", justify="right")
    for label, key in (("completed", "completed"), ("  draws (no winner)", "draws"), ("  shared wins", "shared"),
                       ("step-capped", "step_capped"), ("stuck", "stuck"), ("errors", "errors")):
        style = "red" if key in ("stuck", "errors", "step_capped") and s[key] else ""
        t.add_row(label, f"[{style}]{s[key]}[/{style}]" if style else str(s[key]), pct(s[key]))
    tr = s["turns"]
    if tr["mean"] is not None:
        t.add_row("turns mean / median / max", f"{tr['mean']:.1f} / {tr['median']:g} / {tr['max']}", "")
    console.print(t)
    if s.get("first_error"):
        console.print(f"[red]first error:[/red] {escape(s['first_error'])}")
    for line in _length_lines(lengths or {}, tr):
        console.print(Text(line), overflow="ignore", crop=False)

    t = Table(title="wins by seat (shared wins split)", title_justify="left", header_style="bold")
    t.add_column("seat", justify="right")
    t.add_column("wins", justify="right")
    t.add_column("share of games", justify="right")
    t.add_column("95% interval", justify="right")
    mean_returns = s.get("mean_returns_by_seat")
    if mean_returns is not None:
        t.add_column("mean returns", justify="right")  # the rules' returns(p), per completed game
    for seat, (w, share, bounds) in enumerate(zip(s["wins_by_seat"], s["win_share_by_seat"],
                                                   s["win_share_interval_by_seat"])):
        row = [str(seat), f"{w:g}" if w == int(w) else f"{w:.2f}", f"{100 * share:.1f}%", _interval_text(bounds)]
        t.add_row(*row, *([f"{mean_returns[seat]:+.3f}"] if mean_returns is not None else []))
    console.print(t)
    console.print(Text(balance_sentence(s["seat_balance"], s["wins_by_seat"], s["draws"])))

    for label, tally in s["reports"].items():
        done = sum(tally.values())
        # (the rules' words as plain text: escaped as markup, a last backslash would show twice)
        t = Table(title=Text(f"report: {label}"), title_justify="left", header_style="bold")
        t.add_column("value")
        t.add_column("games", justify="right")
        t.add_column("share of completed", justify="right")
        t.add_column("95% interval", justify="right")
        intervals = s["report_share_intervals"][label]
        for value, count in tally.items():
            t.add_row(Text(str(value)), str(count), f"{100 * count / done:.1f}%" if done else "-",
                      _interval_text(intervals[value]))
        console.print(t)
    rate = n / wall if wall > 0 else float("inf")
    console.print(f"wall time {wall:.2f} s, {rate:,.0f} games/s "
                  f"({workers} worker process{'es' if workers != 1 else ''})")


def cmd_replay(args: argparse.Namespace) -> int:
    from .records import RecordError, replay_record

    from .records import read_record

    verbose = print if args.verbose else None
    _need_file(args.record)
    if args.seat is not None and not args.verbose:
        raise UsageError("--seat says whose view --verbose tells each step from: give --verbose too")
    try:
        record = read_record(args.record)
        if args.seat is not None and not 0 <= args.seat < record.players:
            raise UsageError(f"--seat {args.seat}: the game recorded has seats 0..{record.players - 1}")
        report = replay_record(record, verbose=verbose, seat=args.seat)
    except RecordError as e:
        _err(f"meeple: error: {e}")
        return 1
    for w in report.warnings:
        _err(f"warning: {w}")
    matches = "result matches" if report.finished else "the game not over, as recorded"
    if report.ok and report.broken is None:
        print(f"{_named(args.record)}: ok ({report.steps} steps replayed, {matches})")
        return 0
    if report.ok:
        step, name, what, _ = report.broken
        when = f"at step {step}" if step else "at the start (what the rules did before the first step)"
        print(f"{_named(args.record)}: replays ({report.steps} steps, {matches}), "
              f"but invariant '{name}' breaks {when}: {what}")
        return 1
    print(f"{_named(args.record)}: " + ("not replayed: its rules do not load" if not report.loaded else
                                "not replayed: its game cannot start with its rules" if not report.started
                                else "mismatch"))
    if report.first_difference is not None:
        print(f"first difference at action {report.first_difference} (after {report.steps} matching steps)")
    for p in report.problems:
        print(f"  {p}")
    return 1


def cmd_play(args: argparse.Namespace) -> int:
    from .play import Watch, _isatty, play

    if args.pace is not None and not args.watch:
        raise UsageError("--pace is the time between two moves of the bots you watch: it goes with --watch")
    if args.watch and args.ask_forced:
        raise UsageError("--ask-forced asks you for your moves, and with --watch you have none: leave one out")
    if args.watch and args.seat is not None and len(args.seat) > 1:
        raise UsageError(f"--seat {','.join(map(str, args.seat))}: with --watch, --seat names the one seat whose "
                         f"view is shown")
    game = _load(args.file, _params(args))
    if game is None:
        return 1
    players = _players(game, args.players)
    seats = args.seat if args.seat is not None else [0]
    for seat in seats:
        if not 0 <= seat < players:
            raise UsageError(f"--seat {seat}: with {players} players the seats are 0..{players - 1}")
    if args.record is not None:
        _writable(args.record, "--record", _inputs(game, args.file))
    watch = None
    if args.watch:
        watch = Watch(seat=args.seat[0] if args.seat else None, pace=args.pace,
                      step=args.pace is None and _isatty(sys.stdin))
    return play(game, players, seats, args.seed, ask_forced=args.ask_forced, record=args.record,
                screen=False if args.plain else None, watch=watch)


# ---- entry point ----
def main(argv: list[str] | None = None) -> int:
    """Run one command; the exit status is 0 ok, 1 the input or a check failed, 2 a usage mistake,
    3 a bug in meeple (docs/errors.md)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    try:
        _known_command(parser, argv)
        args, extra = parser.parse_known_args(argv)
        if extra:
            _unknown_arguments(parser, args, extra, argv)
    except SystemExit as e:  # --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else 2
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    if sys.stdin is None:  # (started with it closed, '<&-': read as an input that has ended)
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the whole run)
    if sys.stderr is None:  # ('2>&-': messages and progress have nowhere to go)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    if sys.stdout is None:  # (started with it closed, '>&-': Python would drop what is printed)
        sys.stdout = _ClosedOutput()
    try:
        return args.func(args)
    except UsageError as e:
        from meeple.dsl.diagnostics import printable
        _err(f"{PROG} {args.command}: error: {printable(str(e))}\n(run '{PROG} {args.command} --help' for help)")
        return 2
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. '| head'): stop quietly, without a second error at exit
        _stdout_to_devnull()
        return 1
    except OSError as e:  # the machine's, not meeple's: the output cannot be written (a full disk), ...
        _err(f"{PROG} {args.command}: error: {e.strerror or e}" + (f": {e.filename}" if e.filename else ""))
        _stdout_to_devnull()  # (what is still buffered for it would fail again at exit)
        return 1
    except Exception as e:  # a bug in meeple, never the input's fault; MEEPLE_DEBUG=1 shows the traceback
        if os.environ.get("MEEPLE_DEBUG"):
            raise
        from meeple.dsl.diagnostics import RuleRuntimeError
        if isinstance(e, RuleRuntimeError):  # a rule that failed while a game ran: the rules' mistake
            _err(f"{e}" if e.line else f"error: {e}")
            return 1
        _err(internal_error(e))
        return INTERNAL_ERROR


class _ClosedOutput(io.TextIOBase):
    """Standard output when the command was started with it closed: a command that writes to it
    fails there, as on a full disk (one that writes elsewhere, ``-o``, ``--write``, runs)."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        import errno
        raise OSError(errno.EBADF, "standard output is closed (send it to a file or to /dev/null)")

    def isatty(self) -> bool:
        return False


def _stdout_to_devnull() -> None:
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _known_command(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """A mistyped command gets "did you mean" (argparse lists every command)."""
    import difflib
    commands = parser.commands  # type: ignore[attr-defined]
    first = next((a for a in argv if not a.startswith("-")), None)
    if first is None or first in commands or argv.index(first) != 0:
        return
    close = difflib.get_close_matches(first, list(commands), n=1, cutoff=0.5)
    hint = f" (did you mean '{close[0]}'?)" if close else f"; the commands are {', '.join(commands)}"
    parser.error(f"unknown command {_shown(first)}{hint}")


def _before_command(argv: list[str], command: str | None) -> set[str]:
    """The words typed before the command (``meeple --json validate``: '--json')."""
    return set(argv[:argv.index(command)]) if command in argv else set()


def _unknown_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str],
                       argv: list[str]) -> None:
    """Arguments the command does not take, reported by that command (with its usage), with the
    option meant when it is close to one."""
    import difflib
    sub = parser.commands.get(getattr(args, "command", None) or "", parser)  # type: ignore[attr-defined]
    options = [o for action in sub._actions for o in action.option_strings]
    hints = []
    before = _before_command(argv, getattr(args, "command", None))
    for word in extra:
        if word in before:
            hints.append(f"{_shown(word)} (a command's options go after the command: meeple COMMAND {word} ...)")
        elif word.startswith("-"):
            close = difflib.get_close_matches(word.split("=", 1)[0], options, n=1, cutoff=0.6)
            hints.append(f"{_shown(word)}" + (f" (did you mean {close[0]}?)" if close else ""))
        else:
            hints.append(_shown(word))
    sub.error(f"unrecognized argument{'s' if len(extra) > 1 else ''}: {', '.join(hints)}")


if __name__ == "__main__":
    sys.exit(main())
