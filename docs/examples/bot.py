#!/usr/bin/env python3
"""A sixnimmt lab bot in plain Python: the JSON-lines protocol of docs/own-agent.md.

    sixnimmt match --agents "cmd:python3 docs/examples/bot.py,mcs,random,random"

It reads one JSON message per line on stdin and answers on stdout (one line, flushed).
Its strategy is deliberately simple, and works for every game through the table view:
when a row is to be taken, the row with the fewest points; when a card or tile is to be
played, the one with the fewest bullheads (lowest first); any other question, the first
legal action.
"""

import json
import sys

if sys.argv[1:]:  # it takes no options (run by the lab, it talks on stdin/stdout): say so, do not wait
    print(__doc__.strip())
    sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)


def choose(decision):
    legal = set(decision["legal"])
    view = decision["view"]
    rows = [r for r in view["rows"] if r.get("action") in legal]
    if rows:
        return min(rows, key=lambda r: r["points"])["action"]
    hand = [c for c in view["hand"] if c.get("action") in legal]
    if hand:
        return min(hand, key=lambda c: (c["bulls"], c["card"]))["action"]
    return decision["legal"][0]


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        answer = {"type": "ready", "name": "example-python"}
    elif message["type"] == "act":
        answer = [choose(d) for d in message["decisions"]]
    else:  # "end"
        break
    print(json.dumps(answer), flush=True)
