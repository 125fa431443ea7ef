package wire

import (
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/gcxwire/gcx/internal/jsontext"
)

// A section's records read back as written, and a spill cut short or
// changed anywhere inside a record reads as an error, never as a record or
// a clean end: the temporary file may change under the reader.
func TestRecordsReadBackOrFail(t *testing.T) {
	pos := func(off int64, line, col int) jsontext.Pos { return jsontext.Pos{Offset: off, Line: line, Column: col} }
	write := func() *records {
		s := &records{spill: spill{keepInMemory: true}}
		row := appendPlace(nil, jsontext.Pos{}, pos(10, 2, 3))
		row = appendPlace(row, pos(10, 2, 3), pos(12, 2, 5))
		if err := s.putRow([]string{"ab", "", "cde"}, row); err != nil {
			t.Fatal(err)
		}
		if err := s.putComment(1, "1", "note", pos(20, 3, 1), pos(300, 9, 200)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := write()
	whole := slices.Clone(s.mem)
	rec, err := s.next()
	if err != nil || !slices.Equal(rec.values, []string{"ab", "", "cde"}) {
		t.Fatalf("row read back as %+v, %v", rec, err)
	}
	rowEnd := len(whole) - s.r.(interface{ Len() int }).Len()
	rec, err = s.next()
	if err != nil || rec.row != 1 || rec.rowText != "1" || rec.text != "note" {
		t.Fatalf("comment read back as %+v, %v", rec, err)
	}
	if rec, err := s.next(); err != io.EOF {
		t.Fatalf("after the last record: %+v, %v; want io.EOF", rec, err)
	}
	for cut := 1; cut < len(whole); cut++ {
		s := write()
		s.mem = whole[:cut]
		var err error
		for n := 0; err == nil && n < 3; n++ {
			_, err = s.next()
		}
		if cut == rowEnd {
			if err != io.EOF {
				t.Errorf("cut after the first record: %v, want io.EOF", err)
			}
			continue
		}
		if err == nil || err == io.EOF {
			t.Errorf("cut to %d of %d bytes: %v, want an error", cut, len(whole), err)
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, errCorruptSpill) {
			t.Errorf("cut to %d of %d bytes: %v, want io.ErrUnexpectedEOF or errCorruptSpill", cut, len(whole), err)
		}
	}
}

// A spill's string changed inside a record (not cut short, which the
// record's size catches) reads as errCorruptSpill: a length missing or cut
// off, or longer than what is left.
func TestCutStringRefusesChangedBytes(t *testing.T) {
	for _, b := range [][]byte{nil, {0x80}, {3, 'a', 'b'}} {
		if s, rest, err := cutString(b); err != errCorruptSpill {
			t.Errorf("cutString(%q) = %q, %q, %v; want errCorruptSpill", b, s, rest, err)
		}
	}
	if s, rest, err := cutString([]byte{1, 'a', 'b'}); err != nil || string(s) != "a" || string(rest) != "b" {
		t.Errorf(`cutString("\x01ab") = %q, %q, %v; want "a", "b"`, s, rest, err)
	}
}

// A record whose places are missing (a spill changed under the reader)
// stands at the zero position, rather than failing on its first place.
func TestRecordWithoutPlaces(t *testing.T) {
	if p := (&record{}).pos(); p != (jsontext.Pos{}) {
		t.Errorf("pos of a record without places = %+v, want the zero position", p)
	}
}

// A spill holds up to spillAt bytes in memory and moves to a temporary
// file with the byte past them, reading back the same either way: a
// section's rows cost at most spillAt bytes of memory, whatever its size.
func TestSpillMovesToAFilePastSpillAt(t *testing.T) {
	if spillAt != 1<<20 {
		t.Errorf("spillAt = %d, and its comment promises 1 MiB", spillAt)
	}
	var s spill
	defer s.reset()
	first := make([]byte, spillAt)
	first[0], first[spillAt-1] = 'a', 'z'
	if err := s.write(first); err != nil || s.file != nil {
		t.Fatalf("after %d bytes: file %v, err %v; want them in memory", spillAt, s.file != nil, err)
	}
	if err := s.write([]byte("!")); err != nil || s.file == nil || s.mem != nil {
		t.Fatalf("after %d bytes: file %v, %d bytes in memory, err %v; want them in a file", spillAt+1, s.file != nil, len(s.mem), err)
	}
	r, err := s.open()
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(r)
	if err != nil || len(back) != spillAt+1 || back[0] != 'a' || back[spillAt-1] != 'z' || back[spillAt] != '!' {
		t.Errorf("read back %d bytes, err %v; want the %d written", len(back), err, spillAt+1)
	}
}
