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
	type sums = realSums
	var all, tabular sums
	var b strings.Builder
	b.WriteString("| server | calls | tabular | as sent | compact JSON | GCX1 or cheapest | draft or cheapest |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, s := range corpus.Servers {
		var srv sums
		tab := 0
		for _, call := range s.Calls {
			if call.Result == nil {
				continue
			}
			r, err := call.ParseResult()
			if err != nil {
				t.Fatal(err)
			}
			var c sums
			c.calls = 1
			isTabular := false
			for _, text := range r.Texts() {
				sent := count(t, tokens.CL100K, text)
				c.sent += sent
				v, ok := jsonBlock(text)
				if !ok || r.IsError {
					c.compact, c.gcx1, c.draft = c.compact+sent, c.gcx1+sent, c.draft+sent
					continue
				}
				isTabular = isTabular || holdsTable(v)
				compact := count(t, tokens.CL100K, string(v.AppendCompact(nil)))
				c.compact += compact
				for _, k := range []struct {
					c   codec.Codec
					sum *int
				}{{codec.GCX1{}, &c.gcx1}, {codec.Draft3{}, &c.draft}} {
					out, err := k.c.Encode(call.Tool, v)
					if err != nil {
						t.Fatalf("%s %s: %s: %v", s.Server, call.Tool, k.c.Tag(), err)
					}
					if back, err := k.c.Decode(out); err != nil || !jsonmap.Equal(back, v) {
						t.Fatalf("%s %s: the %s payload does not read back (%v)", s.Server, call.Tool, k.c.Tag(), err)
					}
					*k.sum += min(sent, compact, count(t, tokens.CL100K, string(out)))
				}
			}
			srv.add(c)
			all.add(c)
			if isTabular {
				tab++
				tabular.add(c)
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", s.Server, srv.calls, tab, srv.sent, srv.compact, srv.gcx1, srv.draft)
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d | %d | %d |\n", all.calls, tabular.calls, all.sent, all.compact, all.gcx1, all.draft)
	fmt.Fprintf(&b, "\n| calls | against | as sent | compact JSON | GCX1 or cheapest | draft or cheapest |\n| --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, row := range []struct {
		name string
		s    sums
	}{{fmt.Sprintf("all %d", all.calls), all}, {fmt.Sprintf("%d tabular", tabular.calls), tabular}} {
		fmt.Fprintf(&b, "| %s | as sent | | %+.1f%% | %+.1f%% | %+.1f%% |\n", row.name, saving(row.s.sent, row.s.compact), saving(row.s.sent, row.s.gcx1), saving(row.s.sent, row.s.draft))
		fmt.Fprintf(&b, "| %s | compact JSON | | | %+.1f%% | %+.1f%% |\n", row.name, saving(row.s.compact, row.s.gcx1), saving(row.s.compact, row.s.draft))
	}
	t.Logf("cl100k_base tokens of the real servers' results (savings: fewer tokens than the column named):\n%s", b.String())
	if all.draft > all.gcx1 {
		t.Errorf("the draft or cheapest costs %d tokens, more than GCX1 or cheapest, %d", all.draft, all.gcx1)
	}
	t.Logf("goals of issue 35: >= 40%% fewer than as sent over all calls: %s (%.1f%%); >= 35%% fewer than compact JSON on the tabular calls: %s (%.1f%%)",
		metOrMissed(saving(all.sent, all.draft) >= 40), saving(all.sent, all.draft),
		metOrMissed(saving(tabular.compact, tabular.draft) >= 35), saving(tabular.compact, tabular.draft))
}

// realSums are cl100k_base tokens over calls of the real corpus.
type realSums struct{ calls, sent, compact, gcx1, draft int }

func (s *realSums) add(c realSums) {
	s.calls += c.calls
	s.sent += c.sent
	s.compact += c.compact
	s.gcx1 += c.gcx1
	s.draft += c.draft
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
