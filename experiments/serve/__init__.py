"""`sixnimmt serve`: play in the browser against the agents, or watch them (app.py, the
routes; session.py, one game; setup.py, what the page may choose; allowed.py, which agents
it may seat; guard.py, which pages may talk to it; limits.py and store.py, how much one page
may take; server.py, uvicorn with those bounds; static/, the page)."""
