"""What a step did, as one seat sees it (``changes``): pieces that moved (and what stopped them),
piles reshuffled, cards that came into or left each zone (by name where the seat sees them, as a
count where not), and the vars it may see that changed. Worked out from two observations of that
seat, before and after the step, and from what the engine told while the step ran (``Listener``,
set as ``State.listen``: only what a diff cannot tell), so that nothing is made unless someone
asks (``meeple play`` after every move, ``meeple replay -v`` after every step) and nothing shows
that the seat may not see."""

from __future__ import annotations

from typing import Any, Optional


class Listener:
    """What the engine tells while a state runs, kept with the names a person reads. Set it as
    ``state.listen``; ``take()`` gives what was heard since the last call and forgets it."""

    def __init__(self, game: Any, players: int):
        from meeple.interpreter.state import whole_number
        a_game(game)
        if not (whole_number(players) and game.min_players <= players <= game.max_players):
            raise ValueError(f"players: {game.title} is for {game.min_players}..{game.max_players}, not {players!r}")
        self.game, self.players = game, players
        self.heard: list[tuple] = []
        self.end_at: Optional[list] = None  # where the 'end game' that ended the game is

    def __call__(self, event: tuple) -> None:
        names = self.game.layout.value_names
        if event[0] == "end":
            self.end_at = event[1]
        elif event[0] == "phase":
            self.heard.append(event)
        elif event[0] == "stop":  # ("stop", piece, track, tag, space)
            self.heard.append(("stop", names[event[1]], event[3], event[4]))
        elif event[0] == "reshuffle":  # ("reshuffle", pile slot, zone slot, cards)
            self.heard.append(("reshuffle", self._zone(event[1]), self._zone(event[2]), event[3]))

    def _zone(self, slot: int) -> tuple[str, Optional[int]]:
        zi, owner = self.game.zone_slots(self.players)[slot]
        return self.game.layout.zone_names[zi], owner

    def take(self) -> list[tuple]:
        heard, self.heard = self.heard, []
        return heard


