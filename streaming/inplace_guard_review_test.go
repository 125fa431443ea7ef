//go:build unix

package streaming

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
)

// TestInPlaceNeverWritesThePayload decodes payloads held on a page that is
// made read-only while they are decoded, ending at the page's end or a
// few bytes before it: a write into the string read in place, by any
// path — a read, a move of the unread bytes, a header's copy, a row
// reused — faults, and a load past the page's end faults too. Every
// answer is the reference's.
func TestInPlaceNeverWritesThePayload(t *testing.T) {
	page := guardedPage(t)
	long := strings.Repeat("w", 200) // longer than the first header's room
	var payloads []string
	for _, body := range []string{
		"", "x\n", "x\ny", "x\\ty\n", "\\GCX1\n", "#c\nx\n#d\n", "#c", long + "\n", long, "x\n" + long,
		"x\\", "x\r\n", "\xff\n", "é\n", "x\tz\n",
		"x\nGCX1 tool=u fields=b,c\n1\t2\n", "x\nGCX1 tool=u fields=b,c\n" + long + "\t2\n",
		"x\nGCX1 tool=u fields=b k=" + long + "\n",
	} {
		for _, header := range []string{"GCX1 tool=t fields=a\n", "GCX1 tool=t fields=a rows=1\n", "GCX1 tool=t fields=" + long + "\n"} {
			payloads = append(payloads, header+body)
		}
	}
	for n := range 41 {
		payloads = append(payloads, ("GCX1 tool=t fields=a\n" + strings.Repeat("x\n", 20))[:n])
	}
	limits := []spec.Limits{spec.DefaultLimits, {MaxLineBytes: 40, MaxFields: 3, MaxSections: 2, MaxRows: 4}, {MaxLineBytes: 1}}
	for _, payload := range payloads {
		for _, lim := range limits {
			want, err := expect([]byte(payload), lim)
			if err != nil {
				t.Fatal(err)
			}
			for _, gap := range []int{0, 1, bufferSlack - 1, bufferSlack, bufferSlack + 1, 40} {
				if err := syscall.Mprotect(page, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
					t.Fatal(err)
				}
				held := page[len(page)-gap-len(payload) : len(page)-gap]
				copy(held, payload)
				for i := len(page) - gap; i < len(page); i++ {
					page[i] = "\n\t"[i%2]
				}
				if err := syscall.Mprotect(page, syscall.PROT_READ); err != nil {
					t.Fatal(err)
				}
				s := unsafe.String(unsafe.SliceData(held), len(held))
				for _, whole := range []bool{false, true} {
					if whole && gap < bufferSlack {
						continue // the scanner's loads would cross the page's end
					}
					for _, reuse := range []bool{false, true} {
						for _, portable := range []bool{false, true} {
							d := newDecoderString(s, whole)
							d.Limits, d.ReuseRecord, d.portable = lim, reuse, portable
							got, err, problem := drain(d)
							where := fmt.Sprintf("%q, limits %+v, %d bytes before the page's end, whole %v, reuse %v, portable %v", payload, lim, gap, whole, reuse, portable)
							if problem != "" {
								t.Fatalf("%s: %s", where, problem)
							}
							if diff := diffEvents(got, want.events); diff != "" {
								t.Errorf("%s: items differ (-reference +in place):\n%s", where, diff)
							}
							if diff := diffError(err, want.err); diff != "" {
								t.Errorf("%s: error differs (-reference +in place):\n%s", where, diff)
							}
						}
					}
				}
			}
		}
	}
	if err := syscall.Mprotect(page, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		t.Fatal(err)
	}
}
