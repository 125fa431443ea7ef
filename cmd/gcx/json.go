package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// Encoding modes of gcx encode [AUTO-1].
const (
	modeAuto = "auto" // GCX1 only when it costs fewer tokens than compact JSON
	modeGCX  = "gcx"  // always GCX1
)

// encodeOptions are gcx encode's flags.
type encodeOptions struct {
	wire, stats, requireLayout *bool
	tool, mode, tag            *string
	limits                     *spec.Limits
}

func encodeFlags(fs *flag.FlagSet) encodeOptions {
	return encodeOptions{
		wire:          fs.Bool("wire", false, "read a wire view [WIRE-2] and write its canonical GCX1 bytes"),
		tool:          fs.String("tool", jsonmap.DefaultTool, "the tool `name` written as tool=; a declared tool uses its frozen layout"),
		mode:          fs.String("mode", modeAuto, "`auto`: GCX1 only when it costs fewer cl100k_base tokens than compact JSON, else that JSON; gcx: always GCX1"),
		stats:         fs.Bool("stats", false, "report the format written and both token counts on stderr"),
		requireLayout: fs.Bool("require-layout", false, "fail when --tool is declared and the value does not fit its layout"),
		tag:           fs.String("tag", spec.Version, "the version `TAG` to write, one of "+strings.Join(registered(), ", ")+"; a draft is written only when named here"),
		limits:        limitFlags(fs),
	}
}

// registered lists the tags of the registered codecs.
func registered() []string {
	var tags []string
	for _, c := range codec.All() {
		tags = append(tags, c.Tag())
	}
	return tags
}

// lookupCodec returns the codec of tag, or reports a usage error naming
// the flag.
func lookupCodec(flag, tag string, stderr io.Writer) (codec.Codec, bool) {
	c, ok := codec.Lookup(tag)
	if !ok {
		fmt.Fprintf(stderr, "gcx: --%s: no version %q here; the versions are %s\n", flag, tag, strings.Join(registered(), ", "))
	}
	return c, ok
}

// runEncode is gcx encode: with --wire, a wire view to its canonical GCX1
// bytes [CAN-2]; without, a JSON value to a tool result [MAP-12] [AUTO-1].
func runEncode(c *subcommand, args []string, s streams) int {
	fs := c.flags(s.stderr)
	o := encodeFlags(fs)
	if code, ok := parseFlags(fs, args, s.stderr); !ok {
		return code
	}
	version, ok := lookupCodec("tag", *o.tag, s.stderr)
	if !ok {
		return exitUsage
	}
	if !takesLimits(fs, "tag", []codec.Codec{version}, s.stderr) {
		return exitUsage
	}
	if *o.wire {
		if code, ok := onlyFlags(fs, s.stderr, limitNames("wire", "tag")...); !ok {
			return code
		}
		if version.Tag() != spec.Version {
			fmt.Fprintf(s.stderr, "gcx encode: --wire writes %s only\n", spec.Version)
			return exitUsage
		}
		return encodeWire(s.input(c.name), *o.limits, s.stdout, s.stderr)
	}
	if *o.mode != modeAuto && *o.mode != modeGCX {
		fmt.Fprintf(s.stderr, "gcx encode: --mode must be auto or gcx, not %q\n", *o.mode)
		return exitUsage
	}
	if version.Tag() == spec.Version {
		return encodeJSON(o, s.input(c.name), s)
	}
	// A draft's encoder takes a parsed value.
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
	return encodeOther(version, *o.tool, v, *o.mode, *o.stats, *o.limits, s)
}

