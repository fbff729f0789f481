"""Studies of the games (`sixnimmt study ...`): Die Sechste, the board game and its skill
question, over the runner they share."""
