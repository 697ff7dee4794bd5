"""Hand-written baseline: The Hare and the Tortoise played by random bots.

This is the reference point for the interpreter benchmark (``bench/run.py``):
plain Python, plain lists and ints, no DSL. It follows the benchmark rules:

* 81 race cards (18 hare, 17 tortoise, 13 wolf, 3 howl wolf, 15 fox,
  15 sheep) and 5 bet cards, one per animal.
* A track of 11 spaces (1..11, start line 0) with 2 streams at random
  positions; position 12 or more means the animal crossed the finish line.
* Each turn a player plays 1-4 cards of one animal (the table holds at most
  8 cards and at most 4 of one animal) and draws back up to 6.  When the
  table holds 8 cards, or 4 of one animal, a race phase moves the animals.
* The game ends as soon as 3 animals are on the podium; bets score 5/3/2.

Random bots choose uniformly among *distinct* options: distinct card types
for the opening bet, distinct multisets of cards for a play.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

ANIMALS = ("hare", "tortoise", "wolf", "fox", "sheep")  # also movement order
HARE, TORTOISE, WOLF, FOX, SHEEP = range(5)

# Race-card types.  A howl wolf is a wolf, but a distinct card type.
CARD_TYPES = ("hare", "tortoise", "wolf", "howl wolf", "fox", "sheep")
C_HARE, C_TORTOISE, C_WOLF, C_HOWL, C_FOX, C_SHEEP = range(6)
ANIMAL_OF = (HARE, TORTOISE, WOLF, WOLF, FOX, SHEEP)
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

# A play is a tuple of (card type, count) pairs, all of one animal.
Play = tuple[tuple[int, int], ...]
# SIMPLE_PLAYS[ctype][n] is the play of n cards of a non-wolf card type.
SIMPLE_PLAYS: list[list[Play]] = [
    [((ctype, n),) for n in range(ANIMAL_MAX + 1)] for ctype in range(len(CARD_TYPES))
]


class HareGame:
    """One game in progress. Hands and the table are counts per card type."""

    def __init__(self, players: int, rng: random.Random) -> None:
        if not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, got {players}")
        self.players = players
        self.rng = rng
        self.turns = 0
        self.decisions = 0
        self.draw = False
        self.over = False

        tiles = [False] * (TRACK_SPACES - STREAMS) + [True] * STREAMS
        rng.shuffle(tiles)
        self.streams = {space for space, is_stream in enumerate(tiles, 1) if is_stream}
        self.position = [0] * len(ANIMALS)
        self.podium: list[int] = []

        self.current = rng.randrange(players)
        order = [(self.current + i) % players for i in range(players)]

        # Bet cards: 1 each (2 each with 2 players), the rest set aside.
        bet_cards = list(range(len(ANIMALS)))
        rng.shuffle(bet_cards)
        per_player = 2 if players == 2 else 1
        self.bets: list[list[int]] = [[] for _ in range(players)]
        for seat in order:
            for _ in range(per_player):
                self.bets[seat].append(bet_cards.pop())

        self.deck = [ctype for ctype, n in enumerate(DECK_COUNTS) for _ in range(n)]
        rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.table = [0] * len(CARD_TYPES)
        self.hands = [[0] * len(CARD_TYPES) for _ in range(players)]
        for seat in order:
            for _ in range(OPENING_HAND):
                self.hands[seat][self.deck.pop()] += 1

        # Each player bets one race card; a random bot picks a distinct type.
        self.bet_race_cards = 0
        for seat in order:
            hand = self.hands[seat]
            ctype = rng.choice([t for t, n in enumerate(hand) if n])
            hand[ctype] -= 1
            self.bets[seat].append(ANIMAL_OF[ctype])
            self.bet_race_cards += 1
            self.decisions += 1

    # -- queries ---------------------------------------------------------

    def on_table(self, animal: int) -> int:
        """Number of cards of ``animal`` on the table (howl wolves count)."""
        if animal == WOLF:
            return self.table[C_WOLF] + self.table[C_HOWL]
        return self.table[(C_HARE, C_TORTOISE, C_WOLF, C_FOX, C_SHEEP)[animal]]

    def legal_plays(self) -> list[Play]:
        """All distinct multisets of cards the current player may play."""
        hand = self.hands[self.current]
        room = TABLE_MAX - sum(self.table)
        plays: list[Play] = []
        for ctype in (C_HARE, C_TORTOISE, C_FOX, C_SHEEP):
            limit = min(room, ANIMAL_MAX - self.table[ctype], hand[ctype])
            plays.extend(SIMPLE_PLAYS[ctype][1 : limit + 1])
        limit = min(room, ANIMAL_MAX - self.on_table(WOLF))
        for howls in range(min(limit, hand[C_HOWL]) + 1):
            for plain in range(min(limit - howls, hand[C_WOLF]) + 1):
                if plain + howls:
                    plays.append(((C_WOLF, plain), (C_HOWL, howls)))
        return plays

    def cards_accounted(self) -> int:
        """Race cards in deck, discard, hands, table and bets (always 81)."""
        in_hands = sum(sum(hand) for hand in self.hands)
        return (
            len(self.deck)
            + len(self.discard)
            + in_hands
            + sum(self.table)
            + self.bet_race_cards
        )

    # -- turn ------------------------------------------------------------

    def play_turn(self, play: Play) -> None:
        """Play cards, draw back up to 6, maybe race, pass to the next seat."""
        hand = self.hands[self.current]
        for ctype, n in play:
            hand[ctype] -= n
            self.table[ctype] += n
        self.draw_up(hand)
        # Only the played animal's count changed, and no animal had 4 cards
        # before (that would have triggered a race), so check just that one.
        played = ANIMAL_OF[play[0][0]]
        if sum(self.table) == TABLE_MAX or self.on_table(played) == ANIMAL_MAX:
            self.race()
        self.current = (self.current + 1) % self.players
        self.turns += 1
        self.decisions += 1

    def draw_up(self, hand: list[int]) -> None:
        """Draw one card at a time up to HAND_SIZE, recycling the discard."""
        while sum(hand) < HAND_SIZE:
            if not self.deck:
                if not self.discard:
                    return
                self.deck, self.discard = self.discard, []
                self.rng.shuffle(self.deck)
            hand[self.deck.pop()] += 1

    def race(self) -> None:
        """Move the animals for the cards on the table, then clear it."""
        counts = [self.on_table(animal) for animal in range(len(ANIMALS))]
        movers = [WOLF] if self.table[C_HOWL] else range(len(ANIMALS))
        for ctype, n in enumerate(self.table):
            self.discard.extend([ctype] * n)
        self.table = [0] * len(CARD_TYPES)

        for animal in movers:
            if animal in self.podium:
                continue
            self.position[animal] = self.destination(animal, counts[animal])
            if self.position[animal] >= FINISH:
                self.podium.append(animal)
                if len(self.podium) == len(POINTS):
                    self.over = True
                    return

    def destination(self, animal: int, x: int) -> int:
        """Where ``animal`` ends up when it moves with ``x`` cards played."""
        pos = self.position[animal]
        if animal == HARE:
            if x == 0:
                return pos
            running = [p for a, p in enumerate(self.position) if a not in self.podium]
            leads = pos >= max(running)
            return pos if x == 4 and leads and pos > 0 else pos + 2
        if animal == TORTOISE:
            return pos + (2 if x == 4 else 1)
        if animal == WOLF:
            return pos + (x - 1 if x >= 3 else min(x, 1))
        if animal == FOX:
            return pos + x
        # Sheep: x + 1 spaces, but it stops in the first stream it enters.
        if x == 0:
            return pos
        for space in range(pos + 1, pos + x + 2):
            if space in self.streams:
                return space
        return pos + x + 1

    # -- end -------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """Scores, winners and final race state as a plain dict."""
        place = {animal: i for i, animal in enumerate(self.podium)}
        scores = [
            sum(POINTS[place[a]] for a in bets if a in place) for bets in self.bets
        ]
        winners: list[int] = []
        if not self.draw:
            top = max(scores)
            winners = [seat for seat, score in enumerate(scores) if score == top]
            if len(winners) > 1:
                unplaced = len(ANIMALS)
                best = {
                    s: min(place.get(a, unplaced) for a in self.bets[s])
                    for s in winners
                }
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


def play_random_game(
    players: int,
    rng: random.Random,
    on_turn: Callable[[HareGame], None] | None = None,
) -> dict[str, Any]:
    """Play one game with uniformly random players and return its result.

    ``on_turn`` is a debug hook called with the game after setup and after
    every turn (the tests use it to check card conservation).
    """
    game = HareGame(players, rng)
    if on_turn is not None:
        on_turn(game)
    while not game.over:
        if game.decisions >= STEP_CAP:
            game.draw = True
            break
        plays = game.legal_plays()
        if not plays:  # cannot happen with these card counts; a draw if it does
            game.draw = True
            break
        game.play_turn(rng.choice(plays))
        if on_turn is not None:
            on_turn(game)
    return game.result()


if __name__ == "__main__":
    print(play_random_game(4, random.Random(0)))
