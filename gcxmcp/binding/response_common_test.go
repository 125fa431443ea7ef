package binding

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/internal/propcheck"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"pgregory.net/rapid"
)

// readBoth reads msg with readCommon first, as ReadResponse does, and
// with the JSON reader alone (readerOnly).
func readBoth(msg []byte) (common, reader *Response, commonOK, readerOK bool) {
	common, commonOK = ReadResponse(msg)
	readerOnly = true
	defer func() { readerOnly = false }()
	reader, readerOK = ReadResponse(msg)
	return common, reader, commonOK, readerOK
}

// sameResponse says how two responses read from one message differ, ""
// when in nothing ReadResponse's callers see or Apply uses.
func sameResponse(p, q *Response) string {
	switch {
	case !bytes.Equal(p.ID, q.ID):
		return "id"
	case !reflect.DeepEqual(p.texts, q.texts):
		return "texts"
	case p.structured != q.structured || p.recompact != q.recompact:
		return "structured"
	case !reflect.DeepEqual(p.fixes, q.fixes) && len(p.fixes)+len(q.fixes) > 0:
		return "fixes"
	case p.resultEnd != q.resultEnd || p.meta != q.meta || p.metaKeys != q.metaKeys || p.marks != q.marks:
		return "result's end or _meta"
	}
	r, s := p.Result, q.Result
	switch {
	case !reflect.DeepEqual(r.Content, s.Content):
		return "content"
	case r.IsError != s.IsError || !reflect.DeepEqual(r.Meta, s.Meta):
		return "isError or _meta"
	case !reflect.DeepEqual(r.Structured, s.Structured):
		return "structuredContent"
	case r.undecoded != s.undecoded:
		return "the undecoded text"
	case (r.known == nil) != (s.known == nil):
		return "the JSON block"
	}
	if k, l := r.known, s.known; k != nil {
		if k.at != l.at || !bytes.Equal(k.json, l.json) || !bytes.Equal(k.shared, l.shared) || k.parsed != l.parsed || k.differs != l.differs || !reflect.DeepEqual(k.value, l.value) {
			return "the JSON block"
		}
	}
	return ""
}

