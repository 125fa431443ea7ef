#!/usr/bin/env node
// A GCX1 adapter for the conformance runner, written from the specification alone.
//
// This program was written from docs/wire-format.md (revision 1.3, chapters 1 to 14) and the protocol of
// docs/conformance.md, without reading the reference implementations or the vector files. It is one file and uses
// the Node 20 standard library only. Run it with:
//
//     gcx conformance -- node adapter.js
//
// It answers these ops, with the arguments the runner appends (those of `gcx` itself, [WIRE-3]):
//
//     decode --wire [limits]            a GCX1 payload on stdin; its wire view [WIRE-1] on stdout
//     encode --wire                     a wire view on stdin; its canonical GCX1 bytes [CAN-2] on stdout
//     encode --mode gcx [--tool NAME]   a JSON text on stdin; its payload under the JSON mapping [MAP-12]
//     decode [limits]                   a tool result, GCX1 or JSON [AUTO-3]; the value's compact form [MAP-3], LF
//
// The limits are the four decoder limit flags of [LIM-1] (--max-line-bytes, --max-fields, --max-sections,
// --max-rows), each followed by a positive count.
//
// It declines these with exit status 2, which the runner's probe reads as "not offered" (docs/conformance.md,
// "Optional ops"), so their vectors are skipped:
//
//     encode --mode auto                auto mode [AUTO-1] counts cl100k_base tokens, and Node's standard library
//                                       has no tokenizer;
//     encode with limit flags           encoder limits [LIM-4] are not implemented; an encoder may decline them,
//                                       but must not ignore them;
//     mcp-server, mcp-client, mcp-proxy the MCP binding (chapter 15) is outside the chapters this adapter was
//                                       written from.
//
// Exit status: 0 on success; 1 for invalid input, with "line L, column C: class: description [RULE-N]" on stderr
// and nothing on stdout; 2 for a usage error; 3 for an unsupported version, with the tag on stderr.
//
// With the single argument --persistent it answers many runs in one process, one JSON line each way
// (docs/conformance.md, "The persistent mode"); the runner uses that mode when the program offers it.
'use strict';
const fs = require('fs');

// ================================================================ errors [ERR-1] [ERR-2]

// A refusal: cls is a class of [ERR-1], rule the rule it names, line and col its position [ERR-2] (absent when
// it has none), tag the version tag of an unsupported-version error.
class GcxError extends Error {
  constructor(cls, rule, message, line, col, tag) {
    super(message);
    this.cls = cls;
    this.rule = rule;
    this.line = line;
    this.col = col;
    this.tag = tag;
  }
}

class UsageError extends Error {}

// The line and column [ERR-2] of byte offset off in b.
function lineAndColumn(b, off) {
  let line = 1;
  let lastLF = -1;
  for (let i = 0; i < off && i < b.length; i++) {
    if (b[i] === 0x0A) {
      line++;
      lastLF = i;
    }
  }
  return [line, off - lastLF];
}

// ================================================================ characters [ENC-1]

// The length of the well-formed UTF-8 character that begins at b[p], or 0 if none begins there.
function utf8Length(b, p, end) {
  const c = b[p];
  if (c < 0x80) return 1;
  let length;
  let lo = 0x80;
  let hi = 0xBF;
  if (c < 0xC2) return 0;
  if (c < 0xE0) length = 2;
  else if (c < 0xF0) {
    length = 3;
    if (c === 0xE0) lo = 0xA0;
    else if (c === 0xED) hi = 0x9F;
  } else if (c < 0xF5) {
    length = 4;
    if (c === 0xF0) lo = 0x90;
    else if (c === 0xF4) hi = 0x8F;
  } else return 0;
  for (let i = 1; i < length; i++) {
    if (p + i >= end) return 0;
    const d = b[p + i];
    if (i === 1 ? d < lo || d > hi : (d & 0xC0) !== 0x80) return 0;
  }
  return length;
}

// name_char of Appendix A: tool names, meta keys and version tags [HDR-3] [VER-1].
function isNameChar(c) {
  return (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) ||
    c === 0x5F || c === 0x2D || c === 0x2E;
}

const NAME = /^[A-Za-z0-9_.-]+$/;
function isName(s) {
  return NAME.test(s);
}

// A count [META-1]: a decimal integer from 0 to 2^63 - 1 without leading zeros.
const COUNT = /^(0|[1-9][0-9]*)$/;
const MAX_COUNT = '9223372036854775807';
function isCount(s) {
  if (!COUNT.test(s)) return false;
  return s.length < MAX_COUNT.length || (s.length === MAX_COUNT.length && s <= MAX_COUNT);
}

// ================================================================ decoder (chapters 2 to 9, 11, 12)

// The escapes of Appendix A, by the byte after the backslash.
const FIELD_ESCAPES = { 0x5C: '\\', 0x74: '\t', 0x6E: '\n', 0x72: '\r', 0x73: ' ', 0x2C: ',' }; // [HDR-5]
const TEXT_ESCAPES = { 0x5C: '\\', 0x74: '\t', 0x6E: '\n', 0x72: '\r', 0x73: ' ' }; // [HDR-7]
const VALUE_ESCAPES = { 0x5C: '\\', 0x74: '\t', 0x6E: '\n', 0x72: '\r' }; // [VAL-1]

