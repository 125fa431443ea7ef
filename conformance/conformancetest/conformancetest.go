// Package conformancetest runs the GCX1 conformance vectors from a Go test,
// one subtest per vector. It is the only part of the suite that imports
// package testing, so that programs built on package conformance (the gcx
// command among them) do not link the test framework.
package conformancetest

import (
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/spec"
)

// Run checks a Go implementation against every committed vector from its
// own tests, one subtest per vector named CATEGORY/GROUP/ID, so that
// go test -run 'TestX/reject/values/' picks vectors the way the gcx
// command's --run does:
//
//	func TestConformance(t *testing.T) {
//		conformancetest.Run(t, conformance.Implementation{
//			Decode: func(payload []byte, limits conformance.Limits) (*spec.Payload, error) { ... },
//			Encode: func(view []byte) ([]byte, error) { ... },
//		})
//	}
//
// A vector fails its subtest when it fails at the diagnostic level: class,
// line, column, offset and rule ID all compared [ERR-6]. RunWith can judge
// at the core level instead, or select vectors. A vector that needs an op
// the implementation leaves nil, or a step it declines with
// conformance.ErrSkip, is skipped, never passed.
func Run(t *testing.T, impl conformance.Implementation) {
	t.Helper()
	RunWith(t, impl, conformance.Options{})
}

// RunWith is Run with options. The subtests run in parallel, as go test
// -parallel allows, and at most opt.Parallel at once when it is positive.
func RunWith(t *testing.T, impl conformance.Implementation, opt conformance.Options) {
	t.Helper()
	RunFor(t, spec.Version, impl, opt)
}

// RunFor is RunWith for the vectors of the version tag: a draft's own and
// those it inherits from GCX1, respelled with its tag
// (conformance.Suite.For).
func RunFor(t *testing.T, tag string, impl conformance.Implementation, opt conformance.Options) {
	t.Helper()
	vectors, err := conformance.VectorsFor(tag)
	if err != nil {
		t.Fatalf("loading the vectors: %v", err)
	}
	level := opt.Level
	if level == 0 {
		level = conformance.Diagnostic
	}
	var slots chan struct{}
	if opt.Parallel > 0 {
		slots = make(chan struct{}, opt.Parallel)
	}
	ran := 0
	for i := range vectors {
		v := &vectors[i]
		if !opt.Selects(v) {
			continue
		}
		ran++
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			if slots != nil {
				slots <- struct{}{}
				defer func() { <-slots }()
			}
			res := conformance.CheckVector(v, impl)
			switch res.Status(level) {
			case conformance.Fail:
				t.Errorf("%s\n%s", v.Description, res.Detail)
			case conformance.Timeout:
				t.Errorf("%s\ntimed out: %s", v.Description, res.Detail)
			case conformance.Skip:
				t.Skip(res.Detail)
			}
		})
	}
	if ran == 0 {
		t.Error("no vector selected")
	}
}
