"""An independent Leduc hold'em, written from OpenSpiel's ``leduc_poker`` (default parameters: no
action mapping, no suit isomorphism, seat 0 starts), to compare ``games/leduc.rules`` with move
by move. Cards are 0..5: card k has rank k // 2 (jack, queen, king) and suit k % 2. Actions are
OpenSpiel's numbers: 0 fold, 1 call, 2 raise; a chance action is the card dealt."""

from __future__ import annotations

FOLD, CALL, RAISE = 0, 1, 2
ACTION_NAMES = {FOLD: "fold", CALL: "call", RAISE: "raise"}
CARD_NAMES = ("jack_1", "jack_2", "queen_1", "queen_2", "king_1", "king_2")
CHANCE = -1
STARTING_MONEY, ANTE, FIRST_RAISE, SECOND_RAISE, MAX_RAISES = 100, 1, 2, 4, 2


class Leduc:
    def __init__(self, players: int = 2):
        self.n = players
        self.deck = list(range((players + 1) * 2))  # None once dealt
        self.private: list[int | None] = [None] * players
        self.public: int | None = None
        self.dealt = 0
        self.player = CHANCE
        self.round = 1
        self.stakes = 1
        self.pot = ANTE * players
        self.money = [STARTING_MONEY - ANTE] * players
        self.ante = [ANTE] * players
        self.folded = [False] * players
        self.remaining = players
        self.calls = self.raises = 0

    # ---- queries ----
    def ready_for_next_round(self) -> bool:
        return (self.raises == 0 and self.calls == self.remaining) or \
            (self.raises > 0 and self.calls == self.remaining - 1)

    def is_terminal(self) -> bool:
        return self.remaining == 1 or (self.round == 2 and self.ready_for_next_round())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in self.deck if c is not None]
        return [(c, 1 / len(left)) for c in left]

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.player == CHANCE:
            return [c for c, _ in self.chance_outcomes()]
        out = []
        if self.stakes > self.ante[self.player]:
            out.append(FOLD)
        out.append(CALL)
        if self.raises < MAX_RAISES:
            out.append(RAISE)
        return out

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.n
        return [float(m - STARTING_MONEY) for m in self.money]

    # ---- moves ----
    def apply(self, action: int) -> None:
        assert action in self.legal_actions(), (action, self.legal_actions())
        if self.player == CHANCE:
            self.deck[action] = None
            if self.dealt < self.n:
                self.private[self.dealt] = action
                self.dealt += 1
                if self.dealt == self.n:
                    self.player = 0
            else:
                self.public = action
                self.player = self.next_player()
            return
        me = self.player
        if action == FOLD:
            self.folded[me] = True
            self.remaining -= 1
        elif action == CALL:
            self._put(me, self.stakes - self.ante[me])
            self.calls += 1
        else:
            self._put(me, self.stakes - self.ante[me])
            raised = FIRST_RAISE if self.round == 1 else SECOND_RAISE
            self.stakes += raised
            self._put(me, raised)
            self.raises += 1
            self.calls = 0
        if self.is_terminal():
            self._resolve()
        elif action != RAISE and self.ready_for_next_round():
            self.round, self.raises, self.calls = 2, 0, 0
            self.player = CHANCE
        else:
            self.player = self.next_player()

    def _put(self, p: int, amount: int) -> None:
        self.pot += amount
        self.ante[p] += amount
        self.money[p] -= amount

    def next_player(self) -> int:
        start = self.n - 1 if self.player == CHANCE else self.player  # a round starts at seat 0
        for i in range(1, self.n + 1):
            p = (start + i) % self.n
            if not self.folded[p]:
                return p
        raise AssertionError("nobody is in")

    def rank_hand(self, p: int) -> int:
        lo, hi = sorted((self.public, self.private[p]))
        cards = len(self.deck)
        if lo % 2 == 0 and hi == lo + 1:
            return cards * cards + lo  # a pair
        return (hi // 2) * cards + lo // 2

    def _resolve(self) -> None:
        if self.remaining == 1:
            winner = self.folded.index(False)
            self.money[winner] += self.pot
        else:
            ranks = {p: self.rank_hand(p) for p in range(self.n) if not self.folded[p]}
            best = max(ranks.values())
            winners = [p for p, r in ranks.items() if r == best]
            for p in winners:
                self.money[p] += self.pot / len(winners)
        self.pot = 0
