"""The JSON mapping of chapter 14 of docs/wire-format.md, written from the specification alone.

    parse_json(text) -> value        a JSON text [MAP-1], kept exactly: member order, number literals
    compact(value) -> str            the value's compact form [MAP-3]
    encode_value(value, tool) -> (sections, root_is_table)
                                     the sections an encoder writes for the value [MAP-12] [LAY-2]
    decode_value(data) -> (value, sections)
                                     a payload read back as a value [MAP-7] to [MAP-11] [LAY-4]

Values: None, True, False, str, Number (a number literal, kept as written), list, and Object (a list of
(name, value) pairs in order). Errors are gcx1.GCXError: class invalid-json for input outside [MAP-1],
model for a tool name outside [HDR-3], constraint or limit for a payload that breaks chapter 14 [MAP-14].
Python 3.9+, standard library only.
"""

import json
import re

from gcx1 import NAME, GCXError, Section, decode

MAX_DEPTH = 10000  # the nesting bound of [MAP-4]; at least 1000


class Number(str):
    """A JSON number, as its literal text [MAP-2]."""


class Object(list):
    """A JSON object: (name, value) pairs in order [MAP-2]."""


LONE_SURROGATE = re.compile("[\ud800-\udfff]")
INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
COUNT = re.compile(r"0|[1-9][0-9]*")
TAG = re.compile(r"GCX[A-Za-z0-9._-]{1,29}")  # [VER-1]


class JSONError(ValueError):
    """Not a JSON text of [MAP-1]; offset is the offending byte's, when known."""

    def __init__(self, message, offset=None):
        super().__init__(message)
        self.offset = offset


def _object(pairs):
    names = set()
    for name, _ in pairs:
        if name in names:  # names compared after their escapes are resolved [MAP-1]
            raise JSONError(f"member {name!r} repeats")
        if LONE_SURROGATE.search(name):
            raise JSONError("a member name holds an unpaired surrogate")
        names.add(name)
    return Object(pairs)


def _constant(name):
    raise JSONError(f"{name} is not JSON")


def _check_strings(v, depth=0):
    if depth > MAX_DEPTH:
        raise RecursionError
    if type(v) is str:
        if LONE_SURROGATE.search(v):
            raise JSONError("a string holds an unpaired surrogate")
    elif type(v) is list:
        for x in v:
            _check_strings(x, depth + 1)
    elif type(v) is Object:
        for _, x in v:
            _check_strings(x, depth + 1)


def parse_json(text):
    """A JSON text of [MAP-1] as a value; JSONError for anything else, RecursionError
    when it nests beyond what this reader can hold. Python's reader builds the value;
    when it refuses, find_fault finds the offending byte that [MAP-1] names."""
    data = text if type(text) is bytes else text.encode("utf-8", "surrogatepass")
    try:
        if data.startswith(b"\xef\xbb\xbf"):
            raise ValueError("a byte-order mark")
        v = json.loads(data.decode("utf-8"), object_pairs_hook=_object, parse_int=Number,
                       parse_float=Number, parse_constant=_constant)
        _check_strings(v)
        return v
    except RecursionError:
        fault = find_fault(data)
        raise NestingError(fault[0] if fault and fault[1] == NESTED else None) from None
    except ValueError as e:  # JSONError, JSONDecodeError and UnicodeDecodeError among them
        fault = find_fault(data)
        if fault is None:
            raise JSONError(str(e)) from None
        if fault[1] == NESTED:
            raise NestingError(fault[0]) from None
        raise JSONError(fault[1], fault[0]) from None


NESTED = "a value nested beyond the bound"


class NestingError(RecursionError):
    """A JSON text nested beyond MAX_DEPTH [MAP-4]; offset is the first byte of the value beyond it."""

    def __init__(self, offset):
        super().__init__(NESTED)
        self.offset = offset


WHITESPACE = b" \t\n\r"
DIGITS = b"0123456789"
HEX = b"0123456789abcdefABCDEF"
SIMPLE_ESCAPES = b'"\\/bfnrt'
STRING_RUN = re.compile(rb'[^"\\\x00-\x1f\x80-\xff]*')


