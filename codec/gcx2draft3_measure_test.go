package codec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/bench/realservers"
	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/tokens"
)

// The measurement of GCX2-draft.3 on the corpus of real servers
// (bench/realservers/corpus, recorded with the stock TypeScript SDK
// client): docs/drafts/GCX2-draft.3.md and docs/performance.md quote what
//
//	go test ./codec -run TestDraft3RealCorpus -v
//
// prints. Per call it counts the cl100k_base tokens of the text blocks the
// model reads: as sent; compact JSON (each JSON block re-spelled compact);
// GCX1 or cheapest and the draft or cheapest (each JSON block the cheapest
// of as sent, its compact JSON and the codec's payload, as a binding that
// never costs more than compact JSON hands it on). Text blocks and error
// results count as sent everywhere. A call is tabular when a JSON block
// holds a table at any depth (jsonmap.IsTable). Every payload must read
// back to its block's value [MAP-4].
func TestDraft3RealCorpus(t *testing.T) {
	corpus, err := realservers.Load("../bench/realservers/corpus")
	if err != nil {
		t.Fatal(err)
	}
	d := codec.Draft3{}
	without := func(idea string) func(string, jsonmap.Value) ([]byte, error) {
		return func(tool string, v jsonmap.Value) ([]byte, error) { return d.EncodeWithout(tool, v, []string{idea}) }
	}
	// The encoders, each counted as "or cheapest"; the draft's two ideas
	// alone are its ablation. The draft itself is last.
	encoders := []struct {
		name string
		enc  func(string, jsonmap.Value) ([]byte, error)
		dec  codec.Codec
	}{
		{"GCX1", codec.GCX1{}.Encode, codec.GCX1{}},
		{"draft, only tree", without("cells"), d},
		{"draft, only cells", without("tree"), d},
		{"GCX2-draft.3", d.Encode, d},
	}
	type sums struct {
		calls, sent, compact int
		or                   []int // per encoder: it or cheapest
	}
	newSums := func() sums { return sums{or: make([]int, len(encoders))} }
	add := func(s *sums, c sums) {
		s.calls, s.sent, s.compact = s.calls+c.calls, s.sent+c.sent, s.compact+c.compact
		for k := range s.or {
			s.or[k] += c.or[k]
		}
	}
	all, tabular := newSums(), newSums()
	var b strings.Builder
	b.WriteString("| server | calls | tabular | as sent | compact JSON |")
	for _, e := range encoders {
		b.WriteString(" " + e.name + " or cheapest |")
	}
	b.WriteString("\n| --- | ---: | ---: | ---: | ---: |" + strings.Repeat(" ---: |", len(encoders)) + "\n")
	row := func(name string, s sums, tab int) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |", name, s.calls, tab, s.sent, s.compact)
		for _, n := range s.or {
			fmt.Fprintf(&b, " %d |", n)
		}
		b.WriteString("\n")
	}
	for _, s := range corpus.Servers {
		srv, tab := newSums(), 0
		for _, call := range s.Calls {
			if call.Result == nil {
				continue
			}
			r, err := call.ParseResult()
			if err != nil {
				t.Fatal(err)
			}
			c := newSums()
			c.calls = 1
			isTabular := false
			for _, text := range r.Texts() {
				sent := count(t, tokens.CL100K, text)
				c.sent += sent
				v, ok := jsonBlock(text)
				if !ok || r.IsError {
					c.compact += sent
					for k := range c.or {
						c.or[k] += sent
					}
					continue
				}
				isTabular = isTabular || holdsTable(v)
				compact := count(t, tokens.CL100K, string(v.AppendCompact(nil)))
				c.compact += compact
				for k, e := range encoders {
					out, err := e.enc(call.Tool, v)
					if err != nil {
						t.Fatalf("%s %s: %s: %v", s.Server, call.Tool, e.name, err)
					}
					if back, err := e.dec.Decode(out); err != nil || !jsonmap.Equal(back, v) {
						t.Fatalf("%s %s: the %s payload does not read back (%v)", s.Server, call.Tool, e.name, err)
					}
					c.or[k] += min(sent, compact, count(t, tokens.CL100K, string(out)))
				}
			}
			add(&srv, c)
			add(&all, c)
			if isTabular {
				tab++
				add(&tabular, c)
			}
		}
		row(s.Server, srv, tab)
	}
	row("all", all, tabular.calls)
	b.WriteString("\n| calls | against | compact JSON |")
	for _, e := range encoders {
		b.WriteString(" " + e.name + " or cheapest |")
	}
	b.WriteString("\n| --- | --- | ---: |" + strings.Repeat(" ---: |", len(encoders)) + "\n")
	for _, r := range []struct {
		name string
		s    sums
	}{{fmt.Sprintf("all %d", all.calls), all}, {fmt.Sprintf("%d tabular", tabular.calls), tabular}} {
		fmt.Fprintf(&b, "| %s | as sent | %+.1f%% |", r.name, saving(r.s.sent, r.s.compact))
		for _, n := range r.s.or {
			fmt.Fprintf(&b, " %+.1f%% |", saving(r.s.sent, n))
		}
		fmt.Fprintf(&b, "\n| %s | compact JSON | |", r.name)
		for _, n := range r.s.or {
			fmt.Fprintf(&b, " %+.1f%% |", saving(r.s.compact, n))
		}
		b.WriteString("\n")
	}
	t.Logf("cl100k_base tokens of the real servers' results (savings: fewer tokens than the row's column):\n%s", b.String())
	draft := len(encoders) - 1
	if all.or[draft] > all.or[0] {
		t.Errorf("the draft or cheapest costs %d tokens, more than GCX1 or cheapest, %d", all.or[draft], all.or[0])
	}
	t.Logf("goals of issue 35: >= 40%% fewer than as sent over all calls: %s (%.1f%%); >= 35%% fewer than compact JSON on the tabular calls: %s (%.1f%%)",
		metOrMissed(saving(all.sent, all.or[draft]) >= 40), saving(all.sent, all.or[draft]),
		metOrMissed(saving(tabular.compact, tabular.or[draft]) >= 35), saving(tabular.compact, tabular.or[draft]))
}

func metOrMissed(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// jsonBlock returns the value of a text block that holds a JSON object or
// array.
func jsonBlock(text string) (jsonmap.Value, bool) {
	s := strings.TrimSpace(text)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return jsonmap.Value{}, false
	}
	v, err := jsonmap.Parse([]byte(s))
	return v, err == nil
}

// holdsTable reports whether v is or holds a table at any depth.
func holdsTable(v jsonmap.Value) bool {
	if jsonmap.IsTable(v) {
		return true
	}
	for _, e := range v.Elems {
		if holdsTable(e) {
			return true
		}
	}
	for _, m := range v.Members {
		if holdsTable(m.Value) {
			return true
		}
	}
	return false
}