// A response of the common shape and ones a byte or a member away from
// it: ids and jsonrpc values plain or not, names with escapes, repeated,
// missing or unknown members, isError, a block with more members or of another
// type, structuredContent before the content, null, unlike the text's
// value or in Go's form, and bytes after the message.
func drawCommon(t *rapid.T) []byte {
	// One way away from the common shape, none, or all at once.
	perturb := rapid.SampledFrom([]string{"", "", "", "all", "prose", "go-escapes", "block", "blocks", "structured", "isError", "shuffle", "twice", "no content", "id", "jsonrpc", "top", "order", "after", "loose"}).Draw(t, "perturb")
	pick := func(name string, n int) int {
		if perturb != name && perturb != "all" {
			return 0
		}
		return rapid.IntRange(0, n).Draw(t, name)
	}
	v := jsongen.Value().Draw(t, "value")
	compact := v.AppendCompact(nil)
	text := string(compact)
	if rapid.Bool().Draw(t, "pretty") {
		var b bytes.Buffer
		json.Indent(&b, compact, "", "  ")
		text = b.String()
	}
	if pick("prose", 1) == 1 {
		text = rapid.SampledFrom([]string{"no results", "", "{not json", "[1,2"}).Draw(t, "text")
	}
	lit := string(jsontext.AppendString(nil, text))
	if pick("go-escapes", 1) == 1 {
		b, _ := json.Marshal(text)
		lit = string(b)
	}
	block := []string{`"type":"text"`, `"text":` + lit}
	switch pick("block", 16) {
	case 1:
		block = []string{block[1], block[0]}
	case 2:
		block = append(block, `"annotations":{}`)
	case 3:
		block[0] = `"type":"image"`
	case 4:
		block = block[1:]
	case 5:
		block = append(block, block[0])
	case 6:
		block[0] = `"type" :"text"`
	}
	content := `"content":[{` + strings.Join(block, ",") + `}]`
	if pick("blocks", 1) == 1 {
		content = `"content":[{` + strings.Join(block, ",") + `},{"type":"text","text":"more"}]`
	}
	var structured string
	switch pick("structured", 11) {
	case 0, 1, 2, 8, 9, 10, 11:
		structured = `"structuredContent":` + string(compact)
	case 3:
		var h bytes.Buffer
		json.HTMLEscape(&h, compact)
		structured = `"structuredContent":` + h.String()
	case 4:
		structured = `"structuredContent":` + string(jsongen.Value().Draw(t, "other").AppendCompact(nil))
	case 5:
		structured = `"structuredContent":null`
	case 6:
		structured = `"structuredContent":[` + string(compact) + `]`
	}
	members := []string{content}
	if structured != "" {
		members = append(members, structured)
	}
	switch pick("isError", 12) {
	case 1:
		members = append(members, `"isError":false`)
	case 2:
		members = append(members, `"isError":true`)
	case 3:
		members = append(members, `"isError":tru`)
	case 4:
		members = append(members, `"isError":false`, `"isError":true`)
	case 5:
		members = append(members, `"_meta":{"x":1}`)
	}
	if pick("shuffle", 1) == 1 {
		members = rapid.Permutation(members).Draw(t, "order")
	}
	if pick("twice", 1) == 1 {
		members = append(members, members[rapid.IntRange(0, len(members)-1).Draw(t, "repeated")])
	}
	if pick("no content", 1) == 1 {
		members = members[1:]
	}
	id := `1`
	if pick("id", 1) == 1 {
		id = rapid.SampledFrom([]string{`1`, `0`, `42`, `"call-1"`, `""`, `01`, `-1`, `1.5`, `1e3`, `"a\"b"`, `"é"`, `null`, `{"k":[1,2]}`, `"\u0041"`}).Draw(t, "id")
	}
	rpc := []string{`"2.0"`, `"2.\u0030"`, `2`, `"x y"`}[pick("jsonrpc", 3)]
	top := []string{`"jsonrpc":` + rpc, `"id":` + id, `"result":{` + strings.Join(members, ",") + `}`}
	switch pick("top", 18) {
	case 1:
		top = top[1:]
	case 2:
		top = append(top, `"method":"x"`)
	case 3:
		top = append(top, top[1])
	case 4:
		top = append(top, `"error":{}`)
	case 5:
		top[0] = `"json\u0072pc":"2.0"`
	case 6:
		top = top[:2]
	}
	if pick("order", 1) == 1 {
		top = rapid.Permutation(top).Draw(t, "top order")
	}
	msg := `{` + strings.Join(top, ",") + `}` + []string{"", " ", "}", "\n"}[pick("after", 3)]
	if pick("loose", 1) == 1 {
		at := rapid.IntRange(0, len(msg)).Draw(t, "where")
		msg = msg[:at] + rapid.SampledFrom([]string{" ", ",", "\"", "}", "x"}).Draw(t, "insert") + msg[at:]
	}
	return []byte(msg)
}

// readCommon reads what it reads as the JSON reader does: the same
// Response, or it leaves the message to the reader, on the common shape,
// messages a byte or a member away from it, and drawResponse's; and it
// reads the common shape itself.
func TestPropertyCommonAsReader(t *testing.T) {
	taken, cases := 0, 0
	propcheck.Check(t, 3000, func(t *rapid.T) {
		cases++
		msg := drawCommon(t)
		if rapid.IntRange(0, 3).Draw(t, "drawResponse") == 0 {
			msg = drawResponse(t).msg
		}
		var room responseRoom
		_, _, took := readCommon(msg, &room)
		common, reader, commonOK, readerOK := readBoth(msg)
		if commonOK != readerOK {
			t.Fatalf("read %v, the reader %v (readCommon %v): %s", commonOK, readerOK, took, msg)
		}
		if took {
			taken++
			if !readerOK {
				t.Fatalf("readCommon read what the reader refuses: %s", msg)
			}
		}
		if commonOK {
			if d := sameResponse(common, reader); d != "" {
				t.Fatalf("%s differs from the reader's (readCommon %v): %s", d, took, msg)
			}
		}
	})
	// A tenth of the cases: 300 of the 3000 a full run draws, and as many
	// of the fifth that go test -short draws (a fixed 300 there was about
	// half the messages, and failed about half the runs).
	if taken < cases/10 {
		t.Fatalf("readCommon read %d messages of %d, too few to say", taken, cases)
	}
}

