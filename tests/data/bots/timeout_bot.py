"""Test fixture: answers the start, then sleeps on the first decision; it also starts a
child process (which must not outlive the match: the runner kills the process group)."""
import subprocess
import sys
import time

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
print(f"child {child.pid}", file=sys.stderr, flush=True)
for line in sys.stdin:
    if '"start"' in line:
        print('{"type": "ready"}', flush=True)
    else:
        time.sleep(600)
