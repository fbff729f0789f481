"""sixnimmt lab: agents."""
