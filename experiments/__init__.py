"""sixnimmt lab: experiments."""
