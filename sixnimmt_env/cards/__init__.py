"""The card games: classic 6 nimmt! and Die Sechste (rules data, batched engine, views, records)."""
