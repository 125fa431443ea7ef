package binding

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
)

// commonEdge is a message for readCommon's edge tests: whether readCommon
// reads it itself (took) and whether ReadResponse reads it at all (ok).
type commonEdge struct {
	msg      string
	took, ok bool
}

// wrapCommon is the common shape with its envelope's members, the
// result's members and the block's members as given.
func wrapCommon(top, result, block string) string {
	return strings.NewReplacer("TOP", top, "RESULT", result, "BLOCK", block).Replace(
		`{"jsonrpc":"2.0",TOP"result":{"content":[{BLOCK}]RESULT}}`)
}

// checkCommonEdge holds one message to what readCommon and the reader
// give: readCommon takes it or leaves it as said, ReadResponse reads it or
// refuses it as the reader alone does, the two read the same Response,
// and the answer each writes of it is the same.
func checkCommonEdge(t *testing.T, c commonEdge) {
	t.Helper()
	msg := []byte(c.msg)
	var room responseRoom
	_, _, took := readCommon(msg, &room)
	common, reader, commonOK, readerOK := readBoth(msg)
	if took != c.took || commonOK != c.ok || readerOK != c.ok {
		t.Errorf("readCommon took %v (want %v), read %v, the reader %v (want %v): %q", took, c.took, commonOK, readerOK, c.ok, msg)
		return
	}
	if !c.ok {
		return
	}
	if d := sameResponse(common, reader); d != "" {
		t.Errorf("%s differs from the reader's: %q", d, msg)
		return
	}
	for _, a := range []Answer{
		{Format: "gcx", Block: 0, Text: "rows\n\"quoted\" <b>", Compact: true},
		{Format: "json", Block: -1, Differs: true},
	} {
		if a.Block >= 0 && (len(common.texts) == 0 || common.texts[0].from < 0) {
			continue
		}
		p, q := common.Apply(a), reader.Apply(a)
		if !bytes.Equal(p, q) {
			t.Errorf("answers differ for %q:\nreadCommon %s\nthe reader %s", msg, p, q)
		}
	}
}

