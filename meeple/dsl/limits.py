"""How big a game meeple takes: every size limit of the language in one place.

Each is far beyond what a real game needs (the bundled games are under 10 kB of text,
a few thousand tokens, nesting a dozen levels deep), and each is checked before the
work it bounds, so that a hostile or machine-made file gets a diagnostic with its
position at once instead of a hang, a ``MemoryError`` or a ``RecursionError``.
"""

from __future__ import annotations

# ---- rules text (dsl/parse.py) ----
MAX_SOURCE_BYTES = 2_000_000  # characters of a rules file
MAX_LINE_LENGTH = 50_000  # characters of one line
MAX_TOKENS = 100_000  # names, numbers and symbols of a rules file (parsing time grows with them)
MAX_NESTING = 200  # brackets open at once
# Levels of the parse tree (``not not ...``, ``a + b + ...`` and ``else if`` chains nest
# without brackets), and of an expression with its defines written out: the passes after
# parsing recurse once per level.
MAX_DEPTH = 150
# The largest number a rules file or IR may hold (and a var may be set to while a game
# runs): 2**53 - 1, the largest integer that every JSON reader keeps exactly.
MAX_NUMBER = 2**53 - 1

# ---- IR read as JSON (dsl/__init__.py) ----
# An IR document is read whole (as JSON), then each of its values is checked against the schema,
# some 10 microseconds each: its values are bounded, so that the largest document allowed is
# checked in seconds, not minutes. The largest bundled game (a variant written out with its base)
# is 200 kB of IR as `meeple ir` indents it, about 7,000 values; the IR of the largest rules file
# allowed (MAX_TOKENS) is about 470,000 values, 13 MB indented, and must load too.
MAX_IR_CHARS = 20_000_000  # characters of an IR document (and of a rules file)
MAX_IR_VALUES = 500_000  # values of an IR document: objects, lists, strings, numbers, true, false and null
MAX_IR_DEPTH = 200  # JSON nesting of an IR document (lowered IR nests about as deep as its parse tree)

# ---- what a game declares (dsl/check.py) ----
MAX_PLAYERS = 16
MAX_CARDS = 100_000  # cards of a game, all varieties together
MAX_SIDE = 100  # columns, and rows, of a board of cells
MAX_CELLS = 10_000  # cells of a board
MAX_SPACES = 10_000  # spaces of a track (and tiles laid on it)
MAX_STEPS = 1_000_000  # a game's max_steps
MAX_RANGE = 10_000  # values of a range 'lo..hi' that a loop, a 'random' or an option walks through
MAX_DICE = 1_000  # dice one 'roll' throws (each one a chance event)
MAX_CHOSEN_CARDS = 64  # cards one 'choose' may take at once (the choices grow as combinations of them)
MAX_CARD_PICKS = 100_000  # the different sets of cards one 'choose' may offer at once (checked as it runs)
MAX_ROUTE_STATES = 500_000  # the walks one route query may follow (tile, entry, passes, tiles seen; checked as it runs)
MAX_NESTED_RUNS = 10_000_000  # runs of loops and aggregates inside one another (ranges known when checking)
MAX_OPTION_VALUES = 1_000_000  # combinations of the values of one option's variables (ranges known when checking)
# Expression nodes of the whole game with every define written out where it is used
# (the compiler inlines defines, and the checker checks each use).
MAX_EXPANDED_NODES = 200_000
# Names compared, over a whole check, to suggest "did you mean ...?" for unknown names;
# past it the errors come without a suggestion.
MAX_SUGGESTION_WORK = 200_000


def too_deep(text: str, opens: str, closes: str, limit: int) -> tuple[int, int] | None:
    """The line and column of the first bracket (one of ``opens``) that is open with more than
    ``limit`` others, or None. A plain scan: it runs before any parser that would recurse."""
    depth, line, col = 0, 1, 0
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif ch in opens:
            depth += 1
            if depth > limit:
                return line, col
        elif ch in closes:
            depth -= 1
    return None
