"""The persistent mode of the conformance protocol (docs/conformance.md, "The persistent mode").

Started with the single argument --persistent, a program writes the line {"persistent":1}, then reads one
request per line from stdin, {"id": N, "args": [...], "stdin": BASE64}, and answers each with one line,
{"id": N, "status": S, "stdout": BASE64, "stderr": BASE64}: what a process started with those arguments and
that stdin would have written and its exit status. It stops when stdin ends.
"""

import base64
import json
import sys
import traceback

HELLO = b'{"persistent":1}\n'


def serve(run, stdin=None, stdout=None):
    """Answer requests with run(args, data) -> (status, stdout bytes, stderr text) until stdin ends."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    stdout.write(HELLO)
    stdout.flush()
    for line in stdin:
        request = json.loads(line)
        try:
            status, out, err = run(request["args"], base64.b64decode(request["stdin"], validate=True))
        except Exception:  # a bug: what a process of its own would have died with
            status, out, err = 1, b"", traceback.format_exc()
        response = {"id": request["id"], "status": status,
                    "stdout": base64.b64encode(out).decode("ascii"),
                    "stderr": base64.b64encode(err.encode("utf-8", "surrogateescape")).decode("ascii")}
        stdout.write(json.dumps(response).encode("ascii") + b"\n")
        stdout.flush()
    return 0
