"""Test fixture: answers the start, then answers its first `act` with one malformed kind
(the first argument): every kind must end as a forfeit with its reason, never a traceback
or a hang (agents/external.py)."""
import json
import os
import sys
import time

LEGAL = object()  # the first legal action of each decision, as a well-formed answer
ANSWERS = {
    "deep": b"[" * 200_000,  # json.loads raises RecursionError on it
    "long-number": b"[" + b"9" * 5000 + b"]",  # int() raises ValueError past 4,300 digits
    "not-utf8": b"[\xff\xfe]",
    "not-json": b"hello, I am not JSON",
    "string": b'"4"',
    "object": b'{"action": 4}',
    "wrong-type": b'["4"]',
}
kind = sys.argv[1]
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    message = json.loads(line)
    if message["type"] == "start":
        out.write(b'"ready"\n' if kind == "start-string" else b'{"type": "ready"}\n')
        if kind == "deaf":  # never reads its stdin again: a long message must not block the run
            out.flush()
            time.sleep(600)
    elif message["type"] == "act":
        legal = json.dumps([d["legal"][0] for d in message["decisions"]]).encode()
        if kind in ANSWERS:
            out.write(ANSWERS[kind] + b"\n")
        elif kind == "two-answers":  # the second would answer the next question
            out.write(legal + b"\n" + legal + b"\n")
        elif kind == "half-line":
            out.write(legal[:2])
            out.flush()
            time.sleep(600)
        elif kind == "closed-stdout":
            out.flush()
            os.close(1)
            time.sleep(600)
    else:
        break
    out.flush()
