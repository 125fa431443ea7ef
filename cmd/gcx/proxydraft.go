package main

import (
	"flag"
	"fmt"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/spec"
)

// gcx proxy --draft TAG writes a registered draft of a later version
// (GCX2-draft.3) for the model instead of GCX1, for people trialling it:
// no stock host reads a draft, so it is off unless asked for by name, and
// the model must be told how to read it (the draft's reader note). A host
// that opts in itself still gets only the tags it lists [PRX-2]. A draft's
// payload gets no total= or truncated= header pairs, which mean something
// else in its root; _meta carries them [MCP-7].

// draftFlag registers --draft on fs and returns where its value goes.
func draftFlag(fs *flag.FlagSet) *string {
	return fs.String("draft", "", "write the draft `TAG` (such as "+codec.Draft3Tag+") for the model instead of GCX1, for trialling it; no stock host reads a draft (docs/drafts)")
}

// applyDraft offers the draft tag, then GCX1, when tag is set: it refuses
// a tag that is no registered draft.
func applyDraft(opts *proxy.Options, tag string) error {
	if tag == "" {
		return nil
	}
	if _, ok := codec.Lookup(tag); !ok || !codec.IsDraft(tag) {
		var drafts []string
		for _, c := range codec.All() {
			if codec.IsDraft(c.Tag()) {
				drafts = append(drafts, c.Tag())
			}
		}
		return fmt.Errorf("--draft %q: not a registered draft (registered: %v)", tag, drafts)
	}
	opts.Binding.Offer = []string{tag, spec.Version}
	return nil
}
