#!/usr/bin/env python3
"""The MCP binding of chapter 15 of docs/wire-format.md behind the conformance protocol's ops
`mcp-server` and `mcp-client` (docs/conformance.md, "The MCP binding's ops").

Written from the specification alone (docs/wire-format.md, docs/conformance.md and
conformance/vectors.schema.json), without reading the Go implementation, to find where the text is unclear.
gcx1.py is the GCX1 layer, jsonmap.py the JSON mapping of chapter 14.

    mcp_adapter.py mcp-server   < {"settings":...,"request":...,"result":...}   -> {"result":...}
    mcp_adapter.py mcp-client   < {"annotations":...,"answers":[...]}           -> {"requests":[...],...}

Exit status: 0 with the outcome on stdout (a client's error is an outcome too); 1 for an input it cannot run;
2 for anything else, and for a server whose tool is in auto mode: auto mode needs the cl100k_base tokenizer
[AUTO-1], which Python's standard library does not have, so this server declines it, as the protocol allows.

Run it from the repository root:

    go run ./cmd/gcx conformance --category mcp -- python3 conformance/examples/python/mcp_adapter.py
"""

import decimal
import os
import re
import sys
import threading

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import persistent  # noqa: E402
from gcx1 import GCXError, encode  # noqa: E402
from jsonmap import (TAG, JSONError, Number, Object, compact, decode_value,  # noqa: E402
                     encode_value, has_member, is_json_text, member, meta_value, parse_json,
                     root_is_table, same)

USAGE = "usage: mcp_adapter.py mcp-server|mcp-client < INPUT.json"

EXTENSION = "io.github.gcxwire/gcx"
ACCEPT = "io.github.gcxwire/accept"
FORMAT = "io.github.gcxwire/format"
TOTAL = "io.github.gcxwire/total"
TRUNCATED = "io.github.gcxwire/truncated"
COMPACT = "io.github.gcxwire/compact"
DIFFERS = "io.github.gcxwire/differs"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
PER_REQUEST_CAPABILITIES_FROM = "2026-07-28"  # [MCP-10]
COUNT_TEXT = re.compile(r"[1-9][0-9]*")  # a line limit the vectors set
WRITABLE = ("GCX1",)  # the tags this server can write [MCP-4]


class Decline(Exception):
    """The op, or this input of it, is not offered: exit status 2."""


class CannotRun(Exception):
    """An input the program cannot run: exit status 1."""


def obj_get(obj, name, default=None):
    return member(obj, name, default) if type(obj) is Object else default


def is_tag(x):
    return type(x) is str and TAG.fullmatch(x) is not None


def is_total(x):
    """[MCP-1]: a number whose value is an integer from 0 to 2^53, however it is spelled (41, 41.0, 4.1e1)."""
    if type(x) is not Number:
        return False
    try:
        v = decimal.Decimal(x)
    except decimal.InvalidOperation:
        return False
    return v == v.to_integral_value() and 0 <= v <= 2**53


def total_value(x):
    """The integer a total that is_total accepts denotes."""
    return int(decimal.Decimal(x))


def set_member(obj, name, value):
    """A copy of obj with name set to value (replaced in place, or appended)."""
    out = Object(obj)
    for i, (k, _) in enumerate(out):
        if k == name:
            out[i] = (k, value)
            return out
    out.append((name, value))
    return out


# ---------------------------------------------------------------- server

