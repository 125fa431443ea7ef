"""GCX1 decoder and encoder, written from docs/wire-format.md, chapters 2 to 13.

    decode(data, limits=None) -> [Section, ...]   payload bytes to sections
    encode(sections) -> bytes                      sections to canonical payload bytes
    to_wire(sections) / from_wire(data)            the JSON wire view of chapter 13

Every failure raises GCXError, whose class and rule follow [ERR-1] and [ERR-2].
Python 3.9+, standard library only.
"""

import json
import re
from dataclasses import dataclass, field


class GCXError(Exception):
    """An error of a class of [ERR-1] naming the rule it breaks. line and column
    (from 1, the column in bytes) say where a decoder met it [ERR-2]; they are
    None for encoder errors. tag names the version of an unsupported-version."""

    def __init__(self, cls, rule, line, column, message, tag=None):
        super().__init__(message)
        self.cls, self.rule, self.line, self.column = cls, rule, line, column
        self.message, self.tag = message, tag

    def __str__(self):
        where = f"line {self.line}, column {self.column}: " if self.line else ""
        return f"{where}{self.cls}: {self.message} [{self.rule}]"


@dataclass
class Section:
    """One table: a header, its rows and its comments [PAY-2]."""
    tool: str
    fields: list                                  # field names, decoded [HDR-4]
    meta: list = field(default_factory=list)      # (key, value) pairs in wire order [HDR-9]
    rows: list = field(default_factory=list)      # lists of decoded values [ROW-1]
    comments: list = field(default_factory=list)  # (rows before it, text) [CMT-3]
    # Where a decoder read it, for the errors of the JSON mapping [MAP-14]: the header's
    # line, the columns of its field list and of each meta value, each row's line.
    line: int = 0
    fields_column: int = 0
    meta_columns: list = field(default_factory=list)
    row_lines: list = field(default_factory=list)
    source: list = field(default_factory=list, repr=False)  # the payload's lines, shared
    # Read from a wire view: where in the view each of its values stands, for the
    # encoder's refusals [WIRE-3]; None for a section made in memory.
    place: object = field(default=None, repr=False)

    def cell_column(self, row, index):
        """The column of a row's cell: its first byte after the guard [ROW-4]."""
        line = self.source[self.row_lines[row] - 1]
        start = 1 if line.startswith("\\#") or line.startswith("\\GCX") else 0
        before = "\t".join(line[start:].split("\t")[:index]) + ("\t" if index else "")
        return start + len(before.encode("utf-8", "surrogateescape")) + 1


# The decoder reads the payload as text decoded with "surrogateescape": a byte
# that is not UTF-8 becomes a lone surrogate U+DC80..U+DCFF, which valid UTF-8
# never yields, and is reported where the grammar meets it [ENC-1].
BAD = "\udc80-\udcff"
TAG = re.compile(r"GCX[A-Za-z0-9._-]*")          # [VER-1]
NAME = re.compile(r"[A-Za-z0-9_.-]*")            # [HDR-3]
FIELD_RUN = re.compile(f"[^ ,\t\r\\\\{BAD}]*")   # field name characters [HDR-5]
META_RUN = re.compile(f"[^ \t\r\\\\{BAD}]*")     # meta value characters [HDR-7]
ROW_SPECIAL = re.compile(f"[\\\\\r{BAD}]")       # what a value never holds raw [VAL-3]
COMMENT_SPECIAL = re.compile(f"[\r{BAD}]")       # what a comment never holds [CMT-1]
ROW_ESCAPE = re.compile(r"\\(.)")
COUNT = re.compile(r"0|[1-9][0-9]*")             # [META-1]
LONE_SURROGATE = re.compile("[\ud800-\udfff]")

VALUE_ESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}  # [VAL-1]
META_ESCAPES = dict(VALUE_ESCAPES, s=" ")                       # [HDR-7]
FIELD_ESCAPES = dict(META_ESCAPES, **{",": ","})                # [HDR-5]


def reserved_value_rule(key, value):
    """The rule a reserved meta value breaks, or None [META-1] [META-3]."""
    if key in ("rows", "total") and not (COUNT.fullmatch(value) and int(value) < 2**63):
        return "META-1"
    if key == "truncated" and value not in ("true", "false"):
        return "META-3"
    return None


# ---------------------------------------------------------------- decoding

