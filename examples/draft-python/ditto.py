#!/usr/bin/env python3
"""GCX2-example.1, a draft codec written as a program: GCX1 with a ditto mark.

A value equal to the one above it in the same column, and at least two bytes
long as GCX1 spells it, is written as the cell \\^ [EX1-DIT-1]. Everything
else is GCX1's, under the tag GCX2-example.1 (GCX2-example.1.md beside this
file is the draft's delta document).

The program speaks the protocol of draft codecs (docs/conformance.md, "Draft
codecs as programs"); the JSON mapping is GCX1's, borrowed from the gcx
command (the GCX environment variable, or gcx on PATH):

    ditto.py encode --mode gcx --tool NAME --tag GCX2-example.1 [limit flags]
    ditto.py decode --accept GCX2-example.1 [limit flags]

Exit status: 0 success, 1 refused input, 2 usage, 3 another version's payload.

Started with --persistent alone, it answers many runs in one process (the
persistent mode, docs/conformance.md), and keeps one gcx --persistent for the
mapping, so that a run costs neither a Python nor a gcx start-up.
"""

import base64
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "conformance", "examples", "python"))
import persistent  # noqa: E402  (the mode's framing, shared with the conformance example)

TAG = "GCX2-example.1"
PERSISTENT = "--persistent"
DITTO = "\\^"
LIMITS = ("--max-line-bytes", "--max-fields", "--max-sections", "--max-rows")
TAG_RE = re.compile(rb"GCX[A-Za-z0-9._-]*")


class Exit(Exception):
    """Ends a run with an exit status and a message for stderr."""

    def __init__(self, status, message=b""):
        super().__init__(status)
        self.status, self.message = status, message


def usage():
    return 2, b"", __doc__.split("\n\n")[2] + "\n"


def parse(args):
    """(command, options, limits) or None: options are the flags gcx's own
    encode and decode take that the draft needs, limits the limit flags."""
    if not args or args[0] not in ("encode", "decode"):
        return None
    command, rest, options, limits = args[0], args[1:], {}, {}
    while rest:
        flag = rest[0]
        if len(rest) < 2:
            return None
        value, rest = rest[1], rest[2:]
        if flag in LIMITS and value.isdigit() and int(value) > 0:
            limits[flag] = int(value)
        elif (command, flag) in (("encode", "--mode"), ("encode", "--tool"), ("encode", "--tag"), ("decode", "--accept")):
            options[flag] = value
        else:
            return None
    if command == "encode" and (options.get("--mode") != "gcx" or options.get("--tag") != TAG or "--tool" not in options):
        return None
    if command == "decode" and options.get("--accept") != TAG:
        return None
    return command, options, limits


