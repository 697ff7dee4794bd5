"""The instructions of a compiled game's program, as ``State`` runs them (``program.py`` makes them).

    EXEC fn, flag    run a straight piece of rules; flag: test the end after it (True), or RUN:
                     fn is a straight run that tests the end itself and returns how the game
                     ended ('end', 'draw') when it did
    JUMP_IF_NOT t, k test, and go to k when it fails
    JUMP k           go to k
    CHOICE spec      wait for a player's decision
    CHANCE spec      wait for a chance outcome
    END              the game is over
    NEXT_TURN t, k   the next player's turn starts at k (t: test the end after passing it)
"""

EXEC, JUMP_IF_NOT, JUMP, CHOICE, CHANCE, END, NEXT_TURN = range(7)
RUN = "run"  # EXEC's flag for a straight run
