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
* A random play is chosen without building the list of plays: the plays are counted, one
  number in that range is drawn, and the play it stands for is worked out (``HareGame.turn``,
  where a turn is one method with what it uses in locals).
* The hot loops keep what they use in locals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
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
SINGLES: list[list[Play]] = [[((ctype, n),) for n in range(ANIMAL_MAX + 1)] for ctype in range(len(CARD_TYPES))]


def _most(room: int, on_table: int, in_hand: int) -> int:
    """How many cards of one type may be played: min(room, ANIMAL_MAX - on_table, in_hand)."""
    n = ANIMAL_MAX - on_table
    if in_hand < n:
        n = in_hand
    return room if room < n else n


class HareGame:
    """One game in progress. Hands and the table are counts per card type; the deck and the discard
    pile are lists of card types (in no particular order)."""

    def __init__(self, players: int, rng: random.Random) -> None:
        if not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, got {players}")
        self.players = players
        self.rng = rng
        self.rand = rng.random
        self.turns = 0
        self.decisions = 0
        self.draw = False
        self.over = False

        self.streams = set(rng.sample(range(1, TRACK_SPACES + 1), STREAMS))
        self.position = [0] * len(ANIMALS)
        self.podium: list[int] = []

        self.current = rng.randrange(players)
        order = [(self.current + i) % players for i in range(players)]

        # Bet cards: 1 each (2 each with 2 players), the rest set aside.
        per_player = 2 if players == 2 else 1
        dealt = rng.sample(range(len(ANIMALS)), per_player * players)
        self.bets: list[list[int]] = [[] for _ in range(players)]
        for i, seat in enumerate(order):
            self.bets[seat].extend(dealt[i * per_player:(i + 1) * per_player])

        self.deck = [ctype for ctype, n in enumerate(DECK_COUNTS) for _ in range(n)]
        self.discard: list[int] = []
        self.table = [0] * len(CARD_TYPES)
        self.hands = [[0] * len(CARD_TYPES) for _ in range(players)]
        for seat in order:
            hand = self.hands[seat]
            for _ in range(OPENING_HAND):
                hand[self.take()] += 1

        # Each player bets one race card; a random bot picks a distinct type.
        self.bet_race_cards = 0
        for seat in order:
            hand = self.hands[seat]
            types = [t for t, n in enumerate(hand) if n]
            ctype = types[int(self.rand() * len(types))]
            hand[ctype] -= 1
            self.bets[seat].append(ANIMAL_OF[ctype])
            self.bet_race_cards += 1
            self.decisions += 1

    # -- cards -----------------------------------------------------------

    def take(self) -> int:
        """Draw one card from the deck (which is not empty): its card type."""
        deck = self.deck
        return deck.pop(int(self.rand() * len(deck)))

    # -- queries ---------------------------------------------------------

    def on_table(self, animal: int) -> int:
        """Number of cards of ``animal`` on the table (howl wolves count)."""
        if animal == WOLF:
            return self.table[C_WOLF] + self.table[C_HOWL]
        return self.table[(C_HARE, C_TORTOISE, C_WOLF, C_FOX, C_SHEEP)[animal]]

    def limits(self) -> tuple[int, list[int]]:
        """(room for wolves, how many of each single-type card may be played)."""
        hand, table = self.hands[self.current], self.table
        room = TABLE_MAX - sum(table)
        singles = [min(room, ANIMAL_MAX - table[t], hand[t]) for t in SINGLE_TYPES]
        return min(room, ANIMAL_MAX - table[C_WOLF] - table[C_HOWL]), singles

    def legal_plays(self) -> list[Play]:
        """All distinct multisets of cards the current player may play (in the first baseline's order)."""
        hand = self.hands[self.current]
        wolf_limit, singles = self.limits()
        plays: list[Play] = [((t, n),) for t, limit in zip(SINGLE_TYPES, singles) for n in range(1, limit + 1)]
        for howls in range(min(wolf_limit, hand[C_HOWL]) + 1):
            for plain in range(min(wolf_limit - howls, hand[C_WOLF]) + 1):
                if plain + howls:
                    plays.append(((C_WOLF, plain), (C_HOWL, howls)))
        return plays

    def cards_accounted(self) -> int:
        """Race cards in deck, discard, hands, table and bets (always 81)."""
        return (len(self.deck) + len(self.discard) + sum(sum(hand) for hand in self.hands)
                + sum(self.table) + self.bet_race_cards)

    # -- turn ------------------------------------------------------------

    def turn(self) -> bool:
        """One turn of a random bot: a play chosen uniformly among the distinct legal ones (they
        are counted, and the one a random number stands for is worked out, without making the
        list), the cards drawn back up to 6, maybe a race, the next seat. False if there is no
        play (it cannot happen with these card counts)."""
        hand, table, rand = self.hands[self.current], self.table, self.rand
        room = TABLE_MAX - table[0] - table[1] - table[2] - table[3] - table[4] - table[5]
        # How many of each single-type card may be played (hare, tortoise, fox, sheep), and wolves.
        a, b = _most(room, table[C_HARE], hand[C_HARE]), _most(room, table[C_TORTOISE], hand[C_TORTOISE])
        c, d = _most(room, table[C_FOX], hand[C_FOX]), _most(room, table[C_SHEEP], hand[C_SHEEP])
        wolf_limit = ANIMAL_MAX - table[C_WOLF] - table[C_HOWL]
        if room < wolf_limit:
            wolf_limit = room
        plain_cards = hand[C_WOLF]
        most_howls, wolf_plays = -1, 0
        if wolf_limit > 0:
            most_howls = wolf_limit if wolf_limit < hand[C_HOWL] else hand[C_HOWL]
            wolf_plays = -1  # (0 plain, 0 howls) is not a play
            for h in range(most_howls + 1):
                n = wolf_limit - h
                wolf_plays += (n if n < plain_cards else plain_cards) + 1
        total = a + b + c + d + wolf_plays
        if total == 0:
            return False
        k = int(rand() * total)
        if k < a + b + c + d:  # one type of card, k + 1 of them (the plays in legal_plays' order)
            for ctype, limit in ((C_HARE, a), (C_TORTOISE, b), (C_FOX, c), (C_SHEEP, d)):  # noqa: B007
                if k < limit:
                    break
                k -= limit
            hand[ctype] -= k + 1
            table[ctype] += k + 1
            played = table[ctype]
        else:  # wolves: howls outer, plain inner, from (0, 0), which is not a play
            k -= a + b + c + d - 1
            for howls in range(most_howls + 1):
                options = wolf_limit - howls
                options = (options if options < plain_cards else plain_cards) + 1
                if k < options:
                    break
                k -= options
            hand[C_WOLF] -= k
            hand[C_HOWL] -= howls
            table[C_WOLF] += k
            table[C_HOWL] += howls
            played = table[C_WOLF] + table[C_HOWL]
        need, deck = HAND_SIZE - sum(hand), self.deck  # draw back up, recycling the discard
        while need:
            if not deck:
                if not self.discard:
                    break
                deck = self.deck = self.discard
                self.discard = []
            hand[deck.pop(int(rand() * len(deck)))] += 1
            need -= 1
        # Only the played animal's count changed, and no animal had 4 cards before (that
        # would have triggered a race), so check just that one.
        if played == ANIMAL_MAX or sum(table) == TABLE_MAX:
            self.race()
        self.current = (self.current + 1) % self.players
        self.turns += 1
        self.decisions += 1
        return True

    def race(self) -> None:
        """Move the animals for the cards on the table, then clear it."""
        table = self.table
        counts = (table[C_HARE], table[C_TORTOISE], table[C_WOLF] + table[C_HOWL], table[C_FOX], table[C_SHEEP])
        movers = (WOLF,) if table[C_HOWL] else range(len(ANIMALS))
        discard = self.discard
        for ctype, n in enumerate(table):
            if n:
                discard.extend((ctype,) * n)
        self.table = [0] * len(CARD_TYPES)

        podium, position = self.podium, self.position
        for animal in movers:
            if animal in podium:
                continue
            position[animal] = self.destination(animal, counts[animal])
            if position[animal] >= FINISH:
                podium.append(animal)
                if len(podium) == len(POINTS):
                    self.over = True
                    return

    def destination(self, animal: int, x: int) -> int:
        """Where ``animal`` ends up when it moves with ``x`` cards played."""
        pos = self.position[animal]
        if animal == FOX:
            return pos + x
        if animal == TORTOISE:
            return pos + (2 if x == 4 else 1)
        if animal == WOLF:
            return pos + (x - 1 if x >= 3 else min(x, 1))
        if x == 0:
            return pos
        if animal == HARE:
            if x == 4 and pos > 0:
                podium = self.podium
                if all(p <= pos for a, p in enumerate(self.position) if a not in podium):
                    return pos  # it leads: it sleeps
            return pos + 2
        # Sheep: x + 1 spaces, but it stops in the first stream it enters.
        streams = self.streams
        for space in range(pos + 1, pos + x + 2):
            if space in streams:
                return space
        return pos + x + 1

    # -- end -------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """Scores, winners and final race state as a plain dict."""
        place = {animal: i for i, animal in enumerate(self.podium)}
        scores = [sum(POINTS[place[a]] for a in bets if a in place) for bets in self.bets]
        winners: list[int] = []
        if not self.draw:
            top = max(scores)
            winners = [seat for seat, score in enumerate(scores) if score == top]
            if len(winners) > 1:
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
            "podium": [ANIMALS[a] for a in self.podium],
            "bets": [[ANIMALS[a] for a in bets] for bets in self.bets],
            "positions": {ANIMALS[a]: p for a, p in enumerate(self.position)},
            "streams": sorted(self.streams),
        }


def play_random_game(players: int, rng: random.Random,
                     on_turn: Callable[[HareGame], None] | None = None) -> dict[str, Any]:
    """Play one game with uniformly random players and return its result.

    ``on_turn`` is a debug hook called with the game after setup and after every turn (the
    tests use it to check card conservation)."""
    game = HareGame(players, rng)
    if on_turn is not None:
        on_turn(game)
    while not game.over:
        if game.decisions >= STEP_CAP:
            game.draw = True
            break
        if not game.turn():  # no play: cannot happen with these card counts; a draw if it does
            game.draw = True
            break
        if on_turn is not None:
            on_turn(game)
    return game.result()


if __name__ == "__main__":
    print(play_random_game(4, random.Random(0)))
