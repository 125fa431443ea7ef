// Package binding holds the decisions of the MCP binding (chapter 15 of
// docs/wire-format.md) on plain Go values, without the MCP SDK: which tags a
// call asked for, what a server changes in a tool result, how a client reads
// a result and when it repeats a call. Package gcxmcp applies them to the
// official Go SDK's types; the conformance runner applies them to the JSON
// of the binding's vectors, so that gcx conformance checks the binding
// without linking the SDK. There is one implementation of each rule: this.
package binding

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// The names the binding adds to MCP [MCP-1]. The vendor prefix is the
// reverse-DNS form of the project's home, as MCP asks of extensions and
// _meta keys that are not its own.
const (
	// Extension is the key of the binding in the extensions map of a
	// client's or server's capabilities [MCP-2].
	Extension = "io.github.gcxwire/gcx"

	// MetaAccept is the request _meta key of a per-call opt-in: the list of
	// tags the client reads for this call, [] for JSON [MCP-3].
	MetaAccept = "io.github.gcxwire/accept"

	// MetaFormat is the result _meta key that names what the JSON block
	// holds: a tag such as "GCX1", or "json" [MCP-6].
	MetaFormat = "io.github.gcxwire/format"

	// MetaTotal and MetaTruncated are the result _meta keys of a tool that
	// cut its list: how many results it found, and whether it cut [MCP-7].
	MetaTotal     = "io.github.gcxwire/total"
	MetaTruncated = "io.github.gcxwire/truncated"

	// MetaCompact is the result _meta key, true, of an answer whose JSON
	// block the server replaced with its compact JSON text [MCP-6].
	MetaCompact = "io.github.gcxwire/compact"

	// MetaDiffers is the result _meta key, true, of an answer whose JSON
	// block was replaced and holds a value other than structuredContent's,
	// so that a client does not compare the two [MCP-5] [MCP-8].
	MetaDiffers = "io.github.gcxwire/differs"

	// FormatJSON is the value of MetaFormat when the block stayed JSON.
	FormatJSON = "json"

	// SettingAccept and SettingOffer are the members of the extension's
	// settings object: the tags a client reads, the tags a server writes.
	SettingAccept = "accept"
	SettingOffer  = "offer"
)

// The errors a client reports about a result that breaks the binding, as
// opposed to the payload's own GCX1 errors, which are *spec.Error values.
var (
	// ErrInvalidResult: the result's _meta names a format but the result
	// does not hold it, or a binding key has a value of the wrong type
	// [MCP-7] [MCP-8].
	ErrInvalidResult = errors.New("gcxmcp: result breaks the MCP binding")

	// ErrMismatch: the payload decodes to a value other than
	// structuredContent, or its total=/truncated= disagree with the
	// result's _meta [MCP-7] [MCP-8].
	ErrMismatch = errors.New("gcxmcp: payload disagrees with the result")
)

// readTags reads a list of tags as MCP delivers it: []any of strings after
// JSON transit, []string when built in process. ok is false when v is not a
// list of strings; strings that are not well-formed tags [VER-1] are kept
// out of the list, so a tag from a later version of this binding cannot
// break the call.
func readTags(v any) (tags []string, ok bool) {
	switch l := v.(type) {
	case []string:
		for _, s := range l {
			tags = appendTag(tags, s)
		}
		return tags, true
	case []any:
		for _, e := range l {
			s, isString := e.(string)
			if !isString {
				return nil, false
			}
			tags = appendTag(tags, s)
		}
		return tags, true
	}
	return nil, false
}

func appendTag(tags []string, s string) []string {
	if _, kind, n := spec.ReadTag([]byte(s)); (kind == spec.TagGCX1 || kind == spec.TagOther) && n == len(s) {
		return append(tags, s)
	}
	return tags
}

// isTag reports whether s is a well-formed version tag [VER-1].
func isTag(s string) bool { return len(appendTag(nil, s)) == 1 }

// A truncation is what a tool said about cutting its list [MCP-7]:
// total < 0 when it did not say how many it found.
type truncation struct {
	total        int64
	truncated    bool
	hasTruncated bool
}

// pairs returns the pairs that say t in a payload's root header, total=
// before truncated=, or none when t says nothing [MCP-7]. The values need
// no escape: a count and a boolean are written as themselves [META-1]
// [META-3]. The encoder adds them only where they may stand: a root that
// is a table, without either key, within the line limit
// (jsonmap.RootIsTable, jsonmap.EncodeValuePairs) [LIM-4].
func (t truncation) pairs() []spec.Meta {
	var p []spec.Meta
	if t.total >= 0 {
		p = append(p, spec.Meta{Key: spec.KeyTotal, Value: strconv.FormatInt(t.total, 10)})
	}
	if t.hasTruncated {
		p = append(p, spec.Meta{Key: spec.KeyTruncated, Value: strconv.FormatBool(t.truncated)})
	}
	return p
}

