"""How the card engine packs a row into one int32 (its representation, not rules data).

Bits, low to high: row index, card count, bullheads, ladder value of the last card. The
engine finds a card's row with one max over the packed rows (they order by their last
card first), and the packed value of the winner already carries everything the rules
need next: its count for Rule 3, its bullheads for a take, its index for the write.
"""

INDEX_BITS = 2  # bits 0-1: row index 0..3
INDEX_MASK = (1 << INDEX_BITS) - 1
COUNT_SHIFT, COUNT_MASK = 2, 0b111  # bits 2-4: cards in the row, 1..5
BULLS_SHIFT, BULLS_MASK = 5, 0b111111  # bits 5-10: bullheads in the row (at most 27)
LAST_SHIFT = 11  # bits 11+: ladder value of the last card
ROW_LOW_MASK = (1 << LAST_SHIFT) - 1  # (bullheads, count, index): the cheapest-row key