def client_list(inp):
    """The tags the client lists for this call: the per-call list [MCP-3] [MCP-11], else the
    capability [MCP-2] where the protocol carries it [MCP-10]; None when it did not opt in."""
    request = obj_get(inp, "request")
    meta = obj_get(request, "_meta")
    if type(meta) is Object and has_member(meta, ACCEPT):
        accept = member(meta, ACCEPT)
        if type(accept) is not list or not all(type(x) is str for x in accept):
            return []  # a value of the wrong type asks for JSON [MCP-11]
        return [x for x in accept if is_tag(x)]
    protocol = obj_get(inp, "protocol", "2025-11-25")
    if protocol >= PER_REQUEST_CAPABILITIES_FROM:
        # the program puts the declared capabilities in the request's _meta (docs/conformance.md)
        if has_member(inp, "capabilities"):
            capabilities = member(inp, "capabilities")
        else:
            capabilities = obj_get(meta, CLIENT_CAPABILITIES)
    else:
        capabilities = obj_get(inp, "capabilities")  # sent in initialize
    extension = obj_get(obj_get(capabilities, "extensions"), EXTENSION)
    accept = obj_get(extension, "accept")
    if type(accept) is not list or not all(type(x) is str for x in accept):
        return None  # an extension object without an array of strings asks for nothing [MCP-2]
    return [x for x in accept if is_tag(x)]


def has_structured(result):
    """Whether the result has structuredContent: a null one counts as none [MCP-5]."""
    return has_member(result, "structuredContent") and member(result, "structuredContent") is not None


def json_block(result):
    """The JSON block [MCP-5]: (index, differs), or None. The block holding structuredContent's value
    if any, else the first text block holding a JSON text, whose value then differs from a
    structuredContent; none when a text block before it begins with GCX."""
    content = obj_get(result, "content")
    if type(content) is not list:
        return None
    structured = has_structured(result)
    first, gcx = None, False
    for i, block in enumerate(content):
        if obj_get(block, "type") != "text" or type(obj_get(block, "text")) is not str:
            continue
        text = obj_get(block, "text")
        if text.startswith("GCX"):
            if not structured:
                break  # a client would take this block for the payload [MCP-5]
            gcx = True  # a block of structuredContent's value after it would leave none
            continue
        try:
            value = parse_json(text)
        except (JSONError, RecursionError):
            continue  # not a JSON text [MAP-1]
        if structured and same(value, member(result, "structuredContent")):
            return None if gcx else (i, False)
        if first is None and not gcx:
            first = i
            if not structured:
                break
    if first is None:
        return None
    return first, structured


def server(inp):
    settings = obj_get(inp, "settings", Object())
    request = obj_get(inp, "request", Object())
    result = obj_get(inp, "result")
    name = obj_get(request, "name")
    tool_settings = obj_get(obj_get(settings, "tools"), name, Object())
    mode = obj_get(tool_settings, "mode") or obj_get(settings, "mode") or "auto"
    if mode == "auto":
        raise Decline("auto mode needs the cl100k_base tokenizer, which this program does not have")
    tool = obj_get(tool_settings, "name") or name
    untouched = Object([("result", result)])
    if mode == "off":
        return untouched  # the server exempts the tool [MCP-5]
    offer = obj_get(settings, "offer", ["GCX1"])
    listed = client_list(inp)
    if listed is None:
        return untouched
    tag = next((t for t in offer if t in WRITABLE and t in listed), None)
    if tag is None or obj_get(result, "isError") is True:
        return untouched
    found = json_block(result)
    if found is None:
        return untouched
    index, differs = found
    content = member(result, "content")
    value = parse_json(member(content[index], "text"))
    meta = obj_get(result, "_meta")
    meta = Object(meta) if type(meta) is Object else Object()
    # The line limit the server encodes under [LIM-4]; none set: that of this program's decoders, which have none.
    limit = obj_get(settings, "max-line-bytes")
    if limit is not None:
        if type(limit) is not Number or not COUNT_TEXT.fullmatch(limit) or int(limit) < 1:
            raise CannotRun("settings: max-line-bytes is no positive integer")
        limit = int(limit)
    try:
        sections, table_root = encode_value(value, tool)
        payload = encode(sections)
        if table_root:
            # [MCP-7]: copy total and truncated into the root header, when of the right type, unless the
            # header would then be longer than the line limit
            total, truncated = obj_get(meta, TOTAL), obj_get(meta, TRUNCATED)
            pairs = []
            if has_member(meta, TOTAL) and is_total(total):
                pairs.append(("total", str(total_value(total))))
            if has_member(meta, TRUNCATED) and type(truncated) is bool:
                pairs.append(("truncated", "true" if truncated else "false"))
            if pairs:
                sections[0].meta.extend(pairs)
                with_pairs = encode(sections)
                if limit is None or with_pairs.index(b"\n") <= limit:
                    payload = with_pairs
        if limit is not None and any(len(line) > limit for line in payload.split(b"\n")):
            raise GCXError("limit", "LIM-4", None, None, "a line longer than the server's line limit")
    except (GCXError, RecursionError):
        # the mapping cannot write the value for this name, or under the line limit: keep JSON and say so [MCP-6]
        return Object([("result", set_member(result, "_meta", set_member(meta, FORMAT, "json")))])
    payload = payload.decode("utf-8")
    new_content = list(content)
    new_content[index] = set_member(content[index], "text", payload)
    sent = set_member(result, "content", new_content)
    meta = set_member(meta, FORMAT, tag)
    if differs:
        meta = set_member(meta, DIFFERS, True)  # the block's value is not structuredContent's [MCP-6]
    sent = set_member(sent, "_meta", meta)
    return Object([("result", sent)])


