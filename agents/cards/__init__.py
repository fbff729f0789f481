"""Agents for the card games: rule-of-thumb players and search players."""
