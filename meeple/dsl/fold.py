"""Constant folding: the value of an operator on known values, as the rules define it.

One table for the whole code base: the checker folds counts and ranges with it (``fold``), and the
compiler folds the expressions whose operands it knows with ``binary`` and ``unary`` (run-time code
computes the same: ``/`` and ``%`` by zero give 0, as ``interpreter/expressions.py``'s ``_div`` and
``_mod`` do, and a test holds the two to each other).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

Value = Union[int, bool]


def binary(op: str, a: Value, b: Value) -> Value:
    """``a op b`` for an operator of the language (``ast.BinaryOperator``)."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a // b if b else 0
    if op == "%":
        return a % b if b else 0
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "and":
        return bool(a and b)
    if op == "or":
        return bool(a or b)
    raise ValueError(f"not an operator of the language: {op!r}")


def unary(op: str, a: Value) -> Value:
    """``op a``: ``not`` or unary minus (``ast.UnaryOperator``)."""
    if op == "not":
        return not a
    if op == "-":
        return -a
    raise ValueError(f"not an operator of the language: {op!r}")


def fold(e: Any, name_value: Callable[[dict], Optional[Value]]) -> Optional[Value]:
    """The value of the IR expression ``e`` when it is known before the game starts: literals,
    the names ``name_value`` knows (params, for the checker) and operators on them; else None."""
    node = e.get("node") if isinstance(e, dict) else None
    if node in ("int", "bool"):
        return e["value"]
    if node == "name":
        return name_value(e)
    if node == "un_op":
        a = fold(e["operand"], name_value)
        return None if a is None else unary(e["op"], a)
    if node == "bin_op":
        a = fold(e["left"], name_value)
        if a is None:
            return None
        b = fold(e["right"], name_value)
        return None if b is None else binary(e["op"], a, b)
    if node == "cond":
        test = fold(e["test"], name_value)
        return None if test is None else fold(e["then_"] if test else e["else_"], name_value)
    return None
