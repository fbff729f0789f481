"""Playing in the terminal: one person against agents (`sixnimmt play`, cards and board),
the seat-0 session every front end shares, and the printed demo game."""
