"""Speed benchmarks (`sixnimmt bench`): the engine's work units and the label stage on Ray."""