def decode(data, limits=None):
    """Decode a whole payload into a list of Sections, or raise GCXError. limits
    may set "max-line-bytes", "max-fields", "max-sections", "max-rows" [LIM-1];
    by default there are none, which is more than [LIM-2] asks."""
    return _Decoder(limits or {}).payload(bytes(data))


class _Decoder:
    """Reads lines in order and reports the first error in the order of [ERR-3]."""

    def __init__(self, limits):
        self.max_line = limits.get("max-line-bytes")
        self.max_fields = limits.get("max-fields")
        self.max_sections = limits.get("max-sections")
        self.max_rows = limits.get("max-rows")
        self.sections = []
        self.rows_decl = None  # (line, column, count) of the open section's rows= [META-4]
        self.number, self.line, self.terminated = 1, "", True

    def fail(self, cls, rule, i, message, tag=None):
        """Raise an error at character index i of the current line."""
        column = len(self.line[:i].encode("utf-8", "surrogateescape")) + 1
        raise GCXError(cls, rule, self.number, column, message, tag)

    def syntax(self, rule, i, expected):
        """The grammar cannot go on at index i. Some characters name the rule
        themselves, wherever they stand [ERR-2]: a byte that is not UTF-8 [ENC-1],
        a raw CR [ENC-3], the end of the input inside a line [LINE-1]."""
        c = self.line[i:i + 1]
        found = repr(c) if c else "LF"
        if not c and not self.terminated:
            rule, found = "LINE-1", "the end of the input"
        elif c == "\r":
            rule, found = "ENC-3", "CR"
        elif "\udc80" <= c <= "\udcff":
            rule, found = "ENC-1", f"byte 0x{ord(c) - 0xDC00:02x}, which is not UTF-8"
        self.fail("syntax", rule, i, f"expected {expected}, found {found}")

    def payload(self, data):
        # [ERR-3] step 2: tell another format from a broken payload [PAY-1] [ENC-2].
        if not data.startswith(b"GCX"):
            if data.startswith(b"\xef\xbb\xbf"):
                self.fail("not-gcx", "ENC-2", 0, "payload begins with a byte-order mark")
            self.fail("not-gcx", "PAY-1", 0, "input does not begin with GCX")
        lines = data.decode("utf-8", "surrogateescape").split("\n")
        complete = lines[-1] == ""  # every line ends with LF [LINE-1]
        if complete:
            lines.pop()
        self.source = lines
        for number, line in enumerate(lines, 1):
            self.number, self.line = number, line
            self.terminated = complete or number < len(lines)
            if line.startswith("GCX"):  # the first bytes give the line's kind [LINE-2]
                self.end_section()
                self.header()
            elif line.startswith("#"):
                self.comment()
            else:
                self.row()
        self.end_section()
        return self.sections

    def end_section(self):
        """[ERR-3] step 1: rows= must equal the rows the ending section holds [META-4]."""
        if self.rows_decl:
            number, column, count = self.rows_decl
            held = len(self.sections[-1].rows)
            if held != count:
                raise GCXError("constraint", "META-4", number, column,
                               f"rows={count} but the section holds {held} rows")
            self.rows_decl = None

    def check_length(self):
        """[ERR-3] step 4: the line limit, at column limit+1, LF not counted [LIM-3]."""
        limit = self.max_line
        if limit is not None and len(self.line.encode("utf-8", "surrogateescape")) > limit:
            raise GCXError("limit", "LIM-3", self.number, limit + 1,
                           f"line is longer than the limit of {limit} bytes")

    def header(self):
        line = self.line
        # [ERR-3] step 3: the section limit [LIM-3], then the version tag [VER-1]:
        # GCX, 1 to 29 tag characters, then SP, LF or the end of the input.
        if len(self.sections) == self.max_sections:
            self.fail("limit", "LIM-3", 0, f"more than the limit of {self.max_sections} sections")
        n = TAG.match(line).end()
        if n == 3 or n > 32 or line[n:n + 1] not in ("", " "):
            self.fail("syntax", "VER-3", min(n, 32), "malformed version tag")
        if line[:n] != "GCX1":  # [VER-2], or [VER-4] in a later section
            self.fail("unsupported-version", "VER-4" if self.sections else "VER-2", 0,
                      f"version tag {line[:n]} is not GCX1; ask again for JSON", line[:n])
        self.check_length()

        # [ERR-3] step 5, the grammar: GCX1 SP tool=NAME SP fields=LIST {SP KEY=VALUE} LF
        # [HDR-1] [HDR-2].
        i = self.literal(4, " ", "HDR-1")
        i = self.literal(i, "tool=", "HDR-2")
        tool, i = self.name(i, " ")
        i = self.literal(i, " ", "HDR-1")
        i = self.literal(i, "fields=", "HDR-2")
        fields, fields_at = [], i  # (index, name)
        while True:
            name, end = self.escaped(i, FIELD_RUN, FIELD_ESCAPES, "HDR-5")
            fields.append((i, name))
            if not line.startswith(",", end):
                break
            i = end + 1
        i, metas = end, []  # (key index, key, value index, value)
        while line.startswith(" ", i):
            key, j = self.name(i + 1, "=")
            j = self.literal(j, "=", "HDR-1")
            value, end = self.escaped(j, META_RUN, META_ESCAPES, "HDR-7")
            metas.append((i + 1, key, j, value))
            i = end
        if i < len(line) or not self.terminated:
            self.syntax("HDR-1", i, "SP or LF")

        # [ERR-3] step 6, Appendix B in column order; the field limit before [HDR-6].
        seen = set()
        for count, (at, name) in enumerate(fields):
            if count == self.max_fields:
                self.fail("limit", "LIM-3", at, f"more than the limit of {count} fields")
            if name in seen:
                self.fail("constraint", "HDR-6", at, f"field name {name!r} appears twice")
            seen.add(name)
        seen = set()
        for key_at, key, value_at, value in metas:
            if key in ("tool", "fields") or key in seen:  # [HDR-8]
                self.fail("constraint", "HDR-8", key_at, f"meta key {key} is repeated or reserved")
            seen.add(key)
            rule = reserved_value_rule(key, value)
            if rule:
                self.fail("constraint", rule, value_at, f"{key}={value!r} is not allowed")
            if key == "rows":
                column = len(line[:value_at].encode("utf-8", "surrogateescape")) + 1
                self.rows_decl = (self.number, column, int(value))
        def column(i):
            return len(line[:i].encode("utf-8", "surrogateescape")) + 1
        self.sections.append(Section(tool, [name for _, name in fields],
                                     [(key, value) for _, key, _, value in metas],
                                     line=self.number, fields_column=column(fields_at),
                                     meta_columns=[column(at) for _, _, at, _ in metas],
                                     source=self.source))

    def literal(self, i, text, rule):
        """Match text at i, failing at its first differing byte; a SP there is a
        doubled SP, which [ERR-2] attributes to [HDR-1]."""
        for k, c in enumerate(text):
            found = self.line[i + k:i + k + 1]
            if found != c:
                self.syntax("HDR-1" if found == " " else rule, i + k, repr(text))
        return i + len(text)

    def name(self, i, follow):
        """A tool name or meta key [HDR-3], followed by `follow`. A SP, TAB or LF
        after it is left to the caller (a missing SP or '=' [HDR-1]); an empty meta
        key before one of them is a doubled or trailing SP [HDR-1]."""
        end = NAME.match(self.line, i).end()
        after = self.line[end:end + 1]
        separator = after in ("", " ", "\t")
        if end == i:
            self.syntax("HDR-1" if separator and follow == "=" else "HDR-3", end, "a name")
        if after != follow and not separator:
            self.syntax("HDR-3", end, "a name character (A-Z a-z 0-9 _ - .)")
        return self.line[i:end], end

    def escaped(self, i, run, escapes, rule):
        """A field name [HDR-5] or meta value [HDR-7]: characters matching `run`
        and the escapes of `escapes`. Returns the decoded text and where it ends."""
        parts = []
        while True:
            end = run.match(self.line, i).end()
            parts.append(self.line[i:end])
            if not self.line.startswith("\\", end):
                return "".join(parts), end
            c = self.line[end + 1:end + 2]
            if c not in escapes:
                self.syntax(rule, end + 1, "an escape")
            parts.append(escapes[c])
            i = end + 2

    def comment(self):
        """[CMT-1]: '#', any text but CR, then LF; kept with its place [CMT-3]."""
        self.check_length()
        bad = COMMENT_SPECIAL.search(self.line)
        if bad or not self.terminated:
            self.syntax("CMT-1", bad.start() if bad else len(self.line), "LF")
        section = self.sections[-1]
        section.comments.append((len(section.rows), self.line[1:]))

    def row(self):
        line, section = self.line, self.sections[-1]
        if len(section.rows) == self.max_rows:  # [ERR-3] step 3 [LIM-3]
            self.fail("limit", "LIM-3", 0, f"more than the limit of {self.max_rows} rows")
        self.check_length()
        start = self.guard() if line.startswith("\\") else 0
        special = ROW_SPECIAL.search(line, start)
        if special or not self.terminated:
            self.check_escapes(special)
        # [ROW-2]: one value per field; a raw TAB always separates [VAL-3]. Too many
        # values fail at the TAB before the first extra one, too few at the LF.
        values, width = line[start:].split("\t"), len(section.fields)
        if len(values) != width:
            at = start + len("\t".join(values[:width])) if len(values) > width else len(line)
            self.fail("constraint", "ROW-2", at, f"{len(values)} values for {width} fields")
        if special:
            values = [ROW_ESCAPE.sub(lambda m: VALUE_ESCAPES[m.group(1)], v) for v in values]
        section.rows.append(values)
        section.row_lines.append(self.number)

    def guard(self):
        """[ROW-4]: a row line beginning with a backslash may begin with the guard,
        which protects a first value beginning with '#' or 'GCX' and is dropped.
        Returns the index where the first value starts."""
        if self.line.startswith("\\#"):
            return 1
        if self.line.startswith("\\G"):
            for k, c in ((2, "C"), (3, "X")):
                if self.line[k:k + 1] != c:
                    self.syntax("ROW-4", k, "GCX after the guard")
            return 1
        return 0  # an ordinary escape

    def check_escapes(self, special):
        """[VAL-2]: every backslash begins one of the escapes of [VAL-1]. `special`
        is the first match of ROW_SPECIAL; a raw CR or a byte that is not UTF-8 is
        an error anywhere [ERR-2]. The row must also end with LF [LINE-1]."""
        line = self.line
        while special:
            i = special.start()
            if line[i] != "\\":
                self.syntax("VAL-3", i, "a value character")  # becomes ENC-1 or ENC-3
            if line[i + 1:i + 2] not in VALUE_ESCAPES:
                self.syntax("VAL-2", i + 1, "one of \\ t n r after a backslash")
            special = ROW_SPECIAL.search(line, i + 2)
        if not self.terminated:
            self.syntax("LINE-1", len(line), "LF")


