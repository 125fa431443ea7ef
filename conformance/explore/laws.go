package explore

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// The laws are what package codec's properties hold every registered
// codec to, checked here on generated JSON values for a codec no test of
// this repository knows: a draft written as a program (codec.Program),
// which has no reference to be compared with. Each is checked on every
// value; a value that breaks one is shrunk while it breaks the same law.

// LawReport is what a run of the laws did.
type LawReport struct {
	Seed    uint64
	Cases   int
	Elapsed time.Duration
	Finding *LawFinding // nil when every law held on every case
}

// LawFinding is a value that breaks a law, shrunk.
type LawFinding struct {
	Index  int
	Law    string // its name and the rule it stands for
	Tool   string
	Limits spec.Limits
	Value  jsonmap.Value // shrunk
	Detail string        // what the codec did
	// Original is the value as generated.
	Original       jsonmap.Value
	Tries, Shrinks int
}

// lawCase is one generated input of the laws.
type lawCase struct {
	tool   string
	value  jsonmap.Value
	limits spec.Limits // zero: none
}

// Laws checks c's laws on generated values, at most opt.Cases of them or
// for opt.Time (and at least opt.LaneCases, the one lane's floor), and
// shrinks the first value that breaks one.
func Laws(c codec.Limited, opt Options) (*LawReport, error) {
	if opt.Cases <= 0 && opt.Time <= 0 {
		return nil, errors.New("explore: bound the run by cases or time")
	}
	workers := opt.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	rep := &LawReport{Seed: opt.Seed}
	draw := func(i int) lawCase {
		g := &gen{r: rand.New(rand.NewPCG(opt.Seed, uint64(i))), tag: c.Tag()}
		lc := lawCase{tool: g.name(), value: g.value(3)}
		if g.one(4) {
			lc.limits = spec.Limits{MaxLineBytes: g.between(16, 120), MaxFields: g.between(1, 6), MaxSections: g.between(1, 4), MaxRows: g.between(1, 6)}
		}
		return lc
	}
	// Values run at once, each a few runs of a program; the finding is the
	// lowest-numbered value that breaks a law, whichever finished first.
	var (
		mu     sync.Mutex
		broken = -1
		laws   = map[int][2]string{}
	)
	runIndexed(workers, opt.Cases, opt.Time, opt.LaneCases, start, func(i int) (stop bool) {
		law, detail := breaks(c, draw(i))
		mu.Lock()
		defer mu.Unlock()
		rep.Cases++
		if law != "" {
			laws[i] = [2]string{law, detail}
			if broken < 0 || i < broken {
				broken = i
			}
		}
		return broken >= 0
	})
	if broken >= 0 {
		lc := draw(broken)
		f := &LawFinding{Index: broken, Law: laws[broken][0], Tool: lc.tool, Limits: lc.limits, Value: lc.value,
			Detail: laws[broken][1], Original: lc.value}
		budget := opt.Shrink
		if budget == 0 {
			budget = DefaultShrink
		}
		shrinkLaw(c, f, budget)
		rep.Finding = f
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// shrinkLaw makes f's value smaller while it breaks the same law.
func shrinkLaw(c codec.Limited, f *LawFinding, budget int) {
	for progress := true; progress && budget > 0; {
		progress = false
		for _, cand := range shrinkValue(f.Value) {
			if budget <= 0 {
				break
			}
			if len(cand.AppendCompact(nil)) >= len(f.Value.AppendCompact(nil)) {
				continue
			}
			budget--
			f.Tries++
			if law, detail := breaks(c, lawCase{tool: f.Tool, value: cand, limits: f.Limits}); law == f.Law {
				f.Value, f.Detail = cand, detail
				f.Shrinks++
				progress = true
				break
			}
		}
	}
}

// breaks returns the first law the case breaks, and what the codec did,
// or "" when it keeps them all.
func breaks(c codec.Limited, lc lawCase) (law, detail string) {
	want := lc.value.AppendCompact(nil)
	if lc.limits != (spec.Limits{}) {
		payload, err := c.EncodeLimits(lc.tool, lc.value, lc.limits)
		if err != nil {
			if !errors.Is(err, spec.ErrLimit) {
				return "under limits the encoder refuses only with a limit error [LIM-4]", err.Error()
			}
			return "", ""
		}
		v, err := c.DecodeLimits(payload, lc.limits)
		if err != nil {
			return "what the encoder writes under limits, the decoder reads under them [LIM-4]", fmt.Sprintf("payload %q\ndecoder: %v", cut(payload), err)
		}
		if got := v.AppendCompact(nil); !bytes.Equal(got, want) {
			return "the value comes back under limits [MAP-4]", fmt.Sprintf("payload %q\nvalue   %s", cut(payload), cut(got))
		}
		return "", ""
	}
	payload, err := c.Encode(lc.tool, lc.value)
	if err != nil {
		return "every JSON value is written [MAP-4]", err.Error()
	}
	tag := c.Tag()
	if !bytes.HasPrefix(payload, []byte(tag)) || (len(payload) > len(tag) && payload[len(tag)] != ' ' && payload[len(tag)] != '\n') {
		return "the payload begins with the codec's tag, then SP or LF [VER-1]", fmt.Sprintf("payload %q", cut(payload))
	}
	if again, err := c.Encode(lc.tool, lc.value); err != nil || !bytes.Equal(again, payload) {
		return "encoding a value twice gives the same bytes [CAN-1]", fmt.Sprintf("first  %q\nsecond %q (%v)", cut(payload), cut(again), err)
	}
	v, err := c.Decode(payload)
	if err != nil {
		return "the value comes back [MAP-4]", fmt.Sprintf("payload %q\ndecoder: %v", cut(payload), err)
	}
	if got := v.AppendCompact(nil); !bytes.Equal(got, want) {
		return "the value comes back [MAP-4]", fmt.Sprintf("payload %q\nvalue   %s", cut(payload), cut(got))
	}
	if tag != spec.Version {
		var e *spec.Error
		_, err := streaming.Decode(bytes.NewReader(payload), spec.DefaultLimits)
		if !errors.As(err, &e) || !errors.Is(err, spec.ErrUnsupportedVersion) || e.Tag != tag {
			return "GCX1's decoder refuses the payload as unsupported-version naming the tag [VER-2]", fmt.Sprintf("payload %q\nGCX1: %v", cut(payload), err)
		}
		// and the codec's decoder refuses GCX1's payload of the value
		gcx1, err := (codec.GCX1{}).Encode(lc.tool, lc.value)
		if err == nil {
			_, err := c.Decode(gcx1)
			if !errors.As(err, &e) || !errors.Is(err, spec.ErrUnsupportedVersion) || e.Tag != spec.Version {
				return "the decoder refuses another version's payload as unsupported-version naming its tag [VER-2]", fmt.Sprintf("GCX1 payload %q\ndecoder: %v", cut(gcx1), err)
			}
		}
	}
	return "", ""
}

func cut(b []byte) string {
	const max = 400
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
