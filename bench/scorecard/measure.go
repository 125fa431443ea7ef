package scorecard

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// A Codec is a version's JSON mapping under test. DefaultCodec is the
// module's own GCX1 (package jsonmap), CodecOf any registered codec; the
// functions are fields so that the harness can be tested on its own.
type Codec struct {
	// Tag is the version the codec writes; "" means GCX1.
	Tag string
	// Encode writes value as a payload, whatever it costs.
	Encode func(tool string, value []byte) ([]byte, error)
	// Decode gives back the JSON value a payload represents.
	Decode func(payload []byte) ([]byte, error)
	// Auto writes the payload or compact JSON, whichever costs fewer
	// tokens, and says whether it chose the payload [AUTO-1].
	Auto func(tool string, value []byte) (out []byte, gcx bool, err error)
	// Sections checks a payload's wire view and returns the row count of
	// each section; nil for a codec that has no wire view.
	Sections func(payload []byte) ([]int, error)
	// Goals are the codec's goals (codec.Goaler); nil for none.
	Goals *codec.Goals
	// Ideas and EncodeWithout are those of a codec that combines several
	// ideas (codec.Ablatable); EncodeWithout is Encode with the named
	// ideas switched off.
	Ideas         []codec.Idea
	EncodeWithout func(tool string, value []byte, off []string) ([]byte, error)
}

// tag returns the codec's tag, GCX1 when it names none.
func (c Codec) tag() string {
	if c.Tag == "" {
		return spec.Version
	}
	return c.Tag
}

// A Size is what one spelling of a response costs.
type Size struct {
	Bytes  int `json:"bytes"`  // UTF-8 bytes
	CL100K int `json:"cl100k"` // cl100k_base tokens
	O200K  int `json:"o200k"`  // o200k_base tokens
	Gzip   int `json:"gzip"`   // bytes after gzip at the default level
}

// A Result is everything measured on one case.
type Result struct {
	Name        string `json:"name"`
	Tool        string `json:"tool"`
	Description string `json:"description"`
	Shape       Shape  `json:"shape"`
	// ResponseSHA256 is the SHA-256, in hex, of the response's compact JSON:
	// the bytes every spelling below is made from. TOON figures belong to
	// it, so a run that cannot run TOON can tell whether figures measured
	// earlier still apply (see CarryTOON).
	ResponseSHA256 string `json:"response_sha256"`

	Pretty  Size `json:"json_pretty"`
	Compact Size `json:"json_compact"`

	// GCX is the forced GCX1 encoding; nil when the mapping refused the
	// value (GCXError says why).
	GCX      *Size  `json:"gcx,omitempty"`
	GCXError string `json:"gcx_error,omitempty"`
	// Rows holds the row count of each section of the forced payload.
	Rows []int `json:"rows,omitempty"`
	// HeaderCL100K is what the forced payload's header lines cost in
	// cl100k_base tokens: the fixed price a small response pays.
	HeaderCL100K int `json:"header_cl100k,omitempty"`
	// RoundTrip is "pass" when Decode(Encode(v)) is v as a JSON value
	// (types, key order and number literals exact) [MAP-4], else what went
	// wrong. It is checked with SameValue, not with the mapping's own
	// comparison, so a bug there cannot hide one in the codec.
	RoundTrip string `json:"round_trip"`

	Auto       *Size  `json:"auto,omitempty"`
	AutoFormat string `json:"auto_format,omitempty"` // "gcx" or "json"
	AutoError  string `json:"auto_error,omitempty"`
	// AutoRoundTrip is "pass" when auto's output, decoded as what it says it
	// is, gives back v.
	AutoRoundTrip string `json:"auto_round_trip"`

	// TOON sizes are nil when TOON was not measured.
	TOONComma     *Size `json:"toon_comma,omitempty"`
	TOONTab       *Size `json:"toon_tab,omitempty"`
	TOONRoundTrip *bool `json:"toon_round_trip,omitempty"`

	// Text is the response's free text (see FreeText); Codecs holds what
	// each codec of Scorecard.Codecs measured. Both are measured only when
	// codecs are selected: the default scorecard, GCX1 alone, has neither.
	Text   *Text         `json:"text,omitempty"`
	Codecs []CodecResult `json:"codecs,omitempty"`
}

