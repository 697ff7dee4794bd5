"""Typed code values: a piece of generated Python with what the compiler knows of it (``Code``).

The expression compiler (``expressions.py``) builds every expression as a ``Code`` and decides
from its facts, never from its text: whether it is a constant (``value``), cheap to read twice
(``plain``), never none (``sure``), which parts of the state it reads (``reads``), which per-tile
var of which tile it is (``tile_var``), which values a domain runs over (``items``), whether it is
the tile a test of a square judges, read through the square (``probe``), how a count of cards is
told from 0 (``nonzero``), how a value read from a table is told from none (``none_test``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional

__all__ = ["Code", "lit", "name", "local", "paren", "joined", "VARS"]

VARS = "vars"  # ``reads``: the code reads a var (which may still hold none)


@dataclass(frozen=True, slots=True)
class Code:
    """Python source of one expression and its facts."""

    text: str
    value: Any = None  # the int or bool it always is (None: known only when it runs)
    word: bool = False  # one identifier (a loop variable, a parameter): usable as an index as it stands
    plain: bool = False  # a word, or a word subscripted by words: read twice at no cost, no parentheses needed
    sure: bool = False  # never none: a value that exists (a loop over values, a placed tile, a constant >= 0)
    reads: frozenset[str] = frozenset()  # parts of the state it reads that may hold none (``VARS``)
    inner: Optional["Code"] = None  # the same code without the parentheses put around it (``paren``)
    items: Optional[tuple] = None  # a domain known when compiling: its values
    tile_var: Optional[tuple[int, str]] = None  # per-tile var k of tile t: (k, t's text)
    probe: bool = False  # the tile a test of a square judges, read through its square (``ExprCompiler.probing``)
    nonzero: Optional[str] = None  # a count of cards: a test (a bool) that it is not 0, stopping at the first held
    # a value read from a table that holds no none (a tile beside a square: ``_at(key, -1)``): the
    # tests (bools) that it is none and that it is not, with no read (``key not in _on``, ``key in _on``)
    none_test: Optional[tuple[str, str]] = None
    local: bool = False  # a local of the rules, a slot of ``L`` (``local``)

    def __str__(self) -> str:
        return self.text

    @property
    def known(self) -> bool:
        return self.value is not None

    def unwrapped(self) -> "Code":
        """The code without the parentheses that inlining put around it."""
        c = self
        while c.inner is not None:
            c = c.inner
        return c


def lit(value: Any) -> Code:
    """A constant: an int or a bool."""
    if isinstance(value, bool):
        return Code("True" if value else "False", value, word=True, plain=True, sure=True)
    return Code(f"({value})" if value < 0 else str(value), value, word=value >= 0, sure=value >= 0)


def name(text: str, sure: bool = False) -> Code:
    """A Python name of generated code (a loop variable, a parameter, ``_tile``)."""
    return Code(text, word=True, plain=True, sure=sure)


def local(slot: int) -> Code:
    """A local of the rules (a let, a loop variable of a statement): slot ``slot`` of ``L``."""
    return Code(f"L[{slot}]", plain=True, local=True)


def subscript(base: str, index: Code, sure: bool = False, reads: frozenset[str] = frozenset()) -> Code:
    """``base[index]`` (``base`` a plain name of generated code)."""
    return Code(f"{base}[{index}]", plain=index.word, sure=sure, reads=index.reads | reads)


def paren(c: Code) -> Code:
    """``(c)``: a define's argument as its body reads it (its facts kept; ``unwrapped`` gives ``c``)."""
    return Code(f"({c})", sure=c.sure, reads=c.reads, inner=c)


def joined(text: str, *parts: Code, **facts: Any) -> Code:
    """Code made of ``parts``: it reads what they read."""
    reads = frozenset().union(*(p.reads for p in parts))
    return Code(text, reads=reads | facts.pop("reads", frozenset()), **facts)


def renamed(c: Code, text: str) -> Code:
    """The same value under another name (a copy passed on as a parameter)."""
    return replace(c, text=text, word=True, plain=True, inner=None, value=None, items=None, tile_var=None,
                   probe=False)
