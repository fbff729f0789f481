"""Environment adapters over the game interface: PettingZoo, Gymnasium, SB3."""