// encodeOther is gcx encode for a version other than GCX1: its own
// encoder, under the limits when it takes them (takesLimits has refused
// limit flags for one that does not), and auto mode on its payload
// [AUTO-1]. In auto mode a payload the limits refuse gives way to compact
// JSON, as GCX1's does [LIM-4].
func encodeOther(version codec.Codec, tool string, v jsonmap.Value, mode string, stats bool, limits spec.Limits, s streams) int {
	var payload []byte
	var err error
	if lc, ok := version.(codec.Limited); ok {
		payload, err = lc.EncodeLimits(tool, v, limits)
	} else {
		payload, err = version.Encode(tool, v)
	}
	var refused *spec.Error
	if errors.As(err, &refused) && refused.Rule == "LIM-4" && mode == modeAuto {
		out := newResult(s.stdout)
		out.Write(v.AppendCompact(nil))
		io.WriteString(out, "\n")
		if err := out.Commit(); err != nil {
			return fail(s.stderr, err)
		}
		if stats {
			return report(s.stderr, "gcx encode: wrote %s; compact JSON %s (%s); no %s: %v\n", jsonmap.FormatJSON, plural.Count(jsonTokens(v), "token"), auto.Encoding, version.Tag(), err)
		}
		return exitOK
	}
	if err != nil {
		return fail(s.stderr, err)
	}
	format := jsonmap.FormatGCX
	var choice auto.Choice
	if mode == modeAuto || stats {
		if choice, err = auto.ChoosePayload(payload, v); err != nil {
			return fail(s.stderr, err)
		}
		if mode == modeAuto {
			payload, format = choice.Output, choice.Format
		}
	}
	out := newResult(s.stdout)
	out.Write(payload)
	if format == jsonmap.FormatJSON {
		io.WriteString(out, "\n")
	}
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	if stats {
		return report(s.stderr, "gcx encode: wrote %s; %s %s, compact JSON %s (%s)\n", format, version.Tag(), plural.Count(choice.GCXTokens, "token"), plural.Count(choice.JSONTokens, "token"), auto.Encoding)
	}
	return exitOK
}

// takesLimits reports a usage error when a limit flag was
// set and a codec of cs, named by versionFlag, cannot take limits (is not
// codec.Limited): the flags would otherwise be ignored. GCX1 takes them.
func takesLimits(fs *flag.FlagSet, versionFlag string, cs []codec.Codec, stderr io.Writer) bool {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(limitNames(), f.Name) {
			set = append(set, "--"+f.Name)
		}
	})
	if len(set) == 0 {
		return true
	}
	for _, c := range cs {
		if _, ok := c.(codec.Limited); !ok {
			fmt.Fprintf(stderr, "%s: %s: version %s (--%s) takes no limits\n", fs.Name(), strings.Join(set, ", "), c.Tag(), versionFlag)
			return false
		}
	}
	return true
}

func decodeFlags(fs *flag.FlagSet) (wire, stats *bool, limits *spec.Limits, accept *string) {
	wire = fs.Bool("wire", false, "read GCX1 only and write its wire view [WIRE-1]")
	stats = fs.Bool("stats", false, "report on stderr the format read and what a table's header says of truncation,\ntotal= and truncated= [MCP-7], which are no part of the value [MAP-13]")
	accept = fs.String("accept", spec.Version, "the versions read, a comma-separated `list` of "+strings.Join(registered(), ", ")+
		";\na payload of another version is refused with exit status 3, naming its tag")
	return wire, stats, limitFlags(fs), accept
}

