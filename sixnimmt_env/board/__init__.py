"""The 2019 board game, 6 nimmt! Das Brettspiel: rules and board layouts, the batched engine
(basic, luck and pro sides), seat view, encoders, records and rendering."""

from ._kernel import jit

jit.install()  # before any kernel module is imported: their cache's freshness (_kernel/jit.py)
