package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// Encoding modes of gcx encode [AUTO-1].
const (
	modeAuto = "auto" // GCX1 only when it costs fewer tokens than compact JSON
	modeGCX  = "gcx"  // always GCX1
)

// runEncode is gcx encode: with --wire, a wire view to its canonical GCX1
// bytes [CAN-2]; without, a JSON value to a tool result [MAP-12] [AUTO-1].
func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gcx encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	wire := fs.Bool("wire", false, "read a wire view [WIRE-2] and write its canonical GCX1 bytes")
	tool := fs.String("tool", "result", "the tool `name` written as tool=; a declared tool uses its frozen layout")
	mode := fs.String("mode", modeAuto, "`auto`: GCX1 only when it costs fewer cl100k_base tokens than compact JSON, else that JSON; gcx: always GCX1")
	stats := fs.Bool("stats", false, "report the format written and both token counts on stderr")
	requireLayout := fs.Bool("require-layout", false, "fail when --tool is declared and the value does not fit its layout")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: gcx encode [--tool NAME] [--mode auto|gcx] [--stats] [--require-layout] < value.json\n"+
			"       gcx encode --wire < view.json\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *wire {
		if code, ok := onlyFlags(fs, stderr, "wire"); !ok {
			return code
		}
		return encodeWire(stdin, stdout, stderr)
	}
	if *mode != modeAuto && *mode != modeGCX {
		fmt.Fprintf(stderr, "gcx encode: --mode must be auto or gcx, not %q\n", *mode)
		return exitUsage
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return fail(stderr, err)
	}
	v, err := jsonmap.Parse(in)
	if err != nil {
		return fail(stderr, err)
	}
	if *requireLayout {
		if l, ok := jsonmap.Lookup(*tool); ok {
			if err := l.Fit(v); err != nil {
				fmt.Fprintln(stderr, err)
				return exitInvalid
			}
		}
	}
	var out []byte
	var choice auto.Choice
	format := jsonmap.FormatGCX
	if *mode == modeAuto || *stats {
		// --stats counts both formats, so the GCX1 payload is at hand; it
		// prints both counts, so neither may stop early.
		choose := auto.ChooseValue
		if *stats {
			choose = auto.ChooseValueFull
		}
		if choice, err = choose(*tool, v); err == nil {
			out, format = choice.Output, choice.Format
			if *mode == modeGCX {
				out, format = choice.Payload, jsonmap.FormatGCX
			}
		}
	} else {
		out, err = jsonmap.EncodeValue(*tool, v)
	}
	if err != nil {
		return fail(stderr, err)
	}
	if *stats {
		fmt.Fprintf(stderr, "gcx encode: wrote %s; GCX1 %d tokens, compact JSON %d tokens (%s)\n", format, choice.GCXTokens, choice.JSONTokens, auto.Encoding)
	}
	stdout.Write(out)
	if format == jsonmap.FormatJSON {
		io.WriteString(stdout, "\n")
	}
	return exitOK
}

// runDecode is gcx decode: with --wire, a GCX1 payload to its wire view
// [WIRE-1] under the limit flags; without, a tool result to the JSON value
// it holds, compact and followed by LF. A result that begins with "GCX" is
// decoded as GCX1 [MAP-7]; any other is read as the JSON an auto-mode
// encoder writes when JSON is cheaper [AUTO-3].
func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, limits := decoderFlags("decode", stderr)
	wire := fs.Bool("wire", false, "read GCX1 only and write its wire view [WIRE-1]; the limit flags apply to it")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: gcx decode < result   (GCX1, or the JSON auto mode writes) -> the JSON value on stdout\n"+
			"       gcx decode --wire [limits] < payload.gcx   -> the wire view on stdout\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *wire {
		return decodeWire(stdin, *limits, stdout, stderr)
	}
	if code, ok := onlyFlags(fs, stderr, "wire"); !ok {
		return code
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return fail(stderr, err)
	}
	out, _, err := jsonmap.DecodeResponse(in)
	if err != nil {
		return fail(stderr, err)
	}
	stdout.Write(out)
	io.WriteString(stdout, "\n")
	return exitOK
}
