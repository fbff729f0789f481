"""Matches and tournaments between agents: running them (`sixnimmt tournament`), their
reports (`sixnimmt report`), the baseline table and the progress bars."""
