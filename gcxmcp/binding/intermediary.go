package binding

import (
	"slices"

	"github.com/gcxwire/gcx/codec"
)

// An intermediary stands between a host and an MCP server, both of which
// may know nothing of the binding, and writes GCX1 for the model the host
// serves because its user asked it to (section 15.9 of
// docs/wire-format.md, rules PRX-1 to PRX-9). gcx proxy is one. Its
// decisions are these; the transport is the intermediary's matter.

// Intermediary makes an intermediary's decisions for one configuration.
type Intermediary struct {
	// s answers a host that opted in itself, exactly as a server of
	// chapter 15 would [PRX-2], and for a host that did not, with the
	// tags the intermediary reads [PRX-1]: auto mode weighs the same three
	// forms for both [MCP-6] [PRX-4].
	s *Server
	// modelReads is what the model of a host that did not opt in reads:
	// GCX1, or, when the offer names a draft, the offer — a user trialling
	// a draft says so by offering it (gcx proxy --draft).
	modelReads []string
}

// NewIntermediary returns the intermediary opts describe: the mode and
// tool settings of a server [MCP-6]. It refuses what NewServer refuses.
func NewIntermediary(opts ServerOptions) (*Intermediary, error) {
	s, err := NewServer(opts)
	if err != nil {
		return nil, err
	}
	return &Intermediary{s: s, modelReads: modelReads(opts.Offer)}, nil
}

// modelReads returns the tags the intermediary writes for a model whose
// host did not opt in: Readable, unless offer names a draft, which is
// written only when asked for by name [VER-1]; then offer itself.
func modelReads(offer []string) []string {
	for _, tag := range offer {
		if codec.IsDraft(tag) {
			return offer
		}
	}
	return Readable
}

// Session is what an intermediary keeps of a session, besides the calls in
// flight: three small values read from the initialize exchange [PRX-6].
type Session struct {
	// ProtocolVersion is the version the upstream's initialize result
	// names, "" before it.
	ProtocolVersion string
	// Host is what the host said of the binding in the capabilities of
	// its initialize request: whether their extensions hold the
	// binding's member, and the tags its settings accept.
	Host Said
	// UpstreamOffer lists the tags the upstream offers in its initialize
	// result [MCP-2], nil when it offers none.
	UpstreamOffer []string
}

// MaxKeptTags bounds the tags an intermediary keeps of one list a host
// sent, in its capabilities or in a call's _meta [PRX-6]: the tags it
// writes are fewer, so a longer list can only repeat or name others.
const MaxKeptTags = 16

// Said is what a host said of the binding in one place (a call's
// MetaAccept, or the binding's member of its capabilities' extensions),
// reduced to what an intermediary decides on [PRX-6]: whether the place
// holds it at all, and the tags it accepts that the intermediary writes,
// in the host's order, at most MaxKeptTags. A host that spoke and accepts
// none of them (an empty list, a list of other tags, a value that is no
// list of strings) is answered in JSON [MCP-3] [MCP-11].
type Said struct {
	Spoke  bool
	Accept []string
}

// Keep returns kept with tag added when an intermediary keeps it: a tag
// it writes for a host that opted in [PRX-2], not kept already, while
// fewer than MaxKeptTags are. Readers of a host's list call it for each
// string of the list as it is read, so the list is never held whole; what
// is kept is the intermediary's own string, never one sharing the host's
// message.
func (p *Intermediary) Keep(kept []string, tag string) []string {
	i := slices.Index(p.s.offer, tag)
	if i < 0 || len(kept) >= MaxKeptTags || slices.Contains(kept, tag) {
		return kept
	}
	return append(kept, p.s.offer[i])
}

// SaidIn reads what a host said in an extensions map as a JSON library
// decodes it: that of its initialize's capabilities, or of a call's
// MetaClientCapabilities [MCP-2] [MCP-10].
func (p *Intermediary) SaidIn(extensions map[string]any) Said {
	v, ok := extensions[Extension]
	if !ok {
		return Said{}
	}
	settings, _ := v.(map[string]any)
	return Said{Spoke: true, Accept: p.keepAll(settings[SettingAccept])}
}

