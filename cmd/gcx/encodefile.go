package main

import (
	"errors"
	"io"
	"os"

	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// jsonSource is gcx encode's JSON input as a file the encoder can read
// twice, to plan the payload and then write it (jsonmap.PlanFile): stdin
// itself when it is a regular file, read from where it stands, else a
// temporary copy of it (the spill file) that Close removes.
type jsonSource struct {
	r     io.ReaderAt
	size  int64
	spill *os.File
}

// spillWhat names the spill file in errors [WIRE-5].
const spillWhat = "the spill file (a temporary file in $TMPDIR holding the JSON input, which gcx encode reads twice)"

// openJSONSource makes in readable twice.
func openJSONSource(in io.Reader) (*jsonSource, error) {
	if f, ok := in.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			if at, err := f.Seek(0, io.SeekCurrent); err == nil {
				r := markedReaderAt{r: f, mark: func(err error) error { return &streamError{stream: "stdin", err: err} }}
				return &jsonSource{r: io.NewSectionReader(r, at, info.Size()-at), size: info.Size() - at}, nil
			}
		}
	}
	spill, err := os.CreateTemp("", "gcx-encode-*.json")
	if err != nil {
		return nil, &fileError{what: spillWhat, err: err}
	}
	s := &jsonSource{spill: spill}
	n, err := io.Copy(spill, input{in})
	var readErr *streamError
	switch {
	case errors.As(err, &readErr):
	case err != nil:
		err = &fileError{what: spillWhat, err: err}
	}
	if err != nil {
		return nil, errors.Join(err, s.Close())
	}
	s.size = n
	s.r = markedReaderAt{r: spill, mark: func(err error) error { return &fileError{what: spillWhat, err: err} }}
	return s, nil
}

// Close removes the spill file, if there is one.
func (s *jsonSource) Close() error {
	if s.spill == nil {
		return nil
	}
	err := errors.Join(s.spill.Close(), os.Remove(s.spill.Name()))
	s.spill = nil
	if err != nil {
		return &fileError{what: spillWhat, err: err}
	}
	return nil
}

// markedReaderAt marks the read errors of a file, io.EOF aside, as the
// failures of a stream or of the spill file they are [WIRE-5].
type markedReaderAt struct {
	r    io.ReaderAt
	mark func(error) error
}

func (m markedReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := m.r.ReadAt(p, off)
	if err != nil && err != io.EOF {
		err = m.mark(err)
	}
	return n, err
}

// encodeJSON is gcx encode of a JSON value into GCX1 [MAP-12] [AUTO-1]:
// the input is planned in one read and written in another, so memory is
// bounded by the payload's longest line, not by the input (jsonmap.PlanFile
// says what is held). Auto mode and --stats read it twice more, to count
// both texts' tokens as they are written.
func encodeJSON(o encodeOptions, in io.Reader, s streams) int {
	src, err := openJSONSource(in)
	if err != nil {
		return fail(s.stderr, err)
	}
	code := encodeSource(o, src, s)
	if err := src.Close(); err != nil && code == exitOK {
		return fail(s.stderr, err)
	}
	return code
}

func encodeSource(o encodeOptions, src *jsonSource, s streams) int {
	plan, err := jsonmap.PlanFile(*o.tool, src.r, src.size)
	if err != nil {
		return fail(s.stderr, err)
	}
	if *o.requireLayout {
		if err := plan.LayoutErr(); err != nil {
			if _, werr := io.WriteString(s.stderr, err.Error()+"\n"); werr != nil {
				return exitIO
			}
			return exitInvalid
		}
	}
	out := newResult(s.stdout)
	format := jsonmap.FormatGCX
	var choice auto.Choice
	if *o.mode == modeAuto || *o.stats {
		// Both counts decide auto mode; --stats prints both.
		if choice, err = auto.ChoosePlan(plan, *o.limits); err != nil {
			return fail(s.stderr, err)
		}
		if *o.mode == modeGCX && choice.Refused != nil {
			return fail(s.stderr, choice.Refused)
		}
		if *o.mode == modeAuto {
			format = choice.Format
		}
	}
	// The chosen text goes out as it is made.
	if format == jsonmap.FormatGCX {
		if err := plan.Encode(out, *o.limits); err != nil {
			out.Abandon(abandonedGCX)
			return fail(s.stderr, err)
		}
	} else {
		err := plan.Compact(out)
		if err == nil {
			_, err = io.WriteString(out, "\n")
		}
		if err != nil {
			out.Abandon(abandonedJSON)
			return fail(s.stderr, err)
		}
	}
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	if *o.stats {
		if choice.Refused != nil {
			return report(s.stderr, "gcx encode: wrote %s; compact JSON %s (%s); no GCX1: %v\n", format, plural.Count(choice.JSONTokens, "token"), auto.Encoding, choice.Refused)
		}
		return report(s.stderr, "gcx encode: wrote %s; GCX1 %s, compact JSON %s (%s)\n", format, plural.Count(choice.GCXTokens, "token"), plural.Count(choice.JSONTokens, "token"), auto.Encoding)
	}
	return exitOK
}