# ---------------------------------------------------------------- client

class ClientError(Exception):
    def __init__(self, cls, rule=None, tag=None):
        super().__init__(cls)
        self.cls, self.rule, self.tag = cls, rule, tag

    def outcome(self):
        error = Object([("class", self.cls)])
        if self.rule:
            error.append(("rule", self.rule))
        if self.tag:
            error.append(("tag", self.tag))
        return error


def first_json_text(content):
    """The compact form of the value of the first text block that holds a JSON text, or None."""
    for block in content if type(content) is list else []:
        text = obj_get(block, "text")
        if obj_get(block, "type") == "text" and type(text) is str:
            try:
                return compact(parse_json(text))
            except (JSONError, RecursionError):
                continue
    return None


def compact_block(content, result, check):
    """The compact form of a block the server replaced with compact JSON [MCP-8]: the first text block
    holding structuredContent's value when check, else the first holding a JSON text."""
    found = False
    for block in content if type(content) is list else []:
        text = obj_get(block, "text")
        if obj_get(block, "type") != "text" or type(text) is not str:
            continue
        try:
            value = parse_json(text)
        except (JSONError, RecursionError):
            continue
        if not check:
            return compact(value)
        found = True
        if same(value, member(result, "structuredContent")):
            return compact(value)
    raise ClientError("mismatch" if found else "invalid-result")


def read_answer(result):
    """What the client makes of one answer [MCP-8]: (format, value text or None, total, truncated)."""
    meta = obj_get(result, "_meta", Object())
    fmt = obj_get(meta, FORMAT)
    if has_member(meta, FORMAT) and not (fmt == "json" or is_tag(fmt)):
        raise ClientError("invalid-result")
    total, truncated = obj_get(meta, TOTAL), obj_get(meta, TRUNCATED)
    if has_member(meta, TOTAL) and not is_total(total):
        raise ClientError("invalid-result")
    if has_member(meta, TRUNCATED) and type(truncated) is not bool:
        raise ClientError("invalid-result")
    total = total_value(total) if has_member(meta, TOTAL) else None
    truncated = truncated if has_member(meta, TRUNCATED) else None
    content = obj_get(result, "content", [])
    if fmt is None:
        return "", first_json_text(content), total, truncated
    for mark in (COMPACT, DIFFERS):
        if has_member(meta, mark) and type(obj_get(meta, mark)) is not bool:
            raise ClientError("invalid-result")
    is_compact, differs = obj_get(meta, COMPACT) is True, obj_get(meta, DIFFERS) is True
    check = has_structured(result) and not differs
    if is_compact and fmt != "json":
        raise ClientError("invalid-result")
    if fmt == "json" and not is_compact:
        return "json", first_json_text(content), total, truncated
    if is_compact:
        return "json", compact_block(content, result, check), total, truncated
    payload = None
    for block in content if type(content) is list else []:
        text = obj_get(block, "text")
        if obj_get(block, "type") == "text" and type(text) is str and text.startswith("GCX"):
            payload = text
            break
    if payload is None:
        raise ClientError("invalid-result")
    try:
        value, sections = decode_value(payload.encode("utf-8"))
    except GCXError as e:
        raise ClientError(e.cls, e.rule, e.tag) from None
    except RecursionError:
        raise ClientError("limit", "MAP-4") from None
    if payload[:payload.find(" ")] != fmt:
        raise ClientError("invalid-result")  # a payload that decodes carries the tag _meta names
    if check and not same(value, member(result, "structuredContent")):
        raise ClientError("mismatch")
    if root_is_table(sections):
        header_total = meta_value(sections[0], "total")
        header_truncated = meta_value(sections[0], "truncated")
        if header_total is not None:
            if total is None:
                total = int(header_total)
            elif int(header_total) != total:
                raise ClientError("mismatch")
        if header_truncated is not None:
            if truncated is None:
                truncated = header_truncated == "true"
            elif (header_truncated == "true") != truncated:
                raise ClientError("mismatch")
    return fmt, compact(value), total, truncated


