"""Agents for the 2019 board game (6 nimmt! Das Brettspiel): heuristics and search.

They read a `sixnimmt_env.board.seat_view.BoardSeatView` and use the board's placement
preview (`sixnimmt_env.board.placement`) and engine; nothing here imports the card game.
"""