func TestReadCommonEdges(t *testing.T) {
	const text = `"type":"text","text":"{\"a\":[1,\"x\"]}"`
	const sc = `,"structuredContent":{"a":[1,"x"]}`
	base := wrapCommon(`"id":1,`, sc, text)
	for _, c := range []commonEdge{
		{base, true, true},
		// Duplicate names, plain and escaped: the reader refuses them all.
		{wrapCommon(`"id":1,"id":2,`, sc, text), false, false},
		{wrapCommon(`"id":1,"i\u0064":2,`, sc, text), false, false},
		{wrapCommon(`"i\u0064":1,`, sc, text), false, false},
		{`{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"result":{"content":[{` + text + `}]}}`, false, false},
		{`{"id":1,"result":{"isError":false},"result":{"isError":false}}`, false, false},
		{wrapCommon(`"id":1,`, sc+sc, text), false, false},
		{wrapCommon(`"id":1,`, `,"isError":true,"isError":true`, text), false, false},
		{wrapCommon(`"id":1,`, `,"is\u0045rror":true`, text), false, false},
		{wrapCommon(`"id":1,`, ``, text+`,"type":"text"`), false, false},
		{wrapCommon(`"id":1,`, ``, text+`,"text":"1"`), false, false},
		{wrapCommon(`"id":1,`, ``, `"typ\u0065":"text","text":"1"`), false, false},
		{`{"id":1,"result":{"content":[{` + text + `}],"content":[{` + text + `}]}}`, false, false},
		{`{"id":1,"result":{"content":[{` + text + `}],"cont\u0065nt":[]}}`, false, false},
		// Ids of every kind: plain integers and strings are readCommon's.
		{wrapCommon(`"id":0,`, sc, text), true, true},
		{wrapCommon(`"id":123456789012345678901234567890,`, sc, text), true, true},
		{wrapCommon(`"id":00,`, sc, text), false, false},
		{wrapCommon(`"id":01,`, sc, text), false, false},
		{wrapCommon(`"id":-1,`, sc, text), false, true},
		{wrapCommon(`"id":-0,`, sc, text), false, true},
		{wrapCommon(`"id":1.5,`, sc, text), false, true},
		{wrapCommon(`"id":1e3,`, sc, text), false, true},
		{wrapCommon(`"id":1E3,`, sc, text), false, true},
		{wrapCommon(`"id":1.,`, sc, text), false, false},
		{wrapCommon(`"id":"",`, sc, text), true, true},
		{wrapCommon(`"id":"call-1 x",`, sc, text), true, true},
		{wrapCommon(`"id":"a\"b",`, sc, text), false, true},
		{wrapCommon(`"id":"\u0041",`, sc, text), false, false},
		{wrapCommon(`"id":"é",`, sc, text), false, true},
		{wrapCommon(`"id":"\u00e9",`, sc, text), false, false},
		{wrapCommon(`"id":"a`+"\x00"+`b",`, sc, text), false, false},
		{wrapCommon(`"id":"a`+"\xff"+`b",`, sc, text), false, false},
		{wrapCommon(`"id":"a`+"\x7f"+`b",`, sc, text), false, true},
		{wrapCommon(`"id":null,`, sc, text), false, true},
		{wrapCommon(`"id":true,`, sc, text), false, true},
		{wrapCommon(`"id":[1],`, sc, text), false, true},
		{wrapCommon(`"id":{"k":1},`, sc, text), false, true},
		{wrapCommon(``, sc, text), false, false},
		// jsonrpc: any plain string is read as the reader reads it.
		{`{"jsonrpc":"1.0","id":1,"result":{"content":[{` + text + `}]}}`, true, true},
		{`{"jsonrpc":"","id":1,"result":{"content":[{` + text + `}]}}`, true, true},
		{`{"jsonrpc":2,"id":1,"result":{"content":[{` + text + `}]}}`, false, true},
		{`{"jsonrpc":null,"id":1,"result":{"content":[{` + text + `}]}}`, false, true},
		{`{"jsonrpc":"2.\u0030","id":1,"result":{"content":[{` + text + `}]}}`, false, false},
		{`{"jsonrpc":"2.\/0","id":1,"result":{"content":[{` + text + `}]}}`, false, false},
		{`{"id":1,"result":{"content":[{` + text + `}]}}`, true, true},
		// Whitespace: never compact, so never read.
		{`{ "id":1,"result":{"content":[{` + text + `}]}}`, false, false},
		{`{"id" :1,"result":{"content":[{` + text + `}]}}`, false, false},
		{`{"id": 1,"result":{"content":[{` + text + `}]}}`, false, false},
		{`{"id":1 ,"result":{"content":[{` + text + `}]}}`, false, false},
		{`{"id":1,"result":{"content":[ {` + text + `}]}}`, false, false},
		{`{"id":1,"result":{"content":[{` + text + `} ]}}`, false, false},
		{`{"id":1,"result":{"content":[{"type": "text","text":"1"}]}}`, false, false},
		{`{"id":1,"result":{"content":[{` + text + `}]},"x":1}`, false, true},
		{`{"id":1,"result":{"content":[{` + text + `}]}}` + " ", false, false},
		{`{"id":1,"result":{"content":[{` + text + `}]}}` + "\n", false, false},
		{wrapCommon(`"id":1,`, `,"structuredContent": {"a":[1,"x"]}`, text), false, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":{"a":[1, "x"]}`, text), false, true},
		// The result's members.
		{wrapCommon(`"id":1,`, sc+`,"isError":true`, text), true, true},
		{wrapCommon(`"id":1,`, `,"isError":false`+sc, text), true, true},
		{`{"id":1,"result":{"isError":true,"content":[{` + text + `}]` + sc + `}}`, true, true},
		{`{"id":1,"result":{"isError":true}}`, true, true},
		{`{"id":1,"result":{}}`, false, true},
		{`{"id":1,"result":[]}`, false, false},
		{`{"id":1,"result":null}`, false, false},
		{wrapCommon(`"id":1,`, `,"isError":1`, text), false, true},
		{wrapCommon(`"id":1,`, `,"isError":"true"`, text), false, true},
		{wrapCommon(`"id":1,`, `,"isError":tru`, text), false, false},
		{wrapCommon(`"id":1,`, `,"isError":truex`, text), false, false},
		{wrapCommon(`"id":1,`, `,"isError":null`, text), false, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":null`, text), false, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":nul`, text), false, false},
		{wrapCommon(`"id":1,`, `,"structuredContent":{"a":[1,"y"]}`, text), false, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":{"a":[1,"\u0078"]}`, text), true, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":{"\u0061":[1,"x"]}`, text), true, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":{"a":[1,"x"],"a":[1,"x"]}`, text), false, false},
		{wrapCommon(`"id":1,`, `,"structuredContent":{"a":[1.0,"x"]}`, text), false, true},
		{`{"id":1,"result":{` + sc[1:] + `,"content":[{` + text + `}]}}`, false, true},
		{wrapCommon(`"id":1,`, sc+`,"_meta":{"x":1}`, text), false, true},
		{wrapCommon(`"id":1,`, sc+`,"_meta":1`, text), false, false},
		{wrapCommon(`"id":1,`, sc+`,"other":[1,2]`, text), false, true},
		{`{"id":1,"error":{"code":1,"message":"x"}}`, false, false},
		{`{"id":1,"method":"x","result":{"isError":true}}`, false, false},
		// The content's block.
		{wrapCommon(`"id":1,`, sc, `"text":"{\"a\":[1,\"x\"]}","type":"text"`), true, true},
		{wrapCommon(`"id":1,`, sc, text+`,"annotations":{}`), false, true},
		{wrapCommon(`"id":1,`, sc, `"type":"image","data":"x"`), false, true},
		{wrapCommon(`"id":1,`, sc, `"text":"{\"a\":[1,\"x\"]}"`), false, true},
		{wrapCommon(`"id":1,`, sc, `"type":"text"`), false, false},
		{wrapCommon(`"id":1,`, sc, `"type":"text","text":1`), false, false},
		{wrapCommon(`"id":1,`, sc, `"type":"t\u0065xt","text":"1"`), false, false},
		{wrapCommon(`"id":1,`, sc, `"type":"text","text":"no json"`), false, true},
		{wrapCommon(`"id":1,`, ``, `"type":"text","text":""`), false, true},
		{`{"id":1,"result":{"content":[]}}`, false, true},
		{`{"id":1,"result":{"content":[{` + text + `},{"type":"text","text":"2"}]}}`, false, true},
		{`{"id":1,"result":{"content":[{` + text + `}],"structuredContent":{"a":[1,"x"]}}}`, true, true},
		{`{"id":1,"result":{"content":{` + text + `}}}`, false, false},
		// NUL bytes and other bytes a string may not hold, and ones it may.
		{wrapCommon(`"id":1,`, ``, `"type":"text","text":"[\"a`+"\x00"+`\"]"`), false, false},
		{wrapCommon(`"id":1,`, ``, `"type":"text","text":"[\"a\u0000\"]"`), false, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":["a\u0000"]`, `"type":"text","text":"[\"a\\u0000\"]"`), true, true},
		{wrapCommon(`"id":1,`, `,"structuredContent":["a`+"\x00"+`"]`, `"type":"text","text":"[\"a\\u0000\"]"`), false, false},
		{wrapCommon(`"id":1,`, ``, `"type":"text","text":"[\"a`+"\xff"+`\"]"`), false, false},
		{wrapCommon(`"id":1,`, `,"structuredContent":["a`+"\xff"+`"]`, `"type":"text","text":"[\"a`+"\xff"+`\"]"`), false, false},
		{wrapCommon(`"id":1,`, `,"structuredContent":["a`+"\xed\xa0\x80"+`"]`, `"type":"text","text":"[\"a\\ud800\"]"`), false, false},
		{wrapCommon(`"id":1,`, `,"structuredContent":["a\ud800"]`, `"type":"text","text":"[\"a\\ud800\"]"`), false, false},
		{wrapCommon(`"id":1,`, `,"structuredContent":["`+"\u2028"+`"]`, `"type":"text","text":"[\"\u2028\"]"`), true, true},
		{`{"id":1,"na` + "\x00" + `me":1,"result":{"isError":true}}`, false, false},
		{`{"id":1,"na` + "\xff" + `me":1,"result":{"isError":true}}`, false, false},
		{`{"id":1,"na` + "\xc0\xaf" + `me":1,"result":{"isError":true}}`, false, false},
		// Not a message, or cut.
		{``, false, false},
		{`{`, false, false},
		{`{}`, false, false},
		{`[]`, false, false},
		{`{"id":1,"result":{"isError":true}}}`, false, false},
		{`{"id":1,"result":{"isError":true}},`, false, false},
		{`{"id":1,"result":{"isError":true},}`, false, false},
		{`{"id":1,,"result":{"isError":true}}`, false, false},
	} {
		checkCommonEdge(t, c)
	}
}