// acceptedCodecs returns the codecs of a comma-separated list of tags, or
// reports a usage error.
func acceptedCodecs(list string, stderr io.Writer) ([]codec.Codec, bool) {
	var out []codec.Codec
	for _, tag := range strings.Split(list, ",") {
		c, ok := lookupCodec("accept", tag, stderr)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// decodeAs returns the codec that reads a result for a client that
// accepts the codecs of accepted: the codec of the result's tag when it is
// among them, else the first, which refuses the tag as another version
// [VER-2]. A result that is not GCX is JSON and needs no codec [AUTO-3].
func decodeAs(result []byte, accepted []codec.Codec) codec.Codec {
	if tag, _, _ := spec.ReadTag(result); tag != "" {
		for _, c := range accepted {
			if c.Tag() == tag {
				return c
			}
		}
	}
	return accepted[0]
}

// runDecode is gcx decode: with --wire, a GCX1 payload to its wire view
// [WIRE-1]; without, a tool result to the JSON value it holds, compact and
// followed by LF. A result that begins with "GCX" is decoded as GCX1
// [MAP-7]; any other is read as the JSON an auto-mode encoder writes when
// JSON is cheaper [AUTO-3].
func runDecode(c *subcommand, args []string, s streams) int {
	fs := c.flags(s.stderr)
	wire, stats, limits, accept := decodeFlags(fs)
	if code, ok := parseFlags(fs, args, s.stderr); !ok {
		return code
	}
	accepted, ok := acceptedCodecs(*accept, s.stderr)
	if !ok {
		return exitUsage
	}
	if !takesLimits(fs, "accept", accepted, s.stderr) {
		return exitUsage
	}
	if *wire {
		if *stats {
			fmt.Fprintln(s.stderr, "gcx decode: --stats goes with a result, not --wire: the wire view holds every header pair")
			return exitUsage
		}
		if len(accepted) != 1 || accepted[0].Tag() != spec.Version {
			fmt.Fprintf(s.stderr, "gcx decode: --wire reads %s only\n", spec.Version)
			return exitUsage
		}
		return decodeWire(s.input(c.name), *limits, s.stdout, s.stderr)
	}
	// The first line says which version the result is [VER-1]: GCX1 and
	// JSON stream, a draft is read whole by its codec.
	head := &firstLine{max: limits.MaxLineBytes}
	var source io.Reader = input{s.input(c.name)}
	if *stats {
		source = io.TeeReader(source, head)
	}
	in := bufio.NewReaderSize(source, 64<<10)
	start, err := in.Peek(spec.MaxTagBytes + 1)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return fail(s.stderr, err)
	}
	out := newResult(s.stdout)
	if version := decodeAs(start, accepted); version.Tag() == spec.Version || !bytes.HasPrefix(start, []byte(spec.TagPrefix)) {
		// The value goes out as the payload's lines arrive [MAP-20]; a
		// failure leaves it unfinished [MAP-21] [WIRE-4].
		if _, err := jsonmap.DecodeResponseTo(out, in, *limits); err != nil {
			out.Abandon(abandonedJSON)
			return fail(s.stderr, err)
		}
	} else {
		payload, err := io.ReadAll(in)
		if err != nil {
			return fail(s.stderr, err)
		}
		var v jsonmap.Value
		if lc, ok := version.(codec.Limited); ok {
			v, err = lc.DecodeLimits(payload, *limits)
		} else {
			v, err = version.Decode(payload)
		}
		if err != nil {
			return fail(s.stderr, err)
		}
		out.Write(v.AppendCompact(nil))
	}
	io.WriteString(out, "\n")
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	if *stats {
		return report(s.stderr, "gcx decode: %s\n", describeRead(head.line))
	}
	return exitOK
}

// describeRead says, for decode --stats, which format a result was read
// as and, for a GCX1 table, what its root header says of truncation
// [MCP-7]. first is the result's first line.
func describeRead(first []byte) string {
	tag, _, _ := spec.ReadTag(first)
	if tag == "" {
		return "read json"
	}
	if tag != spec.Version {
		return "read " + tag
	}
	total, truncated, hasTruncated, err := binding.HeaderCounts(append(first, '\n'))
	msg := "read " + tag
	if err == nil && total >= 0 {
		msg += fmt.Sprintf("; total=%d", total)
	}
	if err == nil && hasTruncated {
		msg += fmt.Sprintf("; truncated=%t", truncated)
	}
	return msg
}

// firstLine keeps the first line written to it, without its LF, and at
// most max bytes of it (0: no bound beyond the decoder's own line limit,
// which has already refused a longer line by the time it is read).
type firstLine struct {
	line []byte
	max  int
	done bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	if f.done {
		return len(p), nil
	}
	end := bytes.IndexByte(p, '\n')
	if end < 0 {
		end = len(p)
	} else {
		f.done = true
	}
	if f.max > 0 && len(f.line)+end > f.max {
		end, f.done = max(f.max-len(f.line), 0), true
	}
	f.line = append(f.line, p[:end]...)
	return len(p), nil
}

// limitNames returns the names of the limit flags and extra.
func limitNames(extra ...string) []string {
	for _, f := range spec.LimitFlags {
		extra = append(extra, f.Name)
	}
	return extra
}

// jsonTokens counts the cl100k_base tokens of v's compact JSON text, for
// --stats.
func jsonTokens(v jsonmap.Value) int {
	enc, err := tokens.Get(auto.Encoding)
	if err != nil {
		return 0
	}
	return enc.CountBytes(v.AppendCompact(nil))
}
