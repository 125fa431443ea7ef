package binding

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/internal/propcheck"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"pgregory.net/rapid"
)

// viaTree is what an intermediary makes of a response by decoding it
// whole: ResultFromJSON, the decision, ApplyJSON, and the response written
// in compact form. ok is false when the message is no response with a
// result the binding reads.
func viaTree(s *Server, msg []byte) (out []byte, d Decision, ok bool) {
	return viaTreeFor(s, "t", msg)
}

// viaTreeFor is viaTree for a tool of that name.
func viaTreeFor(s *Server, tool string, msg []byte) (out []byte, d Decision, ok bool) {
	m, _, err := jsonmap.ParseShared(msg)
	if err != nil || m.Kind != jsonmap.Object {
		return nil, Decision{}, false
	}
	if _, isRequest := m.Lookup("method"); isRequest {
		return nil, Decision{}, false
	}
	if _, ok := m.Lookup("id"); !ok {
		return nil, Decision{}, false
	}
	result, ok := m.Lookup("result")
	if !ok {
		return nil, Decision{}, false
	}
	r, err := ResultFromJSON(result, false)
	if err != nil {
		return nil, Decision{}, false
	}
	d = s.Decide(tool, []string{"GCX1"}, r)
	if !d.Answered {
		return msg, d, true
	}
	d.Answer.ApplyJSON(&m)
	return m.AppendCompact(nil), d, true
}

// viaText is the same by ReadResponse and Apply; ok is false when
// ReadResponse leaves the message to the tree.
func viaText(s *Server, msg []byte) (out []byte, d Decision, resp *Response, ok bool) {
	resp, ok = ReadResponse(msg)
	if !ok {
		return nil, Decision{}, nil, false
	}
	d = s.Decide("t", []string{"GCX1"}, resp.Result)
	if !d.Answered {
		return msg, d, resp, true
	}
	return resp.Apply(d.Answer), d, resp, true
}

// A response message drawn from the shapes servers write: the members in
// any order, structuredContent the text's value (written as Node or as
// Go's encoding/json writes it), another value, null or none, further
// blocks, _meta, isError, and now and then a space where compact form has
// none.
type drawnResponse struct {
	msg []byte
	// typical: a compact message whose one text block holds a JSON text
	// and structuredContent, after it, its value: the proxy's common case,
	// which ReadResponse must read itself.
	typical bool
}

