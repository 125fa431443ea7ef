package binding

import "github.com/gcxwire/gcx/codec"

// An intermediary stands between a host and an MCP server, both of which
// may know nothing of the binding, and writes GCX1 for the model the host
// serves because its user asked it to (section 15.9 of
// docs/wire-format.md, rules PRX-1 to PRX-9). gcx proxy is one. Its
// decisions are these; the transport is the intermediary's matter.

// Intermediary makes an intermediary's decisions for one configuration.
type Intermediary struct {
	// forHost answers a host that opted in itself, exactly as a server of
	// chapter 15 would [PRX-2]; forModel answers for a host that did not,
	// counting auto mode against the text the model would have read
	// [PRX-4].
	forHost, forModel *Server
	// modelReads is what the model of a host that did not opt in reads:
	// GCX1, or, when the offer names a draft, the offer — a user trialling
	// a draft says so by offering it (gcx proxy --draft).
	modelReads []string
}

// NewIntermediary returns the intermediary opts describe: the mode and
// tool settings of a server [MCP-6]. It refuses what NewServer refuses.
func NewIntermediary(opts ServerOptions) (*Intermediary, error) {
	forHost, err := NewServer(opts)
	if err != nil {
		return nil, err
	}
	forModel, err := NewServer(againstText(opts))
	if err != nil {
		return nil, err
	}
	return &Intermediary{forHost: forHost, forModel: forModel, modelReads: modelReads(opts.Offer)}, nil
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

// againstText returns opts for answering the model directly: auto mode
// compares the payload with the JSON block's text as the tool wrote it,
// which is what the model reads without the intermediary [PRX-4].
func againstText(opts ServerOptions) ServerOptions {
	opts.Against = BaselineText
	return opts
}

// Session is what an intermediary keeps of a session, besides the calls in
// flight: three small values read from the initialize exchange [PRX-6].
type Session struct {
	// ProtocolVersion is the version the upstream's initialize result
	// names, "" before it.
	ProtocolVersion string
	// HostExtensions is the extensions map of the capabilities the host
	// sent in initialize, holding at most the binding's member.
	HostExtensions map[string]any
	// UpstreamOffer lists the tags the upstream offers in its initialize
	// result [MCP-2], nil when it offers none.
	UpstreamOffer []string
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

// HostExtensions keeps of a host's extensions map only the binding's
// member, all that an intermediary reads of it [PRX-6].
func HostExtensions(extensions map[string]any) map[string]any {
	if v, ok := extensions[Extension]; ok {
		return map[string]any{Extension: v}
	}
	return nil
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
	c := Pending{Name: name}
	if _, ok := requestMeta[MetaAccept]; ok {
		c.hostSpoke = true
	} else if _, ok := capabilityExtensions(s.ProtocolVersion, requestMeta, s.HostExtensions)[Extension]; ok {
		c.hostSpoke = true
	}
	if c.hostSpoke {
		// Between a host and an upstream that both know the binding, the
		// request passes as it is and the upstream answers [PRX-2].
		c.accept = Accepted(s.ProtocolVersion, requestMeta, s.HostExtensions)
		return c
	}
	if p.forModel.modeOf(name) == ModeOff {
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
		return p.forHost.Decide(c.Name, c.accept, r)
	}
	return p.forModel.Decide(c.Name, p.modelReads, r)
}

// modeOf returns the mode that applies to the tool.
func (s *Server) modeOf(name string) Mode {
	if t, ok := s.tools[name]; ok && t.Mode != "" {
		return t.Mode
	}
	return s.mode
}