class GCX:
    """One gcx --persistent, started at the first run that needs it, answering
    every run after it (the persistent mode, docs/conformance.md)."""

    def __init__(self):
        self.process, self.next = None, 0

    def run(self, args, data):
        """(status, stdout, stderr) of gcx ARGS on data."""
        if self.process is None or self.process.poll() is not None:
            exe = os.environ.get("GCX", "gcx")
            self.process = subprocess.Popen([exe, PERSISTENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            if self.process.stdout.readline() != persistent.HELLO:
                raise RuntimeError(f"{exe} {PERSISTENT} wrote no hello line")
        self.next += 1
        request = {"id": self.next, "args": args, "stdin": base64.b64encode(data).decode("ascii")}
        self.process.stdin.write(json.dumps(request).encode("ascii") + b"\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            self.process = None
            raise RuntimeError("gcx --persistent ended while answering")
        response = json.loads(line)
        if response.get("id") != self.next:
            raise RuntimeError(f"gcx --persistent answered request {response.get('id')}, not {self.next}")
        return response["status"], base64.b64decode(response["stdout"]), base64.b64decode(response["stderr"])


GCX_PROCESS = GCX()


def gcx(args, data):
    """Run the gcx command; its failures are passed on as they are."""
    status, out, err = GCX_PROCESS.run(args, data)
    if status != 0:
        raise Exit(status, err)
    return out


def limit_args(limits):
    """The limits for gcx: the line limit is the draft's own, checked on the
    draft's lines, since a ditto makes GCX1's line longer than the draft's."""
    args = ["--max-line-bytes", "0"]
    for flag, n in limits.items():
        if flag != "--max-line-bytes":
            args += [flag, str(n)]
    return args


def check_lines(lines, limits, what):
    limit = limits.get("--max-line-bytes")
    for number, line in enumerate(lines, 1):
        if limit and len(line) > limit:
            raise Exit(1, f"ditto.py: line {number}, column {limit + 1}: limit: {what} line longer than {limit} bytes [LIM-4]\n"
                       .encode("utf-8"))


def encode(options, limits, data):
    payload = gcx(["encode", "--mode", "gcx", "--tool", options["--tool"]] + limit_args(limits), data)
    out, above = [], None
    for line in payload.decode("utf-8").split("\n")[:-1]:
        if line.startswith("GCX1"):
            out.append(TAG + line[len("GCX1"):])
            above = None
        elif line.startswith("#"):
            out.append(line)  # comments keep the row above [EX1-DIT-2]
        else:
            cells = line.split("\t")
            spelled = list(cells)
            if above is not None and len(above) == len(cells):
                spelled = [DITTO if c == a and len(c) >= 2 else c for c, a in zip(cells, above)]
            out.append("\t".join(spelled))
            above = cells
    check_lines([line.encode("utf-8") for line in out], limits, "the payload has a")
    return ("\n".join(out) + "\n").encode("utf-8")


def decode(limits, data):
    tag = TAG_RE.match(data)
    if not tag or tag.group().decode() != TAG:
        found = tag.group().decode("utf-8", "replace") if tag else "none"
        raise Exit(3, f"ditto.py: line 1, column 1: unsupported-version: tag {found} is not {TAG} [VER-2]\n".encode("utf-8"))
    lines = data.split(b"\n")
    check_lines(lines[:-1] if data.endswith(b"\n") else lines, limits, "a")
    out, above = [], None
    for number, line in enumerate(lines, 1):
        if line.startswith(b"GCX"):
            if line.startswith(TAG.encode() + b" "):
                line = b"GCX1" + line[len(TAG):]  # GCX1 reads the rest, and refuses other tags itself
            above = None
        elif not line.startswith(b"#") and (number < len(lines)):
            cells = line.split(b"\t")
            for i, c in enumerate(cells):
                if c == DITTO.encode():
                    if above is None or len(above) != len(cells):
                        column = len(b"\t".join(cells[:i])) + (1 if i == 0 else 2)
                        raise Exit(1, f"ditto.py: line {number}, column {column}: syntax: a ditto mark with no value above it "
                                   "[EX1-DIT-1]\n".encode("utf-8"))
                    cells[i] = above[i]
            line = b"\t".join(cells)
            above = cells
        out.append(line)
    return gcx(["decode"] + limit_args(limits), b"\n".join(out))


def run(args, data):
    """One run: (exit status, stdout bytes, stderr text)."""
    parsed = parse(args)
    if parsed is None:
        return usage()
    command, options, limits = parsed
    try:
        out = encode(options, limits, data) if command == "encode" else decode(limits, data)
    except Exit as e:
        return e.status, b"", e.message.decode("utf-8", "surrogateescape")
    return 0, out, ""


def main():
    if sys.argv[1:] == [PERSISTENT]:
        return persistent.serve(run)  # one process, many runs
    status, out, err = run(sys.argv[1:], sys.stdin.buffer.read())
    sys.stdout.buffer.write(out)
    sys.stderr.buffer.write(err.encode("utf-8", "surrogateescape"))
    return status


if __name__ == "__main__":
    sys.exit(main())