func drawResponse(t *rapid.T) drawnResponse {
	v := jsongen.Value().Draw(t, "value")
	compact := v.AppendCompact(nil)
	var htmlEscaped bytes.Buffer
	json.HTMLEscape(&htmlEscaped, compact)
	text := string(compact)
	if rapid.Bool().Draw(t, "pretty") {
		var b bytes.Buffer
		json.Indent(&b, compact, "", "  ")
		text = b.String()
	}
	prose := rapid.IntRange(0, 9).Draw(t, "prose") == 0
	if prose {
		text = rapid.SampledFrom([]string{"no results", "GCX1 tool=t fields=a rows=0\n", "", "{not json"}).Draw(t, "text")
	}
	quote := func(s string) string {
		if rapid.Bool().Draw(t, "go-escapes") {
			b, _ := json.Marshal(s) // escapes <, > and & as Go does
			return string(b)
		}
		return string(jsontext.AppendString(nil, s))
	}
	block := `{"type":"text","text":` + quote(text) + `}`
	if rapid.Bool().Draw(t, "text-first") {
		block = `{"text":` + quote(text) + `,"type":"text"}`
	}
	content := []string{block}
	switch rapid.IntRange(0, 6).Draw(t, "blocks") {
	case 1:
		content = append([]string{`{"type":"image","data":"AAAA","mimeType":"image/png"}`}, content...)
	case 2:
		content = append(content, `{"type":"text","text":`+quote("see above")+`}`)
	case 3:
		content = append(content, `{"type":"text","text":`+quote(text)+`}`)
	case 4:
		content = append(content, `"not a block"`)
	case 5:
		// A text that is no text block's: it stays as it is written.
		content = append(content, `{"text":`+quote("a <b> & c")+`,"type":"note"}`)
	}
	typical := len(content) == 1 && !prose
	members := []string{`"content":[` + strings.Join(content, ",") + `]`}
	structured := rapid.IntRange(0, 6).Draw(t, "structured")
	switch structured {
	case 0:
		typical = false // read as it is, but nothing to compare
	case 1:
		members = append(members, `"structuredContent":`+string(compact))
	case 2:
		members = append(members, `"structuredContent":`+htmlEscaped.String())
	case 3:
		other := jsongen.Value().Draw(t, "other")
		members = append(members, `"structuredContent":`+string(other.AppendCompact(nil)))
		typical = false
	case 4:
		members = append(members, `"structuredContent":null`)
		typical = false
	case 5:
		members = append(members, `"structuredContent":{"content":`+quote(text)+`}`)
		typical = false
	case 6:
		members = append(members, `"structuredContent":[`+string(compact)+`]`)
		typical = false
	}
	switch rapid.IntRange(0, 5).Draw(t, "meta") {
	case 1:
		members = append(members, `"_meta":{}`)
	case 2:
		members = append(members, `"_meta":{"progressToken":7,"io.github.gcxwire/compact":false}`)
	case 3:
		members = append(members, `"_meta":{"io.github.gcxwire/differs":true,"x":[1,{"y":null}]}`)
	case 4:
		members = append(members, `"_meta":{"io.github.gcxwire/format":"json"}`)
	case 5:
		members = append(members, `"_meta":{"`+MetaTotal+`":40,"`+MetaTruncated+`":true}`)
	}
	switch rapid.IntRange(0, 3).Draw(t, "isError") {
	case 1:
		members = append(members, `"isError":false`)
	case 2:
		members = append(members, `"isError":true`)
	}
	if rapid.Bool().Draw(t, "shuffle") {
		members = rapid.Permutation(members).Draw(t, "order")
		typical = false
	}
	id := rapid.SampledFrom([]string{`1`, `"call-1"`, `{"k":[1,2]}`}).Draw(t, "id")
	msg := `{"jsonrpc":"2.0","id":` + id + `,"result":{` + strings.Join(members, ",") + `}}`
	if rapid.IntRange(0, 5).Draw(t, "loose") == 0 {
		// A space where compact form has none, outside the text and
		// structuredContent.
		at := rapid.SampledFrom([]string{`"id":`, `"result":{`, `"type":"text"`, `,"jsonrpc"`}).Draw(t, "where")
		msg = strings.Replace(msg, at, at+" ", 1)
		typical = false
	}
	return drawnResponse{msg: []byte(msg), typical: typical}
}

