package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/spec"
)

// Encoding modes of gcx encode [AUTO-1].
const (
	modeAuto = "auto" // GCX1 only when it costs fewer tokens than compact JSON
	modeGCX  = "gcx"  // always GCX1
)

// encodeOptions are gcx encode's flags.
type encodeOptions struct {
	wire, stats, requireLayout *bool
	tool, mode                 *string
}

func encodeFlags(fs *flag.FlagSet) encodeOptions {
	return encodeOptions{
		wire:          fs.Bool("wire", false, "read a wire view [WIRE-2] and write its canonical GCX1 bytes"),
		tool:          fs.String("tool", "result", "the tool `name` written as tool=; a declared tool uses its frozen layout"),
		mode:          fs.String("mode", modeAuto, "`auto`: GCX1 only when it costs fewer cl100k_base tokens than compact JSON, else that JSON; gcx: always GCX1"),
		stats:         fs.Bool("stats", false, "report the format written and both token counts on stderr"),
		requireLayout: fs.Bool("require-layout", false, "fail when --tool is declared and the value does not fit its layout"),
	}
}

// runEncode is gcx encode: with --wire, a wire view to its canonical GCX1
// bytes [CAN-2]; without, a JSON value to a tool result [MAP-12] [AUTO-1].
func runEncode(c *subcommand, args []string, s streams) int {
	fs := c.flags(s.stderr)
	o := encodeFlags(fs)
	if code, ok := parseFlags(fs, args, s.stderr); !ok {
		return code
	}
	if *o.wire {
		if code, ok := onlyFlags(fs, s.stderr, "wire"); !ok {
			return code
		}
		return encodeWire(s.input(c.name), s.stdout, s.stderr)
	}
	if *o.mode != modeAuto && *o.mode != modeGCX {
		fmt.Fprintf(s.stderr, "gcx encode: --mode must be auto or gcx, not %q\n", *o.mode)
		return exitUsage
	}
	in, err := io.ReadAll(input{s.input(c.name)})
	if err != nil {
		return fail(s.stderr, err)
	}
	v, err := jsonmap.Parse(in)
	if err != nil {
		return fail(s.stderr, err)
	}
	if *o.requireLayout {
		if l, ok := jsonmap.Lookup(*o.tool); ok {
			if err := l.Fit(v); err != nil {
				fmt.Fprintln(s.stderr, err)
				return exitInvalid
			}
		}
	}
	var payload []byte
	var choice auto.Choice
	format := jsonmap.FormatGCX
	if *o.mode == modeAuto || *o.stats {
		// --stats counts both formats, so the GCX1 payload is at hand; it
		// prints both counts, so neither may stop early.
		choose := auto.ChooseValue
		if *o.stats {
			choose = auto.ChooseValueFull
		}
		if choice, err = choose(*o.tool, v); err == nil {
			payload, format = choice.Output, choice.Format
			if *o.mode == modeGCX {
				payload, format = choice.Payload, jsonmap.FormatGCX
			}
		}
	} else {
		payload, err = jsonmap.EncodeValue(*o.tool, v)
	}
	if err != nil {
		return fail(s.stderr, err)
	}
	out := newResult(s.stdout)
	out.Write(payload)
	if format == jsonmap.FormatJSON {
		io.WriteString(out, "\n")
	}
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	if *o.stats {
		fmt.Fprintf(s.stderr, "gcx encode: wrote %s; GCX1 %d tokens, compact JSON %d tokens (%s)\n", format, choice.GCXTokens, choice.JSONTokens, auto.Encoding)
	}
	return exitOK
}

func decodeFlags(fs *flag.FlagSet) (wire *bool, limits *spec.Limits) {
	wire = fs.Bool("wire", false, "read GCX1 only and write its wire view [WIRE-1]")
	return wire, limitFlags(fs)
}

// runDecode is gcx decode: with --wire, a GCX1 payload to its wire view
// [WIRE-1]; without, a tool result to the JSON value it holds, compact and
// followed by LF. A result that begins with "GCX" is decoded as GCX1
// [MAP-7]; any other is read as the JSON an auto-mode encoder writes when
// JSON is cheaper [AUTO-3].
func runDecode(c *subcommand, args []string, s streams) int {
	fs := c.flags(s.stderr)
	wire, limits := decodeFlags(fs)
	if code, ok := parseFlags(fs, args, s.stderr); !ok {
		return code
	}
	if *wire {
		return decodeWire(s.input(c.name), *limits, s.stdout, s.stderr)
	}
	if code, ok := onlyFlags(fs, s.stderr, "wire"); !ok {
		return code
	}
	in, err := io.ReadAll(input{s.input(c.name)})
	if err != nil {
		return fail(s.stderr, err)
	}
	value, _, err := jsonmap.DecodeResponse(in)
	if err != nil {
		return fail(s.stderr, err)
	}
	out := newResult(s.stdout)
	out.Write(value)
	io.WriteString(out, "\n")
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	return exitOK
}
