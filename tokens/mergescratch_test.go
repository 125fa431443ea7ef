package tokens

import (
	"strings"
	"testing"
)

// longWord is a run of lowercase ASCII letters of n bytes: one piece in
// both encodings, and no token once it is longer than any.
func longWord(n int) string {
	return strings.Repeat("qwertyuiopasdfghjklzxcvbnm", n/26+1)[:n]
}

// Counting a text whose piece is longer than the caches hold (so that it
// is merged every time, by mergeLarge) allocates nothing once the count's
// cache is made: the merge's scratch is kept in the cache for the next
// piece, not handed to the pool of large scratch, which a piece of at most
// maxKeptScratch bytes never touches.
func TestLongPieceCountAllocatesNothing(t *testing.T) {
	for _, name := range []string{CL100K, O200K} {
		e := MustGet(name)
		for _, n := range []int{maxLongCached + 1, 100, 1000} {
			text := longWord(n)
			if end := e.piece([]byte(text), 0); end != n {
				t.Fatalf("%s: %d letters cut at %d, want one piece", name, n, end)
			}
			if n <= smallPiece || n <= maxLongCached {
				t.Fatalf("%d bytes: not merged by mergeLarge every time", n)
			}
			want := e.Count(text)
			allocs := testing.AllocsPerRun(50, func() {
				if got := e.Count(text); got != want {
					t.Fatalf("%s: %d letters count %d, then %d", name, n, want, got)
				}
			})
			if allocs != 0 {
				t.Errorf("%s: %.1f allocations to count a piece of %d letters, want 0", name, allocs, n)
			}
		}
	}
}

// A merger keeps the scratch of a piece of up to maxKeptScratch bytes for
// the next piece, and keeps it across a longer piece, whose larger scratch
// it does not hold on to (it goes to largeNodes, for the collector to take
// back or the next long piece to reuse).
func TestMergeScratchKept(t *testing.T) {
	tab := MustGet(O200K).tab
	var m merger
	short := []byte(longWord(100))
	want := tab.mergeLarge(short, &m)
	if c := cap(m.queue.nodes); c < len(short) || c > maxKeptScratch {
		t.Fatalf("after a piece of %d bytes the merger keeps scratch for %d", len(short), c)
	}
	kept := &m.queue.nodes[:1][0]
	if got := tab.mergeLarge(short, &m); got != want {
		t.Fatalf("%d letters merge to %d parts, then %d", len(short), want, got)
	}
	if &m.queue.nodes[:1][0] != kept {
		t.Errorf("a piece of %d bytes did not reuse the scratch kept for it", len(short))
	}
	long := []byte(longWord(maxKeptScratch + 1))
	if n := tab.mergeLarge(long, &m); n < 1 || n > len(long) {
		t.Fatalf("%d letters merge to %d parts", len(long), n)
	}
	if c := cap(m.queue.nodes); c == 0 || c > maxKeptScratch || &m.queue.nodes[:1][0] != kept {
		t.Errorf("after a piece of %d bytes the merger keeps scratch for %d, not the %d-byte piece's", len(long), c, len(short))
	}
	if got := tab.mergeLarge(short, &m); got != want {
		t.Errorf("%d letters merge to %d parts, then %d after a long piece", len(short), want, got)
	}
}
