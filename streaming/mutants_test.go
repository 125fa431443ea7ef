package streaming

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/spec"
)

// With ReuseRecord the buffer is read into again where it stands: an
// unfinished line that fills no more than half of it is moved to the
// front, leaving at least as much room to read into, and the buffer is
// kept; only a fuller line makes read take a bigger one. Here the line
// fills exactly half the first buffer, from a reader that tells no length
// and never fills the room it is given (so nothing else asks to grow).
func TestReusedBufferKeepsAHalfFullLine(t *testing.T) {
	const header, first = "GCX1 tool=t fields=a\n", "x\n"
	half := strings.Repeat("y", initialBuffer/2)
	payload := header + first + half + "z\n"
	r := &chunkReader{data: []byte(payload), sizes: []int{len(header) + len(first) + len(half), len(payload)}}
	d := NewDecoder(r)
	d.ReuseRecord = true
	for _, want := range []Kind{KindHeader, KindRow} {
		if kind, err := d.Next(); kind != want || err != nil {
			t.Fatalf("Next = %v, %v; want %v", kind, err, want)
		}
	}
	if size := len(d.buf) - bufferSlack; size != initialBuffer {
		t.Fatalf("the first buffer holds %d bytes, want %d", size, initialBuffer)
	}
	buf := &d.buf[0]
	if kind, err := d.Next(); kind != KindRow || err != nil {
		t.Fatalf("Next = %v, %v; want a row", kind, err)
	}
	if got := d.Row(); !reflect.DeepEqual(got, []string{half + "z"}) {
		t.Errorf("the long row reads %d values, %d bytes", len(got), len(strings.Join(got, "")))
	}
	if &d.buf[0] != buf || len(d.buf)-bufferSlack != initialBuffer {
		t.Errorf("a line filling half the buffer got a new buffer of %d bytes", len(d.buf)-bufferSlack)
	}
}

// scanHeader tells names whose spec.NameBit is the same apart by their
// bytes: a header whose field names, or meta keys, share a bit but all
// differ is the scan's to take, and it reads what the walk reads.
func TestScanHeaderTakesNamesSharingABit(t *testing.T) {
	if spec.NameBit("ab") != spec.NameBit("ac") || spec.NameBit("k1") != spec.NameBit("k2") {
		t.Fatal("the names picked no longer share a bit")
	}
	for _, h := range []string{"GCX1 tool=t fields=ab,ac", "GCX1 tool=t fields=a k1=x k2=y", "GCX1 tool=t fields=ab,x,ac k1=x k2=y"} {
		line := []byte(h + "\n")[:len(h)]
		var got, want headerBlock
		if _, ok := NewDecoder(strings.NewReader(h+"\n")).scanHeader(line, h, true, &got); !ok {
			t.Errorf("%q: not taken by the scan", h)
			continue
		}
		if _, err := NewDecoder(strings.NewReader(h+"\n")).walkHeader(line, h, true, &want); err != nil {
			t.Fatalf("%q: the walk refuses it: %v", h, err)
		}
		if !reflect.DeepEqual(got.h, want.h) {
			t.Errorf("%q: the scan reads %+v, the walk %+v", h, got.h, want.h)
		}
	}
}