// Decodes payload b under limits (keyed by flag name without "--"). Returns the sections, each
// { tool, fields, meta, rows, comments } with the positions a mapping decoder needs; throws the first error
// that the procedure of [ERR-3] meets.
function decodePayload(b, limits) {
  const n = b.length;
  const maxLineBytes = limits['max-line-bytes'] || Infinity;
  const maxFields = limits['max-fields'] || Infinity;
  const maxSections = limits['max-sections'] || Infinity;
  const maxRows = limits['max-rows'] || Infinity;

  if (n >= 3 && b[0] === 0xEF && b[1] === 0xBB && b[2] === 0xBF) {
    throw new GcxError('not-gcx', 'ENC-2', 'input begins with a byte-order mark', 1, 1);
  }
  if (!beginsWithGCX(b, 0, n)) throw new GcxError('not-gcx', 'PAY-1', 'input does not begin with GCX', 1, 1);

  const sections = [];
  let section = null;
  let lineNo = 0;
  let lineStart = 0;
  let lineEnd = 0;
  let charLength = 1; // the length of the character charAt last read

  const errorAt = (cls, rule, message, p) => new GcxError(cls, rule, message, lineNo, p - lineStart + 1);

  while (lineStart < n) {
    lineNo++;
    lineEnd = b.indexOf(0x0A, lineStart);
    const terminated = lineEnd !== -1;
    if (!terminated) lineEnd = n;
    if (beginsWithGCX(b, lineStart, lineEnd)) {
      if (section) checkRowCount(section);
      if (sections.length + 1 > maxSections) throw errorAt('limit', 'LIM-3', 'too many sections', lineStart);
      const tagEnd = readVersionTag();
      checkLineLength();
      section = readHeader(tagEnd);
      sections.push(section);
    } else if (lineEnd > lineStart && b[lineStart] === 0x23) {
      checkLineLength();
      section.comments.push([section.rows.length, readComment()]);
    } else {
      if (section.rows.length + 1 > maxRows) throw errorAt('limit', 'LIM-3', 'too many rows in the section', lineStart);
      checkLineLength();
      readRow();
    }
    lineStart = terminated ? lineEnd + 1 : n;
  }
  if (section) checkRowCount(section);
  return sections;

  // [LIM-3]: a line longer than the line limit, at the byte beyond it.
  function checkLineLength() {
    if (lineEnd - lineStart > maxLineBytes) throw errorAt('limit', 'LIM-3', 'line too long', lineStart + maxLineBytes);
  }

  // [META-4], checked when the section ends [ERR-3].
  function checkRowCount(s) {
    if (s.rowCount !== undefined && String(s.rows.length) !== s.rowCount) {
      throw new GcxError('constraint', 'META-4', 'rows= disagrees with the rows of the section', s.line, s.rowCountCol);
    }
  }

  // The character at p, as clause 1 of [ERR-5] requires it to be: the byte if it is ASCII (and not CR), a value
  // of 0x80 or above otherwise, with its length in charLength; an error at the end of the input, at a byte that
  // begins no well-formed UTF-8 character, or at a CR.
  function charAt(p) {
    if (p >= n) throw errorAt('syntax', 'LINE-1', 'input ends without a final LF', p);
    const c = b[p];
    if (c === 0x0D) throw errorAt('syntax', 'ENC-3', 'raw CR', p);
    charLength = utf8Length(b, p, n);
    if (!charLength) throw errorAt('syntax', 'ENC-1', 'ill-formed UTF-8', p);
    return c;
  }

  // The version tag [VER-1]: classified before the rest of the header [ERR-3] [VER-2] [VER-3] [VER-4].
  // Returns the offset after the tag.
  function readVersionTag() {
    const tagStart = lineStart + 3;
    let p = tagStart;
    while (p < lineEnd && p - lineStart < 32 && isNameChar(b[p])) p++;
    if (p === tagStart) throw errorAt('syntax', 'VER-3', 'malformed version tag', p);
    if (p - lineStart === 32 && p < lineEnd && isNameChar(b[p])) throw errorAt('syntax', 'VER-3', 'version tag too long', p);
    if (p < lineEnd && b[p] !== 0x20) throw errorAt('syntax', 'VER-3', 'malformed version tag', p);
    const tag = b.toString('latin1', lineStart, p);
    if (tag !== 'GCX1') {
      const rule = sections.length === 0 ? 'VER-2' : 'VER-4';
      throw new GcxError('unsupported-version', rule, 'unsupported version tag ' + tag, lineNo, 1, tag);
    }
    return p;
  }

  // header = "GCX1" sp "tool=" name sp "fields=" field_list { sp meta } lf, from the byte after the tag.
  function readHeader(p) {
    if (charAt(p) !== 0x20) throw errorAt('syntax', 'HDR-1', 'SP expected after the tag', p);
    p = readKeyword(p + 1, 'tool=');
    const toolStart = p;
    while (p < lineEnd && isNameChar(b[p])) p++;
    if (p === toolStart) {
      charAt(p);
      throw errorAt('syntax', 'HDR-3', 'empty tool name', p);
    }
    const c = charAt(p);
    if (c === 0x09 || c === 0x0A) throw errorAt('syntax', 'HDR-1', 'SP expected after the tool name', p);
    if (c !== 0x20) throw errorAt('syntax', 'HDR-3', 'character not allowed in a tool name', p);
    const tool = b.toString('latin1', toolStart, p);
    p = readKeyword(p + 1, 'fields=');
    const fieldList = readFieldList(p);
    p = fieldList.end;
    const meta = [];
    const metaCols = [];
    while (b[p] === 0x20) {
      const pair = readMeta(p + 1);
      meta.push([pair.key, pair.value]);
      metaCols.push([pair.keyStart - lineStart + 1, pair.valueStart - lineStart + 1]);
      p = pair.end;
    }
    const s = {
      tool, fields: fieldList.names, meta, rows: [], comments: [], line: lineNo,
      fieldListCol: fieldList.start - lineStart + 1, fieldCols: fieldList.cols, metaCols, rowPositions: [],
    };
    checkHeaderRules(s);
    return s;
  }

  function readKeyword(p, keyword) {
    for (let i = 0; i < keyword.length; i++, p++) {
      const c = charAt(p);
      if (c !== keyword.charCodeAt(i)) {
        if (c === 0x20) throw errorAt('syntax', 'HDR-1', 'SP where ' + keyword + ' belongs', p);
        throw errorAt('syntax', 'HDR-2', keyword + ' expected', p);
      }
    }
    return p;
  }

  // field_list = field_name { "," field_name }. Ends at the SP or LF after it.
  function readFieldList(start) {
    const names = [];
    const cols = [];
    let p = start;
    let nameStart = p;
    let runStart = p;
    let name = '';
    for (;;) {
      const c = charAt(p);
      if (c === 0x5C) {
        const escaped = FIELD_ESCAPES[charAt(p + 1)];
        if (escaped === undefined) throw errorAt('syntax', 'HDR-5', 'unknown escape in a field name', p + 1);
        name += b.toString('utf8', runStart, p) + escaped;
        p += 2;
        runStart = p;
      } else if (c === 0x2C || c === 0x20 || c === 0x0A) {
        names.push(name + b.toString('utf8', runStart, p));
        cols.push(nameStart - lineStart + 1);
        if (c !== 0x2C) return { names, cols, start, end: p };
        name = '';
        p++;
        runStart = p;
        nameStart = p;
      } else if (c === 0x09) {
        throw errorAt('syntax', 'HDR-1', 'TAB in a field name', p);
      } else {
        p += charLength;
      }
    }
  }

  // meta = name "=" meta_value. Ends at the SP or LF after it.
  function readMeta(keyStart) {
    let p = keyStart;
    while (p < lineEnd && isNameChar(b[p])) p++;
    const c = charAt(p);
    if (p === keyStart || c !== 0x3D) {
      if (c === 0x20 || c === 0x09 || c === 0x0A) {
        throw errorAt('syntax', 'HDR-1', p === keyStart ? 'SP, TAB or LF where a meta key belongs' : 'meta key without =', p);
      }
      throw errorAt('syntax', 'HDR-3', 'character not allowed in a meta key', p);
    }
    const key = b.toString('latin1', keyStart, p);
    p++;
    const valueStart = p;
    let runStart = p;
    let value = '';
    for (;;) {
      const d = charAt(p);
      if (d === 0x5C) {
        const escaped = TEXT_ESCAPES[charAt(p + 1)];
        if (escaped === undefined) throw errorAt('syntax', 'HDR-7', 'unknown escape in a meta value', p + 1);
        value += b.toString('utf8', runStart, p) + escaped;
        p += 2;
        runStart = p;
      } else if (d === 0x20 || d === 0x0A) {
        return { key, value: value + b.toString('utf8', runStart, p), keyStart, valueStart, end: p };
      } else if (d === 0x09) {
        throw errorAt('syntax', 'HDR-1', 'TAB in a meta value', p);
      } else {
        p += charLength;
      }
    }
  }

  // The rules of Appendix B that concern a header, the one whose position comes first reported first, and the
  // field limit before [HDR-6] at the same position [ERR-3] step 6.
  function checkHeaderRules(s) {
    let first = null;
    const candidate = (col, priority, cls, rule, message) => {
      if (!first || col < first.col || (col === first.col && priority < first.priority)) {
        first = { col, priority, cls, rule, message };
      }
    };
    if (s.fields.length > maxFields) candidate(s.fieldCols[maxFields], 0, 'limit', 'LIM-3', 'too many fields');
    const fieldsSeen = new Set();
    for (let i = 0; i < s.fields.length; i++) {
      if (fieldsSeen.has(s.fields[i])) {
        candidate(s.fieldCols[i], 1, 'constraint', 'HDR-6', 'repeated field name');
        break;
      }
      fieldsSeen.add(s.fields[i]);
    }
    const keysSeen = new Set();
    s.meta.forEach(([key, value], i) => {
      const [keyCol, valueCol] = s.metaCols[i];
      if (key === 'tool' || key === 'fields' || keysSeen.has(key)) {
        candidate(keyCol, 1, 'constraint', 'HDR-8', 'repeated or reserved meta key');
      }
      keysSeen.add(key);
      if ((key === 'rows' || key === 'total') && !isCount(value)) {
        candidate(valueCol, 1, 'constraint', 'META-1', 'value of ' + key + '= is not a count');
      }
      if (key === 'truncated' && value !== 'true' && value !== 'false') {
        candidate(valueCol, 1, 'constraint', 'META-3', 'value of truncated= is not true or false');
      }
      if (key === 'rows' && s.rowCount === undefined) {
        s.rowCount = value;
        s.rowCountCol = valueCol;
      }
    });
    if (first) throw new GcxError(first.cls, first.rule, first.message, lineNo, first.col);
  }

  // comment = "#" { comment_char } lf. Returns its text.
  function readComment() {
    let p = lineStart + 1;
    for (;;) {
      if (p >= n || b[p] === 0x0D) charAt(p);
      const c = b[p];
      if (c === 0x0A) break;
      if (c < 0x80) {
        p++;
      } else {
        charAt(p);
        p += charLength;
      }
    }
    return b.toString('utf8', lineStart + 1, p);
  }

  // row = first_value { tab value } lf, with the guard of [ROW-4]; then its width [ROW-2].
  function readRow() {
    let p = lineStart;
    if (p < n && b[p] === 0x5C) {
      const guarded = charAt(p + 1);
      if (guarded === 0x47) {
        if (charAt(p + 2) !== 0x43) throw errorAt('syntax', 'ROW-4', 'guard \\G must go on with CX', p + 2);
        if (charAt(p + 3) !== 0x58) throw errorAt('syntax', 'ROW-4', 'guard \\G must go on with CX', p + 3);
      }
      if (guarded === 0x23 || guarded === 0x47) p++;
    }
    const values = [];
    const cols = [];
    let valueStart = p;
    let runStart = p;
    let value = '';
    for (;;) {
      if (p >= n || b[p] === 0x0D) charAt(p);
      const c = b[p];
      if (c === 0x09 || c === 0x0A) {
        values.push(value + b.toString('utf8', runStart, p));
        cols.push(valueStart - lineStart + 1);
        if (c === 0x0A) break;
        value = '';
        p++;
        runStart = p;
        valueStart = p;
      } else if (c === 0x5C) {
        const escaped = VALUE_ESCAPES[charAt(p + 1)];
        if (escaped === undefined) throw errorAt('syntax', 'VAL-2', 'unknown escape in a value', p + 1);
        value += b.toString('utf8', runStart, p) + escaped;
        p += 2;
        runStart = p;
      } else if (c < 0x80) {
        p++;
      } else {
        charAt(p);
        p += charLength;
      }
    }
    const width = section.fields.length;
    if (values.length > width) {
      throw errorAt('constraint', 'ROW-2', 'row has more values than fields', lineStart + cols[width] - 2);
    }
    if (values.length < width) throw errorAt('constraint', 'ROW-2', 'row has fewer values than fields', p);
    section.rows.push(values);
    section.rowPositions.push({ line: lineNo, cols });
  }
}

