"""The instructions of a compiled game's program, as ``State`` runs them (``program.py`` makes them).

    EXEC fn          run a straight piece of rules
    JUMP_IF_NOT t, k test, and go to k when it fails
    JUMP k           go to k
    CHOICE spec      wait for a player's decision
    CHANCE spec      wait for a chance outcome
    END              the game is over
    NEXT_TURN k      the next player's turn starts at k
"""

EXEC, JUMP_IF_NOT, JUMP, CHOICE, CHANCE, END, NEXT_TURN = range(7)
