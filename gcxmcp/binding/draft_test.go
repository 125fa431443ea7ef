package binding

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/spec"
)

// A server that offers a registered draft writes it only to a client that
// lists it [MCP-4], appends no header pairs to it [D2-MCP-1], and a client
// reads it only when it accepts the tag: another client gets the
// unsupported-version error that starts the fallback [MCP-9].
func TestDraftOfferedAndRead(t *testing.T) {
	if _, err := NewServer(ServerOptions{Offer: []string{"GCX2"}}); err == nil {
		t.Error("NewServer offered GCX2, which no codec writes")
	}
	s, err := NewServer(ServerOptions{Mode: ModeGCX, Offer: []string{codec.Draft2Tag, spec.Version}})
	if err != nil {
		t.Fatal(err)
	}
	value := `{"symbols":[{"id":"a.go::F","kind":"function","name":"F","file_path":"a.go","start_line":3}],"total":41,"truncated":true}`
	// The text (and structuredContent) as the tool wrote it: as is, and
	// long enough to be planned rather than parsed (streamAbove), which a
	// draft's codec, taking a parsed value, must still get.
	for _, text := range []string{value, value + strings.Repeat(" ", streamAbove)} {
		checkDraftOfferedAndRead(t, s, value, text)
	}
}

func checkDraftOfferedAndRead(t *testing.T, s *Server, value, text string) {
	result := func() *Result {
		return &Result{Content: []Block{{IsText: true, Text: text}}, Structured: json.RawMessage(text),
			Meta: map[string]any{MetaTotal: float64(41), MetaTruncated: true}}
	}
	for _, c := range []struct {
		accept []string
		format string
		header string
	}{
		{[]string{codec.Draft2Tag, spec.Version}, codec.Draft2Tag, codec.Draft2Tag + " tool=search_symbols fields=id,kind,name,path,line,sig rows=1 symbols=@ total=41 truncated=true\n"},
		{[]string{spec.Version}, spec.Version, "GCX1 tool=search_symbols fields=id,kind,name,file_path,start_line json=object rows=1 symbols=@ total=41 truncated=true\n"},
	} {
		r := result()
		a, ok := s.Answer("search_symbols", c.accept, r)
		if !ok || a.Format != c.format || !strings.HasPrefix(a.Text, c.header) {
			t.Fatalf("accepting %v, a text of %d bytes: format %q, payload %q", c.accept, len(text), a.Format, a.Text)
		}
		r.Content[a.Block].Text = a.Text
		r.Meta[MetaFormat] = a.Format
		read, err := ReadResultAccepting(r, c.accept)
		if err != nil || string(read.Value) != value || read.Total != 41 || !read.Truncated {
			t.Errorf("accepting %v, a text of %d bytes: read %+v, %v", c.accept, len(text), read, err)
		}
		if c.format == codec.Draft2Tag {
			_, err := ReadResult(r)
			var e *spec.Error
			if !errors.As(err, &e) || !errors.Is(err, spec.ErrUnsupportedVersion) || e.Tag != codec.Draft2Tag {
				t.Errorf("a GCX1 client read the draft: %v", err)
			}
		}
	}
}
