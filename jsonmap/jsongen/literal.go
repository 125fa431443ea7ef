package jsongen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
	"pgregory.net/rapid"
)

// Literal writes s as a JSON string literal, quotes included, in one of
// its spellings: mostly as encoders write it (EncodersLiteral), and
// otherwise with characters escaped here and there as no encoder must —
// '/' as \/, controls as \u00XX rather than their short escape, any
// character as \u in either case, astral ones as surrogate pairs. Every
// spelling holds s.
func Literal(t *rapid.T, s string) string {
	switch rapid.IntRange(0, 3).Draw(t, "literal-form") {
	case 0, 1:
		return string(jsontext.AppendString(nil, s))
	case 2:
		b, _ := json.Marshal(s)
		return string(b)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch rapid.IntRange(0, 5).Draw(t, "char-form") {
		case 0: // as \u, even where the compact form writes the character
			format := `\u%04x`
			if rapid.Bool().Draw(t, "upper-hex") {
				format = `\u%04X`
			}
			if r > 0xFFFF {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&b, format+format, hi, lo)
			} else {
				fmt.Fprintf(&b, format, r)
			}
			continue
		case 1:
			if r == '/' {
				b.WriteString(`\/`)
				continue
			}
		}
		q := jsontext.AppendString(nil, string(r))
		b.Write(q[1 : len(q)-1])
	}
	b.WriteByte('"')
	return b.String()
}

// LiteralText draws a text for a string literal to carry: mostly a JSON
// text of a drawn value in one of its spellings (Text), pretty-printed by
// encoding/json now and then, or nested deeper than the mapping reads;
// and now and then text that is not JSON or that the mapping refuses: cut
// short, with a byte put in, a member repeated, a raw control or an
// unknown escape in a string, an unpaired surrogate, prose.
func LiteralText(t *rapid.T) string {
	v := Value().Draw(t, "value")
	text := string(Text(t, v))
	switch rapid.IntRange(0, 15).Draw(t, "text-kind") {
	case 0, 1:
		var b bytes.Buffer
		json.Indent(&b, v.AppendCompact(nil), "", rapid.SampledFrom([]string{"  ", "\t"}).Draw(t, "indent"))
		text = b.String()
	case 2:
		n := jsonmap.MaxDepth + rapid.IntRange(-1, 1).Draw(t, "depth-over")
		text = strings.Repeat("[", n) + strings.Repeat("]", n)
	case 3:
		if len(text) > 0 {
			at := rapid.IntRange(0, len(text)-1).Draw(t, "cut")
			for at > 0 && text[at]&0xC0 == 0x80 {
				at-- // not inside a character
			}
			text = text[:at]
		}
	case 4:
		at := rapid.IntRange(0, len(text)).Draw(t, "put-at")
		for at > 0 && at < len(text) && text[at]&0xC0 == 0x80 {
			at-- // not inside a character
		}
		put := rapid.SampledFrom([]string{`"`, `\`, `,`, `}`, `]`, "\n", "\x01", `\u`, `/`, "é", " "}).Draw(t, "put")
		text = text[:at] + put + text[at:]
	case 5:
		text = rapid.SampledFrom([]string{
			`{"a":1,"a":2}`, `["a` + "\x01" + `b"]`, `["\x"]`, `["\ud800"]`, `["\ud800\u0041"]`, `{"a" 1}`, `[1,]`, `01`,
			`no results`, ``, `  `, "\ufeff[1]", `[1] [2]`, `["\/\u00E9\u00e9\b\f"]`, `{"k\"\\":"v\\\""}`, `-`, `1.`, `1e`,
		}).Draw(t, "odd")
	}
	return text
}

// EncodersLiteral reports whether lit is s as JSON encoders write it: the
// compact form, or Go's encoding/json's, which also escapes '<', '>', '&',
// U+2028 and U+2029 as \u.
func EncodersLiteral(lit, s string) bool {
	goForm, _ := json.Marshal(s)
	return lit == string(jsontext.AppendString(nil, s)) || lit == string(goForm)
}