// A text literal with each escape JSON has, in the text's JSON and
// around it, and structuredContent with the same value in compact form,
// in Go's form, and with each escape spelled another way: read by
// readCommon as the reader reads it.
func TestReadCommonEscapes(t *testing.T) {
	for _, esc := range []string{
		`\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t`, `\\u0041`, `\\u00e9`, `\\u00E9`,
		`\\u001f`, `\\u001F`, `\\u007f`, `\\u2028`, `\\ud83d\\ude00`, `\\ud800`, `\\udc00`, `\\ud800x`,
		`\\u003c`, `<`, `é`, `\u00e9`, `\/`, "\u2028", "\x7f",
		`\\x`, `\\u12`, `\\`, `\\ud83d\\u0041`,
	} {
		textLit := `"{\"k` + esc + `\":\"v` + esc + `\"}"`
		v, _, _, ok := jsonmap.ParseLiteral([]byte(textLit[1:]))
		var structured []string
		if ok {
			compact := string(v.AppendCompact(nil))
			structured = append(structured, compact, strings.ReplaceAll(compact, "<", `\u003c`), strings.ReplaceAll(compact, `\u001f`, `\u001F`))
		}
		structured = append(structured, `{"k":"v"}`)
		for _, s := range structured {
			for _, after := range []string{"", `,"isError":false`} {
				msg := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + textLit + `}],"structuredContent":` + s + after + `}}`
				checkCommonSame(t, []byte(msg))
			}
		}
	}
}

