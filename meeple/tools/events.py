"""What a step did, as one seat sees it (``changes``): pieces that moved, cards that came into or
left each zone (by name where the seat sees them, as a count where not), and the vars it may see
that changed. Worked out from two observations of that seat, before and after the step, so that
nothing is made unless someone asks (``meeple play`` does, after every move) and nothing shows
that the seat may not see."""

from __future__ import annotations

from typing import Any, Optional


def changes(before: dict[str, Any], after: dict[str, Any], labels: Optional[dict] = None,
            types: Optional[dict] = None) -> list[str]:
    """The lines that tell what changed from the observation ``before`` to ``after`` (one seat's;
    ``labels``: how the rules name vars and varieties, None for a var never shown; ``types``: each
    var's type, so that a var holding no player or value reads as —)."""
    labels, types = labels or {}, types or {}
    out: list[str] = []
    out += _pieces(before, after)
    out += _zones(before, after, labels, after.get("seat"))
    out += _vars(before, after, labels, types)
    return out


def _pieces(before: dict, after: dict) -> list[str]:
    out = []
    old, new = before.get("pieces") or {}, after.get("pieces") or {}
    done_before = {p for names in (before.get("podium") or {}).values() for p in names}
    for track, names in (after.get("podium") or {}).items():
        for place, p in enumerate(names, 1):
            if p not in done_before:
                out.append(f"{p} finishes, {_ordinal(place)} on {track}")
    for p, pos in new.items():
        if p in old and old[p] != pos:
            out.append(f"{p}: {old[p]} → {pos}" if pos or not old[p] else f"{p}: back to the start")
    return out


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _zones(before: dict, after: dict, labels: dict, seat: Any) -> list[str]:
    out = []
    for name, now in (after.get("zones") or {}).items():
        was = (before.get("zones") or {}).get(name)
        parts = list(enumerate(now)) if isinstance(now, list) else [(None, now)]
        olds = was if isinstance(was, list) else [was]
        for owner, view in parts:
            old = olds[owner or 0] if owner is None or owner < len(olds) else None
            if old is None or old == view:
                continue
            where = name if owner is None else f"{name} ({'you' if owner == seat else f'seat {owner}'})"
            if "size" in view and set(view) <= {"size", "known"}:  # a zone this seat does not see
                delta = view["size"] - (old.get("size", 0) if isinstance(old, dict) else 0)
                if delta:
                    out.append(f"{where}: {'+' if delta > 0 else '−'}{abs(delta)} card{'s' if abs(delta) != 1 else ''}"
                               f" (now {view['size']})")
                continue
            gained = {v: n - old.get(v, 0) for v, n in view.items() if n > old.get(v, 0)}
            lost = {v: n - view.get(v, 0) for v, n in old.items() if n > view.get(v, 0)}
            words = [f"+{_cards(gained, labels)}"] if gained else []
            words += [f"−{_cards(lost, labels)}"] if lost else []
            if words:
                out.append(f"{where}: {', '.join(words)}")
    return out


def _cards(counts: dict, labels: dict) -> str:
    return " ".join(f"{labels.get(v) or v}" + (f" ×{n}" if n != 1 else "") for v, n in counts.items())


def _vars(before: dict, after: dict, labels: dict, types: dict) -> list[str]:
    out = []
    shown_after, shown_before = after.get("var_shown") or {}, before.get("var_shown") or {}
    for name, values in (after.get("vars") or {}).items():
        if (name in labels and labels[name] is None) or \
                (after.get("board") and name in ((after["board"] or {}).get("vars") or {})):
            continue
        old = (before.get("vars") or {}).get(name)
        if old is None or old == values:
            continue
        new_shown, old_shown = shown_after.get(name, values), shown_before.get(name, old)
        title, t = labels.get(name) or name, str(types.get(name, ""))
        if len(values) == 1:
            out.append(f"{title}: {shown_value(old_shown[0], t)} → {shown_value(new_shown[0], t)}")
        else:
            moved = [f"seat {i}: {shown_value(a, t)} → {shown_value(b, t)}"
                     for i, (a, b) in enumerate(zip(old_shown, new_shown)) if a != b]
            out.append(f"{title}: {', '.join(moved)}")
    return out


def shown_value(v: Any, t: str) -> Any:
    """A var's value as a person reads it (``t``: its type): a flag as yes/no, a value this seat may
    not see as ?, no player, value or cell as —; anything else as it is."""
    if v is True or v is False:
        return "yes" if v else "no"
    if v is None:
        return "?"
    if v == "none" or (v == -1 and (t in ("player", "cell", "none") or t.startswith("kind:"))):
        return "—"
    return v
