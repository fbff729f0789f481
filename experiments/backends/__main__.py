"""`python -m experiments.backends guard PID`: the guard of a local Ray cluster, as its own
small process (see process_guard.py)."""

import sys

from experiments.backends.process_guard import guard

if len(sys.argv) == 3 and sys.argv[1] == "guard":
    guard(int(sys.argv[2]))