// The common shape is read by readCommon, with or without isError and
// structuredContent, the members in any order but structuredContent
// after the content.
func TestReadCommon(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":[1,\"x\"]}"}],"structuredContent":{"a":[1,"x"]}}}`,
		`{"id":"c-1","jsonrpc":"2.0","result":{"content":[{"text":"{\"a\":1}","type":"text"}],"structuredContent":{"a":1}}}`,
		`{"result":{"content":[{"text":"[1]","type":"text"}],"isError":false},"id":0}`,
		`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"a\":\"<\"}"}],"structuredContent":{"a":"\u003c"},"isError":true}}`,
	} {
		var room responseRoom
		if _, _, ok := readCommon([]byte(msg), &room); !ok {
			t.Errorf("not read by readCommon: %s", msg)
		}
		common, reader, commonOK, readerOK := readBoth([]byte(msg))
		if !commonOK || !readerOK {
			t.Fatalf("read %v, the reader %v: %s", commonOK, readerOK, msg)
		}
		if d := sameResponse(common, reader); d != "" {
			t.Errorf("%s differs from the reader's: %s", d, msg)
		}
	}
}

// FuzzReadCommonAsReader: whatever readCommon reads, the reader reads the
// same, and what the reader refuses readCommon leaves.
func FuzzReadCommonAsReader(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}],"structuredContent":[{"a":1},{"a":2}]}}`,
		`{"id":"c-1","jsonrpc":"2.0","result":{"content":[{"text":"{\n  \"k\": \"a\u003cb\",\n  \"n\": 12\n}","type":"text"}],"structuredContent":{"k":"a\u003cb","n":12},"isError":false}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"a\\\"b\":\"x\\ny\"}"}],"structuredContent":{"a\"b":"x\ny"}}}`,
		`{"result":{"isError":true},"id":0}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		var room responseRoom
		_, _, took := readCommon(msg, &room)
		common, reader, commonOK, readerOK := readBoth(msg)
		if commonOK != readerOK || took && !readerOK {
			t.Fatalf("read %v, the reader %v (readCommon %v): %q", commonOK, readerOK, took, msg)
		}
		if commonOK {
			if d := sameResponse(common, reader); d != "" {
				t.Fatalf("%s differs from the reader's (readCommon %v): %q", d, took, msg)
			}
		}
	})
}

// A message readCommon leaves after reading its text's literal (here for
// its _meta) has the literal read once: the reader takes the value
// readCommon read. Read twice, the value's allocations would come twice.
func TestReadCommonLeavesTheLiteralRead(t *testing.T) {
	rows := strings.Repeat(`{\"a\":1,\"b\":[1,2,3]},`, 20)
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[` + rows + `{}]"}],"_meta":{"x":1}}}`)
	if _, _, ok := readCommon(msg, new(responseRoom)); ok {
		t.Fatal("readCommon read a result with _meta")
	}
	if _, ok := ReadResponse(msg); !ok {
		t.Fatal("not read")
	}
	both := testing.AllocsPerRun(50, func() { ReadResponse(msg) })
	readerOnly = true
	defer func() { readerOnly = false }()
	only := testing.AllocsPerRun(50, func() { ReadResponse(msg) })
	// readCommon's room, and one more should the collector empty a pool.
	if both > only+2 {
		t.Fatalf("%v allocations a message, reading it with the reader alone %v: the literal read twice", both, only)
	}
}