// checkCommonSame holds ReadResponse to the reader alone on msg, and the
// answers the two write.
func checkCommonSame(t *testing.T, msg []byte) {
	t.Helper()
	common, reader, commonOK, readerOK := readBoth(msg)
	if commonOK != readerOK {
		t.Errorf("read %v, the reader %v: %q", commonOK, readerOK, msg)
		return
	}
	if !commonOK {
		return
	}
	if d := sameResponse(common, reader); d != "" {
		t.Errorf("%s differs from the reader's: %q", d, msg)
		return
	}
	if len(common.texts) > 0 && common.texts[0].from >= 0 {
		a := Answer{Format: "gcx", Block: 0, Text: "x", Compact: true}
		if p, q := common.Apply(a), reader.Apply(a); !bytes.Equal(p, q) {
			t.Errorf("answers differ for %q:\nreadCommon %s\nthe reader %s", msg, p, q)
		}
	}
}

// Every prefix of common messages, and each with one byte of it changed
// to a byte that matters to a JSON reader: read as the reader reads it.
func TestReadCommonCutAndChanged(t *testing.T) {
	for _, msg := range []string{
		wrapCommon(`"id":"c-12",`, `,"structuredContent":{"ab":"cd","efghijkl":"mnopqrst","x":[true,false,null,-1.5e3]},"isError":false`,
			`"type":"text","text":"{\"ab\":\"cd\",\"efghijkl\":\"mnopqrst\",\"x\":[true,false,null,-1.5e3]}"`),
		`{"result":{"isError":true},"id":0}`,
	} {
		for n := 0; n <= len(msg); n++ {
			checkCommonSame(t, []byte(msg[:n]))
		}
		for i := range len(msg) {
			for _, c := range []byte("\"\\:,{}[] 0\x00\xffa") {
				b := []byte(msg)
				b[i] = c
				checkCommonSame(t, b)
			}
		}
	}
}

// Objects whose members' names and string values are one to twenty bytes
// long, so that the word-at-a-time comparisons of quoted and stringMember
// meet strings ending at every offset of an eight-byte word, at the end
// of the text and of the message, matching or differing in their last
// byte; each message held in a slice of its own length, so that a read
// past it is out of bounds.
func TestReadCommonWordEdges(t *testing.T) {
	for nk := 1; nk <= 20; nk++ {
		for nv := 1; nv <= 20; nv++ {
			key, value := strings.Repeat("k", nk-1)+"K", strings.Repeat("v", nv-1)+"V"
			inner := fmt.Sprintf(`{"%s":"%s","%s2":1}`, key, value, key)
			textLit := strings.ReplaceAll(inner, `"`, `\"`)
			for _, s := range []string{
				inner,
				fmt.Sprintf(`{"%s":"%s","%s2":1}`, key, value[:nv-1]+"W", key),
				fmt.Sprintf(`{"%s":"%s","%s2":1}`, key[:nk-1]+"J", value, key),
				fmt.Sprintf(`{"%s":"%s","%s2":1}`, key, value[:nv-1], key),
				fmt.Sprintf(`{"%s":"%sV","%s2":1}`, key, value, key),
			} {
				for _, textFirst := range []bool{true, false} {
					// The text's literal last, so that the strings lie at
					// its end: isError after, or the text before type.
					block := `"type":"text","text":"` + textLit + `"`
					if !textFirst {
						block = `"text":"` + textLit + `","type":"text"`
					}
					msg := `{"id":1,"result":{"content":[{` + block + `}],"structuredContent":` + s + `}}`
					checkCommonSame(t, bytes.Clone([]byte(msg)))
					var room responseRoom
					if _, _, took := readCommon([]byte(msg), &room); took != (s == inner) {
						t.Errorf("readCommon took %v: %s", took, msg)
					}
					if s != inner {
						continue
					}
					// The message cut within structuredContent.
					at := strings.Index(msg, `"structuredContent":`) + len(`"structuredContent":`)
					for n := at; n < len(msg); n++ {
						checkCommonSame(t, bytes.Clone([]byte(msg[:n])))
					}
				}
			}
		}
	}
}