// keepAll keeps of a list of tags what Keep keeps, nothing when v is not
// a list of strings [MCP-11].
func (p *Intermediary) keepAll(v any) []string {
	tags, ok := readTags(v)
	if !ok {
		return nil
	}
	var kept []string
	for _, t := range tags {
		kept = p.Keep(kept, t)
	}
	return kept
}

// Offer reads the tags a party offers from the extensions map of its
// capabilities [MCP-2]: nil without the binding's member or its offer.
func Offer(extensions map[string]any) []string {
	settings, ok := extensions[Extension].(map[string]any)
	if !ok {
		return nil
	}
	tags, _ := readTags(settings[SettingOffer])
	return tags
}

// Pending is what an intermediary keeps of one tools/call request in flight,
// from the request to its result [PRX-6].
type Pending struct {
	// Name is the tool's name.
	Name string
	// Ask is the list of tags to put under MetaAccept in the _meta of the
	// request before passing it on, nil to pass it on as it is [PRX-3].
	Ask []string
	// hostSpoke: the host opted in or out itself, and accept is what
	// it reads [PRX-2].
	hostSpoke bool
	accept    []string
}

// Request decides for a tools/call request of tool name, whose _meta is
// requestMeta, what to ask of the upstream and how to answer later.
func (p *Intermediary) Request(s Session, name string, requestMeta map[string]any) Pending {
	var perCall, perRequest Said
	if v, ok := requestMeta[MetaAccept]; ok {
		perCall = Said{Spoke: true, Accept: p.keepAll(v)}
	}
	if s.ProtocolVersion >= PerRequestCapabilities {
		caps, _ := requestMeta[MetaClientCapabilities].(map[string]any)
		extensions, _ := caps["extensions"].(map[string]any)
		perRequest = p.SaidIn(extensions)
	}
	return p.Call(s, name, perCall, perRequest)
}

// Call is Request for a reader that read the request's _meta itself:
// perCall is what its MetaAccept said, perRequest what the binding's
// member of its MetaClientCapabilities said, both read with Keep. The
// call's MetaAccept overrides the capabilities, which are the request's
// own from PerRequestCapabilities on and the session's before [MCP-2]
// [MCP-3] [MCP-10].
func (p *Intermediary) Call(s Session, name string, perCall, perRequest Said) Pending {
	c := Pending{Name: name}
	said := perCall
	if !said.Spoke {
		said = s.Host
		if s.ProtocolVersion >= PerRequestCapabilities {
			said = perRequest
		}
	}
	if said.Spoke {
		// Between a host and an upstream that both know the binding, the
		// request passes as it is and the upstream answers [PRX-2].
		c.hostSpoke, c.accept = true, said.Accept
		return c
	}
	if p.s.modeOf(name) == ModeOff {
		return c
	}
	if tag := codec.Negotiate(Readable, s.UpstreamOffer); tag != "" {
		c.Ask = []string{tag}
	}
	return c
}

// Answer decides what the host receives for the result r of the call c:
// ok is false when r passes as it is. A result whose _meta already names
// a format was answered by the upstream and passes on [PRX-3]; a host
// that opted in gets what a server of chapter 15 sends it [PRX-2]; for
// any other host the intermediary reads GCX1 on the model's behalf
// [PRX-1] [PRX-4].
func (p *Intermediary) Answer(c Pending, r *Result) (Answer, bool) {
	d := p.Decide(c, r)
	return d.Answer, d.Answered
}

// Decide is Answer, saying why.
func (p *Intermediary) Decide(c Pending, r *Result) Decision {
	if _, answered := r.Meta[MetaFormat]; answered {
		return Decision{Why: ReasonUpstreamAnswered}
	}
	if c.hostSpoke {
		return p.s.Decide(c.Name, c.accept, r)
	}
	return p.s.Decide(c.Name, p.modelReads, r)
}

// modeOf returns the mode that applies to the tool.
func (s *Server) modeOf(name string) Mode {
	if t, ok := s.tools[name]; ok && t.Mode != "" {
		return t.Mode
	}
	return s.mode
}