function beginsWithGCX(b, start, end) {
  return end - start >= 3 && b[start] === 0x47 && b[start + 1] === 0x43 && b[start + 2] === 0x58;
}

// The wire view of decoded sections [WIRE-1].
function writeWireView(sections) {
  return JSON.stringify({
    sections: sections.map((s) => {
      const view = { tool: s.tool, fields: s.fields, meta: s.meta, rows: s.rows };
      if (s.comments.length) view.comments = s.comments;
      return view;
    }),
  });
}

// ================================================================ JSON texts [MAP-1] to [MAP-3]

// A JSON value: { kind, offset } with kind 'string' (text), 'number' (text, its literal), 'true', 'false',
// 'null', 'array' (items) or 'object' (members, [name, value] pairs in order); offset is the byte offset of its
// first byte in the text read.

class JsonError extends Error {
  constructor(offset, message, isLimit) {
    super(message);
    this.offset = offset;
    this.isLimit = !!isLimit;
  }
}

const MAX_JSON_DEPTH = 10000; // the nesting bound of [MAP-4]

// The number of bytes the raw string text b[start, end) decodes to, as far as it goes: a short escape is one byte, a
// \u escape the UTF-8 length of its character (a surrogate half of its pair's four), and an escape cut short or
// malformed one byte, as the reader that finds it reports it.
function decodedBytes(b, start, end) {
  let n = 0;
  for (let i = start; i < end; n++) {
    if (b[i] !== 0x5C) {
      i++;
      continue;
    }
    if (i + 1 < end && b[i + 1] !== 0x75) {
      i += 2;
      continue;
    }
    const hex = i + 6 <= end ? b.toString('latin1', i + 2, i + 6) : '';
    if (!/^[0-9A-Fa-f]{4}$/.test(hex)) {
      i += i + 1 < end ? 2 : 1;
      continue;
    }
    const u = parseInt(hex, 16);
    n += (u >= 0xD800 && u <= 0xDFFF ? 2 : Buffer.byteLength(String.fromCharCode(u))) - 1;
    i += 6;
  }
  return n;
}

// Reads the JSON text b[start, end) as [MAP-1] admits it, refusing at the first offending byte.
function readJsonText(b, start, end, maxDepth = MAX_JSON_DEPTH, partial = false) {
  let p = start;
  const open = []; // the arrays and objects being read, outermost first
  if (!partial) return read();
  // With partial, an error carries in e.partial what was read before it: the open arrays and objects, marked
  // unfinished, each in the one around it, and a member whose name was read with null for a value it lacks.
  try {
    return read();
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    if (e.complete) {
      // data after a whole value: the value was read first, and is checked before the data is reached [WIRE-3]
      e.partial = e.complete;
      throw e;
    }
    let inner = null;
    for (let i = open.length - 1; i >= 0; i--) {
      const o = open[i];
      if (o.kind === 'array') {
        if (inner) o.items.push(inner);
        inner = { kind: 'array', items: o.items, offset: o.offset, unfinished: true };
      } else {
        if (o.name !== null) o.members.push([o.name, inner, o.nameOffset]);
        else if (o.nameStart != null) {
          // A name cut short is kept once more of it is read than the longest key a view has ("comments"), counted in
          // the bytes it decodes to: an escape counts what it stands for.
          if (decodedBytes(b, o.nameStart + 1, e.offset) > 'comments'.length) {
            o.members.push([b.toString('utf8', o.nameStart + 1, e.offset), null, o.nameStart]);
          }
        }
        inner = { kind: 'object', members: o.members, offset: o.offset, unfinished: true };
      }
    }
    e.partial = inner;
    throw e;
  }

  function read() {
  skipWhitespace();
  for (;;) {
    let value = readScalarOrOpen();
    if (!value) continue;
    // value is complete: add it to the innermost open container, closing those it completes.
    for (;;) {
      if (!open.length) {
        skipWhitespace();
        if (p < end) {
          const e = new JsonError(p, 'data after the JSON text');
          e.complete = value;
          throw e;
        }
        return value;
      }
      const top = open[open.length - 1];
      if (top.kind === 'array') top.items.push(value);
      else {
        top.members.push([top.name, value, top.nameOffset]); // a member: its name, its value, where its name begins
        top.name = null;
      }
      skipWhitespace();
      if (p >= end) throw new JsonError(p, 'unexpected end of JSON text');
      const c = b[p];
      if (c === 0x2C) {
        p++;
        skipWhitespace();
        if (top.kind === 'object') readMemberName(top);
        break;
      }
      if (c !== (top.kind === 'array' ? 0x5D : 0x7D)) throw new JsonError(p, 'unexpected character');
      p++;
      open.pop();
      value = top.kind === 'array'
        ? { kind: 'array', items: top.items, offset: top.offset }
        : { kind: 'object', members: top.members, offset: top.offset };
    }
  }
  }

  // Reads a value at p: returns it if it is complete, or null after opening a non-empty array or object.
  function readScalarOrOpen() {
    if (p >= end) throw new JsonError(p, 'unexpected end of JSON text');
    const offset = p;
    const c = b[p];
    if (c === 0x7B || c === 0x5B) {
      if (open.length + 1 > maxDepth) throw new JsonError(p, 'nesting too deep', true);
      p++;
      skipWhitespace();
      if (c === 0x7B) {
        if (p < end && b[p] === 0x7D) {
          p++;
          return { kind: 'object', members: [], offset };
        }
        const object = { kind: 'object', members: [], offset, names: new Set(), name: null };
        open.push(object);
        readMemberName(object);
        return null;
      }
      if (p < end && b[p] === 0x5D) {
        p++;
        return { kind: 'array', items: [], offset };
      }
      open.push({ kind: 'array', items: [], offset });
      return null;
    }
    if (c === 0x22) return { kind: 'string', text: readString(), offset };
    if (c === 0x2D || (c >= 0x30 && c <= 0x39)) return { kind: 'number', text: readNumber(), offset };
    for (const literal of ['true', 'false', 'null']) {
      if (c === literal.charCodeAt(0)) {
        readLiteral(literal);
        return { kind: literal, offset };
      }
    }
    throw new JsonError(p, 'unexpected character');
  }

  function skipWhitespace() {
    while (p < end && (b[p] === 0x20 || b[p] === 0x09 || b[p] === 0x0A || b[p] === 0x0D)) p++;
  }

  // A member name and its colon; a name that repeats one of its object is refused at its quotation mark.
  function readMemberName(object) {
    if (p >= end || b[p] !== 0x22) throw new JsonError(p, 'member name expected');
    const nameStart = p;
    object.nameStart = nameStart; // while the name is read
    const name = readString();
    object.nameStart = null;
    if (object.names.has(name)) throw new JsonError(nameStart, 'repeated member name');
    object.names.add(name);
    object.name = name;
    object.nameOffset = nameStart;
    skipWhitespace();
    if (p >= end || b[p] !== 0x3A) throw new JsonError(p, ': expected');
    p++;
    skipWhitespace();
  }

  function readLiteral(word) {
    for (let i = 0; i < word.length; i++, p++) {
      if (p >= end || b[p] !== word.charCodeAt(i)) throw new JsonError(p, 'invalid literal');
    }
  }

  function readDigits() {
    const digitsStart = p;
    while (p < end && b[p] >= 0x30 && b[p] <= 0x39) p++;
    if (p === digitsStart) throw new JsonError(p, 'digit expected');
  }

  // Returns the number's literal text, which is its value [MAP-2].
  function readNumber() {
    const numberStart = p;
    if (b[p] === 0x2D) p++;
    if (p < end && b[p] === 0x30) p++;
    else if (p < end && b[p] >= 0x31 && b[p] <= 0x39) readDigits();
    else throw new JsonError(p, 'digit expected');
    if (p < end && b[p] === 0x2E) {
      p++;
      readDigits();
    }
    if (p < end && (b[p] === 0x65 || b[p] === 0x45)) {
      p++;
      if (p < end && (b[p] === 0x2B || b[p] === 0x2D)) p++;
      readDigits();
    }
    return b.toString('latin1', numberStart, p);
  }

  // The value of the four hexadecimal digits at q, or -1.
  function readHex4(q) {
    if (q + 4 > end) return -1;
    let v = 0;
    for (let i = q; i < q + 4; i++) {
      if (!isHexDigit(b[i])) return -1;
      v = v * 16 + parseInt(String.fromCharCode(b[i]), 16);
    }
    return v;
  }

  function firstNonHexDigit(q) {
    let i = q;
    while (i < end && i < q + 4 && isHexDigit(b[i])) i++;
    return i;
  }

  // A string from its opening quotation mark; an unpaired surrogate escape is refused at its backslash.
  function readString() {
    p++;
    let text = '';
    let runStart = p;
    for (;;) {
      if (p >= end) throw new JsonError(p, 'unterminated string');
      const c = b[p];
      if (c === 0x22) {
        text += b.toString('utf8', runStart, p);
        p++;
        return text;
      }
      if (c === 0x5C) {
        text += b.toString('utf8', runStart, p);
        text += readEscape();
        runStart = p;
      } else if (c < 0x20) {
        throw new JsonError(p, 'control character in string');
      } else if (c < 0x80) {
        p++;
      } else {
        const length = utf8Length(b, p, end);
        if (!length) throw new JsonError(p, 'ill-formed UTF-8');
        p += length;
      }
    }
  }

  function readEscape() {
    const backslash = p;
    if (p + 1 >= end) throw new JsonError(p + 1, 'unterminated string');
    const simple = { 0x22: '"', 0x5C: '\\', 0x2F: '/', 0x62: '\b', 0x66: '\f', 0x6E: '\n', 0x72: '\r', 0x74: '\t' }[b[p + 1]];
    if (simple !== undefined) {
      p += 2;
      return simple;
    }
    if (b[p + 1] !== 0x75) throw new JsonError(p + 1, 'invalid escape');
    const unit = readHex4(p + 2);
    if (unit < 0) throw new JsonError(firstNonHexDigit(p + 2), 'invalid \\u escape');
    if (unit >= 0xDC00 && unit <= 0xDFFF) throw new JsonError(backslash, 'unpaired surrogate escape');
    if (unit < 0xD800 || unit > 0xDBFF) {
      p += 6;
      return String.fromCharCode(unit);
    }
    if (p + 12 <= end && b[p + 6] === 0x5C && b[p + 7] === 0x75) {
      const low = readHex4(p + 8);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        p += 12;
        return String.fromCharCode(unit, low);
      }
    }
    throw new JsonError(backslash, 'unpaired surrogate escape');
  }
}