def find_fault(data):
    """The first offending byte of a text that is not JSON of [MAP-1]: (offset, message),
    or None when there is none. It reads the text once, front to back, with a stack of
    open arrays and objects (each object with the names it holds), so that it knows each
    fault when it has read the name or string that holds it [MAP-1]."""
    n = len(data)
    if data.startswith(b"\xef\xbb\xbf"):
        return 0, "a byte-order mark"

    def skip(i):
        while i < n and data[i] in WHITESPACE:
            i += 1
        return i

    def string(i):
        """Read the string at the quote at i: (end, text) or a fault (offset, message)."""
        i += 1
        parts = []
        while True:
            m = STRING_RUN.match(data, i)
            parts.append(data[i:m.end()].decode("ascii"))
            i = m.end()
            if i >= n:
                return None, (i, "the text ends inside a string")
            c = data[i]
            if c == 0x22:
                return i + 1, "".join(parts)
            if c < 0x20:
                return None, (i, "a control character in a string")
            if c >= 0x80:
                j = i
                while j < n and data[j] >= 0x80:
                    j += 1
                try:
                    parts.append(data[i:j].decode("utf-8"))
                except UnicodeDecodeError as e:
                    return None, (i + e.start, "a byte that is not UTF-8")
                i = j
                continue
            # a backslash
            e = data[i + 1:i + 2]
            if e and e[0] in SIMPLE_ESCAPES:
                parts.append(json.loads(b'"\\' + e + b'"'))
                i += 2
                continue
            if e != b"u":
                return None, (i + 1, "not an escape")
            for k in range(i + 2, i + 6):
                if k >= n or data[k] not in HEX:
                    return None, (k, "not a \\u escape")
            code = int(data[i + 2:i + 6], 16)
            if 0xDC00 <= code <= 0xDFFF:
                return None, (i, "a low surrogate escape that follows no high one")
            if 0xD800 <= code <= 0xDBFF:
                low = data[i + 6:i + 12]
                if not (len(low) == 6 and low[:2] == b"\\u" and all(c in HEX for c in low[2:]) and
                        0xDC00 <= int(low[2:], 16) <= 0xDFFF):
                    return None, (i, "a high surrogate escape that no low one follows")
                code = 0x10000 + ((code - 0xD800) << 10) + (int(low[2:], 16) - 0xDC00)
                i += 6
            parts.append(chr(code))
            i += 6

    stack = []  # open containers: a set of names for an object, None for an array
    i = skip(0)
    while True:
        # a value at i
        if i >= n:
            return i, "the text ends where a value belongs"
        c = data[i]
        if c in b"[{":
            if len(stack) >= MAX_DEPTH:
                return i, NESTED
            stack.append(set() if c == 0x7B else None)
            i = skip(i + 1)
            if i < n and data[i] == (0x7D if c == 0x7B else 0x5D):
                stack.pop()
                i += 1
            elif c == 0x7B:
                if i >= n or data[i] != 0x22:
                    return i, "a member name belongs here"
                i, fault = _member_name(data, i, stack[-1], string, skip)
                if fault:
                    return fault
                continue
            else:
                continue
        elif c == 0x22:
            i, fault = string(i)
            if i is None:
                return fault
        elif c == 0x2D or c in DIGITS:
            j = i + 1 if c == 0x2D else i
            if j >= n or data[j] not in DIGITS:
                return j, "a digit belongs here"
            j += 1
            if data[j - 1] != 0x30:
                while j < n and data[j] in DIGITS:
                    j += 1
            if j < n and data[j] == 0x2E:
                j += 1
                if j >= n or data[j] not in DIGITS:
                    return j, "a digit belongs here"
                while j < n and data[j] in DIGITS:
                    j += 1
            if j < n and data[j] in b"eE":
                j += 1
                if j < n and data[j] in b"+-":
                    j += 1
                if j >= n or data[j] not in DIGITS:
                    return j, "a digit belongs here"
                while j < n and data[j] in DIGITS:
                    j += 1
            i = j
        else:
            for word in (b"true", b"false", b"null"):
                if data[i] == word[0]:
                    for k in range(len(word)):
                        if i + k >= n or data[i + k] != word[k]:
                            return i + k, "not a literal of JSON"
                    i += len(word)
                    break
            else:
                return i, "a value belongs here"
        # after a value: a comma, a closing bracket or the end
        while True:
            i = skip(i)
            if not stack:
                return (i, "text after the value") if i < n else None
            close = 0x7D if stack[-1] is not None else 0x5D
            if i < n and data[i] == close:
                stack.pop()
                i += 1
                continue
            if i >= n or data[i] != 0x2C:
                return i, "a comma or a closing bracket belongs here"
            i = skip(i + 1)
            if stack[-1] is not None:
                if i >= n or data[i] != 0x22:
                    return i, "a member name belongs here"
                i, fault = _member_name(data, i, stack[-1], string, skip)
                if fault:
                    return fault
            break