// A CodecResult is what one codec measured on one case.
type CodecResult struct {
	Tag string `json:"tag"`
	// Payload is the forced encoding; nil when the codec refused the
	// value (Error says why).
	Payload *Size  `json:"payload,omitempty"`
	Error   string `json:"error,omitempty"`
	// RoundTrip is "pass" when the codec's Decode gives the value back
	// from the payload [MAP-4], else what went wrong.
	RoundTrip     string `json:"round_trip"`
	Auto          *Size  `json:"auto,omitempty"`
	AutoFormat    string `json:"auto_format,omitempty"`
	AutoError     string `json:"auto_error,omitempty"`
	AutoRoundTrip string `json:"auto_round_trip"`
	// Ablation holds the payload with ideas switched off, for a codec
	// that combines several (CodecInfo.Ideas), one entry per
	// configuration of Ablations.
	Ablation []Ablated `json:"ablation,omitempty"`
}

// An Ablated payload is the codec's payload with the ideas Off switched
// off; like every payload it must decode to the value.
type Ablated struct {
	Off       []string `json:"off"`
	Size      *Size    `json:"size,omitempty"`
	Error     string   `json:"error,omitempty"`
	RoundTrip string   `json:"round_trip"`
}

// A CodecInfo describes a selected codec: its tag, its goals and the
// ideas it combines.
type CodecInfo struct {
	Tag   string       `json:"tag"`
	Goals *codec.Goals `json:"goals,omitempty"`
	Ideas []codec.Idea `json:"ideas,omitempty"`
}

// A Scorecard is the measurement of a whole corpus.
type Scorecard struct {
	// TOONVersion is the version of the official TOON encoder used, or ""
	// when TOON was not measured; TOONNote then says why.
	TOONVersion string `json:"toon_version,omitempty"`
	TOONNote    string `json:"toon_note,omitempty"`
	// Codecs are the codecs selected with --codec, in column order, the
	// first being the one the main tables report; empty for the default,
	// GCX1 alone, whose scorecard has no codec columns.
	Codecs []CodecInfo `json:"codecs,omitempty"`
	Cases  []Result    `json:"cases"`
	// RealServers is the measurement of the real servers' corpus
	// (bench/realservers), nil when the run had none.
	RealServers *RealCorpus `json:"real_servers,omitempty"`
	// CarriedFrom names the record the TOON figures were kept from when
	// this run could not run TOON itself (see CarryTOON). It is not
	// written: the figures are the same either way.
	CarriedFrom string `json:"-"`
}

// Measure measures every case. toon holds the official encoder's outputs in
// case order, or is nil when TOON could not be run (toonNote says why).
// progress, when not nil, gets one line per case. The main tables report
// codec; with more codecs, or a codec that is not GCX1, every codec is
// also measured in a column of its own, with the cases' free text and the
// ablation of the codecs that combine several ideas.
func Measure(cases []Case, codec Codec, toonVersion string, toon []TOONOutput, toonNote string, progress io.Writer, more ...Codec) (*Scorecard, error) {
	if toon != nil && len(toon) != len(cases) {
		return nil, fmt.Errorf("scorecard: %d TOON outputs for %d cases", len(toon), len(cases))
	}
	sc := &Scorecard{TOONVersion: toonVersion, TOONNote: toonNote, Cases: make([]Result, len(cases))}
	var columns []Codec
	if len(more) > 0 || codec.tag() != spec.Version {
		columns = append([]Codec{codec}, more...)
		for _, c := range columns {
			sc.Codecs = append(sc.Codecs, CodecInfo{Tag: c.tag(), Goals: c.Goals, Ideas: c.Ideas})
		}
	}
	if toon == nil {
		sc.TOONVersion = ""
	}
	// Counting tokens is the slow part and every case is independent, so
	// the cases are spread over the CPUs; results keep case order.
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		wg       sync.WaitGroup
		next     = make(chan int)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var t *TOONOutput
				if toon != nil {
					t = &toon[i]
				}
				r, err := measureCase(cases[i], codec, t)
				if err == nil && columns != nil {
					err = measureColumns(&r, cases[i], columns)
				}
				mu.Lock()
				sc.Cases[i] = r
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("scorecard: %s: %w", cases[i].Name, err)
				}
				done++
				if progress != nil {
					fmt.Fprintf(progress, "scorecard: [%d/%d] %s\n", done, len(cases), cases[i].Name)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return sc, nil
}