function isHexDigit(c) {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

// A string in compact form [MAP-3].
function quoteString(s) {
  return '"' + s.replace(/["\\\u0000-\u001f]/g, (ch) => {
    switch (ch) {
      case '"': return '\\"';
      case '\\': return '\\\\';
      case '\b': return '\\b';
      case '\t': return '\\t';
      case '\n': return '\\n';
      case '\f': return '\\f';
      case '\r': return '\\r';
      default: return '\\u00' + ch.charCodeAt(0).toString(16).padStart(2, '0');
    }
  }) + '"';
}

// The compact form of a value [MAP-3], written without recursion so that deep values cannot overflow the stack.
function compactForm(root) {
  const out = [];
  const todo = [root]; // values, and strings to write as they are
  while (todo.length) {
    const x = todo.pop();
    if (typeof x === 'string') {
      out.push(x);
      continue;
    }
    switch (x.kind) {
      case 'string':
        out.push(quoteString(x.text));
        break;
      case 'number':
        out.push(x.text);
        break;
      case 'array':
        out.push('[');
        todo.push(']');
        for (let i = x.items.length - 1; i >= 0; i--) {
          todo.push(x.items[i]);
          if (i > 0) todo.push(',');
        }
        break;
      case 'object':
        out.push('{');
        todo.push('}');
        for (let i = x.members.length - 1; i >= 0; i--) {
          const [name, value] = x.members[i];
          todo.push(value);
          todo.push((i > 0 ? ',' : '') + quoteString(name) + ':');
        }
        break;
      default:
        out.push(x.kind); // true, false, null
    }
  }
  return out.join('');
}

// ================================================================ spelled values [MAP-5] [MAP-6]

const COMPACT_FORM_FIRST_CHARS = new Set('{["-0123456789tfn');

// The value whose compact form text is, or null if none [MAP-5]; a JsonError (limit) if it nests beyond the
// bound of [MAP-4].
function valueOfCompactForm(text) {
  if (!text.length || !COMPACT_FORM_FIRST_CHARS.has(text[0])) return null;
  const b = Buffer.from(text, 'utf8');
  let value;
  try {
    value = readJsonText(b, 0, b.length);
  } catch (e) {
    if (e.isLimit) throw e;
    return null;
  }
  return compactForm(value) === text ? value : null;
}

// Whether a string must be spelled quoted [MAP-6]: it is empty, a compact form, or (object forms) "@".
function needsQuotes(s, inObjectForm) {
  if (s === '' || (inObjectForm && s === '@')) return true;
  try {
    return valueOfCompactForm(s) !== null;
  } catch (e) {
    return true; // undecidable within the bound: quoting is always correct
  }
}

function spell(value, inObjectForm) {
  if (value.kind === 'string' && !needsQuotes(value.text, inObjectForm)) return value.text;
  return compactForm(value);
}

// ================================================================ canonical encoder [CAN-2] [CAN-3]

// A model: an array of sections { tool, fields, meta, rows, comments }, a comment being [place, text].

const escapeFieldName = (s) => s.replace(/[ ,\t\n\r\\]/g, (c) => ({ ' ': '\\s', ',': '\\,', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' })[c]); // [HDR-5]
const escapeMetaValue = (s) => s.replace(/[ \t\n\r\\]/g, (c) => ({ ' ': '\\s', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' })[c]); // [HDR-7]
const escapeValue = (s) => s.replace(/[\t\n\r\\]/g, (c) => ({ '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' })[c]); // [VAL-1]

// Refuses a model with no spelling [CAN-3], for the first defect met in writing it from front to back.
// positionOf(what, section, i, j) gives the [line, column] of the defect in the input, or null.
function checkModel(sections, positionOf) {
  const refuse = (rule, message, ...at) => {
    const position = positionOf(...at);
    return new GcxError('model', rule, message, position ? position[0] : undefined, position ? position[1] : undefined);
  };
  if (!sections.length) throw refuse('PAY-1', 'no sections', 'sections');
  sections.forEach((s, si) => {
    // the header: tool name, fields, then each meta pair
    if (!isName(s.tool)) throw refuse('HDR-3', 'tool name not allowed', 'tool', si);
    if (!s.fields.length) throw refuse('HDR-4', 'section without fields', 'fields', si);
    const fieldsSeen = new Set();
    s.fields.forEach((f, i) => {
      if (fieldsSeen.has(f)) throw refuse('HDR-6', 'repeated field name', 'field', si, i);
      fieldsSeen.add(f);
    });
    const keysSeen = new Set();
    let rowCountIndex = -1;
    s.meta.forEach(([key, value], i) => {
      if (!isName(key)) throw refuse('HDR-3', 'meta key not allowed', 'key', si, i);
      if (key === 'tool' || key === 'fields' || keysSeen.has(key)) throw refuse('HDR-8', 'repeated or reserved meta key', 'key', si, i);
      keysSeen.add(key);
      if ((key === 'rows' || key === 'total') && !isCount(value)) throw refuse('META-1', key + '= is not a count', 'metaValue', si, i);
      if (key === 'truncated' && value !== 'true' && value !== 'false') throw refuse('META-3', 'truncated= not true or false', 'metaValue', si, i);
      if (key === 'rows') rowCountIndex = i;
    });
    const rowCount = rowCountIndex >= 0 ? Number(s.meta[rowCountIndex][1]) : Infinity;
    // the rows in order, each comment as soon as the rows its place counts are written
    const comments = s.comments;
    let ci = 0;
    let previousPlace = 0;
    const checkComment = () => {
      const [place, text] = comments[ci];
      if (!(place >= previousPlace && place <= s.rows.length)) throw refuse('CMT-3', 'comment place out of range or order', 'commentPlace', si, ci);
      previousPlace = place;
      if (/[\n\r]/.test(text)) throw refuse('CMT-4', 'comment holds LF or CR', 'commentText', si, ci);
      ci++;
    };
    s.rows.forEach((row, r) => {
      while (ci < comments.length && comments[ci][0] <= r) checkComment();
      if (row.length > s.fields.length) throw refuse('ROW-2', 'row too wide', 'rowValue', si, r, s.fields.length);
      if (row.length < s.fields.length) throw refuse('ROW-2', 'row too narrow', 'row', si, r);
      if (r >= rowCount) throw refuse('META-4', 'row beyond the count of rows=', 'metaValue', si, rowCountIndex);
    });
    // the comments after the last row, those beyond it included; then a rows= greater than the rows
    while (ci < comments.length) checkComment();
    if (rowCountIndex >= 0 && rowCount !== s.rows.length) throw refuse('META-4', 'rows= greater than the rows', 'metaValue', si, rowCountIndex);
  });
}

// The canonical spelling of a model that checkModel accepts [CAN-2].
function writeCanonical(sections) {
  const out = [];
  for (const s of sections) {
    let header = 'GCX1 tool=' + s.tool + ' fields=' + s.fields.map(escapeFieldName).join(',');
    for (const [key, value] of s.meta) header += ' ' + key + '=' + escapeMetaValue(value);
    out.push(header + '\n');
    let ci = 0;
    const writeCommentsUpTo = (place) => {
      for (; ci < s.comments.length && s.comments[ci][0] <= place; ci++) out.push('#' + s.comments[ci][1] + '\n');
    };
    s.rows.forEach((row, r) => {
      writeCommentsUpTo(r);
      const guard = row[0].startsWith('#') || row[0].startsWith('GCX') ? '\\' : ''; // [ROW-4]
      out.push(guard + row.map(escapeValue).join('\t') + '\n');
    });
    writeCommentsUpTo(Infinity);
  }
  return Buffer.from(out.join(''), 'utf8');
}

// ================================================================ wire view encoder [WIRE-2] [WIRE-3]

// Reads a wire view and writes its canonical GCX1 bytes, or refuses it [WIRE-2] or its model [CAN-3] at the
// JSON value at fault.
function encodeWireView(b) {
  const refuse = (message, offset) => {
    const [line, col] = lineAndColumn(b, offset);
    return new GcxError('model', 'WIRE-2', message, line, col);
  };
  // The faults are reported in reading order [WIRE-3]: when the view is not JSON, what was read before that byte is
  // checked first, and the byte is reported only when the checks reach it (cut): at a value missing, or at the end
  // of an array, object or pair left unfinished.
  let view;
  let jsonError = null;
  try {
    view = readJsonText(b, 0, b.length, Infinity, true);
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    jsonError = e;
    view = e.partial;
  }
  const cut = () => refuse('not a wire view: ' + jsonError.message, jsonError.offset);
  const present = (x) => {
    if (!x) throw cut();
    return x;
  };
  const done = (x) => {
    if (x.unfinished) throw cut();
  };
  if (present(view).kind !== 'object') throw refuse('a wire view is an object', view.offset);
  let sectionsValue = null;
  const array = (x) => {
    if (present(x).kind !== 'array') throw refuse('array expected', x.offset);
    return x.items;
  };
  const string = (x) => {
    if (present(x).kind !== 'string') throw refuse('string expected', x.offset);
    return x.text;
  };
  // The elements of an array, each read by each, then cut if the array is unfinished.
  const elements = (x, each) => {
    const out = array(x).map(each);
    done(x);
    return out;
  };
  // The two elements of a pair, each checked in turn by its check [WIRE-3]: a pair that ends before an element is
  // placed at its '[', one too long at its first element beyond the two, as a row too narrow or too wide is [ROW-2].
  const pairOf = (pair, what, checks) => {
    const items = array(pair);
    checks.forEach((check, i) => {
      if (i >= items.length) throw pair.unfinished ? cut() : refuse(what, pair.offset);
      check(items[i]);
    });
    if (items.length > checks.length) throw refuse(what, items[checks.length].offset);
    done(pair);
    return items;
  };
  const sections = [];
  const offsets = []; // per section, the offsets of its JSON values
  const positionOf = (what, si, i, j) => {
    const at = offsets[si];
    const offset = {
      sections: () => sectionsValue.offset,
      tool: () => at.tool,
      fields: () => at.fields,
      field: () => at.fieldNames[i],
      key: () => at.metaKeys[i],
      metaValue: () => at.metaValues[i],
      rowValue: () => at.values[i][j],
      row: () => at.rows[i],
      commentPlace: () => at.commentPlaces[i],
      commentText: () => at.commentTexts[i],
    }[what]();
    return offset === undefined ? null : lineAndColumn(b, offset);
  };
  // [WIRE-3]: an unknown key is placed at its name, a missing one at the object that lacks it, once it closes.
  for (const [key, value, keyOffset] of view.members) {
    if (key !== 'sections') throw refuse('unknown key in the wire view', keyOffset);
    sectionsValue = value;
    elements(value, readSection);
  }
  done(view);
  if (!sectionsValue) throw refuse('wire view without sections', view.offset);
  if (jsonError) throw cut(); // data after the view, met once the view is read
  checkModel(sections, positionOf);
  return writeCanonical(sections);

  function readSection(sectionValue) {
    if (present(sectionValue).kind !== 'object') throw refuse('a section is an object', sectionValue.offset);
    const s = { tool: undefined, fields: undefined, meta: [], rows: [], comments: [] };
    const at = { fieldNames: [], metaKeys: [], metaValues: [], rows: [], values: [], commentPlaces: [], commentTexts: [] };
    for (const [key, value, keyOffset] of sectionValue.members) {
      switch (key) {
        case 'tool':
          s.tool = string(value);
          at.tool = value.offset;
          break;
        case 'fields':
          at.fields = present(value).offset;
          s.fields = elements(value, (f) => {
            at.fieldNames.push(f.offset);
            return string(f);
          });
          break;
        case 'meta':
          s.meta = elements(value, (pair) => {
            const items = pairOf(pair, 'a meta pair is two strings', [string, string]);
            at.metaKeys.push(items[0].offset);
            at.metaValues.push(items[1].offset);
            return [string(items[0]), string(items[1])];
          });
          break;
        case 'rows':
          s.rows = elements(value, (row) => {
            at.rows.push(row.offset);
            at.values.push(array(row).map((v) => v.offset));
            return elements(row, string);
          });
          break;
        case 'comments':
          s.comments = elements(value, (comment) => {
            const [place, text] = pairOf(comment, 'a comment is [row, text]', [(place) => {
              if (place.kind !== 'number') throw refuse('a comment row is an integer', place.offset);
            }, string]);
            // a fraction or exponent once the pair is read, as a reader meets it
            if (!/^-?(0|[1-9][0-9]*)$/.test(place.text)) throw refuse('a comment row is an integer', place.offset);
            at.commentPlaces.push(place.offset);
            at.commentTexts.push(text.offset);
            return [Number(place.text) + 0, string(text)];
          });
          break;
        default:
          throw refuse('unknown key in a section', keyOffset);
      }
    }
    done(sectionValue);
    if (s.tool === undefined) throw refuse('section without tool', sectionValue.offset);
    if (s.fields === undefined) throw refuse('section without fields', sectionValue.offset);
    sections.push(s);
    offsets.push(at);
  }
}

// ================================================================ declared tools and layouts [LAY-1] [LAY-6]

const field = (gcx, member, type, optional) => ({ gcx, member, type, optional: !!optional });
const LAYOUTS = {
  search_symbols: [{
    section: 'search_symbols', member: null, shape: 'rows',
    fields: [field('id', 'id', 'string'), field('kind', 'kind', 'string'), field('name', 'name', 'string'),
      field('path', 'file_path', 'string'), field('line', 'start_line', 'int'), field('sig', 'signature', 'string', true)],
  }],
  find_usages: [{
    section: 'find_usages', member: null, shape: 'rows',
    fields: [field('path', 'file_path', 'string'), field('line', 'line', 'int'), field('col', 'column', 'int'),
      field('kind', 'kind', 'string'), field('caller', 'caller', 'string', true), field('snippet', 'snippet', 'string', true)],
  }],
  get_callers: [{
    section: 'get_callers.nodes', member: 'nodes', shape: 'rows',
    fields: [field('id', 'id', 'string'), field('kind', 'kind', 'string'), field('name', 'name', 'string'),
      field('path', 'file_path', 'string'), field('line', 'start_line', 'int'), field('depth', 'depth', 'int', true)],
  }, {
    section: 'get_callers.edges', member: 'edges', shape: 'rows',
    fields: [field('from', 'from', 'string'), field('to', 'to', 'string'), field('kind', 'kind', 'string'),
      field('line', 'line', 'int', true)],
  }],
  analyze: [{
    section: 'analyze', member: null, shape: 'rows',
    fields: [field('rule', 'rule', 'string'), field('severity', 'severity', 'string'), field('path', 'file_path', 'string'),
      field('line', 'line', 'int'), field('symbol', 'symbol', 'string', true), field('msg', 'message', 'string')],
  }],
  find_cycles: [{
    section: 'find_cycles', member: null, shape: 'rows',
    fields: [field('kind', 'kind', 'string'), field('len', 'length', 'int'), field('cycle', 'nodes', 'json')],
  }],
  graph_stats: [{
    section: 'graph_stats', member: null, shape: 'object',
    fields: [field('nodes', 'nodes', 'int'), field('edges', 'edges', 'int'), field('files', 'files', 'int'),
      field('symbols', 'symbols', 'int'), field('packages', 'packages', 'int', true), field('indexed', 'indexed_at', 'string', true)],
  }],
  get_symbol_source: [{
    section: 'get_symbol_source', member: null, shape: 'object',
    fields: [field('id', 'id', 'string'), field('path', 'file_path', 'string'), field('start', 'start_line', 'int'),
      field('end', 'end_line', 'int'), field('lang', 'language', 'string', true), field('source', 'source', 'string')],
  }],
};

// Section name of a part -> [declared tool, index of the part].
const PART_OF_SECTION = {};
for (const tool of Object.keys(LAYOUTS)) LAYOUTS[tool].forEach((part, i) => { PART_OF_SECTION[part.section] = [tool, i]; });

// The names under which a root without json= claims a layout [LAY-4].
const LAYOUT_NAMES = new Set(Object.keys(PART_OF_SECTION).concat(Object.keys(LAYOUTS)));

// [LAY-3]
const INTEGER = /^-?(0|[1-9][0-9]*)$/;
function isOfType(value, type) {
  switch (type) {
    case 'string': return value.kind === 'string';
    case 'int': return value.kind === 'number' && INTEGER.test(value.text);
    case 'number': return value.kind === 'number';
    case 'bool': return value.kind === 'true' || value.kind === 'false';
    default: return true; // json
  }
}

// [LAY-2]: an object fits a part when its members are declared, in order, typed, and the required ones present.
function objectFitsPart(part, object) {
  if (object.kind !== 'object') return false;
  const present = new Set();
  let fi = 0;
  for (const [name, value] of object.members) {
    while (fi < part.fields.length && part.fields[fi].member !== name) fi++;
    if (fi >= part.fields.length || !isOfType(value, part.fields[fi].type)) return false;
    present.add(fi);
    fi++;
  }
  return part.fields.every((f, i) => f.optional || present.has(i));
}

function fitsPart(part, value) {
  if (part.shape === 'object') return objectFitsPart(part, value);
  return value.kind === 'array' && value.items.every((item) => objectFitsPart(part, item));
}

function fitsLayout(parts, value) {
  if (parts.length === 1) return fitsPart(parts[0], value);
  if (value.kind !== 'object' || value.members.length !== parts.length) return false;
  return parts.every((part, i) => value.members[i][0] === part.member && fitsPart(part, value.members[i][1]));
}

// The section of a layout part [LAY-2].
function layoutSection(part, value) {
  const objects = part.shape === 'object' ? [value] : value.items;
  const rows = objects.map((object) => {
    const members = new Map(object.members);
    return part.fields.map((f) => (members.has(f.member) ? spell(members.get(f.member), false) : ''));
  });
  return { tool: part.section, fields: part.fields.map((f) => f.gcx), meta: [['rows', String(rows.length)]], rows, comments: [] };
}

// ================================================================ JSON mapping encoder [MAP-12]

// The order of member names that agrees with every object, found as [MAP-12] step 2 says, or null if none does.
function memberNameOrder(objects) {
  const firstSeen = new Map(); // name -> the names before it in some object
  for (const object of objects) {
    let previous = null;
    for (const [name] of object.members) {
      if (!firstSeen.has(name)) firstSeen.set(name, new Set());
      if (previous !== null) firstSeen.get(name).add(previous);
      previous = name;
    }
  }
  const names = [...firstSeen.keys()];
  const placed = new Set();
  const order = [];
  while (order.length < names.length) {
    const next = names.find((name) => !placed.has(name) && [...firstSeen.get(name)].every((q) => placed.has(q)));
    if (next === undefined) return null;
    placed.add(next);
    order.push(next);
  }
  return order;
}

// Whether [MAP-12] step 2 writes an array as a table form.
function isTableValue(value) {
  return value.kind === 'array' && value.items.every((item) => item.kind === 'object') && memberNameOrder(value.items) !== null;
}

// The table form of an array of objects [MAP-8], with the members it spreads [MAP-17] and the columns it writes
// bare [MAP-18]: { fields, pairs (nest= and str=), rows }.
function tableForm(elements) {
  const names = memberNameOrder(elements);
  if (!names.length) return { fields: [''], pairs: [], rows: elements.map(() => ['']) };
  const members = elements.map((e) => new Map(e.members));
  const columns = []; // { field, valueAt(element index) }
  const nest = [];
  for (const name of names) {
    const spread = spreadMember(name, names, members);
    if (spread) {
      nest.push(name);
      for (const sub of spread.names) columns.push({ field: name + '.' + sub, valueAt: (i) => spread.members[i].get(sub) });
    } else {
      columns.push({ field: name, valueAt: (i) => members[i].get(name) });
    }
  }
  const str = columns.filter((column) => isBareColumn(column, elements.length)).map((column) => column.field);
  const bare = new Set(str);
  const rows = elements.map((e, i) => columns.map((column) => {
    const value = column.valueAt(i);
    if (value === undefined) return '';
    return bare.has(column.field) ? value.text : spell(value, false);
  }));
  const pairs = [];
  if (nest.length) pairs.push(['nest', nest.join(',')]);
  if (str.length) pairs.push(['str', str.join(',')]);
  return { fields: columns.map((column) => column.field), pairs, rows };
}

// [MAP-17]: the names and member maps of a member spread over columns, or null if it is not spread.
function spreadMember(name, names, members) {
  if (name === '' || name.includes(',') || names.some((q) => q !== name && q.startsWith(name + '.'))) return null;
  if (!members.every((m) => m.has(name) && m.get(name).kind === 'object')) return null;
  const objects = members.map((m) => m.get(name));
  const subNames = memberNameOrder(objects);
  if (!subNames || !subNames.length) return null;
  const full = objects.reduce((sum, o) => sum + o.members.length, 0);
  if (objects.length * subNames.length - full > full) return null;
  return { names: subNames, members: objects.map((o) => new Map(o.members)) };
}

// [MAP-18]: a column is bare when every value in it is a non-empty string and at least two would need quotes.
function isBareColumn(column, count) {
  if (column.field === '' || column.field.includes(',')) return false;
  let quoted = 0;
  for (let i = 0; i < count; i++) {
    const value = column.valueAt(i);
    if (value === undefined) continue;
    if (value.kind !== 'string' || value.text === '') return false;
    if (needsQuotes(value.text, false)) quoted++;
  }
  return quoted >= 2;
}

const NOT_HEADER_MEMBERS = new Set(['json', 'rows', 'nest', 'str', 'tool', 'fields']);

// The model of value for tool name tool, in the first form of [MAP-12] that applies.
function encodeMapping(value, tool) {
  const section = (name, fields, meta, rows) => ({ tool: name, fields, meta, rows, comments: [] });
  const tableSection = (name, items, meta) => {
    const table = tableForm(items);
    return section(name, table.fields, [...meta, ['rows', String(table.rows.length)], ...table.pairs], table.rows);
  };
  // 1. the layout of a declared tool
  if (LAYOUTS[tool] && fitsLayout(LAYOUTS[tool], value)) {
    const parts = LAYOUTS[tool];
    if (parts.length === 1) return [layoutSection(parts[0], value)];
    return parts.map((part, i) => layoutSection(part, value.members[i][1]));
  }
  // 2. the table form
  if (isTableValue(value)) return [tableSection(tool, value.items, LAYOUT_NAMES.has(tool) ? [['json', 'rows']] : [])];
  // 3. the array form
  if (value.kind === 'array') {
    return [section(tool, [''], [['json', 'array'], ['rows', String(value.items.length)]], value.items.map((item) => [spell(item, false)]))];
  }
  // 5. the value form
  if (value.kind !== 'object') return [section(tool, [''], [['json', 'value'], ['rows', '1']], [[spell(value, false)]])];
  // 4. the header form, else the row form [MAP-10] [MAP-11]
  const isTable = value.members.map(([, x]) => x.kind === 'array' && x.items.length > 0 && isTableValue(x));
  if (fitsHeaderForm(value, isTable)) {
    const first = isTable.indexOf(true);
    const meta = [['json', 'object']];
    const root = first >= 0 ? tableSection(tool, value.members[first][1].items, meta) : section(tool, [''], meta, []);
    const sections = [root];
    value.members.forEach(([name, x], i) => {
      if (!isTable[i]) {
        root.meta.push([name, spell(x, true)]);
        return;
      }
      root.meta.push([name, '@']);
      if (i !== first) sections.push(tableSection(tool + '.' + name, x.items, []));
    });
    return sections;
  }
  const row = [];
  const memberTables = [];
  value.members.forEach(([name, x], i) => {
    if (isTable[i] && isName(name)) {
      row.push('@');
      memberTables.push(tableSection(tool + '.' + name, x.items, []));
    } else {
      row.push(spell(x, true));
    }
  });
  return [section(tool, value.members.map(([name]) => name), [['json', 'row'], ['rows', '1']], [row]), ...memberTables];
}

// [MAP-12] step 4: whether an object is written in the header form.
function fitsHeaderForm(object, isTable) {
  return object.members.every(([name, x], i) => {
    if (!isName(name) || NOT_HEADER_MEMBERS.has(name)) return false;
    // total= and truncated= must satisfy [META-1] and [META-3] whatever they hold: a table would be written @.
    const spelled = isTable[i] ? '@' : spell(x, true);
    if (name === 'total') return isCount(spelled);
    if (name === 'truncated') return spelled === 'true' || spelled === 'false';
    return isTable[i] || !/[ \t\n\r\\]/.test(spelled);
  });
}

// ================================================================ JSON mapping decoder [MAP-7] to [MAP-16] [LAY-2] to [LAY-5]

// The value a valid payload's sections hold, or the first mapping error met reading them from front to back, at
// the position the table of [MAP-14] gives.
function decodeMapping(sections) {
  const violation = (rule, message, line, col) => new GcxError('constraint', rule, message, line, col);
  const root = sections[0];
  const tool = root.tool;
  const jsonIndex = root.meta.findIndex(([key]) => key === 'json');

  if (jsonIndex < 0) {
    if (PART_OF_SECTION[tool]) return readLayout();
    if (LAYOUTS[tool]) throw violation('LAY-4', 'declared tool names no layout part', root.line, 1);
    const value = readTableSection(root, null);
    checkNoMoreSections(1);
    return value;
  }

  // The root's json= first, wherever it stands; then the field list, the other pairs in order, the rows.
  const form = root.meta[jsonIndex][1];
  const announced = []; // the @ members whose tables later sections hold: { holder, name, line, col }
  let value;
  switch (form) {
    case 'rows':
      value = readTableSection(root, null);
      break;
    case 'array':
    case 'value':
      value = readArrayOrValueForm(form);
      break;
    case 'object':
      value = readHeaderForm(announced);
      break;
    case 'row':
      value = readRowForm(announced);
      break;
    default:
      throw violation('MAP-7', 'json= names no form', root.line, root.metaCols[jsonIndex][1]);
  }
  let next = 1;
  for (const a of announced) {
    if (next >= sections.length) break;
    const s = sections[next];
    if (s.tool !== tool + '.' + a.name) throw violation('MAP-11', 'member-table section with the wrong name', s.line, 1);
    a.holder.items = readTableSection(s, (i) => violation('MAP-11', 'member-table section with json=', s.line, s.metaCols[i][1])).items;
    next++;
  }
  checkNoMoreSections(next);
  // checked after every other: a section an @ announces that the payload lacks
  if (next - 1 < announced.length) {
    const a = announced[next - 1];
    throw violation('MAP-11', 'no section left for the table', a.line, a.col);
  }
  return value;

  // [MAP-7]: no section after those the value occupies.
  function checkNoMoreSections(count) {
    if (count < sections.length) throw violation('MAP-7', 'section after the value', sections[count].line, 1);
  }

  // A cell or member value [MAP-5], bounded as [MAP-4] allows.
  function readSpelled(text, line, col) {
    let value;
    try {
      value = valueOfCompactForm(text);
    } catch (e) {
      throw new GcxError('limit', 'MAP-4', 'value nested too deeply', line, col);
    }
    return value === null ? { kind: 'string', text } : value;
  }

  // [MAP-15]: the names nest= lists.
  function readNest(s, i) {
    const names = s.meta[i][1].split(',');
    const fail = () => violation('MAP-15', 'nest= breaks its rule', s.line, s.metaCols[i][1]);
    const seen = new Set();
    for (const name of names) {
      if (name === '' || seen.has(name) || s.fields.includes(name) || !s.fields.some((f) => f.startsWith(name + '.'))) throw fail();
      seen.add(name);
    }
    for (const f of s.fields) if (names.filter((name) => f.startsWith(name + '.')).length > 1) throw fail();
    return names;
  }

  // [MAP-16]: the fields str= lists.
  function readStr(s, i) {
    const names = s.meta[i][1].split(',');
    const seen = new Set();
    for (const name of names) {
      if (!s.fields.includes(name) || seen.has(name)) throw violation('MAP-16', 'str= breaks its rule', s.line, s.metaCols[i][1]);
      seen.add(name);
    }
    return names;
  }

  // A table section [MAP-8] [MAP-15] [MAP-16]: its pairs in order, then its rows. jsonError(i), if given,
  // refuses a json= pair at index i (a member-table section [MAP-11]); otherwise json= is the root's.
  function readTableSection(s, jsonError) {
    let nest = [];
    let str = [];
    s.meta.forEach(([key], i) => {
      if (key === 'json' && jsonError) throw jsonError(i);
      if (key === 'nest') nest = readNest(s, i);
      if (key === 'str') str = readStr(s, i);
    });
    return readTableRows(s, nest, str);
  }

  function readTableRows(s, nest, str) {
    const owner = s.fields.map((f) => nest.find((name) => f.startsWith(name + '.')) || null);
    const bare = new Set(str);
    return {
      kind: 'array',
      items: s.rows.map((row, r) => {
        const members = [];
        const spreadObjects = new Map();
        row.forEach((cell, i) => {
          const f = s.fields[i];
          const position = s.rowPositions[r];
          const value = cell === '' ? null
            : bare.has(f) ? { kind: 'string', text: cell } : readSpelled(cell, position.line, position.cols[i]);
          const name = owner[i];
          if (name) {
            if (!spreadObjects.has(name)) {
              const object = { kind: 'object', members: [] };
              spreadObjects.set(name, object);
              members.push([name, object]);
            }
            if (value) spreadObjects.get(name).members.push([f.slice(name.length + 1), value]);
          } else if (value) {
            members.push([f, value]);
          }
        });
        return { kind: 'object', members };
      }),
    };
  }

  // [MAP-9]. A row beyond the value form's one is an error where it stands, unread [MAP-14].
  function readArrayOrValueForm(kind) {
    if (root.fields.length !== 1) throw violation('MAP-9', 'the array and value forms have one field', root.line, root.fieldListCol);
    const items = (kind === 'array' ? root.rows : root.rows.slice(0, 1)).map((row, r) => {
      const { line, cols } = root.rowPositions[r];
      if (row[0] === '') throw violation('MAP-9', 'empty cell', line, cols[0]);
      return readSpelled(row[0], line, cols[0]);
    });
    if (kind === 'array') return { kind: 'array', items };
    if (root.rows.length !== 1) throw violation('MAP-9', 'the value form holds one row', root.line, 1);
    return items[0];
  }

  // [MAP-10] [MAP-11]: the header form.
  function readHeaderForm(announced) {
    const members = [];
    let nest = [];
    let str = [];
    let ownTable = null;
    root.meta.forEach(([key, text], i) => {
      if (key === 'json' || key === 'rows') return;
      if (key === 'nest') {
        nest = readNest(root, i);
        return;
      }
      if (key === 'str') {
        str = readStr(root, i);
        return;
      }
      const col = root.metaCols[i][1];
      if (text === '') throw violation('MAP-10', 'empty member value', root.line, col);
      if (text !== '@') {
        members.push([key, readSpelled(text, root.line, col)]);
        return;
      }
      const holder = { kind: 'array', items: [] };
      members.push([key, holder]);
      if (!ownTable) ownTable = holder;
      else announced.push({ holder, name: key, line: root.line, col });
    });
    if (ownTable) ownTable.items = readTableRows(root, nest, str).items;
    else if (root.rows.length) throw violation('MAP-10', 'a header form without a table holds no rows', root.line, 1);
    return { kind: 'object', members };
  }

  // [MAP-10] [MAP-11]: the row form. Its one row is read, then a second is an error, unread [MAP-14].
  function readRowForm(announced) {
    const members = [];
    root.rows.slice(0, 1).forEach((row, r) => {
      const { line, cols } = root.rowPositions[r];
      row.forEach((cell, i) => {
        if (cell === '') return;
        if (cell === '@') {
          if (r === 0) {
            const holder = { kind: 'array', items: [] };
            members.push([root.fields[i], holder]);
            announced.push({ holder, name: root.fields[i], line, col: cols[i] });
          }
          return;
        }
        const value = readSpelled(cell, line, cols[i]);
        if (r === 0) members.push([root.fields[i], value]);
      });
    });
    if (root.rows.length !== 1) throw violation('MAP-10', 'the row form holds one row', root.line, 1);
    return { kind: 'object', members };
  }

  // [LAY-2] to [LAY-5]: a root without json= that claims a layout.
  function readLayout() {
    const [declaredTool, partIndex] = PART_OF_SECTION[tool];
    const parts = LAYOUTS[declaredTool];
    if (partIndex !== 0) throw violation('LAY-4', 'the root is a later part of its layout', root.line, 1);
    const values = [];
    for (let k = 0; k < parts.length && k < sections.length; k++) {
      const part = parts[k];
      const s = sections[k];
      if (k > 0 && s.tool !== part.section) throw violation('LAY-4', 'layout part with the wrong name', s.line, 1);
      if (s.fields.length !== part.fields.length || s.fields.some((f, i) => f !== part.fields[i].gcx)) {
        throw violation('LAY-5', 'the field list does not fit the layout', s.line, s.fieldListCol);
      }
      s.meta.forEach(([key], i) => {
        if (key === 'json' || key === 'nest' || key === 'str') throw violation('LAY-4', 'layout section with ' + key + '=', s.line, s.metaCols[i][1]);
      });
      // An object part's second row is an error where it stands, unread [MAP-14].
      const objects = (part.shape === 'object' ? s.rows.slice(0, 1) : s.rows).map((row, r) => {
        const { line, cols } = s.rowPositions[r];
        const members = [];
        row.forEach((cell, i) => {
          const f = part.fields[i];
          if (cell === '') {
            if (!f.optional) throw violation('LAY-3', 'empty cell in a required field', line, cols[i]);
            return;
          }
          const value = readSpelled(cell, line, cols[i]);
          if (!isOfType(value, f.type)) throw violation('LAY-3', 'cell of the wrong type', line, cols[i]);
          members.push([f.member, value]);
        });
        return { kind: 'object', members };
      });
      if (part.shape === 'object') {
        if (s.rows.length !== 1) throw violation('LAY-2', 'an object part holds one row', s.line, 1);
        values.push(objects[0]);
      } else {
        values.push({ kind: 'array', items: objects });
      }
    }
    checkNoMoreSections(parts.length);
    if (values.length < parts.length) throw violation('LAY-4', 'layout part missing', root.line, 1);
    if (parts.length === 1) return values[0];
    return { kind: 'object', members: parts.map((part, i) => [part.member, values[i]]) };
  }
}

// ================================================================ the ops [WIRE-3] [AUTO-3]

// Reads a JSON text for the mapping; not JSON is invalid-json, nesting beyond the bound a limit [MAP-1] [MAP-4].
function readJsonInput(input) {
  try {
    return readJsonText(input, 0, input.length);
  } catch (e) {
    const [line, col] = lineAndColumn(input, e.offset);
    if (e.isLimit) throw new GcxError('limit', 'MAP-4', e.message, line, col);
    throw new GcxError('invalid-json', 'MAP-1', e.message, line, col);
  }
}

// encode --mode gcx [--tool NAME]: the whole input is read before the tool name is checked [MAP-14].
function encodeJson(input, tool) {
  const value = readJsonInput(input);
  if (!isName(tool)) throw new GcxError('model', 'HDR-3', 'tool name not allowed: ' + JSON.stringify(tool));
  const sections = encodeMapping(value, tool);
  checkModel(sections, () => null);
  return writeCanonical(sections);
}

// decode: a result that begins with GCX, or with a byte-order mark and GCX, is GCX1; any other is JSON [AUTO-3].
function decodeResult(input, limits) {
  const bomThenGCX = input.length >= 3 && input[0] === 0xEF && input[1] === 0xBB && input[2] === 0xBF &&
    beginsWithGCX(input, 3, input.length);
  const value = beginsWithGCX(input, 0, input.length) || bomThenGCX
    ? decodeMapping(decodePayload(input, limits))
    : readJsonInput(input);
  return Buffer.from(compactForm(value) + '\n', 'utf8');
}

const LIMIT_FLAGS = ['--max-line-bytes', '--max-fields', '--max-sections', '--max-rows'];

function parseCommandLine(args) {
  const command = args[0];
  if (command !== 'decode' && command !== 'encode') throw new UsageError('expected decode or encode');
  const options = { command, wire: false, mode: null, tool: null, limits: {} };
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--wire') {
      options.wire = true;
    } else if (LIMIT_FLAGS.includes(arg)) {
      const count = args[++i];
      if (count === undefined || !/^[0-9]+$/.test(count) || !(Number(count) > 0)) throw new UsageError(arg + ' takes a positive count');
      options.limits[arg.slice(2)] = Number(count);
    } else if ((arg === '--mode' || arg === '--tool') && command === 'encode' && i + 1 < args.length) {
      options[arg.slice(2)] = args[++i];
    } else {
      throw new UsageError('unknown flag ' + arg);
    }
  }
  if (command === 'encode') {
    if (options.wire && (options.mode !== null || options.tool !== null)) throw new UsageError('encode --wire takes no --mode or --tool');
    if (!options.wire && options.mode !== 'gcx') throw new UsageError('only --mode gcx is offered: auto mode needs a tokenizer');
    if (Object.keys(options.limits).length) throw new UsageError('encoder limits are not offered');
  }
  return options;
}

function run(options, input) {
  if (options.command === 'decode' && options.wire) return Buffer.from(writeWireView(decodePayload(input, options.limits)), 'utf8');
  if (options.command === 'decode') return decodeResult(input, options.limits);
  if (options.wire) return encodeWireView(input);
  return encodeJson(input, options.tool === null ? 'result' : options.tool);
}

function writeStdout(buffer) {
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += fs.writeSync(1, buffer, offset, buffer.length - offset);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

// One run of the protocol: the exit status, stdout's bytes and stderr's text.
function runOnce(args, input) {
  let options;
  try {
    options = parseCommandLine(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return { status: 2, stdout: Buffer.alloc(0), stderr: 'usage: adapter.js decode [--wire] [limits] | encode --wire | encode --mode gcx [--tool NAME]: ' + e.message + '\n' };
  }
  try {
    return { status: 0, stdout: run(options, input), stderr: '' };
  } catch (e) {
    if (!(e instanceof GcxError)) throw e;
    const position = e.line !== undefined ? 'line ' + e.line + ', column ' + e.col + ': ' : '';
    const tag = e.tag ? ' (tag ' + e.tag + ')' : '';
    return {
      status: e.cls === 'unsupported-version' ? 3 : 1,
      stdout: Buffer.alloc(0),
      stderr: 'adapter.js: ' + position + e.cls + ': ' + e.message + tag + ' [' + e.rule + ']\n',
    };
  }
}

// The persistent mode of the protocol (docs/conformance.md, "The persistent mode"): after the line
// {"persistent":1}, one request per line on stdin, {"id","args","stdin"}, each answered by one line,
// {"id","status","stdout","stderr"}, the bytes in base64, until stdin ends.
function serve() {
  writeStdout(Buffer.from('{"persistent":1}\n'));
  const answer = (line) => {
    const request = JSON.parse(line.toString('utf8'));
    let result;
    try {
      result = runOnce(request.args, Buffer.from(request.stdin, 'base64'));
    } catch (e) {
      result = { status: 1, stdout: Buffer.alloc(0), stderr: String(e && e.stack) + '\n' }; // what a process would die with
    }
    writeStdout(Buffer.from(JSON.stringify({
      id: request.id,
      status: result.status,
      stdout: result.stdout.toString('base64'),
      stderr: Buffer.from(result.stderr, 'utf8').toString('base64'),
    }) + '\n'));
  };
  // The pieces of a line not yet ended, joined once its LF comes: a request of megabytes is copied once.
  let pieces = [];
  process.stdin.on('data', (chunk) => {
    let lf;
    while ((lf = chunk.indexOf(0x0A)) >= 0) {
      pieces.push(chunk.subarray(0, lf));
      chunk = chunk.subarray(lf + 1);
      const line = Buffer.concat(pieces);
      pieces = [];
      answer(line);
    }
    if (chunk.length > 0) pieces.push(chunk);
  });
  process.stdin.on('end', () => { process.exitCode = 0; });
}

function main() {
  const args = process.argv.slice(2);
  if (args.length === 1 && args[0] === '--persistent') {
    serve();
    return 0;
  }
  const result = runOnce(args, args[0] === 'decode' || args[0] === 'encode' ? fs.readFileSync(0) : Buffer.alloc(0));
  process.stderr.write(result.stderr);
  writeStdout(result.stdout);
  return result.status;
}

process.exitCode = main();
