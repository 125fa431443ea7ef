package scorecard

import (
	"bytes"
	"fmt"
)

// The real servers' corpus measured with the drafts a scorecard selects
// (gcx bench -codec GCX1,GCX2-draft.3): for each draft, each call's text
// blocks with every JSON block of a result that is no error handed on as
// the cheapest of the text as sent, its compact JSON and the draft's
// payload, as a binding that never costs more than compact JSON would;
// every other block as sent. Each payload must give the block's value
// back. The main scorecard selects no draft, and has no such column.

// measureDrafts measures the plan's calls with each codec of cs that is
// not GCX1, in order, into RealCorpus.Drafts and RealCall.Drafts.
func (p *realPlan) measureDrafts(cs []Codec) error {
	for _, c := range cs {
		if c.Tag == "" || c.tag() == DefaultCodec().tag() {
			continue
		}
		p.corpus.Drafts = append(p.corpus.Drafts, c.tag())
		for si, calls := range p.blocks {
			s := &p.corpus.Servers[si]
			for ci, bs := range calls {
				n, err := draftTokens(c, s.Calls[ci].Tool, bs)
				if err != nil {
					return fmt.Errorf("scorecard: real servers: %s, call %d (%s), %s: %w", s.Server, ci, s.Calls[ci].Tool, c.tag(), err)
				}
				s.Calls[ci].Drafts = append(s.Calls[ci].Drafts, n)
			}
		}
	}
	return nil
}

// draftTokens counts one call's blocks with codec c.
func draftTokens(c Codec, tool string, bs []realBlock) (int, error) {
	total := 0
	for _, b := range bs {
		sent, err := countCL100K(b.text)
		if err != nil {
			return 0, err
		}
		if b.compact == nil {
			total += sent
			continue
		}
		compact, err := countCL100K(string(b.compact))
		if err != nil {
			return 0, err
		}
		payload, err := c.Encode(tool, b.compact)
		if err != nil {
			return 0, err
		}
		back, err := c.Decode(payload)
		if err != nil {
			return 0, fmt.Errorf("the payload does not read back: %w", err)
		}
		if canon, _, err := Canonical(back); err != nil || !bytes.Equal(canon, b.compact) {
			return 0, fmt.Errorf("the payload reads back as another value (%v)", err)
		}
		n, err := countCL100K(string(payload))
		if err != nil {
			return 0, err
		}
		total += min(sent, compact, n)
	}
	return total, nil
}
