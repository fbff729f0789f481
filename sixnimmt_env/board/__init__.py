"""The 2019 board game, 6 nimmt! Das Brettspiel (so far: the board as data, `layout`)."""
