package proxy

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
)

// The tag the proxy asks for is spliced into the host's call as
// binding.Pending.AskJSON puts it into the parsed call: the two agree as
// JSON values on every place _meta can be in, and the rest of the call's
// text is copied as it came.
func TestAskSplicesAsAskJSON(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[0,0,0]}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{ }}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":7}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":null}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":[1,{"a":2}]}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":"x"}}`,
		` { "params" : { "_meta" : { "k" : "\u0041" } , "name" : "t" } , "id" : "x" , "method" : "tools/call" } `,
	} {
		h, ok := scanHost([]byte(msg), p.decide)
		if !ok || !h.paramsIsObject {
			t.Fatalf("%s: not read", msg)
		}
		got, err := jsonmap.Parse(h.ask([]byte(msg), []string{"GCX1"}))
		if err != nil {
			t.Fatalf("%s: the spliced call is no JSON: %v: %s", msg, err, h.ask([]byte(msg), []string{"GCX1"}))
		}
		want, err := jsonmap.Parse([]byte(msg))
		if err != nil {
			t.Fatal(err)
		}
		binding.Pending{Ask: []string{"GCX1"}}.AskJSON(&want)
		if !sameMembers(got, want) {
			t.Errorf("%s:\n spliced %s\n AskJSON %s", msg, got.AppendCompact(nil), want.AppendCompact(nil))
		}
	}
}

// sameMembers is jsonmap.Equal, except that members are matched by name:
// the splice puts the tag first in _meta, AskJSON last.
func sameMembers(a, b jsonmap.Value) bool {
	if a.Kind != b.Kind || a.Text != b.Text || len(a.Elems) != len(b.Elems) || len(a.Members) != len(b.Members) {
		return false
	}
	for i := range a.Elems {
		if !sameMembers(a.Elems[i], b.Elems[i]) {
			return false
		}
	}
	for _, m := range a.Members {
		if other, ok := b.Lookup(m.Key); !ok || !sameMembers(m.Value, other) {
			return false
		}
	}
	return true
}

// A member the proxy reads that comes twice makes the message one it does
// not follow, as when it was parsed whole: a peer could read either.
func TestRepeatedMemberIsNotFollowed(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"a":1},"_meta":5}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"t"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","name":"u"}}`,
	} {
		if _, ok := scanHost([]byte(msg), p.decide); ok {
			t.Errorf("%s was read", msg)
		}
	}
	if _, ok := scanHost([]byte(`{"id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1,"a":2}}}`), p.decide); !ok {
		t.Error("a name repeated in the arguments, which the proxy does not read, made the call unread")
	}
}