class Change(str):
    """A line of ``changes`` made of entries (``held: 1,0: 4 → 0, 2,0: 4 → 5``): the line as text,
    and its ``head`` (``held: ``) and ``pieces`` (each entry with the mark that ends it, ``1,0: 4 → 0,``),
    so that a narrow screen wraps it between two entries, never inside one (``wrapped``)."""

    head: str
    pieces: tuple[str, ...]

    def __new__(cls, head: str, entries: list[str], sep: str = ",") -> "Change":
        pieces = tuple(e + sep for e in entries[:-1]) + tuple(entries[-1:])
        line = super().__new__(cls, head + " ".join(pieces))
        line.head, line.pieces = head, pieces
        return line

    def wrapped(self, width: int, first: str = "", measure: Any = len) -> list[str]:
        """The line as lines of at most ``width`` columns (an entry wider than that alone on one),
        the first after ``first``, the others under the first entry (further left when the head
        is long); ``measure``: a text's width on the screen."""
        if measure(first + self) <= width:
            return [first + self]
        start = first + self.head
        hang = " " * (measure(first) + (measure(self.head) if measure(start) <= width // 2 else 2))
        lines: list[str] = []
        line, empty = start, True  # (empty: no entry on the line yet)
        for piece in self.pieces:
            if measure(line + ("" if empty else " ") + piece) > width and (not empty or measure(hang + piece) <= width):
                lines.append(line.rstrip())  # (a head too long for its first entry: alone on its line)
                line = hang + piece
            else:
                line += ("" if empty else " ") + piece
            empty = False
        return lines + [line]


def wrapped(line: str, width: int, first: str = "", measure: Any = len) -> list[str]:
    """A line of ``changes`` in lines of at most ``width`` columns (``Change.wrapped``); a line
    with no entries to wrap between, as it is."""
    return line.wrapped(width, first, measure) if isinstance(line, Change) else [first + line]


def turns_played(state: Any) -> int:
    """The turns a game has had, the one it is in (or ended in) counted: ``state.turns`` counts
    the turns passed on, so a game that ended in its 5th turn has ``turns`` 4 (as records keep it);
    one stopped by the cap on turns stopped as its last turn was passed on."""
    a_state(state)
    if state.outcome == "step cap" and state.turns >= state.game.max_steps:
        return state.turns
    return state.turns + 1


def a_game(game: Any) -> None:
    """``game`` a ``meeple.Game``, else a ``TypeError`` (for the tools' functions of a game)."""
    from meeple.interpreter.game import Game
    if not isinstance(game, Game):
        raise TypeError(f"a game (a meeple.Game) is wanted here, not {type(game).__name__}")


def a_state(state: Any, of: Any = None) -> None:
    """``state`` a ``meeple.State`` (of the game ``of``, when given: see ``a_game`` first), else a
    ``TypeError`` or ``ValueError`` that says what was expected."""
    from meeple.interpreter.state import State
    if not isinstance(state, State):
        raise TypeError(f"a game's state (a meeple.State) is wanted here, not {type(state).__name__}")
    if of is not None and state.game is not of:
        raise ValueError(f"the state is one of {state.game.title}, not of the game {of.title} given")


def unseen_view(view: Any) -> bool:
    """Is ``view`` (a zone in an observation) one of a zone the seat may not see: its size, and
    the cards 'reveal' showed it (``{"size": n, "known": {...}}``)?"""
    return isinstance(view, dict) and "size" in view and set(view) <= {"size", "known"}


def unseen_change(before_all: dict[str, Any], after_all: dict[str, Any], seen: dict[str, Any]) -> bool:
    """Did a step change something that a seat may not see? ``before_all``/``after_all``: the whole
    game's observations (``observe(state, None)``) around the step; ``seen``: the seat's after it
    (a zone it sees only the size of, a var it sees as None)."""
    for name, now in (after_all.get("zones") or {}).items():
        was, view = (before_all.get("zones") or {}).get(name), (seen.get("zones") or {}).get(name)
        parts = list(zip(now, was or [], view or [])) if isinstance(now, list) else [(now, was, view)]
        if any(a != b and unseen_view(v) for a, b, v in parts):
            return True
    for name, now in (after_all.get("vars") or {}).items():
        was, view = (before_all.get("vars") or {}).get(name), (seen.get("vars") or {}).get(name)
        if now != was and isinstance(view, list) and any(v is None and a != b for a, b, v in zip(now, was or [], view)):
            return True
    return False


def changes(before: dict[str, Any], after: dict[str, Any], labels: Optional[dict] = None,
            types: Optional[dict] = None, heard: Any = (), value_text: Any = None, me: str = "you") -> list[str]:
    """The lines that tell what changed from the observation ``before`` to ``after`` (one seat's;
    ``labels``: how the rules name vars and varieties, None for a var never shown; ``types``: each
    var's type, so that a var holding no player or value reads as —; ``heard``: what a
    ``Listener`` heard in the step; ``value_text(name, value, observation)``: a var's value as
    the board names it, a cell or an edge, in a game with tiles; ``me``: how the lines name the
    seat whose view they are, "you" unless someone watches it play, "seat 1")."""
    for what, given in (("before", before), ("after", after)):
        if not isinstance(given, dict):
            raise TypeError(f"changes compares two observations (dicts, from State.observation): {what} is "
                            f"{type(given).__name__}")
    for what, given, whose in (("labels", labels, "Game.labels"), ("types", types, "CheckedGame.var_types")):
        if given is not None and not isinstance(given, dict):
            raise TypeError(f"{what} is a dict (as {whose}) or None, not {type(given).__name__}")
    if not (isinstance(heard, (list, tuple)) and all(isinstance(e, tuple) and e for e in heard)):
        raise TypeError("heard is what a Listener heard (Listener.take()): a list of events, each a tuple")
    labels, types = labels or {}, types or {}
    seat = after.get("seat")
    stops = {e[1]: e for e in heard if e[0] == "stop"}
    out: list[str] = [f"phase {e[1]} runs" for e in heard if e[0] == "phase"]
    out += _pieces(before, after, stops)
    for _, (pile, owner), (zone, to), n in (e for e in heard if e[0] == "reshuffle"):
        out.append(f"{_where(pile, owner, seat, me)} reshuffled into {_where(zone, to, seat, me)}: "
                   f"{n} card{'s' if n != 1 else ''}")
    out += _grid(before, after, labels)
    out += _cells(before, after, labels)
    out += _zones(before, after, labels, seat, me)
    out += _vars(before, after, labels, types, value_text)
    return out


def _grid(before: dict, after: dict, labels: dict) -> list[str]:
    """Tiles laid on the grid, and the per-tile vars that changed."""
    old, new = before.get("grid") or [], after.get("grid") or []
    out = []
    for t in new[len(old):]:
        turned = f", turned {t['rotation']}" if t.get("rotation") else ""
        out.append(f"{labels.get(t['tile']) or t['tile']} laid at {t['x']},{t['y']}{turned}")
    for a, b in zip(old, new):
        for name, value in b.items():
            if name not in ("x", "y", "tile", "rotation") and a.get(name) != value and \
                    not (name in labels and labels[name] is None):
                out.append(f"{labels.get(name) or name} at {b['x']},{b['y']}: {shown_value(a.get(name), '')} → "
                           f"{shown_value(value, '')}")
    return out


def _cells(before: dict, after: dict, labels: dict, most: int = 8) -> list[str]:
    """The cells of a board whose vars changed, as x,y (at most ``most`` named, the rest counted)."""
    old_board, board = before.get("board") or {}, after.get("board") or {}
    columns = board.get("columns") or 1
    out = []
    for name, values in (board.get("vars") or {}).items():
        old = (old_board.get("vars") or {}).get(name) or []
        if name in labels and labels[name] is None:
            continue
        changed = [f"{i % columns},{i // columns}: {_cell(a)} → {_cell(b)}"
                   for i, (a, b) in enumerate(zip(old, values)) if a != b]
        if changed:
            more = f" and {len(changed) - most} more" if len(changed) > most else ""
            entries = changed[:most]
            entries[-1] += more
            out.append(Change(f"{labels.get(name) or name}: ", entries))
    return out


def _cell(v: Any) -> Any:
    return "—" if v is None or v == "none" else shown_value(v, "")


def _where(zone: str, owner: Optional[int], seat: Any, me: str = "you") -> str:
    return zone if owner is None else f"{zone} ({me if owner == seat else f'seat {owner}'})"


def _pieces(before: dict, after: dict, stops: dict) -> list[str]:
    out = []
    old, new = before.get("pieces") or {}, after.get("pieces") or {}
    done_before = {p for names in (before.get("podium") or {}).values() for p in names}
    for track, names in (after.get("podium") or {}).items():
        for place, p in enumerate(names, 1):
            if p not in done_before:
                out.append(f"{p} finishes, {_ordinal(place)} on {track}")
    spaces = after.get("piece_spaces") or {}
    for p, pos in new.items():
        if p in old and old[p] != pos:
            line = f"{p}: {old[p]} → {pos}" if pos or not old[p] else f"{p}: back to the start"
            if pos and spaces.get(p) not in (None, 0, pos):  # on a circuit: the progress, and where it stands
                line += f" (on space {spaces[p]})"
            if p in stops:
                line += f", stopped by the {stops[p][2]} at {stops[p][3]}"
            out.append(line)
    return out


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _zones(before: dict, after: dict, labels: dict, seat: Any, me: str = "you") -> list[str]:
    out = []
    for name, now in (after.get("zones") or {}).items():
        was = (before.get("zones") or {}).get(name)
        parts = list(enumerate(now)) if isinstance(now, list) else [(None, now)]
        olds = was if isinstance(was, list) else [was]
        for owner, view in parts:
            old = olds[owner or 0] if owner is None or owner < len(olds) else None
            if old is None or old == view:
                continue
            where = _where(name, owner, seat, me)
            if unseen_view(view):  # a zone this seat does not see
                delta = view["size"] - (old.get("size", 0) if isinstance(old, dict) else 0)
                words = [f"{'+' if delta > 0 else '−'}{abs(delta)} card{'s' if abs(delta) != 1 else ''} "
                         f"(now {view['size']})"] if delta else []
                known = (old.get("known") or {}) if unseen_view(old) else {}
                shown = {v: n - known.get(v, 0) for v, n in (view.get("known") or {}).items() if n > known.get(v, 0)}
                if shown:  # a 'reveal' showed this seat cards of the zone
                    named = _card_list(shown, labels)
                    words = [w + ";" for w in words] + [f"shown to {me}: {c}," for c in named[:1]] + \
                        [c + "," for c in named[1:]]
                    words[-1] = words[-1][:-1]
                else:
                    words = [w + ";" for w in words[:-1]] + words[-1:]
                if words:
                    out.append(Change(f"{where}: ", words, ""))
                continue
            gained = {v: n - old.get(v, 0) for v, n in view.items() if n > old.get(v, 0)}
            lost = {v: n - view.get(v, 0) for v, n in old.items() if n > view.get(v, 0)}
            words = []  # (each card an entry: +a, b ×2, −c)
            for sign, counts in (("+", gained), ("−", lost)):
                named = _card_list(counts, labels)
                words += [sign + named[0], *named[1:]] if named else []
            if words:
                out.append(Change(f"{where}: ", words))
    return out


def _cards(counts: dict, labels: dict) -> str:
    return ", ".join(_card_list(counts, labels))


def _card_list(counts: dict, labels: dict) -> list[str]:
    return [f"{labels.get(v) or v}" + (f" ×{n}" if n != 1 else "") for v, n in counts.items()]


def _vars(before: dict, after: dict, labels: dict, types: dict, value_text: Any) -> list[str]:
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
        if value_text is not None:  # (a cell, an edge: as the board names them)
            new_shown = [v if v is None or isinstance(v, bool) else value_text(name, v, after) for v in new_shown]
            old_shown = [v if v is None or isinstance(v, bool) else value_text(name, v, before) for v in old_shown]
        title, t = labels.get(name) or name, str(types.get(name, ""))
        if len(values) == 1:
            out.append(f"{title}: {shown_value(old_shown[0], t)} → {shown_value(new_shown[0], t)}")
        else:
            moved = [f"seat {i}: {shown_value(a, t)} → {shown_value(b, t)}"
                     for i, (a, b) in enumerate(zip(old_shown, new_shown)) if a != b]
            out.append(Change(f"{title}: ", moved))
    return out


def shown_value(v: Any, t: str) -> Any:
    """A var's value as a person reads it (``t``: its type): a flag as yes/no, a value this seat may
    not see as ?, a player as seat N, no player, value or cell as —; anything else as it is."""
    if v is True or v is False:
        return "yes" if v else "no"
    if v is None:
        return "?"
    if v == "none" or (v == -1 and (t in ("player", "cell", "none") or t.startswith("kind:"))):
        return "—"
    if t == "player" and isinstance(v, int):  # (as everywhere else a player is shown)
        return f"seat {v}"
    return v


def decision_visibility(game: Any) -> dict[str, bool]:
    """For each decision label, whether its moves land only in public zones (so others may see them).

    A placement lands on a grid, which everyone sees; an option choice is seen when every card
    its options move lands in a public zone and every var they set is public."""
    return {label: all(options.values()) if isinstance(options, dict) else options
            for label, options in move_visibility(game).items()}


def move_visibility(game: Any) -> dict[str, Any]:
    """``decision_visibility``, but for a choice among options, each option's own: whether the
    cards it moves land in public zones and the vars it sets are public (a label → {option: seen})."""
    zones = {z["name"]: z["visibility"] for z in game.ir.get("zones", [])}
    secret_vars = {name for name, v in game.sym.vars.items() if v.get("visibility", "public") != "public"}
    shown: dict[str, bool] = {}

    def zone_of(expr: Any) -> str | None:
        if isinstance(expr, dict):
            if expr.get("node") == "name":
                return expr.get("id")
            if expr.get("node") == "call":
                return expr.get("func")
        return None

    def dests(x: Any) -> list:
        """Where the cards go, and the secret vars set (as a name no zone has: not public)."""
        if isinstance(x, dict):
            here = [x["dest"]] if "dest" in x else []
            if x.get("node") == "move_to" and zone_of(x.get("to")) in zones:  # one card (move c to zone)
                here.append(x["to"])
            if x.get("node") == "set" and x.get("target") in secret_vars:
                here.append(None)  # (a value chance draws is not the move's: its own step tells it, or not)
            if x.get("node") == "reveal" and x.get("to") is not None:  # (shown to one player: not to the others)
                here.append(None)
            return here + [d for v in x.values() for d in dests(v)]
        if isinstance(x, list):
            return [d for v in x for d in dests(v)]
        return []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            label = x.get("label")
            if isinstance(label, str) and x.get("node") in ("choose", "place", "choose_one"):
                if x["node"] == "choose":
                    shown[label] = shown.get(label, True) and \
                        zones.get(zone_of(x.get("dest")) or "", "hidden") == "public"
                elif x["node"] == "place":
                    shown[label] = shown.get(label, True)
                else:
                    mine = shown.get(label)
                    mine = mine if isinstance(mine, dict) else {}
                    for o in x.get("options") or []:
                        went = dests(o)
                        public = all(zones.get(zone_of(d) or "", "hidden") == "public" for d in went)
                        # a card taken from a zone another player may not see is named in the move:
                        # shown only when it lands where everyone sees it
                        hidden_pick = any(zones.get(zone_of(b["domain"].get("lo")) or "") in ("private", "hidden")
                                          for b in o.get("bindings") or [] if isinstance(b.get("domain"), dict))
                        public = public and (bool(went) or not hidden_pick)
                        mine[o.get("name")] = mine.get(o.get("name"), True) and public
                    shown[label] = mine
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(game.ir)
    return shown


def move_shown(visibility: dict[str, Any], label: Optional[str], text: str) -> bool:
    """Is another seat's move ``text`` at the decision ``label`` shown to a player (``visibility``:
    ``move_visibility``'s): a choice among options by the option's own, the others by the decision's."""
    seen = visibility.get(label or "", False)
    if isinstance(seen, dict):  # (a choice among options: the option's own)
        seen = seen.get(text.split(" ", 1)[0], False)
    return bool(seen)


def labelled_move(game: Any, state: Any, text: str) -> str:
    """A move of the decision ``state`` is at, as the rules label it: an option by its label
    (``label decision.option``), a choice of cards or a placement by the decision's, and each card
    variety by its own (what ``play`` lists and ``replay -v`` prints)."""
    from meeple.interpreter.moves import OptionChoice
    a_game(game)
    a_state(state, game)
    if not isinstance(text, str):
        raise TypeError(f"a move's text is a str, not {type(text).__name__}")
    labels = game.labels
    decision = state.decision()
    options = isinstance(game.code[state.pc][1], OptionChoice)  # (its moves start with the option)
    words = text.split(" ")
    if not options and len(words) == 2 and words[1] == "nothing":  # (a choice of 0..n cards, none taken)
        return f"{labels.get(words[0]) or words[0]}: no card"
    if options and labels.get(f"{decision}.{words[0]}"):
        words[0] = labels[f"{decision}.{words[0]}"]
    elif not options and labels.get(words[0]):
        words[0] = labels[words[0]]
    return labelled_cards(game, " ".join(words))


def labelled_cards(game: Any, text: str) -> str:
    """``text`` with each card variety named by its label."""
    a_game(game)
    if not isinstance(text, str):
        raise TypeError(f"a move's text is a str, not {type(text).__name__}")
    labels, varieties = game.labels, game.layout.variety_names
    return " ".join(labels[w] if w in varieties and labels.get(w) else w for w in text.split(" "))


def per_player_chance(game: Any) -> set[str]:
    """The per-player vars a chance event of ``game`` sets (``roll ... into face(p)``, ``set
    favourite(p) = random quarter``): the vars whose chance steps are some seat's."""
    from meeple.interpreter.moves import RandomPick
    a_game(game)
    return {step[1].target for step in game.code if isinstance(step[1], RandomPick) and step[1].seat is not None}


def chance_owner(game: Any, state: Any) -> Optional[int]:
    """The seat whose value the chance event ``state`` waits at sets, when it sets a per-player var
    (a die of ``roll 2 dice of 6 into face(p)``: ``p``); else, or when that seat is not one
    (a rules error there is the game's to say when it plays on), None."""
    a_game(game)
    a_state(state, game)
    seat = _whose(_waiting_pick(game, state), "seat", state)
    return seat if type(seat) is int and 0 <= seat < state.players else None


def owned_chance(game: Any, state: Any, text: str, owner: int, hidden: bool = False) -> str:
    """The chance step ``text`` that ``state`` waits at, which sets ``owner``'s value of a per-player
    var (``chance_owner``), with the seat named: ``die 2 into face(seat 1)``, ``favourite(seat 1) =
    ne``; ``hidden``: without the value (``die ? into face(seat 1)``), for a seat that may not see it."""
    a_game(game)
    spec = _waiting_pick(game, state)
    taken = None if spec is None else _payload_of(state, text)
    return text if taken is None else spec.text_for(taken, owner, hidden)


def cell_chance(game: Any, state: Any, text: str) -> str:
    """The chance step ``text`` that ``state`` waits at, with the cell named when it sets one cell's
    value of a var per cell of a board (``die 4 into face(2,0)``, ``face(2,0) = 4``: the cells'
    dice all read ``die 4 into face``); else ``text``, as for a cell that is none (a rules error
    there is the game's to say when it plays on)."""
    a_game(game)
    spec = _waiting_pick(game, state)
    cell = _whose(spec, "cell", state)
    if type(cell) is not int or not 0 <= cell < game.layout.cells:
        return text
    taken = _payload_of(state, text)
    return text if taken is None else spec.text_at(taken, game.layout.cell_name(cell))


def _waiting_pick(game: Any, state: Any) -> Any:
    """The ``RandomPick`` (a random value, a die) that ``state`` waits at, or None."""
    from meeple.interpreter.moves import RandomPick
    spec = game.code[state.pc][1] if state.is_chance_node() else None
    return spec if isinstance(spec, RandomPick) else None


def _whose(spec: Any, which: str, state: Any) -> Any:
    """What the ``RandomPick`` ``spec`` sets a value of: its ``seat`` or its ``cell`` as ``state``
    has it; None when there is no such pick, it sets no such value, or working it out is a rules
    error (the game's to say when it plays on)."""
    from meeple.dsl.diagnostics import RuleRuntimeError
    find = getattr(spec, which, None) if spec is not None else None
    if find is None:
        return None
    try:
        return find(state)
    except RuleRuntimeError:
        return None


def _payload_of(state: Any, text: str) -> Any:
    """The payload of the chance outcome of ``state`` whose text is ``text`` (None: none is)."""
    return next((a.payload for a, _ in state.chance_outcomes() if a.text == text), None)


def owner_sees(game: Any, var: str, owner: int, seat: int) -> bool:
    """May ``seat`` read ``owner``'s value of the per-player ``var``: a public var, or a private one
    of its own (a hidden var no seat reads)?"""
    visibility = (game.sym.vars.get(var) or {}).get("visibility", "public")
    return visibility == "public" or (visibility == "private" and seat == owner)


def chance_hidden_from(game: Any, state: Any, owner: int, seat: int) -> bool:
    """Is the chance step ``state`` waits at, which sets ``owner``'s value of a per-player var
    (``chance_owner``), hidden from ``seat``: can it not read that value (``owner_sees``)? Its own
    roll a seat sees die by die, even where only their sum is kept."""
    return not owner_sees(game, game.code[state.pc][1].target, owner, seat)
