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
	limits                     *spec.Limits
}

func encodeFlags(fs *flag.FlagSet) encodeOptions {
	return encodeOptions{
		wire:          fs.Bool("wire", false, "read a wire view [WIRE-2] and write its canonical GCX1 bytes"),
		tool:          fs.String("tool", "result", "the tool `name` written as tool=; a declared tool uses its frozen layout"),
		mode:          fs.String("mode", modeAuto, "`auto`: GCX1 only when it costs fewer cl100k_base tokens than compact JSON, else that JSON; gcx: always GCX1"),
		stats:         fs.Bool("stats", false, "report the format written and both token counts on stderr"),
		requireLayout: fs.Bool("require-layout", false, "fail when --tool is declared and the value does not fit its layout"),
		limits:        limitFlags(fs),
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
		if code, ok := onlyFlags(fs, s.stderr, limitNames("wire")...); !ok {
			return code
		}
		return encodeWire(s.input(c.name), *o.limits, s.stdout, s.stderr)
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
	out := newResult(s.stdout)
	if *o.mode == modeGCX && !*o.stats {
		// The payload goes out a line at a time as it is made.
		if err := jsonmap.EncodeTo(out, *o.tool, v, *o.limits); err != nil {
			out.Abandon(abandonedGCX)
			return fail(s.stderr, err)
		}
		if err := out.Commit(); err != nil {
			return fail(s.stderr, err)
		}
		return exitOK
	}
	// Auto mode needs both texts to count them; --stats prints both
	// counts, so neither may stop early.
	choice, err := auto.ChooseValueLimits(*o.tool, v, *o.limits, *o.stats)
	if err != nil {
		return fail(s.stderr, err)
	}
	payload, format := choice.Output, choice.Format
	if *o.mode == modeGCX {
		if choice.Refused != nil {
			return fail(s.stderr, choice.Refused)
		}
		payload, format = choice.Payload, jsonmap.FormatGCX
	}
	out.Write(payload)
	if format == jsonmap.FormatJSON {
		io.WriteString(out, "\n")
	}
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	if *o.stats {
		if choice.Refused != nil {
			fmt.Fprintf(s.stderr, "gcx encode: wrote %s; compact JSON %d tokens (%s); no GCX1: %v\n", format, choice.JSONTokens, auto.Encoding, choice.Refused)
		} else {
			fmt.Fprintf(s.stderr, "gcx encode: wrote %s; GCX1 %d tokens, compact JSON %d tokens (%s)\n", format, choice.GCXTokens, choice.JSONTokens, auto.Encoding)
		}
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
	// The value goes out as the payload's lines arrive [MAP-20]; a failure
	// leaves it unfinished [MAP-21] [WIRE-4].
	out := newResult(s.stdout)
	if _, err := jsonmap.DecodeResponseTo(out, input{s.input(c.name)}, *limits); err != nil {
		out.Abandon(abandonedJSON)
		return fail(s.stderr, err)
	}
	io.WriteString(out, "\n")
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	return exitOK
}

// limitNames returns the names of the limit flags and extra.
func limitNames(extra ...string) []string {
	for _, f := range spec.LimitFlags {
		extra = append(extra, f.Name)
	}
	return extra
}