// readTruncation reads MetaTotal and MetaTruncated from a result's _meta.
// A total is a JSON integer from 0 to 2^53 (the integers every JSON reader
// keeps exact); truncated is a boolean. A key of the wrong type is left
// out of t and reported in err; the other key is still read.
func readTruncation(meta map[string]any) (t truncation, err error) {
	t = truncation{total: -1}
	if v, ok := meta[MetaTotal]; ok {
		if n, ok := readCount(v); ok {
			t.total = n
		} else {
			err = fmt.Errorf("%w: _meta %q is %s, not an integer from 0 to 2^53 [MCP-7]", ErrInvalidResult, MetaTotal, describe(v))
		}
	}
	if v, ok := meta[MetaTruncated]; ok {
		if b, ok := v.(bool); ok {
			t.truncated, t.hasTruncated = b, true
		} else if err == nil {
			err = fmt.Errorf("%w: _meta %q is %s, not a boolean [MCP-7]", ErrInvalidResult, MetaTruncated, describe(v))
		}
	}
	return t, err
}

const maxExactInt = 1 << 53

func readCount(v any) (int64, bool) {
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int32:
		n = int64(x)
	case int64:
		n = x
	case uint32:
		n = int64(x)
	case float64:
		if x != math.Trunc(x) || x < 0 || x > maxExactInt {
			return 0, false
		}
		n = int64(x)
	case json.Number:
		// A count is a number whose value is an integer, however its
		// literal is spelled (41.0, 4.1e1) [MCP-1]; the value is read
		// exactly, so 2^53+1 is not taken for 2^53.
		r, ok := new(big.Rat).SetString(string(x))
		if !ok || !r.IsInt() || !r.Num().IsInt64() {
			return 0, false
		}
		n = r.Num().Int64()
	default:
		return 0, false
	}
	return n, 0 <= n && n <= maxExactInt
}

// describe names a _meta value in an error without quoting all of it.
func describe(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("a %T", v)
	}
	if len(b) > 64 {
		return fmt.Sprintf("%s... (%d bytes)", b[:64], len(b))
	}
	return string(b)
}

// rootHeader reads the first header of a payload with d, a new Decoder of
// it. table reports whether the root section is a table whose meta pairs
// are not members of the value — the table form, with or without
// json=rows, or a layout part of rows shape [MAP-7] [MAP-13] — which is
// where total= and truncated= may stand [MCP-7]. It reads one line.
func rootHeader(d *streaming.Decoder) (h *streaming.Header, table bool, err error) {
	if _, err := d.Next(); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, false, err
	}
	h = d.Header()
	return h, jsonmap.RootIsTable(h), nil
}

func lookupMeta(meta []spec.Meta, key string) (string, bool) {
	for _, m := range meta {
		if m.Key == key {
			return m.Value, true
		}
	}
	return "", false
}

// headerCounts reads total= and truncated= from the root header of the
// payload d decodes, when the root is a table [MCP-7]. A decoded payload's
// values are valid [META-1] [META-3].
func headerCounts(d *streaming.Decoder) (truncation, error) {
	t := truncation{total: -1}
	h, table, err := rootHeader(d)
	if err != nil || !table {
		return t, err
	}
	if v, ok := lookupMeta(h.Meta, spec.KeyTotal); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return t, err
		}
		t.total = n
	}
	if v, ok := lookupMeta(h.Meta, spec.KeyTruncated); ok {
		t.truncated, t.hasTruncated = v == "true", true
	}
	return t, nil
}

// HeaderCounts returns what a payload's root header says of truncation
// [MCP-7]: total is how many results the tool found, or -1 when the header
// does not say, and hasTruncated whether it says truncated=. Only a root
// that is a table carries them; in a header-form root total= and
// truncated= are members of the value [MAP-10], and in another version's
// payload they are nothing to this binding, so both say nothing. It reads
// the first line of payload.
func HeaderCounts(payload []byte) (total int64, truncated, hasTruncated bool, err error) {
	t, err := headerCounts(streaming.NewDecoder(bytes.NewReader(payload)))
	return t.total, t.truncated, t.hasTruncated, err
}
