"""Hand-written baseline, tuned: The Hare and the Tortoise played by random bots.

The reference point for the interpreter benchmark (``bench/run.py``): plain Python, ints and
lists, no DSL, written for speed as a careful Python programmer would write a simulator. The
rules are those of ``bench/hare_baseline_old.py`` (the first baseline, kept to measure this one
against in the same run):

* 81 race cards (18 hare, 17 tortoise, 13 wolf, 3 howl wolf, 15 fox, 15 sheep) and 5 bet
  cards, one per animal.
* A track of 11 spaces (1..11, start line 0) with 2 streams at random positions; position 12
  or more means the animal crossed the finish line.
* Each turn a player plays 1-4 cards of one animal (the table holds at most 8 cards and at most
  4 of one animal) and draws back up to 6. When the table holds 8 cards, or 4 of one animal, a
  race phase moves the animals.
* The game ends as soon as 3 animals are on the podium; bets score 5/3/2.

Random bots choose uniformly among *distinct* options: distinct card types for the opening bet,
distinct multisets of cards for a play.

What makes it fast, each the same game as the first baseline's:

* The deck is never shuffled: drawing the top card of a shuffled deck is drawing a card
  uniformly at random among those left, so a draw takes the card at a random place
  (``list.pop(i)``), and a reshuffle is only turning the discard pile into the deck.
* Random numbers are ``int(random() * n)``, not ``randrange``/``choice`` (a third of the time).
* The whole game loop is one method (``HareGame.run``) with what it uses in locals; a turn
  (``HareGame.turn``) is that loop run once, so the tests of a turn test the code that plays.
* A random play is chosen without building the list of plays: the plays are counted with
  precomputed tables (``MOST``, ``WOLF_PLAYS``), one number in that range is drawn, and the
  play it stands for is worked out.
* The opening is drawn from precomputed tables too: the streams' places are one of the 55 pairs
  of spaces (``STREAM_PAIRS``), the bet cards one of the 120 orders of the five
  (``BET_ORDERS``), each picked with one random number.
* A race moves the animals by a table of steps (``STEPS``); only the hare's sleep and the
  sheep's streams are worked out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations, permutations
from typing import Any

ANIMALS = ("hare", "tortoise", "wolf", "fox", "sheep")  # also movement order
HARE, TORTOISE, WOLF, FOX, SHEEP = range(5)

# Race-card types. A howl wolf is a wolf, but a distinct card type.
CARD_TYPES = ("hare", "tortoise", "wolf", "howl wolf", "fox", "sheep")
C_HARE, C_TORTOISE, C_WOLF, C_HOWL, C_FOX, C_SHEEP = range(6)
ANIMAL_OF = (HARE, TORTOISE, WOLF, WOLF, FOX, SHEEP)
SINGLE_TYPES = (C_HARE, C_TORTOISE, C_FOX, C_SHEEP)  # the animals with one card type each
DECK_COUNTS = (18, 17, 13, 3, 15, 15)
RACE_CARDS = sum(DECK_COUNTS)  # 81

TRACK_SPACES = 11
STREAMS = 2
FINISH = 12
OPENING_HAND = 7
HAND_SIZE = 6
TABLE_MAX = 8
ANIMAL_MAX = 4
POINTS = (5, 3, 2)  # for 1st, 2nd, 3rd place
STEP_CAP = 5000  # player decisions; reaching it makes the game a draw

# A play is a tuple of (card type, count) pairs, all of one animal (as in the first baseline).
Play = tuple[tuple[int, int], ...]

# -- precomputed tables ----------------------------------------------------------------------

FULL_DECK = tuple(ctype for ctype, n in enumerate(DECK_COUNTS) for _ in range(n))
# Shuffling the 11 tiles puts the 2 streams on any pair of spaces with the same chance.
STREAM_PAIRS = tuple(combinations(range(1, TRACK_SPACES + 1), STREAMS))
# Shuffling the 5 bet cards gives any of their 120 orders with the same chance.
BET_ORDERS = tuple(permutations(range(len(ANIMALS))))
# MOST[room][on_table][in_hand]: how many cards of one type may be played, that is
# min(room, ANIMAL_MAX - on_table, in_hand). With in_hand = ANIMAL_MAX it is the wolves' limit.
MOST = tuple(tuple(tuple(min(room, ANIMAL_MAX - on, held) for held in range(HAND_SIZE + 1))
                   for on in range(ANIMAL_MAX)) for room in range(TABLE_MAX + 1))
# WOLF_PLAYS[limit][plain][howls]: the wolf plays, as (plain, howls) to play, with at most
# ``limit`` wolves allowed and ``plain`` and ``howls`` in hand (in legal_plays' order).
WOLF_PLAYS = tuple(tuple(tuple(tuple((p, h) for h in range(min(limit, howls) + 1)
                                     for p in range(min(limit - h, plain) + 1) if p + h)
                               for howls in range(DECK_COUNTS[C_HOWL] + 1))
                         for plain in range(HAND_SIZE + 1)) for limit in range(ANIMAL_MAX + 1))
# STEPS[animal][x]: spaces an animal moves with x cards on the table, before the hare's sleep
# (with 4 cards while it leads, off the start line) and the sheep's stop at a stream.
STEPS = (
    (0, 2, 2, 2, 2),  # hare: 2 with any card
    (1, 1, 1, 1, 2),  # tortoise: 1 even with no card, 2 with four
    (0, 1, 1, 2, 3),  # wolf: 1 with 1 or 2 cards, one less than its cards with 3 or 4
    (0, 1, 2, 3, 4),  # fox: as many as its cards
    (0, 2, 3, 4, 5),  # sheep: one more than its cards, none without
)
# RUNS[ctype][n]: n cards of one type, to put on the discard pile without making a tuple.
RUNS = tuple(tuple((ctype,) * n for n in range(ANIMAL_MAX + 1)) for ctype in range(len(CARD_TYPES)))
EMPTY_TABLE = (0,) * len(CARD_TYPES)
EVERY_ANIMAL = tuple(range(len(ANIMALS)))
ONLY_THE_WOLF = (WOLF,)


class HareGame:
    """One game in progress. Hands and the table are counts per card type; the deck and the discard
    pile are lists of card types (in no particular order)."""

    def __init__(self, players: int, rng: random.Random) -> None:
        if not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, got {players}")
        rand = rng.random
        self.players = players
        self.rng = rng
        self.rand = rand
        self.turns = 0
        self.decisions = players  # the opening bets below
        self.bet_race_cards = players
        self.draw = False
        self.over = False

        self.streams = set(STREAM_PAIRS[int(rand() * len(STREAM_PAIRS))])
        self.position = [0] * len(ANIMALS)
        self.podium: list[int] = []
        self.current = int(rand() * players)

        # Bet cards: 1 each (2 each with 2 players) from the shuffled five, the rest set aside.
        # The deals and the bet choices below go seat 0, 1, ... and not from the start player on:
        # every seat's cards and choice are as random either way.
        per_player = 2 if players == 2 else 1
        bet_cards = BET_ORDERS[int(rand() * len(BET_ORDERS))]
        self.bets = [list(bet_cards[seat * per_player:(seat + 1) * per_player]) for seat in range(players)]

        deck = self.deck = list(FULL_DECK)
        self.discard: list[int] = []
        self.table = [0] * len(CARD_TYPES)
        self.hands: list[list[int]] = []
        for bets in self.bets:
            hand = [0] * len(CARD_TYPES)
            for _ in range(OPENING_HAND):
                hand[deck.pop(int(rand() * len(deck)))] += 1
            # Each player bets one race card; a random bot picks a distinct type.
            types = [t for t in range(len(CARD_TYPES)) if hand[t]]
            ctype = types[int(rand() * len(types))]
            hand[ctype] -= 1
            bets.append(ANIMAL_OF[ctype])
            self.hands.append(hand)

    # -- queries ---------------------------------------------------------

    def on_table(self, animal: int) -> int:
        """Number of cards of ``animal`` on the table (howl wolves count)."""
        if animal == WOLF:
            return self.table[C_WOLF] + self.table[C_HOWL]
        return self.table[(C_HARE, C_TORTOISE, C_WOLF, C_FOX, C_SHEEP)[animal]]

    def legal_plays(self) -> list[Play]:
        """All distinct multisets of cards the current player may play (in the first baseline's order)."""
        hand, table = self.hands[self.current], self.table
        most = MOST[TABLE_MAX - sum(table)]
        plays: list[Play] = [((t, n),) for t in SINGLE_TYPES for n in range(1, most[table[t]][hand[t]] + 1)]
        wolf_limit = most[table[C_WOLF] + table[C_HOWL]][ANIMAL_MAX]
        plays.extend(((C_WOLF, plain), (C_HOWL, howls))
                     for plain, howls in WOLF_PLAYS[wolf_limit][hand[C_WOLF]][hand[C_HOWL]])
        return plays

    def cards_accounted(self) -> int:
        """Race cards in deck, discard, hands, table and bets (always 81)."""
        return (len(self.deck) + len(self.discard) + sum(sum(hand) for hand in self.hands)
                + sum(self.table) + self.bet_race_cards)

    # -- turns -----------------------------------------------------------

    def turn(self) -> bool:
        """One turn of a random bot (see ``run``). False if there is no play (it cannot happen
        with these card counts)."""
        return self.run(1)

    def run(self, turns: int, on_turn: Callable[[HareGame], None] | None = None) -> bool:
        """Play up to ``turns`` turns of random bots, stopping when the game is over; call
        ``on_turn`` with the game after each. False if a player has no play (it cannot happen with
        these card counts).

        Each turn: a play chosen uniformly among the distinct legal ones (they are counted, and the
        one a random number stands for is worked out, without making the list), the cards drawn
        back up to 6, maybe a race, the next seat. The loop keeps the game's lists and counters in
        locals (the lists are the game's own, changed in place; the counters are written back)."""
        rand, race, players, current = self.rand, self.race, self.players, self.current
        hands, table, deck = self.hands, self.table, self.deck
        turns_before, decisions_before = self.turns, self.decisions
        done, over = 0, False
        while done < turns:
            hand = hands[current]
            t_hare, t_tortoise, t_wolf, t_howl, t_fox, t_sheep = table
            room = TABLE_MAX - t_hare - t_tortoise - t_wolf - t_howl - t_fox - t_sheep
            most = MOST[room]
            # a, b, c, d: how many plays of hare, tortoise, fox and sheep cards there are, summed
            # up as they go (the plays in legal_plays' order: 1, 2, ... cards of each, then wolves).
            a = most[t_hare][hand[C_HARE]]
            b = a + most[t_tortoise][hand[C_TORTOISE]]
            c = b + most[t_fox][hand[C_FOX]]
            d = c + most[t_sheep][hand[C_SHEEP]]
            wolf_plays = WOLF_PLAYS[most[t_wolf + t_howl][ANIMAL_MAX]][hand[C_WOLF]][hand[C_HOWL]]
            total = d + len(wolf_plays)
            if not total:
                break
            k = int(rand() * total)
            if k < d:  # k + 1 - (the plays before) cards of one type
                if k < a:
                    ctype, n = C_HARE, k + 1
                elif k < b:
                    ctype, n = C_TORTOISE, k + 1 - a
                elif k < c:
                    ctype, n = C_FOX, k + 1 - b
                else:
                    ctype, n = C_SHEEP, k + 1 - c
                hand[ctype] -= n
                on_table = table[ctype] + n
                table[ctype] = on_table
            else:
                plain, howls = wolf_plays[k - d]
                hand[C_WOLF] -= plain
                hand[C_HOWL] -= howls
                table[C_WOLF] = t_wolf + plain
                table[C_HOWL] = t_howl + howls
                n = plain + howls
                on_table = t_wolf + t_howl + n
            # Draw back up to 6 (the hand held 6): as many cards as were played, recycling the discard.
            for _ in range(n):
                if not deck:
                    if not self.discard:  # cannot happen with 81 cards
                        break
                    deck = self.deck = self.discard
                    self.discard = []
                hand[deck.pop(int(rand() * len(deck)))] += 1
            # Only the played animal's count changed, and no animal had 4 cards before (that
            # would have triggered a race), so check just that one; the table is full if the
            # play filled the room there was.
            if on_table == ANIMAL_MAX or n == room:
                race()
                over = self.over
            current += 1
            if current == players:
                current = 0
            done += 1
            if on_turn is not None:
                self.current, self.turns, self.decisions = current, turns_before + done, decisions_before + done
                on_turn(self)
            if over:
                break
        self.current, self.turns, self.decisions = current, turns_before + done, decisions_before + done
        return over or done == turns

    def race(self) -> None:
        """Move the animals for the cards on the table, then clear it."""
        table = self.table
        hare, tortoise, wolf, howl, fox, sheep = table
        counts = (hare, tortoise, wolf + howl, fox, sheep)
        discard = self.discard
        for ctype, n in enumerate(table):
            if n:
                discard += RUNS[ctype][n]
        table[:] = EMPTY_TABLE

        podium, position = self.podium, self.position
        for animal in ONLY_THE_WOLF if howl else EVERY_ANIMAL:
            if animal in podium:
                continue
            x = counts[animal]
            pos = position[animal]
            to = pos + STEPS[animal][x]
            if animal == HARE:
                if x == 4 and pos > 0 and self.leads(pos):
                    continue  # it sleeps
            elif animal == SHEEP and x:
                for space in self.streams:  # it stops in the first stream it enters
                    if pos < space < to:
                        to = space
            position[animal] = to
            if to >= FINISH:
                podium.append(animal)
                if len(podium) == len(POINTS):
                    self.over = True
                    return

    def leads(self, pos: int) -> bool:
        """Whether an animal at ``pos`` leads (perhaps shared) the animals still racing."""
        podium = self.podium
        return all(p <= pos for a, p in enumerate(self.position) if a not in podium)

    def destination(self, animal: int, x: int) -> int:
        """Where ``animal`` ends up when it moves with ``x`` cards played (as ``race`` works it out)."""
        pos = self.position[animal]
        to = pos + STEPS[animal][x]
        if animal == HARE and x == 4 and pos > 0 and self.leads(pos):
            return pos  # it sleeps
        if animal == SHEEP and x:
            for space in self.streams:  # it stops in the first stream it enters
                if pos < space < to:
                    to = space
        return to

    # -- end -------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """Scores, winners and final race state as a plain dict."""
        podium = self.podium
        value = [0] * len(ANIMALS)  # each animal's points for a bet on it
        for animal, points in zip(podium, POINTS):
            value[animal] = points
        scores = [sum([value[a] for a in bets]) for bets in self.bets]
        winners: list[int] = []
        if not self.draw:
            top = max(scores)
            winners = [seat for seat, score in enumerate(scores) if score == top]
            if len(winners) > 1:
                place = {animal: i for i, animal in enumerate(podium)}
                unplaced = len(ANIMALS)
                best = {s: min(place.get(a, unplaced) for a in self.bets[s]) for s in winners}
                best_place = min(best.values())
                winners = [s for s in winners if best[s] == best_place]
        return {
            "turns": self.turns,
            "decisions": self.decisions,
            "draw": self.draw,
            "winners": winners,
            "scores": scores,
            "podium": [ANIMALS[a] for a in podium],
            "bets": [[ANIMALS[a] for a in bets] for bets in self.bets],
            "positions": dict(zip(ANIMALS, self.position)),
            "streams": sorted(self.streams),
        }


def play_random_game(players: int, rng: random.Random,
                     on_turn: Callable[[HareGame], None] | None = None) -> dict[str, Any]:
    """Play one game with uniformly random players and return its result.

    ``on_turn`` is a debug hook called with the game after setup and after every turn (the
    tests use it to check card conservation). A game that reaches STEP_CAP decisions, or where a
    player has no play (it cannot happen with these card counts), is a draw."""
    game = HareGame(players, rng)
    if on_turn is not None:
        on_turn(game)
    game.run(STEP_CAP - game.decisions, on_turn)
    game.draw = not game.over
    return game.result()


if __name__ == "__main__":
    print(play_random_game(4, random.Random(0)))
