package main

import (
	"flag"
	"io"
	"slices"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/spec"
)

// --draft is off by default, takes a registered draft and offers it before
// GCX1, and refuses any other tag at start.
func TestProxyDraftFlag(t *testing.T) {
	for _, c := range []struct {
		args  []string
		offer []string
		ok    bool
	}{
		{nil, nil, true},
		{[]string{"--draft", codec.Draft3Tag}, []string{codec.Draft3Tag, spec.Version}, true},
		{[]string{"--draft", "GCX9"}, nil, false},
		{[]string{"--draft", spec.Version}, nil, false}, // a release, not a draft
	} {
		fs := flag.NewFlagSet("gcx proxy", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		cfg := proxyFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		opts, err := cfg.options()
		if (err == nil) != c.ok || (c.ok && !slices.Equal(opts.Binding.Offer, c.offer)) {
			t.Errorf("%v: offer %v, error %v", c.args, opts.Binding.Offer, err)
		}
	}
}
