#!/usr/bin/env python3
"""gcx1.py behind the command-line protocol of [WIRE-3], as the conformance runner drives it.

Exit status: 0 success, 1 invalid input, 2 usage, 3 unsupported version (the tag on stderr).
With the single argument --persistent it answers many runs in one process (persistent.py).
"""

import gc
import os
import sys
import threading

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import persistent  # noqa: E402
from gcx1 import GCXError, decode, encode, from_wire, to_wire  # noqa: E402
from jsonmap import compact, decode_value, encode_value, parse_json_input  # noqa: E402

USAGE = """usage: adapter.py decode --wire [--max-line-bytes N] [--max-fields N] [--max-sections N] [--max-rows N]
       adapter.py encode --wire
       adapter.py encode --mode gcx [--tool NAME]
       adapter.py decode
decode --wire reads a GCX1 payload on stdin and writes its wire view; encode --wire does the reverse.
encode --mode gcx writes a JSON text as the result of the tool NAME (result by default) under the JSON
mapping of chapter 14 [MAP-12]; decode reads a result, GCX1 or JSON [AUTO-3], and writes the value's
compact form and LF. Auto mode needs the cl100k_base tokenizer, which this program does not have, and
the JSON ops take no limits."""
LIMITS = ("--max-line-bytes", "--max-fields", "--max-sections", "--max-rows")


def parse_args(args):
    """Return (command, options), or None for anything else: auto mode, an unknown or
    repeated flag, a limit that is not a positive integer or on a JSON op."""
    if not args or args[0] not in ("decode", "encode"):
        return None
    command, rest, options = args[0], args[1:], {}
    while rest:
        flag, rest = rest[0], rest[1:]
        if flag == "--wire" and "wire" not in options:
            options["wire"] = True
            continue
        if not rest or flag[2:] in options:
            return None
        value, rest = rest[0], rest[1:]
        if flag in LIMITS and command == "decode":
            if not (value.isascii() and value.isdigit() and int(value) > 0):
                return None
            options[flag[2:]] = int(value)
        elif flag in ("--mode", "--tool") and command == "encode":
            options[flag[2:]] = value
        else:
            return None
    wire = options.pop("wire", False)
    if command == "encode":
        if wire and options:
            return None
        if not wire and options.get("mode") != "gcx":
            return None  # auto mode, or no mode: auto mode needs a tokenizer
    elif not wire and options:
        return None  # limits on the JSON op are not offered
    return command + (" --wire" if wire else ""), options


def json_decode(data):
    """A result, GCX1 or JSON [AUTO-3], as the compact form of its value and LF. A result that
    begins with GCX, or with a byte-order mark and GCX, is GCX1; any other is read as JSON."""
    if data.startswith(b"GCX") or data.startswith(b"\xef\xbb\xbfGCX"):
        value, _ = decode_value(data)
    else:
        value = parse_json_input(data)
    return (compact(value) + "\n").encode("utf-8")


def json_encode(data, tool):
    """A JSON text as the GCX1 payload of the tool's result [MAP-12]; the whole input is read
    before the tool name is checked [MAP-14]."""
    return encode(encode_value(parse_json_input(data), tool)[0])


def run(args, data):
    """One run of the protocol: the exit status, stdout's bytes and stderr's text."""
    parsed = parse_args(args)
    if parsed is None:
        return 2, b"", USAGE + "\n"
    command, options = parsed
    try:
        if command == "decode --wire":
            out = to_wire(decode(data, options))
        elif command == "encode --wire":
            out = encode(from_wire(data))
        elif command == "decode":
            out = json_decode(data)
        else:
            out = json_encode(data, options.get("tool", "result"))
    except GCXError as e:
        # Nothing on stdout [ERR-4]; one line with position, description and rule on stderr.
        return (3 if e.cls == "unsupported-version" else 1), b"", f"adapter.py: {e}\n"
    return 0, out, ""


def main():
    status = [1]

    def work():
        if sys.argv[1:] == ["--persistent"]:
            status[0] = persistent.serve(run)  # one process, many runs
            return
        gc.disable()  # one short run that makes no reference cycles: the collector only costs time
        status[0], out, err = run(sys.argv[1:], sys.stdin.buffer.read())
        sys.stderr.write(err)
        sys.stdout.buffer.write(out)
        sys.stdout.flush()

    # Deep JSON values recurse deeply: give them a stack the nesting bound fits in [MAP-4].
    sys.setrecursionlimit(50000)
    threading.stack_size(512 * 1024 * 1024)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    return status[0]


if __name__ == "__main__":
    sys.exit(main())