// Reading a response's text and splicing the answer into it gives, byte
// for byte, what decoding it whole and writing it out gives, and the same
// decision, in mode gcx and in auto mode; and the proxy's common case is
// read so, not left to the tree.
func TestPropertyResponseTextAsTree(t *testing.T) {
	servers := map[string]*Server{}
	for _, mode := range []Mode{ModeGCX, ModeAuto} {
		s, err := NewServer(ServerOptions{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		servers[string(mode)] = s
	}
	propcheck.Check(t, 1000, func(t *rapid.T) {
		r := drawResponse(t)
		s := servers[rapid.SampledFrom([]string{"gcx", "auto"}).Draw(t, "mode")]
		want, wantD, treeOK := viaTree(s, r.msg)
		got, gotD, resp, textOK := viaText(s, r.msg)
		if !textOK {
			if r.typical {
				t.Fatalf("ReadResponse left a typical response to the tree: %s", r.msg)
			}
			return
		}
		if !treeOK {
			t.Fatalf("ReadResponse read what the tree refuses: %s", r.msg)
		}
		if gotD != wantD {
			t.Fatalf("decision %+v, the tree's %+v\nmessage %s", gotD, wantD, r.msg)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("wrote\n%s\nthe tree writes\n%s\nmessage %s", got, want, r.msg)
		}
		if r.typical && resp.Result.known == nil {
			t.Fatalf("the JSON block of a typical response was looked for again: %s", r.msg)
		}
	})
}

// ReadResponse leaves to the tree what is not a response it reads: a
// request, an error, a message out of compact form, not JSON, a result
// ResultFromJSON refuses, a repeated member.
func TestReadResponseLeaves(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}} `,
		`{"jsonrpc": "2.0","id":1,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":1}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":{}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":[]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[1]"}],"structuredContent":[1,1,1]}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1,"a":1}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1} }}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[\"\\u00e9\"]"}],"structuredContent":["\ud800"]}}`,
		`{"jsonrpc":"2.0","result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]},"result":{"content":[]}}`,
		`[{"jsonrpc":"2.0","id":1,"result":{"content":[]}}]`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"\u0074ext","text":"1"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text": "1"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"\u003c","type":"note"}]}}`,
		// A text's literal that is no JSON string, though its value would
		// read: a raw control or invalid UTF-8, in the text's JSON or
		// in a string of it, or an unknown escape.
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[1]\x01\"}]}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[1,\t2]\"}]}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[\\\"a\tb\\\"]\"}]}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[\\\"a\xffb\\\"]\"}]}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[1]\\q\"}]}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[1]\\q\"},{\"type\":\"text\",\"text\":\"2\"}]}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"note\",\"text\":\"\\q\"}]}}",
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[1]}]}}`,
	} {
		if _, ok := ReadResponse([]byte(msg)); ok {
			t.Errorf("ReadResponse read %s", msg)
		}
	}
}

// structuredContent in another form than the compact one, the same value,
// is read without building it, and the answer writes it in compact form,
// as the tree does.
func TestReadResponseOtherEscapes(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":\"<é>\"},{\"a\":\"x\"}]"}],"structuredContent":[{"a":"\u003c\u00E9\u003e"},{"a":"\u0078"}]}}`)
	want, _, _ := viaTree(s, msg)
	got, _, resp, ok := viaText(s, msg)
	if !ok || resp.Result.known == nil || resp.Result.known.differs {
		t.Fatalf("not read as the block's value: %v", ok)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("wrote\n%s\nthe tree writes\n%s", got, want)
	}
	if !bytes.Contains(got, []byte(`"structuredContent":[{"a":"<é>"},{"a":"x"}]`)) {
		t.Fatalf("structuredContent not in compact form: %s", got)
	}
}

// Whatever the bytes, a message ReadResponse reads is one the tree reads,
// and the two decide and write alike.
func FuzzReadResponse(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}],"structuredContent":[{"a":1},{"a":2}]}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"content":[{"text":"{\"r\":[\"<\"]}","type":"text"}],"structuredContent":{"r":["\u003c"]},"_meta":{"k":1}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":[1]},"content":[{"type":"text","text":"{\n  \"a\": [1]\n}"}],"isError":false}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[1]"}],"structuredContent":[1,1,1]}`,
	} {
		f.Add([]byte(seed))
	}
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		got, gotD, _, textOK := viaText(s, msg)
		if !textOK {
			return
		}
		want, wantD, treeOK := viaTree(s, msg)
		if !treeOK {
			t.Fatalf("ReadResponse read what the tree refuses: %q", msg)
		}
		if gotD != wantD || !bytes.Equal(got, want) {
			t.Fatalf("decision %+v, the tree's %+v; wrote\n%s\nthe tree writes\n%s", gotD, wantD, got, want)
		}
	})
}