def _member_name(data, i, names, string, skip):
    """Read a member name at i, then its colon: (where its value begins, None) or (None, fault)."""
    end, got = string(i)
    if end is None:
        return None, got
    if got in names:
        return None, (i, f"member {got!r} repeats")
    names.add(got)
    j = skip(end)
    if j >= len(data) or data[j] != 0x3A:
        return None, (j, "a colon belongs here")
    return skip(j + 1), None


def parse_json_input(data):
    """The JSON text an encoder or a reader of results is given, as a value; not JSON is a
    GCXError of class invalid-json at its offending byte [MAP-1], nesting beyond the bound
    a limit [MAP-4]."""
    try:
        return parse_json(data)
    except JSONError as e:
        raise GCXError("invalid-json", "MAP-1", *_position(data, e.offset), str(e)) from None
    except RecursionError as e:
        raise GCXError("limit", "MAP-4", *_position(data, getattr(e, "offset", None)), NESTED) from None


def _position(data, offset):
    """Line and column (in bytes, from 1) of byte offset in data [ERR-2]."""
    if offset is None:
        return None, None
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def is_json_text(text):
    try:
        parse_json(text)
        return True
    except (JSONError, RecursionError):
        return False


def compact_string(s):
    # json.dumps without ensure_ascii writes exactly the escapes of [MAP-3]:
    # \" \\ \b \t \n \f \r, \u00xx in lower case for the other controls, all else as itself.
    return json.dumps(s, ensure_ascii=False)


def compact(v):
    """The compact form [MAP-3]."""
    out = []
    _compact(v, out)
    return "".join(out)


