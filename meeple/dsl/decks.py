"""Generated decks (``generate_varieties``): the varieties a ``for`` inside a ``cards`` block
stands for, written out, so that the checker and the engine only ever see plain varieties.

    cards deck_card in deck {
      for s in suit, r in 7..14 {
        1 card { suit = s, rank = r }
      }
    }

is the 4 × 8 varieties ``card_clubs_7`` ... ``card_spades_14`` (the template's name, then each
loop value: a value's name, a number, ``m3`` for -3), each with its attributes' loop names
replaced by the values, and its count's too. A loop runs over an enum (or piece kind) or a range
of numbers and params. This runs after a variant is merged with its base (the enums may be the
base's) and once the params are known.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any, Optional

from .fold import fold
from .limits import MAX_CARDS

Problem = tuple[dict, str]  # the node to point at, the message


def generate_varieties(ir: dict[str, Any], params: dict[str, int]) -> tuple[dict[str, Any], list[Problem]]:
    """``ir`` with every generated variety written out (``ir`` itself if it has none), and the
    problems that stopped a loop from being written out."""
    if not any(v.get("node") == "variety_loop" for c in ir.get("cards", ()) for v in c.get("varieties", ())):
        return ir, []
    values = {p["name"]: p["default"] for p in ir.get("params", ())}
    values.update(params)
    kinds: dict[str, list[str]] = {e["name"]: list(e["values"]) for e in ir.get("enums", ())}
    for p in ir.get("pieces", ()):
        kinds.setdefault(p["name"], list(p["values"]))
    problems: list[Problem] = []
    out = dict(ir)
    out["cards"] = []
    made = 0
    for c in ir["cards"]:
        varieties = []
        for v in c["varieties"]:
            if v.get("node") != "variety_loop":
                varieties.append(v)
                continue
            if len(v["vars"]) != len(v["domains"]) or not v["vars"]:
                problems.append((v, f"a deck's loop names {len(v['vars'])} value(s) for {len(v['domains'])} "
                                    f"domain(s): each name runs over one domain"))
                continue
            runs = [_values(d, kinds, values, problems) for d in v["domains"]]
            if any(r is None for r in runs):
                continue
            made += len(v["varieties"]) * _product(len(r) for r in runs)
            if made > MAX_CARDS:
                problems.append((v, f"the loops make more than {MAX_CARDS:,} varieties of cards"))
                break
            for combo in itertools.product(*runs):
                bound = dict(zip(v["vars"], combo))
                varieties += [_written(t, bound) for t in v["varieties"]]
        out["cards"].append({**c, "varieties": varieties})
    return out, problems


def _product(sizes: Any) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


def _values(d: dict, kinds: dict[str, list[str]], params: dict[str, int],
            problems: list[Problem]) -> Optional[list[Any]]:
    """What one loop of a generated deck runs over: a kind's values (names) or a range's numbers."""
    lo, hi = d.get("lo"), d.get("hi")
    if d.get("players") or lo is None:
        problems.append((d, "a deck's loop runs over an enum or a range of numbers, not the players"))
        return None
    if hi is None:
        if lo.get("node") == "name" and lo["id"] in kinds:
            return kinds[lo["id"]]
        what = f"'{lo['id']}' is not an enum or a piece kind" if lo.get("node") == "name" else "not a kind"
        problems.append((lo, f"{what}: a deck's loop runs over an enum, a piece kind or a range lo..hi"))
        return None
    ends = [fold(e, lambda n: params.get(n["id"])) for e in (lo, hi)]
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in ends):
        problems.append((lo, "a deck's range is made of numbers and params, known before the game"))
        return None
    if ends[1] - ends[0] + 1 > MAX_CARDS:
        problems.append((lo, f"the range {ends[0]}..{ends[1]} has more than {MAX_CARDS:,} values"))
        return None
    return list(range(ends[0], ends[1] + 1))


def _written(template: dict, bound: dict[str, Any]) -> dict:
    """One variety of a template, with the loop names ``bound`` replaced by their values."""
    v = copy.deepcopy(template)
    v["name"] = "_".join([template["name"], *(_word(x) for x in bound.values())])
    for a in v["attrs"]:
        if isinstance(a["value"], str) and a["value"] in bound:
            a["value"] = bound[a["value"]]
    v["count"] = _substituted(v["count"], bound)
    return v


def _word(x: Any) -> str:
    return f"m{-x}" if isinstance(x, int) and x < 0 else str(x)


def _substituted(e: Any, bound: dict[str, Any]) -> Any:
    """A count's expression with each loop name that holds a number replaced by that number."""
    if isinstance(e, list):
        return [_substituted(x, bound) for x in e]
    if not isinstance(e, dict):
        return e
    if e.get("node") == "name" and isinstance(bound.get(e["id"]), int):
        return {"node": "int", "value": bound[e["id"]], **({"at": e["at"]} if "at" in e else {})}
    return {k: _substituted(x, bound) if k != "at" else x for k, x in e.items()}
