"""An independent Reversi, written from OpenSpiel's ``othello`` (open_spiel/games/othello/othello.cc)
to compare games/reversi.rules with, move by move. It shares no code with meeple.

OpenSpiel's conventions, kept here: 8 × 8 cells, row 0 the top row as printed ("1"), column 0 the
left ("a"); action = row * 8 + col, 64 the pass, legal only when no other move is; black (x) is
player 0 and moves first; the start is white on (3,3) and (4,4), black on (3,4) and (4,3); the game
ends after a move that leaves neither player a move; most discs wins, equal discs is a draw
(returns 1/-1, or 0/0).

meeple's board counts rows from the bottom: OpenSpiel's (row r, col c) is meeple's cell x = c,
y = 7 - r (``to_cell``, ``from_cell``).
"""

from __future__ import annotations

SIZE = 8
PASS = 64
EMPTY, BLACK, WHITE = -1, 0, 1  # a cell holds the player whose disc is up, or -1
STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]  # (drow, dcol)


def to_cell(action: int) -> tuple[int, int]:
    """OpenSpiel's action (not the pass) as meeple's cell (x, y)."""
    r, c = divmod(action, SIZE)
    return c, SIZE - 1 - r


def from_cell(x: int, y: int) -> int:
    return (SIZE - 1 - y) * SIZE + x


class Othello:
    def __init__(self) -> None:
        self.board = [[EMPTY] * SIZE for _ in range(SIZE)]
        self.board[3][3] = self.board[4][4] = WHITE
        self.board[3][4] = self.board[4][3] = BLACK
        self.player = 0
        self.over = False

    def _flips(self, r: int, c: int, p: int) -> list[tuple[int, int]]:
        """The discs a disc of ``p`` at (r, c) turns."""
        out = []
        for dr, dc in STEPS:
            run, rr, cc = [], r + dr, c + dc
            while 0 <= rr < SIZE and 0 <= cc < SIZE and self.board[rr][cc] == 1 - p:
                run.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            if run and 0 <= rr < SIZE and 0 <= cc < SIZE and self.board[rr][cc] == p:
                out += run
        return out

    def regular_moves(self, p: int) -> list[int]:
        return [r * SIZE + c for r in range(SIZE) for c in range(SIZE)
                if self.board[r][c] == EMPTY and self._flips(r, c, p)]

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        return self.regular_moves(self.player) or [PASS]

    def apply(self, action: int) -> None:
        assert action in self.legal_actions(), action
        if action != PASS:
            r, c = divmod(action, SIZE)
            for rr, cc in self._flips(r, c, self.player):
                self.board[rr][cc] = self.player
            self.board[r][c] = self.player
            if not self.regular_moves(0) and not self.regular_moves(1):
                self.over = True
        self.player = 1 - self.player

    def discs(self, p: int) -> int:
        return sum(row.count(p) for row in self.board)

    def returns(self) -> list[float]:
        black, white = self.discs(BLACK), self.discs(WHITE)
        return [0.0, 0.0] if black == white else ([1.0, -1.0] if black > white else [-1.0, 1.0])

    def cells(self) -> dict[tuple[int, int], int]:
        """Every cell with a disc, as meeple's (x, y) → player."""
        return {to_cell(r * SIZE + c): self.board[r][c] for r in range(SIZE) for c in range(SIZE)
                if self.board[r][c] != EMPTY}
