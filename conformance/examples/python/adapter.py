#!/usr/bin/env python3
"""gcx1.py behind the command-line protocol of [WIRE-3], as the conformance runner drives it.

Exit status: 0 success, 1 invalid input, 2 usage, 3 unsupported version (the tag on stderr).
With the single argument --persistent it answers many runs in one process (persistent.py).
"""

import gc
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import persistent  # noqa: E402
from gcx1 import GCXError, decode, encode, from_wire, to_wire  # noqa: E402

USAGE = """usage: adapter.py decode --wire [--max-line-bytes N] [--max-fields N] [--max-sections N] [--max-rows N]
       adapter.py encode --wire
decode reads a GCX1 payload on stdin and writes its wire view; encode does the reverse."""
LIMITS = ("--max-line-bytes", "--max-fields", "--max-sections", "--max-rows")


def parse_args(args):
    """Return (command, limits), or None for anything else: the JSON mapping of
    chapter 14 (no --wire), an unknown flag, a limit that is not a positive integer."""
    if not args or args[0] not in ("decode", "encode") or "--wire" not in args:
        return None
    command, rest, limits = args[0], args[1:], {}
    while rest:
        flag, rest = rest[0], rest[1:]
        if flag == "--wire":
            continue
        if command != "decode" or flag not in LIMITS or not rest:
            return None
        value, rest = rest[0], rest[1:]
        if not (value.isascii() and value.isdigit() and int(value) > 0):
            return None
        limits[flag[2:]] = int(value)
    return command, limits


def run(args, data):
    """One run of the protocol: the exit status, stdout's bytes and stderr's text."""
    parsed = parse_args(args)
    if parsed is None:
        return 2, b"", USAGE + "\n"
    command, limits = parsed
    try:
        out = to_wire(decode(data, limits)) if command == "decode" else encode(from_wire(data))
    except GCXError as e:
        # Nothing on stdout [ERR-4]; one line with position, description and rule on stderr.
        return (3 if e.cls == "unsupported-version" else 1), b"", f"adapter.py: {e}\n"
    return 0, out, ""


def main():
    if sys.argv[1:] == ["--persistent"]:
        return persistent.serve(run)  # one process, many runs
    gc.disable()  # one short run that makes no reference cycles: the collector only costs time
    status, out, err = run(sys.argv[1:], sys.stdin.buffer.read())
    sys.stderr.write(err)
    sys.stdout.buffer.write(out)
    return status


if __name__ == "__main__":
    sys.exit(main())