def client(inp):
    annotations = obj_get(inp, "annotations", Object())
    answers = obj_get(inp, "answers")
    if type(answers) is not list or not answers:
        raise CannotRun("answers must be a non-empty array")
    requests = [Object([(ACCEPT, ["GCX1"])])]
    reissued = False
    try:
        try:
            fmt, value, total, truncated = read_answer(answers[0])
        except ClientError as e:
            repeatable = obj_get(annotations, "readOnlyHint") is True or \
                obj_get(annotations, "idempotentHint") is True
            if e.cls != "unsupported-version" or not repeatable:
                raise
            # [MCP-9]: repeat once, asking for JSON
            if len(answers) < 2:
                raise CannotRun("the client repeats the call, and the vector has no second answer") from None
            requests.append(Object([(ACCEPT, [])]))
            reissued = True
            fmt, value, total, truncated = read_answer(answers[1])
    except ClientError as e:
        return Object([("requests", requests), ("error", e.outcome())])
    out = Object([("requests", requests), ("format", fmt), ("value", value)])
    if total is not None:
        out.append(("total", Number(str(total))))
    if truncated:
        out.append(("truncated", True))
    if reissued:
        out.append(("reissued", True))
    return out


# ---------------------------------------------------------------- main

def run(args, data):
    if len(args) != 1 or args[0] not in ("mcp-server", "mcp-client"):
        raise Decline(USAGE)
    try:
        inp = parse_json(data)
    except (JSONError, RecursionError) as e:
        raise CannotRun(f"the input is not a JSON text: {e}") from None
    if type(inp) is not Object:
        raise CannotRun("the input must be a JSON object")
    return server(inp) if args[0] == "mcp-server" else client(inp)


def run_once(args, data):
    """One run of the protocol: the exit status, stdout's bytes and stderr's text."""
    try:
        outcome = run(args, data)
    except Decline as e:
        return 2, b"", f"mcp_adapter.py: {e}\n"
    except CannotRun as e:
        return 1, b"", f"mcp_adapter.py: {e}\n"
    return 0, (compact(outcome) + "\n").encode("utf-8"), ""


def main():
    status = [1]

    def work():
        if sys.argv[1:] == ["--persistent"]:
            status[0] = persistent.serve(run_once)  # one process, many runs
            return
        status[0], out, err = run_once(sys.argv[1:], sys.stdin.buffer.read())
        sys.stderr.write(err)
        sys.stdout.buffer.write(out)
        sys.stdout.flush()

    # Deep values recurse deeply: give them a stack the nesting bound fits in [MAP-4].
    sys.setrecursionlimit(50000)
    threading.stack_size(512 * 1024 * 1024)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    return status[0]


if __name__ == "__main__":
    sys.exit(main())