def _compact(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif type(v) is Number:
        out.append(str.__str__(v))
    elif type(v) is str:
        out.append(compact_string(v))
    elif type(v) is list:
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _compact(x, out)
        out.append("]")
    elif type(v) is Object:
        out.append("{")
        for i, (k, x) in enumerate(v):
            if i:
                out.append(",")
            out.append(compact_string(k))
            out.append(":")
            _compact(x, out)
        out.append("}")
    else:
        raise TypeError(f"not a JSON value: {type(v)}")


def same(a, b):
    """[MAP-2]: the same value, member order and number literals included."""
    return compact(a) == compact(b)


def is_object(v):
    return type(v) is Object


def member(obj, name, default=None):
    for k, v in obj:
        if k == name:
            return v
    return default


def has_member(obj, name):
    return any(k == name for k, _ in obj)


# ---------------------------------------------------------------- spelled values [MAP-5] [MAP-6]

FIRST = set('"[{-0123456789tfn')


def read_compact(text):
    """The value whose compact form text is, or None when it is none [MAP-5].
    RecursionError when it nests beyond the bound."""
    if not text or text[0] not in FIRST:
        return None
    try:
        v = parse_json(text)
    except JSONError:
        return None
    return (v,) if compact(v) == text else None


def spell(v, object_form=False):
    """The spelled text of a value [MAP-6]."""
    if type(v) is str:
        if v == "" or (object_form and v == "@"):
            return compact_string(v)
        try:
            if read_compact(v) is not None:
                return compact_string(v)
        except RecursionError:
            return compact_string(v)  # undecidable: quoting is always correct [MAP-6]
        return v
    return compact(v)


def needs_quotes(s):
    return spell(s) != s


def unspell(text, object_form=False, where=(None, None)):
    """The value a non-empty spelled text denotes [MAP-5]; `@` is the caller's. where is
    the (line, column) of the text, for the error of a value nested beyond the bound."""
    try:
        got = read_compact(text)
    except RecursionError:
        raise _limit("MAP-4", "a value nested beyond the bound", where) from None
    return got[0] if got is not None else text


# ---------------------------------------------------------------- layouts [LAY-6]

class Part:
    def __init__(self, section, member, shape, fields):
        self.section, self.member, self.shape = section, member, shape
        self.fields = fields  # (gcx name, JSON member, type, optional)


def _fields(spec):
    out = []
    for item in spec.split(", "):
        names, typ = item.split(": ")
        gcx, js = names.split(" <- ")
        optional = typ.endswith("?")
        out.append((gcx, js, typ.rstrip("?"), optional))
    return out


LAYOUTS = {
    "search_symbols": [Part("search_symbols", None, "rows", _fields(
        "id <- id: string, kind <- kind: string, name <- name: string, path <- file_path: string, "
        "line <- start_line: int, sig <- signature: string?"))],
    "find_usages": [Part("find_usages", None, "rows", _fields(
        "path <- file_path: string, line <- line: int, col <- column: int, kind <- kind: string, "
        "caller <- caller: string?, snippet <- snippet: string?"))],
    "get_callers": [
        Part("get_callers.nodes", "nodes", "rows", _fields(
            "id <- id: string, kind <- kind: string, name <- name: string, path <- file_path: string, "
            "line <- start_line: int, depth <- depth: int?")),
        Part("get_callers.edges", "edges", "rows", _fields(
            "from <- from: string, to <- to: string, kind <- kind: string, line <- line: int?"))],
    "analyze": [Part("analyze", None, "rows", _fields(
        "rule <- rule: string, severity <- severity: string, path <- file_path: string, line <- line: int, "
        "symbol <- symbol: string?, msg <- message: string"))],
    "find_cycles": [Part("find_cycles", None, "rows", _fields(
        "kind <- kind: string, len <- length: int, cycle <- nodes: json"))],
    "graph_stats": [Part("graph_stats", None, "object", _fields(
        "nodes <- nodes: int, edges <- edges: int, files <- files: int, symbols <- symbols: int, "
        "packages <- packages: int?, indexed <- indexed_at: string?"))],
    "get_symbol_source": [Part("get_symbol_source", None, "object", _fields(
        "id <- id: string, path <- file_path: string, start <- start_line: int, end <- end_line: int, "
        "lang <- language: string?, source <- source: string"))],
}
SECTION_LAYOUT = {p.section: (tool, p) for tool, parts in LAYOUTS.items() for p in parts}
CLAIMING_NAMES = set(LAYOUTS) | set(SECTION_LAYOUT)  # names under which the generic mapping writes json= [LAY-4]


def of_type(v, typ):
    """[LAY-3]."""
    if typ == "json":
        return True
    if typ == "string":
        return type(v) is str
    if typ == "bool":
        return type(v) is bool
    if typ == "number":
        return type(v) is Number
    if typ == "int":
        return type(v) is Number and INTEGER.fullmatch(v) is not None
    return False


def _fits_object(obj, part):
    if type(obj) is not Object:
        return False
    names = [js for _, js, _, _ in part.fields]
    position = 0
    for k, v in obj:
        if k not in names[position:]:
            return False  # undeclared, repeated or out of order
        position = names.index(k, position)
        if not of_type(v, part.fields[position][2]):
            return False
        position += 1
    present = {k for k, _ in obj}
    return all(opt or js in present for _, js, _, opt in part.fields)


def _fits_part(v, part):
    if part.shape == "rows":
        return type(v) is list and all(_fits_object(x, part) for x in v)
    return _fits_object(v, part)


def fits(v, tool):
    """[LAY-2]."""
    parts = LAYOUTS.get(tool)
    if not parts:
        return False
    if len(parts) == 1:
        return _fits_part(v, parts[0])
    return (type(v) is Object and [k for k, _ in v] == [p.member for p in parts]
            and all(_fits_part(x, p) for (_, x), p in zip(v, parts)))


def _layout_row(obj, part):
    return [spell(member(obj, js)) if has_member(obj, js) else "" for _, js, _, _ in part.fields]


def _layout_sections(v, tool):
    parts = LAYOUTS[tool]
    values = [v] if len(parts) == 1 else [x for _, x in v]
    out = []
    for part, x in zip(parts, values):
        rows = [_layout_row(o, part) for o in x] if part.shape == "rows" else [_layout_row(x, part)]
        out.append(Section(part.section, [f[0] for f in part.fields], [("rows", str(len(rows)))], rows))
    return out


# ---------------------------------------------------------------- encoding [MAP-12]

def _order(names_lists):
    """The one order of names that agrees with every list, found as [MAP-12] step 2
    says, or None when there is none."""
    first = {}
    preds = {}
    for names in names_lists:
        for i, n in enumerate(names):
            first.setdefault(n, len(first))
            preds.setdefault(n, set()).update(names[:i])
    placed, order = set(), []
    pending = sorted(first, key=first.get)
    while pending:
        for n in pending:
            if preds[n] <= placed:
                break
        else:
            return None
        pending.remove(n)
        placed.add(n)
        order.append(n)
    return order


def table_layout(v):
    """For an array that [MAP-12] step 2 writes as a table: the list of (name, spread
    sub-names or None). None when v is not such an array."""
    if type(v) is not list or not all(type(x) is Object for x in v):
        return None
    names = _order([[k for k, _ in x] for x in v])
    if names is None:
        return None
    columns = []
    for p in names:
        sub = _spread(v, p, names)
        columns.append((p, sub))
    return columns


def _spread(v, p, names):
    """The member names p is spread over [MAP-17], or None."""
    if not p or "," in p or any(n != p and n.startswith(p + ".") for n in names):
        return None
    objs = []
    for x in v:
        if not has_member(x, p) or type(member(x, p)) is not Object:
            return None
        objs.append(member(x, p))
    sub = _order([[k for k, _ in o] for o in objs])
    if not sub:
        return None
    filled = sum(len(o) for o in objs)
    empty = len(objs) * len(sub) - filled
    return sub if empty <= filled else None


def _table_section(tool, v, columns, root_json):
    """A table section [MAP-8] with its nest= [MAP-17] and str= [MAP-18]."""
    fields, getters = [], []  # getters: (field name, function element -> (present, value))
    nest = []
    for p, sub in columns:
        if sub is None:
            fields.append(p)
            getters.append(lambda x, p=p: (has_member(x, p), member(x, p)))
        else:
            nest.append(p)
            for s in sub:
                fields.append(p + "." + s)
                getters.append(lambda x, p=p, s=s: (has_member(member(x, p), s), member(member(x, p), s)))
    if not fields:
        fields, getters = [""], [lambda x: (False, None)]
    bare = []
    for name, get in zip(fields, getters):
        if not name or "," in name:
            continue
        present = [val for ok, val in map(get, v) if ok]
        if present and all(type(s) is str and s for s in present) and \
                sum(1 for s in present if needs_quotes(s)) >= 2:
            bare.append(name)
    bare_set = set(bare)
    rows = []
    for x in v:
        row = []
        for name, get in zip(fields, getters):
            ok, val = get(x)
            row.append("" if not ok else val if name in bare_set else spell(val))
        rows.append(row)
    meta = []
    if root_json:
        meta.append(("json", root_json))
    meta.append(("rows", str(len(rows))))
    if nest:
        meta.append(("nest", ",".join(nest)))
    if bare:
        meta.append(("str", ",".join(bare)))
    return Section(tool, fields, meta, rows)


HEADER_EXCLUDED = {"json", "rows", "nest", "str", "tool", "fields"}
HEADER_ESCAPED = re.compile("[ \t\n\r\\\\]")


def encode_value(v, tool):
    """The sections of the payload for v as the result of tool [MAP-12], and whether
    the root section is a table section (for [MCP-7])."""
    if not tool or not NAME.fullmatch(tool):
        raise GCXError("model", "HDR-3", None, None, f"tool name {tool!r} is not A-Z a-z 0-9 _ - .")
    if fits(v, tool):
        return _layout_sections(v, tool), LAYOUTS[tool][0].shape == "rows"
    columns = table_layout(v)
    if columns is not None:
        return [_table_section(tool, v, columns, "rows" if tool in CLAIMING_NAMES else None)], True
    if type(v) is list:
        rows = [[spell(x)] for x in v]
        return [Section(tool, [""], [("json", "array"), ("rows", str(len(rows)))], rows)], False
    if type(v) is Object:
        return _object_sections(v, tool), False
    return [Section(tool, [""], [("json", "value"), ("rows", "1")], [[spell(v)]])], False


def _object_sections(v, tool):
    def is_table(x, name, row_form):
        if type(x) is not list or not x or table_layout(x) is None:
            return False
        return not row_form or (name and NAME.fullmatch(name))

    header = all(k and NAME.fullmatch(k) and k not in HEADER_EXCLUDED for k, _ in v)
    if header:
        for k, x in v:
            # a table is written @, which total= and truncated= cannot hold [META-1] [META-3]
            text = "@" if is_table(x, k, False) else spell(x, True)
            if text == "@" and k not in ("total", "truncated"):
                continue
            if HEADER_ESCAPED.search(text) or \
                    (k == "total" and not (COUNT.fullmatch(text) and int(text) < 2**63)) or \
                    (k == "truncated" and text not in ("true", "false")):
                header = False
                break
    if header:
        tables = [(k, x) for k, x in v if is_table(x, k, False)]
        extra = []
        if tables:
            first = _table_section(tool, tables[0][1], table_layout(tables[0][1]), None)
            root = Section(tool, first.fields, [("json", "object")] + first.meta, first.rows)
            extra = [_table_section(f"{tool}.{k}", x, table_layout(x), None) for k, x in tables[1:]]
        else:
            root = Section(tool, [""], [("json", "object")])
        for k, x in v:
            root.meta.append((k, "@" if is_table(x, k, False) else spell(x, True)))
        return [root] + extra
    row, extra = [], []
    for k, x in v:
        if is_table(x, k, True):
            row.append("@")
            extra.append(_table_section(f"{tool}.{k}", x, table_layout(x), None))
        else:
            row.append(spell(x, True))
    root = Section(tool, [k for k, _ in v], [("json", "row"), ("rows", "1")], [row])
    return [root] + extra


# ---------------------------------------------------------------- decoding [MAP-7] to [MAP-11]

def _constraint(rule, message, where=(None, None)):
    return GCXError("constraint", rule, *where, message)


def _limit(rule, message, where=(None, None)):
    return GCXError("limit", rule, *where, message)


# Where each error of [MAP-14] stands: (line, column).
def _header_at(s):
    return s.line, 1


def _fields_at(s):
    return s.line, s.fields_column


def _meta_at(s, index):
    return s.line, s.meta_columns[index]


def _cell_at(s, row, index):
    return s.row_lines[row], s.cell_column(row, index)


def meta_value(section, key):
    for k, v in section.meta:
        if k == key:
            return v
    return None


def _check_nest(section, index):
    """[MAP-15]: the names nest=, the section's pair at index, lists."""
    fields, nest_text, where = section.fields, section.meta[index][1], _meta_at(section, index)
    nest = nest_text.split(",")
    for p in nest:
        if not p or nest.count(p) > 1 or p in fields or not any(f.startswith(p + ".") for f in fields):
            raise _constraint("MAP-15", f"nest={nest_text} breaks its rule", where)
    for f in fields:
        if sum(1 for p in nest if f.startswith(p + ".")) > 1:
            raise _constraint("MAP-15", f"field {f!r} belongs to two nested names", where)
    return nest


def _check_str(section, index):
    """[MAP-16]: the fields str=, the section's pair at index, lists."""
    fields, str_text = section.fields, section.meta[index][1]
    listed = str_text.split(",")
    for name in listed:
        if name not in fields or listed.count(name) > 1:
            raise _constraint("MAP-16", f"str={str_text} breaks its rule", _meta_at(section, index))
    return set(listed)


def _read_table(section):
    """A table section [MAP-8] with nest= [MAP-15] and str= [MAP-16]. Its pairs are
    checked in header order, then its rows."""
    fields, nest, bare = section.fields, [], set()
    for i, (k, x) in enumerate(section.meta):
        if k == "nest":
            nest = _check_nest(section, i)
        elif k == "str":
            bare = _check_str(section, i)
    owner = []
    for f in fields:
        p = next((p for p in nest if f.startswith(p + ".")), None)
        owner.append(p)
    out = []
    for r, row in enumerate(section.rows):
        obj, nested = Object(), {}
        for k, (f, p, cell) in enumerate(zip(fields, owner, row)):
            if p is not None:
                if p not in nested:
                    nested[p] = Object()
                    obj.append((p, nested[p]))
                if cell != "":
                    nested[p].append((f[len(p) + 1:], cell if f in bare else
                                      unspell(cell, False, _cell_at(section, r, k))))
            elif cell != "":
                obj.append((f, cell if f in bare else unspell(cell, False, _cell_at(section, r, k))))
        out.append(obj)
    return out


def _read_layout_part(section, part):
    if section.fields != [f[0] for f in part.fields]:
        raise _constraint("LAY-5", "the field list is not the layout's", _fields_at(section))
    # an object part's one row is read first; a second is an error where it
    # stands, unread, and a missing one is found at the section's end [MAP-14]
    objs = []
    for r, row in enumerate(section.rows[:1] if part.shape == "object" else section.rows):
        obj = Object()
        for k, ((_, js, typ, optional), cell) in enumerate(zip(part.fields, row)):
            where = _cell_at(section, r, k)
            if cell == "":
                if not optional:
                    raise _constraint("LAY-3", f"member {js} is required", where)
                continue
            value = unspell(cell, False, where)
            if not of_type(value, typ):
                raise _constraint("LAY-3", f"member {js} is not of type {typ}", where)
            obj.append((js, value))
        objs.append(obj)
    if part.shape == "object" and len(section.rows) != 1:
        raise _constraint("LAY-2", "an object part holds exactly one row", _header_at(section))
    return objs if part.shape == "rows" else objs[0]


def _read_layout(sections, tool, start_part):
    parts = LAYOUTS[tool]
    if start_part is not parts[0]:
        raise _constraint("LAY-4", "a root claims a layout part that is not the first", _header_at(sections[0]))
    values = []
    for i, part in enumerate(parts):
        if i >= len(sections):
            raise _constraint("LAY-4", f"the layout's part {part.section} is missing", _header_at(sections[0]))
        s = sections[i]
        if s.tool != part.section:
            raise _constraint("LAY-4", f"section {s.tool} is not the layout's part {part.section}",
                              _header_at(s))
        if s.fields != [f[0] for f in part.fields]:  # the field list comes before the pairs
            raise _constraint("LAY-5", "the field list is not the layout's", _fields_at(s))
        for k, (key, _) in enumerate(s.meta):
            if key in ("json", "nest", "str"):
                raise _constraint("LAY-4", f"a layout section carries {key}=", _meta_at(s, k))
        values.append(_read_layout_part(s, part))
    value = values[0] if len(parts) == 1 else Object((p.member, x) for p, x in zip(parts, values))
    return value, len(parts)


def _member_table(sections, index, root, name, at_sign):
    """The table of member name in sections[index]; at_sign is where its `@` stands."""
    if index >= len(sections):
        raise _constraint("MAP-11", f"no section left for the table of {name}", at_sign)
    s = sections[index]
    if s.tool != f"{root.tool}.{name}":
        raise _constraint("MAP-11", f"the table of {name} must be named {root.tool}.{name}", _header_at(s))
    # only the root's json= comes first; here it is checked in its place among
    # nest= and str=, in the header's order [MAP-14]
    for i, (k, x) in enumerate(s.meta):
        if k == "json":
            raise _constraint("MAP-11", "a member-table section carries json=", _meta_at(s, i))
        if k == "nest":
            _check_nest(s, i)
        elif k == "str":
            _check_str(s, i)
    return _read_table(s)


def decode_value(data):
    """Decode a payload and read its value [MAP-14]; returns (value, sections)."""
    sections = decode(data)
    root = sections[0]
    form = meta_value(root, "json")
    used = 1
    if form is None:
        if root.tool in SECTION_LAYOUT:
            tool, part = SECTION_LAYOUT[root.tool]
            value, used = _read_layout(sections, tool, part)
        elif root.tool in LAYOUTS:
            raise _constraint("LAY-4", f"{root.tool} is declared but names no part", _header_at(root))
        else:
            value = _read_table(root)
    elif form == "rows":
        value = _read_table(root)
    elif form in ("array", "value"):
        if len(root.fields) != 1:
            raise _constraint("MAP-9", "the array and value forms have one field", _fields_at(root))
        # the value form's one row is read first; a second is an error where it
        # stands, unread [MAP-14]
        rows = root.rows if form == "array" else root.rows[:1]
        items = []
        for r, row in enumerate(rows):
            if row[0] == "":
                raise _constraint("MAP-9", "an empty cell where no element can be absent", _cell_at(root, r, 0))
            items.append(unspell(row[0], False, _cell_at(root, r, 0)))
        if form == "value" and len(root.rows) != 1:
            raise _constraint("MAP-9", "the value form holds one row", _header_at(root))
        value = items if form == "array" else items[0]
    elif form == "object":
        # the header first, pair by pair [MAP-14]: nest= and str= of the root's table
        # and empty members; an @ with no section left for its table waits for the
        # end of the payload, after every other check
        tables = 0
        for i, (k, x) in enumerate(root.meta):
            if k == "nest":
                _check_nest(root, i)
            elif k == "str":
                _check_str(root, i)
            elif k in ("json", "rows"):
                continue
            elif x == "":
                raise _constraint("MAP-10", f"member {k} has an empty value", _meta_at(root, i))
            elif x == "@":
                tables += 1
        if tables == 0 and root.rows:
            raise _constraint("MAP-10", "a header-form root without a table holds rows", _header_at(root))
        value = Object()
        first_table = True
        for i, (k, x) in enumerate(root.meta):
            if k in ("json", "rows", "nest", "str"):
                continue
            if x == "@":
                if first_table:
                    first_table = False
                    value.append((k, _read_table(root)))
                else:
                    value.append((k, _member_table(sections, used, root, k, _meta_at(root, i))))
                    used += 1
            else:
                value.append((k, unspell(x, True, _meta_at(root, i))))
    elif form == "row":
        # the one row is read first; a second is an error where it stands,
        # unread, and a missing one is found at the section's end [MAP-14]
        members, table = [], object()  # table marks an @ cell
        for k, (f, cell) in enumerate(zip(root.fields, root.rows[0] if root.rows else [])):
            if cell != "":
                where = _cell_at(root, 0, k)
                members.append((f, (table, where) if cell == "@" else unspell(cell, True, where)))
        if len(root.rows) != 1:
            raise _constraint("MAP-10", "the row form holds one row", _header_at(root))
        value = Object()
        for f, x in members:  # the tables' sections follow the root
            if type(x) is tuple and x[0] is table:
                x = _member_table(sections, used, root, f, x[1])
                used += 1
            value.append((f, x))
    else:
        raise _constraint("MAP-7", f"json={form} names no form",
                          _meta_at(root, [k for k, _ in root.meta].index("json")))
    if used < len(sections):
        raise _constraint("MAP-7", "a section after those the value occupies", _header_at(sections[used]))
    return value, sections


def root_is_table(sections):
    """Whether the root is a table section [MCP-7]: the table form, or a layout part of shape rows."""
    root = sections[0]
    form = meta_value(root, "json")
    if form == "rows":
        return True
    if form is None:
        if root.tool in SECTION_LAYOUT:
            return SECTION_LAYOUT[root.tool][1].shape == "rows"
        return True
    return False
