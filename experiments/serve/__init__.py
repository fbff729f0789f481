"""`sixnimmt serve`: play in the browser against the agents, or watch them (app.py, the
server; session.py, one game; setup.py, what the page may choose; static/, the page)."""