func measureCase(c Case, codec Codec, toon *TOONOutput) (Result, error) {
	shape, err := ShapeOf(c.Response)
	if err != nil {
		return Result{}, err
	}
	digest := sha256.Sum256(c.Response)
	r := Result{Name: c.Name, Tool: c.Tool, Description: c.Description, Shape: shape, ResponseSHA256: hex.EncodeToString(digest[:])}
	if r.Pretty, err = measure(c.Pretty); err != nil {
		return Result{}, err
	}
	if r.Compact, err = measure(c.Response); err != nil {
		return Result{}, err
	}

	r.RoundTrip = "not run: the value did not encode"
	var rows []int
	gcx, err := codec.Encode(c.Tool, c.Response)
	if err == nil && codec.Sections != nil {
		rows, err = codec.Sections(gcx)
	}
	if err != nil {
		r.GCXError = err.Error()
	} else {
		size, err := measure(gcx)
		if err != nil {
			return Result{}, err
		}
		r.GCX = &size
		r.Rows = rows
		if r.HeaderCL100K, err = headerTokens(gcx); err != nil {
			return Result{}, err
		}
		r.RoundTrip = roundTrip(c.Response, gcx, codec.Decode)
	}

	r.AutoRoundTrip = "not run: auto mode failed"
	if out, isGCX, err := codec.Auto(c.Tool, c.Response); err != nil {
		r.AutoError = err.Error()
	} else {
		size, err := measure(out)
		if err != nil {
			return Result{}, err
		}
		r.Auto = &size
		if isGCX {
			r.AutoFormat = "gcx"
			r.AutoRoundTrip = roundTrip(c.Response, out, codec.Decode)
		} else {
			r.AutoFormat = "json"
			r.AutoRoundTrip = verdict(SameValue(c.Response, out))
		}
	}

	if toon != nil {
		comma, err := measure([]byte(toon.Comma))
		if err != nil {
			return Result{}, err
		}
		tab, err := measure([]byte(toon.Tab))
		if err != nil {
			return Result{}, err
		}
		rt := toon.RoundTrip
		r.TOONComma, r.TOONTab, r.TOONRoundTrip = &comma, &tab, &rt
	}
	return r, nil
}

func roundTrip(value, payload []byte, decode func([]byte) ([]byte, error)) string {
	back, err := decode(payload)
	if err != nil {
		return "decode failed: " + err.Error()
	}
	return verdict(SameValue(value, back))
}

func verdict(err error) string {
	if err != nil {
		return "differs: " + err.Error()
	}
	return "pass"
}

// measure returns the size of one spelling.
func measure(text []byte) (Size, error) {
	cl, err := tokens.Count(tokens.CL100K, string(text))
	if err != nil {
		return Size{}, err
	}
	o2, err := tokens.Count(tokens.O200K, string(text))
	if err != nil {
		return Size{}, err
	}
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
	if err != nil {
		return Size{}, err
	}
	w.Write(text)
	if err := w.Close(); err != nil {
		return Size{}, err
	}
	return Size{Bytes: len(text), CL100K: cl, O200K: o2, Gzip: z.Len()}, nil
}

// headerTokens counts the cl100k_base tokens of the header lines of a valid
// payload, each with its LF.
func headerTokens(payload []byte) (int, error) {
	n := 0
	for _, line := range strings.SplitAfter(string(payload), "\n") {
		if strings.HasPrefix(line, "GCX") {
			c, err := tokens.Count(tokens.CL100K, line)
			if err != nil {
				return 0, err
			}
			n += c
		}
	}
	return n, nil
}
