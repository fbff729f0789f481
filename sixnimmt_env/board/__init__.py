"""The 2019 board game, 6 nimmt! Das Brettspiel: rules and board layouts, the batched engine
(basic, luck and pro sides), seat view, encoders, records and rendering."""