// A string of the block's value with escapes in the text is matched as
// an escaped literal even where its characters, written raw, would read
// as other JSON: ["x","y"] is not the value ["x\",\"y"].
func TestReadResponseRawQuotesDiffer(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[\"x\\\",\\\"y\"]"}],"structuredContent":["x","y"]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":["x","y"],"content":[{"type":"text","text":"[\"x\\\",\\\"y\"]"}]}}`,
	} {
		want, wantD, _ := viaTree(s, []byte(msg))
		got, gotD, resp, ok := viaText(s, []byte(msg))
		if !ok || resp.Result.known == nil || !resp.Result.known.differs {
			t.Fatalf("%s: structuredContent not read as differing from the block's value", msg)
		}
		if gotD != wantD || !bytes.Equal(got, want) {
			t.Fatalf("decision %+v, the tree's %+v; wrote\n%s\nthe tree writes\n%s", gotD, wantD, got, want)
		}
	}
}

// The JSON block's value read from its text's literal where it lies
// gives what decoding the text and parsing it gives (the tree): the same
// decision and answer, byte for byte, in mode gcx and auto mode, and the
// same texts once decoded, whatever the escapes of the literal and the
// text, valid JSON or not; and a text in a literal as encoders write it
// (Go's encoding/json too) is read so, never decoded for its value.
func TestPropertyLiteralTextAsTree(t *testing.T) {
	servers := map[string]*Server{}
	for _, mode := range []Mode{ModeGCX, ModeAuto} {
		s, err := NewServer(ServerOptions{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		servers[string(mode)] = s
	}
	propcheck.Check(t, 1000, func(t *rapid.T) {
		text := jsongen.LiteralText(t)
		lit := jsongen.Literal(t, text)
		members := []string{`"content":[{"type":"text","text":` + lit + `}]`}
		v, _, err := jsonmap.ParseShared([]byte(text))
		switch rapid.IntRange(0, 3).Draw(t, "structured") {
		case 1:
			if err == nil {
				members = append(members, `"structuredContent":`+string(v.AppendCompact(nil)))
			}
		case 2:
			members = append(members, `"structuredContent":{"other":[1]}`)
		case 3:
			if err == nil {
				members = append([]string{`"structuredContent":` + string(v.AppendCompact(nil))}, members...)
			}
		}
		msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{` + strings.Join(members, ",") + `}}`)
		s := servers[rapid.SampledFrom([]string{"gcx", "auto"}).Draw(t, "mode")]
		// A name the mapping does not write under: the text stays,
		// written anew.
		tool := rapid.SampledFrom([]string{"t", "bad name"}).Draw(t, "tool")
		want, wantD, treeOK := viaTreeFor(s, tool, msg)
		resp, ok := ReadResponse(msg)
		switch {
		case ok && !treeOK:
			t.Fatalf("ReadResponse read what the tree refuses: %.400s", msg)
		case !treeOK:
			return // structuredContent nested too deep
		case !ok:
			t.Fatalf("a compact response left to the tree: %.400s", msg)
		}
		fromLiteral := resp.Result.undecoded.lit != ""
		if err == nil && jsongen.EncodersLiteral(lit, text) && len(text) < streamAbove && !fromLiteral {
			t.Fatalf("the value of a text as encoders write it was not read from its literal: %.400s", msg)
		}
		if fromLiteral && (resp.Result.known == nil || resp.Result.known.json != nil) {
			t.Fatalf("read from the literal, but the block is %+v", resp.Result.known)
		}
		d := s.Decide(tool, []string{"GCX1"}, resp.Result)
		got := msg
		if d.Answered {
			got = resp.Apply(d.Answer)
		}
		if d != wantD {
			t.Fatalf("decision %+v, the tree's %+v\nmessage %.400s", d, wantD, msg)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("wrote\n%.400s\nthe tree writes\n%.400s\nmessage %.400s", got, want, msg)
		}
		resp.Result.DecodeTexts()
		if resp.Result.Content[0].Text != text {
			t.Fatalf("decoded the text %.400q, not %.400q", resp.Result.Content[0].Text, text)
		}
	})
}