// A text's value nested to the reader's bound and past it, with
// structuredContent the same: readCommon counts the two levels of the
// envelope as the reader does.
func TestReadCommonDepth(t *testing.T) {
	for depth := jsonmap.MaxDepth - 2; depth <= jsonmap.MaxDepth; depth++ {
		for _, open := range []string{"[", `{"a":`} {
			closer := "]"
			if open != "[" {
				closer = "}"
			}
			inner := strings.Repeat(open, depth) + "1" + strings.Repeat(closer, depth)
			textLit := strings.ReplaceAll(inner, `"`, `\"`)
			msg := `{"id":1,"result":{"content":[{"type":"text","text":"` + textLit + `"}],"structuredContent":` + inner + `}}`
			checkCommonSame(t, []byte(msg))
			var room responseRoom
			if _, _, took := readCommon([]byte(msg), &room); took != (depth+2 <= jsonmap.MaxDepth) {
				t.Errorf("readCommon took %v a value nested %d deep", took, depth)
			}
		}
	}
}

// Strings of every character that has an escape, each spelled as it
// stands, by its short escape or by \u in lower or upper case, in the
// names and values of structuredContent (the text's literal in compact
// form): ReadResponse reads each message as the reader alone does, and
// the answer it writes is in compact form, structuredContent's strings
// written anew where they were not.
func TestReadCommonSpellings(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 38))
	chars := []rune{'a', 'K', '<', '&', '"', '\\', '/', '\n', '\t', 0, 0x1f, 0x7f, 'é', 0x2028, 0x1F600, ' '}
	spell := func(r rune) string {
		var forms []string
		switch {
		case r == '"' || r == '\\':
			forms = []string{`\` + string(r)}
		case r == '/':
			forms = []string{"/", `\/`}
		case r == '\n':
			forms = []string{`\n`}
		case r == '\t':
			forms = []string{`\t`}
		case r >= 0x20:
			forms = []string{string(r)}
		}
		if r < 0x10000 {
			forms = append(forms, fmt.Sprintf(`\u%04x`, r), fmt.Sprintf(`\u%04X`, r))
			return forms[rng.IntN(len(forms))]
		}
		hi, lo := 0xD800+(r-0x10000)>>10, 0xDC00+(r-0x10000)&0x3ff
		forms = append(forms, fmt.Sprintf(`\u%04x\u%04x`, hi, lo), fmt.Sprintf(`\u%04X\u%04X`, hi, lo))
		return forms[rng.IntN(len(forms))]
	}
	// A string, and its literal spelled at random or in compact form.
	str := func() (s, compact, lit string) {
		var b, l strings.Builder
		for range rng.IntN(12) {
			r := chars[rng.IntN(len(chars))]
			b.WriteRune(r)
			l.WriteString(spell(r))
		}
		s = b.String()
		compact = string(jsontext.AppendString(nil, s))
		if rng.IntN(4) == 0 {
			return s, compact, compact
		}
		return s, compact, `"` + l.String() + `"`
	}
	taken := 0
	for range 3000 {
		var text, structured []string
		for i := range 1 + rng.IntN(4) {
			_, k, kl := str()
			// Names unlike each other: the reader refuses a repeated one.
			k, kl = `"`+string(rune('A'+i))+k[1:], `"`+string(rune('A'+i))+kl[1:]
			_, v, vl := str()
			text, structured = append(text, k+":"+v), append(structured, kl+":"+vl)
		}
		lit := jsontext.AppendString(nil, "{"+strings.Join(text, ",")+"}")
		msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(lit) + `}],"structuredContent":{` + strings.Join(structured, ",") + `}}}`)
		checkCommonSame(t, msg)
		var room responseRoom
		if _, _, took := readCommon(msg, &room); took {
			taken++
		}
		resp, ok := ReadResponse(msg)
		if !ok {
			t.Fatalf("not read: %q", msg)
		}
		out := resp.Apply(Answer{Format: "gcx", Block: 0, Text: "x"})
		v, err := jsonmap.Parse(out)
		if err != nil || !bytes.Equal(v.AppendCompact(nil), out) {
			t.Fatalf("the answer is not in compact form (%v): %q\nfrom %q", err, out, msg)
		}
	}
	if taken < 2900 {
		t.Fatalf("readCommon read %d of 3000 messages", taken)
	}
}