# ---------------------------------------------------------------- encoding

# The encoder's escapes are the decoder's tables turned round.
FIELD_SPELLING = str.maketrans({c: "\\" + e for e, c in FIELD_ESCAPES.items()})  # [HDR-5]
META_SPELLING = str.maketrans({c: "\\" + e for e, c in META_ESCAPES.items()})    # [HDR-7]
VALUE_SPELLING = str.maketrans({c: "\\" + e for e, c in VALUE_ESCAPES.items()})  # [VAL-1]


def _refuse(rule, message, section=None, *path):
    """A model error [CAN-3]; for a section read from a wire view, placed at the JSON
    value the path names in it [WIRE-3]."""
    line = column = None
    if section is not None and section.place is not None:
        line, column = section.place(path)
    return GCXError("model", rule, line, column, message)


def _check(s, where):
    """Refuse a section that has no spelling [CAN-3]."""
    if not s.tool or not NAME.fullmatch(s.tool):
        raise _refuse("HDR-3", f"{where}: tool name {s.tool!r} is not A-Z a-z 0-9 _ - .", s, "tool")
    if not s.fields:
        raise _refuse("HDR-4", f"{where}: a section needs at least one field", s, "fields")
    seen = set()
    for index, name in enumerate(s.fields):
        if name in seen:  # at its second occurrence
            raise _refuse("HDR-6", f"{where}: field names repeat", s, "fields", index)
        seen.add(name)
    keys = set()
    rows_at = None  # the index of the rows= pair
    for index, (key, value) in enumerate(s.meta):
        if not key or not NAME.fullmatch(key):
            raise _refuse("HDR-3", f"{where}: meta key {key!r} is not A-Z a-z 0-9 _ - .", s, "meta", index, 0)
        if key in ("tool", "fields") or key in keys:
            raise _refuse("HDR-8", f"{where}: meta key {key} is repeated or reserved", s, "meta", index, 0)
        keys.add(key)
        rule = reserved_value_rule(key, value)
        if rule:
            raise _refuse(rule, f"{where}: {key}={value!r} is not allowed", s, "meta", index, 1)
        if key == "rows":
            rows_at = index
    # Rows and comments in the order a writer meets them [CAN-3]: each comment
    # once the rows its place counts are written, a row beyond rows= after its
    # own check, the comments beyond the last row, and rows= too large last.
    declared = next((int(value) for key, value in s.meta if key == "rows"), None)
    comments = enumerate(s.comments)
    number, pending = next(comments, (None, None))
    previous = 0
    for written in range(len(s.rows) + 1):
        while pending is not None and pending[0] <= written:
            row, text = pending
            if not previous <= row <= len(s.rows):
                raise _refuse("CMT-3", f"{where}: a comment placed at row {row}, out of order or range",
                              s, "comments", number, 0)
            if "\n" in text or "\r" in text:
                raise _refuse("CMT-4", f"{where}: a comment holds LF or CR", s, "comments", number, 1)
            previous = row
            number, pending = next(comments, (None, None))
        if written == len(s.rows):
            break
        width = len(s.rows[written])
        if width != len(s.fields):  # the first value too many, or the row's [ when too few
            at = ("rows", written, len(s.fields)) if width > len(s.fields) else ("rows", written)
            raise _refuse("ROW-2", f"{where}: a row does not have one value per field", s, *at)
        if declared == written:
            raise _refuse("META-4", f"{where}: rows={declared} but the section holds {len(s.rows)} rows",
                          s, "meta", rows_at, 1)
    if pending is not None:
        raise _refuse("CMT-3", f"{where}: a comment placed at row {pending[0]}, beyond the {len(s.rows)} rows",
                      s, "comments", number, 0)
    if declared is not None and declared != len(s.rows):
        raise _refuse("META-4", f"{where}: rows={declared} but the section holds {len(s.rows)} rows",
                      s, "meta", rows_at, 1)