// What the scanner reads of a call decides as the binding decides on the
// call's _meta decoded whole: every form of MetaAccept and of the
// per-request capabilities, for both sides of PerRequestCapabilities.
func TestPropertyScanDecidesAsRequest(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	list := func(t *rapid.T, label string) string {
		return rapid.SampledFrom([]string{`[]`, `["GCX1"]`, `["x-2","GCX1"]`, `["gcx1"]`, `["GCX1",1]`, `"GCX1"`, `null`, `{}`, `["GCX1","GCX1"]`}).Draw(t, label)
	}
	gen.Check(t, 500, func(t *rapid.T) {
		var members []string
		if rapid.Bool().Draw(t, "per call") {
			members = append(members, `"`+binding.MetaAccept+`":`+list(t, "accept"))
		}
		if rapid.Bool().Draw(t, "per request") {
			ext := rapid.SampledFrom([]string{`{}`, `{"accept":` + list(t, "caps accept") + `}`, `null`, `{"offer":["GCX1"]}`}).Draw(t, "ext")
			members = append(members, `"`+binding.MetaClientCapabilities+`":{"extensions":{"`+binding.Extension+`":`+ext+`}}`)
		}
		meta := "{" + strings.Join(members, ",") + "}"
		msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":` + meta + `}}`
		initialize := rapid.SampledFrom([]string{`{}`, `{"extensions":{"` + binding.Extension + `":{"accept":["GCX1"]}}}`, `{"extensions":{"` + binding.Extension + `":{}}}`}).Draw(t, "initialize")
		version := rapid.SampledFrom([]string{"2025-11-25", binding.PerRequestCapabilities}).Draw(t, "version")

		init, ok := scanHost([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":`+initialize+`}}`), p.decide)
		if !ok {
			t.Fatal("initialize not read")
		}
		s := binding.Session{ProtocolVersion: version, Host: init.initializeCaps, UpstreamOffer: []string{"GCX1"}}
		h, ok := scanHost([]byte(msg), p.decide)
		if !ok {
			t.Fatalf("%s not read", msg)
		}
		got := p.decide.Call(s, "t", h.perCall, h.perRequest)

		caps, _ := jsonmap.Parse([]byte(initialize))
		m, _ := jsonmap.Parse([]byte(meta))
		extensions, _ := decodeObject(caps)["extensions"].(map[string]any)
		s.Host = p.decide.SaidIn(extensions)
		want := p.decide.Request(s, "t", decodeObject(m))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s after %s (%s): scanned %+v, decoded %+v", msg, initialize, version, got, want)
		}
	})
}

// heapAfter returns the bytes of the live heap once f has run and its
// garbage is collected: what f left kept.
func heapAfter(f func()) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// What a session keeps of its host's initialize, and a call of its
// accept list while in flight, is what the binding reads: at most
// MaxKeptTags tags it writes [PRX-6]. Before, the binding member was kept
// decoded, about eight bytes for each byte of an array of zeros, and an
// accept list was kept whole.
func TestKeepsOnlyWhatTheBindingReads(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 20 // zeros, and tags
	zeros := "[" + strings.Repeat("0,", n) + "0]"
	var tags strings.Builder
	for i := range n {
		tags.WriteString(`"x-` + string(rune('a'+i%26)) + `",`)
	}
	tags.WriteString(`"GCX1"`)

	initialize := []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"extensions":{"` + binding.Extension + `":{"junk":` + zeros + `,"accept":[` + tags.String() + `]}}}}}`)
	kept := heapAfter(func() { p.FromHost(initialize) })
	if want := (binding.Said{Spoke: true, Accept: []string{"GCX1"}}); !reflect.DeepEqual(p.session.Host, want) {
		t.Errorf("kept %+v of the initialize, want %+v", p.session.Host, want)
	}
	initialize = nil
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":` + zeros + `},"_meta":{"` + binding.MetaAccept + `":[` + tags.String() + `]}}}`)
	kept += heapAfter(func() {
		if out := p.FromHost(call); !bytes.Equal(out, call) {
			t.Error("a call whose host opted in was changed")
		}
	})
	if c := p.pending[`1`]; len(c.Name) != 1 || p.Pending() != 1 {
		t.Errorf("the call is not followed: %+v", c)
	}
	if kept > 1<<20 {
		t.Errorf("an initialize and a call of %d bytes each left %d bytes kept, over 1 MiB", len(call), kept)
	}
	runtime.KeepAlive(call)
	runtime.KeepAlive(p)
}

// Any message of the host is read or refused, never a panic; a call read
// takes the tag spliced in as AskJSON puts it into the call parsed whole.
func FuzzScanHost(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.github.gcxwire/accept":["GCX1"]}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":null,"arguments":[0,0,[[]]]}}`,
		`{"id":"a","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.github.gcxwire/gcx":{"accept":["GCX1",2]}}}},"name":"t"}}`,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"extensions":{"io.github.gcxwire/gcx":{"accept":[]}}}}}`,
		`{"method":"notifications/cancelled","params":{"requestId":"\u0031"}}`,
	} {
		f.Add([]byte(seed))
	}
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		h, ok := scanHost(msg, p.decide)
		if !ok || !h.paramsIsObject || !h.nameIsString || h.perCall.Spoke {
			return // not a call, or one the proxy asks nothing of [PRX-2]
		}
		want, err := jsonmap.Parse(msg)
		if err != nil {
			return // a repeated name where the proxy does not read
		}
		got, err := jsonmap.Parse(h.ask(msg, []string{"GCX1"}))
		if err != nil {
			t.Fatalf("%s: the spliced call is no JSON: %v", msg, err)
		}
		binding.Pending{Ask: []string{"GCX1"}}.AskJSON(&want)
		if !sameMembers(got, want) {
			t.Fatalf("%s:\n spliced %s\n AskJSON %s", msg, got.AppendCompact(nil), want.AppendCompact(nil))
		}
	})
}

// A message is decoded when it holds at most FewValues values, or one
// per MinBytesPerValue of its bytes, counting a JSON text's values in a
// string too; a denser one passes untouched.
func TestTooDense(t *testing.T) {
	zeros := func(n int, pad string) []byte {
		return []byte("[" + strings.Repeat("0"+pad+",", n-1) + "0]")
	}
	for _, c := range []struct {
		name  string
		msg   []byte
		dense bool
	}{
		{"few values", zeros(FewValues-1, ""), false},
		{"one over few", zeros(FewValues+1, ""), true},
		{"many, sparse enough", zeros(8*FewValues, strings.Repeat(" ", MinBytesPerValue-1)), false},
		{"many, too dense", zeros(8*FewValues, strings.Repeat(" ", MinBytesPerValue-4)), true},
		{"in a string", []byte(`{"text":"` + string(zeros(2*FewValues, "")) + `"}`), true},
		{"deep", []byte(strings.Repeat("[", 2*FewValues) + strings.Repeat("]", 2*FewValues)), true},
		{"prose", []byte(`"` + strings.Repeat("word ", 8*FewValues) + `"`), false},
	} {
		if got := tooDense(c.msg); got != c.dense {
			t.Errorf("%s (%d bytes): tooDense = %v", c.name, len(c.msg), got)
		}
	}
}

