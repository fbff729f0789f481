"""The shared core: the game interface, layouts, rewards, records envelope, rng, errors."""
