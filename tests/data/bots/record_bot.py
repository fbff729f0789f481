"""Test fixture: plays the first legal action and appends every message it gets to the
file named by its first argument (for the tests of what a bot is shown)."""
import json
import sys

with open(sys.argv[1], "a") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        message = json.loads(line)
        if message["type"] == "start":
            print('{"type": "ready"}', flush=True)
        elif message["type"] == "act":
            print(json.dumps([d["legal"][0] for d in message["decisions"]]), flush=True)
