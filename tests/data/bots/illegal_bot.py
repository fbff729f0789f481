"""Test fixture: answers well-formed but illegal actions (a pass, every time)."""
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        pass_action = message["pass_action"]
        print('{"type": "ready"}', flush=True)
    elif message["type"] == "act":
        print(json.dumps([pass_action for _ in message["decisions"]]), flush=True)