def _spell_row(row):
    """A row line: values escaped [VAL-1] and joined by TAB, then the guard if the
    line would begin with '#' or 'GCX' [ROW-4]."""
    line = "\t".join([v.translate(VALUE_SPELLING) for v in row])
    return "\\" + line if line.startswith(("#", "GCX")) else line


def encode(sections):
    """The canonical bytes of a list of Sections [CAN-2], or GCXError (class model)."""
    if not sections:
        error = _refuse("PAY-1", "a payload needs at least one section")
        place = getattr(sections, "place", None)  # a view's: the [ of its sections [WIRE-3]
        if place is not None:
            error.line, error.column = place(("sections",))
        raise error
    out = []  # lines without their LF
    for number, s in enumerate(sections, 1):
        _check(s, f"section {number}")
        fields = ",".join(f.translate(FIELD_SPELLING) for f in s.fields)
        meta = "".join(f" {k}={v.translate(META_SPELLING)}" for k, v in s.meta)
        out.append(f"GCX1 tool={s.tool} fields={fields}{meta}")
        before = {}  # row index -> the comment lines placed before that row
        for row, text in s.comments:
            before.setdefault(row, []).append("#" + text)
        for index, row in enumerate(s.rows):
            if index in before:
                out.extend(before[index])
            out.append(_spell_row(row))
        out.extend(before.get(len(s.rows), ()))
    try:
        return ("\n".join(out) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate is no character [ENC-1]
        raise _refuse("ENC-1", "a string is not valid UTF-8") from None


# ---------------------------------------------------------------- wire view

def to_wire(sections):
    """The wire view [WIRE-1] of decoded sections, as UTF-8 JSON bytes."""
    view = []
    for s in sections:
        item = {"tool": s.tool, "fields": s.fields, "meta": s.meta, "rows": s.rows}
        if s.comments:
            item["comments"] = s.comments
        view.append(item)
    text = json.dumps({"sections": view}, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


_COMMENT_ROW = re.compile(r"-?(?:0|[1-9][0-9]*)")  # [WIRE-2]: no fraction, no exponent


def from_wire(data):
    """Read a wire view strictly [WIRE-2] into a list of Sections, refusing at the JSON value
    at fault [WIRE-3]. Its faults are reported in reading order, as a streaming reader meets
    them: a value of the wrong kind once its token is read, an unknown or repeated key at its
    name, a missing key at the object that lacks it once it closes, a pair that ends early at
    its [ once it closes, one too long at its first element beyond the two; text that is not
    JSON at the first byte where JSON allows none. So the view is read as a tree up to its
    first byte that is not JSON, the checks run over that tree in order, and the byte is
    reported only if they find nothing before it. Python's json module is lenient, so
    repeated keys, NaN and lone surrogates are checked here."""
    text = data.decode("utf-8", "surrogateescape")
    stop, fault = len(text), None  # the first byte that is not JSON, and what it breaks
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        stop, fault = len(data[:e.start].decode("utf-8")), "not valid UTF-8"
    try:
        json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:  # also data after the view
        at = _json_fault(text, e)
        if fault is None or at < stop:
            stop, fault = at, f"not one JSON text ({e.msg})"
    except (ValueError, RecursionError) as e:
        stop, fault = min(stop, len(text)), f"not one JSON text ({e})"

    def refuse(message, offset=None):
        line = column = None
        if offset is not None:
            line, column = _position(text, offset)
        return GCXError("model", "WIRE-2", line, column, "wire view: " + message)

    try:
        root = _tree(text, stop)
    except _LoneSurrogate as e:  # met while reading the string, before the string's kind
        stop, fault = e.offset, "a string holds a lone surrogate escape"
        root = _tree(text, stop)
    try:
        sections = _from_tree(text, root, refuse)
    except _Unread:  # the checks reached the first byte that is not JSON
        sections = None
    if fault is not None:  # text cut short, or data after the view
        raise refuse(fault, stop)
    return sections


def _from_tree(text, root, refuse):
    """The sections of a view read as a tree by _tree, checked in reading order; _Unread
    when the checks reach the end of what was read."""

    def kind(node, k, what):
        if node is None:  # an element or value the text does not finish
            raise _Unread
        if node[1] != k:
            raise refuse(f"{what} must be {'an' if k[0] in 'ao' else 'a'} {k}", node[0])
        return node[2]

    def string(node, what):
        return kind(node, "string", what)  # lone surrogates are met as the tree is read

    def elements(node, what):
        """The elements of an array, in order, then _Unread if it is not closed."""
        yield from kind(node, "array", what)
        if not node[3]:
            raise _Unread

    def pair(node, what, checks):
        items = kind(node, "array", what)
        out = []
        for i, check in enumerate(checks):
            if i >= len(items):
                if not node[3]:
                    raise _Unread
                raise refuse(f"{what} ends early", node[0])  # met at its ]
            out.append(check(items[i]))
        if len(items) > len(checks):
            raise refuse(f"{what} has more than {len(checks)} elements", items[len(checks)][0])
        if not node[3]:
            raise _Unread
        return tuple(out)

    def comment_row(node):
        if node[1] != "number":
            raise refuse("a comment's row must be an integer", node[0])  # not true or "1"
        return node

    def comment_row_value(node):  # 1.0 or 1e0, met once the pair is read
        if not _COMMENT_ROW.fullmatch(node[2]):
            raise refuse("a comment's row must be an integer", node[0])
        return int(node[2])

    def members(node, each):
        seen = set()
        for name, offset, value in node[2]:
            if name in seen:
                raise refuse(f"an object repeats the key {json.dumps(name)}", offset)
            seen.add(name)
            each(name, offset, value)
        if not node[3]:  # its missing keys are met at its }
            raise _Unread
        return seen

    def section(node, number):
        kind(node, "object", "a section")
        got = {}

        def member(name, offset, value):
            if name == "tool":
                got[name] = string(value, "tool")
            elif name == "fields":
                got[name] = [string(f, "a field name") for f in elements(value, "fields")]
            elif name == "meta":
                got[name] = [pair(m, "a meta pair [key, value]", (lambda n: string(n, "a meta key"),
                                                                   lambda n: string(n, "a meta value")))
                             for m in elements(value, "meta")]
            elif name == "rows":
                got[name] = [[string(v, "a value") for v in elements(r, "a row")]
                             for r in elements(value, "rows")]
            elif name == "comments":
                got[name] = [(comment_row_value(row), comment)
                             for row, comment in (pair(c, "a comment [row, text]",
                                                       (comment_row, lambda n: string(n, "a comment")))
                                                  for c in elements(value, "comments"))]
            else:
                raise refuse(f"unknown key {_short(name)} in a section", offset)

        members(node, member)
        if "tool" not in got or "fields" not in got:
            raise refuse('a section needs "tool" and "fields"', node[0])
        return Section(got["tool"], got["fields"], got.get("meta", []), got.get("rows", []),
                       got.get("comments", []), place=lambda path, n=number: place(("sections", n) + path))

    def place(path):
        node = root
        for step in path:
            node = next(v for k, _, v in node[2] if k == step) if node[1] == "object" else node[2][step]
        return _position(text, node[0])

    sections = _View()
    sections.place = place
    kind(root, "object", 'a wire view {"sections": [...]}')

    def top(name, offset, value):
        if name != "sections":
            raise refuse(f'unknown key {_short(name)}; a view has only "sections"', offset)
        for number, s in enumerate(elements(value, "sections")):
            sections.append(section(s, number))

    if "sections" not in members(root, top):
        raise refuse('missing key "sections"', root[0])
    return sections


class _View(list):
    """The sections of a wire view, with place: where a path of keys and indices
    stands in the view, as (line, column in bytes) [WIRE-3]."""


_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def _position(text, offset):
    """The line and column (in bytes, from 1) of character offset in text, on lines ended by
    LF alone [ERR-2]."""
    start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, len(text[start:offset].encode("utf-8", "surrogatepass")) + 1


_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)")


def _short(name):
    """A name quoted for a message, at most a short prefix of it: a message never quotes much of
    its input."""
    return json.dumps(name[:32]) + ("..." if len(name) > 32 else "")


def _lone_escape_before(text, i, stop):
    """The offset of the first escape of a lone surrogate in the string literal cut short
    whose text begins at i, before stop, where the text stops being read: a high surrogate
    whose escape is the last before stop has no low one after it. None when there is none."""
    j, pending = i, None
    while j < stop and text[j] != '"':
        m = _ESCAPE.match(text, j, stop)
        if not m:
            if pending is not None:
                return pending
            j += 1
            continue
        code = int(m.group(1), 16) if m.group(1) else None
        if pending is not None:
            if code is None or not 0xDC00 <= code <= 0xDFFF:
                return pending
            pending = None
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return j
        elif code is not None and 0xD800 <= code <= 0xDBFF:
            pending = j
        j = m.end()
    return pending


def _lone_escape(text, i):
    """The offset of the first escape of a lone surrogate in the string literal at i."""
    j, pending = i + 1, None  # pending: the offset of a high surrogate's escape
    while text[j] != '"':
        m = _ESCAPE.match(text, j)
        if not m:
            if pending is not None:
                return pending
            j += 1
            continue
        code = int(m.group(1), 16) if m.group(1) else None
        if pending is not None:
            if code is None or not 0xDC00 <= code <= 0xDFFF:
                return pending
            pending = None
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return j
        elif code is not None and 0xD800 <= code <= 0xDBFF:
            pending = j
        j = m.end()
    return pending if pending is not None else i


def _json_fault(text, e):
    """The offset of the first byte where JSON allows none [WIRE-3], for a JSONDecodeError
    e of text: Python's json places some faults at the start of the token that holds them."""
    i = e.pos
    if e.msg.startswith("Unterminated string"):  # met at the end of the input, not its quote
        return len(text)
    if e.msg.startswith("Invalid \\escape"):  # the character after the backslash
        return i + 1
    if e.msg.startswith("Invalid \\uXXXX"):  # at the u: the first of the four that is no hex digit
        j = i + 1
        while j < min(i + 5, len(text)) and text[j] in "0123456789abcdefABCDEF":
            j += 1
        return j
    if i < len(text) and e.msg == "Expecting value":
        for literal in ("true", "false", "null"):
            if text[i] == literal[0]:  # the first byte that differs from the word
                k = 0
                while k < len(literal) and i + k < len(text) and text[i + k] == literal[k]:
                    k += 1
                return i + k
    if i < len(text) and text[i] in "-.eE":  # a number broken at this byte or after it
        start = i
        while start > 0 and text[start - 1] in "0123456789-":
            start -= 1
        if start < i or text[i] == "-":
            return _number_fault(text, start, i)
    return i


def _number_fault(text, i, at):
    """Where the number token at i stops being JSON, as a reader scans it, or at."""
    n = len(text)
    digits = lambda j: j + len(re.match(r"[0-9]*", text[j:]).group())  # noqa: E731
    if i < n and text[i] == "-":
        i += 1
    if i < n and text[i] == "0":
        i += 1
    elif i < n and "1" <= text[i] <= "9":
        i = digits(i)
    else:
        return i
    if i < n and text[i] == ".":
        j = digits(i + 1)
        if j == i + 1:
            return j
        i = j
    if i < n and text[i] in "eE":
        i += 1
        if i < n and text[i] in "+-":
            i += 1
        if digits(i) == i:
            return i
    return at


class _Unread(Exception):
    """The checks of a view reached the end of what was read of it."""


class _LoneSurrogate(Exception):
    """A string of a view holds a lone surrogate escape, at offset."""

    def __init__(self, offset):
        super().__init__(offset)
        self.offset = offset


class _Cut(Exception):
    """The view's text stops being JSON before the next token ends."""


# A number's token as a reader takes it in: whatever follows its parts greedily; a
# token that is not then a whole _NUMBER ("-", "1.", "1e") is no number.
_NUMBER_TOKEN = re.compile(r"-?(?:0|[1-9][0-9]*)?(?:\.[0-9]*)?(?:[eE][-+]?[0-9]*)?")
_LONGEST_KEY = len("comments")  # a longer name is unknown once that much is read [WIRE-3]
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")


def _decoded_bytes(raw):
    """The bytes the raw text of a string cut short decodes to, as far as it goes: a short
    escape is one byte, a \\u escape the UTF-8 length of its character (a surrogate half of
    its pair's four), an escape cut short or malformed one byte, as the reader that finds it
    reports it [WIRE-3]."""
    n, i = 0, 0
    while i < len(raw):
        if raw[i] != "\\":
            n += len(raw[i].encode("utf-8", "surrogatepass"))
            i += 1
        elif i + 1 < len(raw) and raw[i + 1] != "u":
            n, i = n + 1, i + 2
        elif _HEX4.fullmatch(raw, i + 2, i + 6):
            u = int(raw[i + 2:i + 6], 16)
            n, i = n + (2 if 0xD800 <= u <= 0xDFFF else len(chr(u).encode("utf-8"))), i + 6
        else:
            n, i = n + 1, i + (2 if i + 1 < len(raw) else 1)
    return n


def _tree(text, stop):
    """What a reader reads of a JSON text before its offset stop, the first character that
    is not JSON, as a tree of nodes: an array [offset, "array", nodes, closed], an object
    [offset, "object", members, closed] whose members are [name, offset of the name, node]
    in order, repeats kept, and (offset, kind, content) for a string (the string), number
    (its literal) or literal (true, false, null). Only tokens that end before stop are in the
    tree; a member whose value does not has None for it, and a name cut by stop is kept once
    more of it is read than any key of a view holds. Offsets are of the value's first
    character, the [ or { of an array or object [WIRE-3]. None when nothing is read.
    _LoneSurrogate when a string read holds one."""
    ws = re.compile(r"[ \t\n\r]*")

    def skip(i):
        j = ws.match(text, i).end()
        if j >= stop:
            raise _Cut
        return j

    def string(i):  # -> (the string, end)
        try:
            got, j = json.decoder.scanstring(text, i + 1)
        except json.JSONDecodeError:
            lone = _lone_escape_before(text, i + 1, stop)
            if lone is not None:  # where it stands, before the string's end [WIRE-3]
                raise _LoneSurrogate(lone) from None
            raise _Cut from None
        if j > stop:
            raise _Cut
        if LONE_SURROGATE.search(got):
            raise _LoneSurrogate(_lone_escape(text, i))
        return got, j

    def value(i, put):  # -> the end of the value, put given its node once it begins
        i = skip(i)
        c = text[i]
        if c in "[{":
            node = [i, "array" if c == "[" else "object", [], False]
            put(node)
            close = "]" if c == "[" else "}"
            j = skip(i + 1)
            while True:
                if text[j] == close:
                    node[3] = True
                    return j + 1
                if c == "[":
                    j = value(j, node[2].append)
                else:
                    member = [None, j, None]
                    try:
                        member[0], j = string(j)
                    except _Cut:
                        read = text[member[1] + 1:stop]
                        if _decoded_bytes(read) > _LONGEST_KEY:
                            member[0] = read
                            node[2].append(member)
                        raise
                    node[2].append(member)
                    j = value(skip(j) + 1, lambda v: member.__setitem__(2, v))  # past the colon
                j = skip(j)
                if text[j] == ",":
                    j = skip(j + 1)
        if c == '"':
            got, j = string(i)
            put((i, "string", got))
            return j
        for literal in ("true", "false", "null"):
            if c == literal[0]:
                if not text.startswith(literal, i) or i + len(literal) > stop:
                    raise _Cut
                put((i, "literal", literal))
                return i + len(literal)
        j = _NUMBER_TOKEN.match(text, i).end()
        if not _NUMBER.fullmatch(text, i, j) or j > stop:
            raise _Cut
        put((i, "number", text[i:j]))
        return j

    root = []
    try:
        value(0, root.append)
    except _Cut:
        pass
    return root[0] if root else None