// An owner holds at most its share of the budget, the hosts' bodies
// together at most half of it, and each body its first OwnBodyBytes
// outside it [PRX-9].
func TestAccountShares(t *testing.T) {
	const total, message = 1 << 20, 64 << 10
	b := newBudget(total, message)
	share := int(b.share)
	if share != total/4 {
		t.Fatalf("share %d, want a quarter of %d", share, total)
	}
	a, other := b.account(false), b.account(false)
	if !a.take(share) || a.take(1) {
		t.Error("a session took more or less than its share")
	}
	if !other.take(share) {
		t.Error("a session holding its share left another none")
	}
	a.give(share)
	other.give(share)
	// Hosts' bodies: the own bytes first, then half the budget at most.
	var bodies []*account
	held := 0
	for range 8 {
		h := b.account(true)
		bodies = append(bodies, h)
		if !h.take(OwnBodyBytes) {
			t.Fatal("a body's own bytes were refused")
		}
		for h.take(readChunk) {
			held += readChunk
		}
	}
	if held > total/2 {
		t.Errorf("the hosts' bodies hold %d bytes of the budget, over half of %d", held, total)
	}
	if s := b.account(false); !s.take(total / 4) {
		t.Error("bodies held back left a session no share")
	}
	for _, h := range bodies {
		h.give(OwnBodyBytes + int(h.held))
	}
	if b.free != total-total/4 || b.hosts != 0 {
		t.Errorf("after the bodies: %d free, %d held by hosts", b.free, b.hosts)
	}
}

// blocked is a host that never reads: every write waits until release.
type blocked struct{ release chan struct{} }

func (b blocked) Write(p []byte) (int, error) { <-b.release; return len(p), nil }

// Event streams whose host never reads them hold their session's share
// of the budget and no more: another session's results still fit
// [PRX-9]. Before, each unread stream held its event for as long as the
// host left it, and a few filled the budget for every session.
func TestUnreadStreamsHoldTheirShare(t *testing.T) {
	const total = 1 << 20
	b := newBudget(total, 64<<10)
	decide, err := binding.NewIntermediary(binding.ServerOptions{Mode: binding.ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(decide, Options{MaxMessageBytes: 200 << 10}, b, newLogger(nil))
	host := blocked{make(chan struct{})}
	event := "data: " + `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 150<<10) + `"}}` + "\n\n"
	done := make(chan error, 6)
	for range 6 {
		go func() { done <- p.events(host, strings.NewReader(event)) }()
	}
	// Wait until what the streams hold stops changing: each either holds
	// its event or passed it on untouched, blocked on the host all the
	// same.
	held, since := int64(-1), time.Now()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && time.Since(since) < 300*time.Millisecond; time.Sleep(10 * time.Millisecond) {
		b.mu.Lock()
		now := total - b.free
		b.mu.Unlock()
		if now != held {
			held, since = now, time.Now()
		}
	}
	if held > b.share {
		t.Errorf("six unread streams of one session hold %d bytes of the budget, over its share of %d", held, b.share)
	}
	if other := b.account(false); !other.take(int(b.share)) {
		t.Error("unread streams of one session left another session no share")
	}
	close(host.release)
	for range 6 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// Of the upstream's offer the proxy keeps the tags it reads, all it
// negotiates with [PRX-3] [PRX-6], and an initialize result too dense to
// decode leaves nothing waiting for it.
func TestKeepsOfTheOfferWhatItReads(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`))
	offer := strings.Repeat(`"x-1",`, FewValues-16) + `"GCX1","GCX1"`
	p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"` + binding.Extension + `":{"offer":[` + offer + `]}}}}}`))
	if !reflect.DeepEqual(p.session.UpstreamOffer, []string{"GCX1"}) {
		t.Errorf("kept the offer %q", p.session.UpstreamOffer)
	}
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`))
	p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","junk":[` + strings.Repeat("0,", 4*FewValues) + `0]}}`))
	if p.initID != "" {
		t.Errorf("an initialize result passed unread left %q waited for", p.initID)
	}
}
