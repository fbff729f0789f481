"""Test fixture: plays two act messages, then crashes."""
import json
import sys

acts = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"type": "ready"}', flush=True)
    elif message["type"] == "act":
        acts += 1
        if acts > 2:
            print("the bot fell over", file=sys.stderr, flush=True)
            sys.exit(3)
        print(json.dumps([d["legal"][0] for d in message["decisions"]]), flush=True)
