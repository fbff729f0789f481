#!/usr/bin/env python3
"""The cheapest possible bot (for `sixnimmt bench bot`): it answers the first legal action
of every decision without parsing more than the protocol needs."""

import json
import sys

if sys.argv[1:]:  # it takes no options (run by the lab, it talks on stdin/stdout): say so, do not wait
    print(__doc__.strip())
    sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"type": "ready"}', flush=True)
    elif message["type"] == "act":
        print(json.dumps([d["legal"][0] for d in message["decisions"]]), flush=True)
    else:
        break
