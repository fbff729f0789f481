"""sixnimmt lab: training."""
