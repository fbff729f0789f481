"""Test fixture: answers the start, then garbage."""
import sys

for line in sys.stdin:
    print('{"type": "ready"}' if '"start"' in line else "hello, I am not JSON", flush=True)
