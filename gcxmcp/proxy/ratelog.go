package proxy

import (
	"fmt"
	"time"
)

// A proxy that listens hears from anyone: a stranger can send refused
// requests, and an upstream that went away fails every request, as fast
// as they come. Their notes must neither flood the log nor fall silent
// for good: rateLog prints the first notes of a kind in each interval,
// counts the rest, and says how many there were when the interval ends.

// Defaults of the refusals' and the upstream errors' log.
const (
	// NotesPerInterval is how many notes of one kind are printed in one
	// interval; the rest are counted.
	NotesPerInterval = 20
	// NoteInterval is the interval.
	NoteInterval = time.Minute
)

// rateLog notes events of several kinds on a logger's writer, at most
// perInterval lines of a kind per interval, then one summary line.
type rateLog struct {
	l           *logger
	perInterval int
	interval    time.Duration
	what        string           // the interval, as the summary names it
	kinds       map[string]*rate // guarded by l.mu
}

// rate is one kind's count in its current interval.
type rate struct {
	printed, more int
	timer         *time.Timer // ends the interval; nil between intervals
}

func newRateLog(l *logger, perInterval int, interval time.Duration) *rateLog {
	what := "minute"
	if interval != time.Minute {
		what = interval.String()
	}
	return &rateLog{l: l, perInterval: perInterval, interval: interval, what: what, kinds: map[string]*rate{}}
}

// note prints a line of a kind (kind names it in the summary, such as
// "401 refusals"), or counts it when perInterval have been printed in
// this interval. The kinds are a fixed few the proxy names, never a
// peer's text, so the map stays small.
func (r *rateLog) note(kind, format string, args ...any) {
	if r.l.w == nil {
		return
	}
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	k := r.kinds[kind]
	if k == nil {
		k = &rate{}
		r.kinds[kind] = k
	}
	if k.timer == nil {
		k.timer = time.AfterFunc(r.interval, func() { r.endInterval(kind) })
	}
	if k.printed < r.perInterval {
		k.printed++
		fmt.Fprintf(r.l.w, format+"\n", args...)
		return
	}
	k.more++
}

// endInterval prints how many notes of a kind were counted and not
// printed in the interval that ended, and begins counting anew.
func (r *rateLog) endInterval(kind string) {
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	k := r.kinds[kind]
	if k.more > 0 {
		fmt.Fprintf(r.l.w, "gcx proxy: %d more %s in the last %s\n", k.more, kind, r.what)
	}
	k.printed, k.more, k.timer = 0, 0, nil
}
