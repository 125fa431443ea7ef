// Command gcx-vectors writes the expectations of GCX1 conformance vectors
// from the reference implementation, and shows vectors for review.
//
// Usage, from the repository root:
//
//	go run ./conformance/cmd/gcx-vectors            # write missing expectations
//	go run ./conformance/cmd/gcx-vectors -update    # rewrite every generated one
//	go run ./conformance/cmd/gcx-vectors -show [-run RE]   # print vectors, payloads quoted
//
// For valid/NAME.gcx it writes NAME.json, the reference decoder's wire view;
// for invalid/NAME.gcx, NAME.error.json, the reference decoder's error (under
// NAME.limits.json if present); for invalid-encoder/NAME.json,
// NAME.error.json, the reference encoder's error. It never writes the
// expectations of the vectors listed in vectors/hand-checked.txt, which were
// written by hand, and it refuses a valid payload the reference rejects or an
// invalid one it accepts: such a file is in the wrong directory, or the
// reference is wrong, and a person must decide which.
//
// Every expectation it writes must still be reviewed against
// docs/wire-format.md before it is committed.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

func main() {
	dir := flag.String("dir", filepath.Join("conformance", "vectors"), "the vectors directory")
	update := flag.Bool("update", false, "rewrite every expectation not written by hand")
	show := flag.Bool("show", false, "print the vectors instead of writing expectations")
	run := flag.String("run", "", "with -show, only vectors whose name matches this regular expression")
	flag.Parse()
	var err error
	if *show {
		err = showVectors(os.Stdout, *dir, *run)
	} else {
		err = generate(os.Stdout, *dir, *update)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gcx-vectors:", err)
		os.Exit(1)
	}
}

// handChecked reads the names listed in hand-checked.txt, one per line;
// blank lines and lines beginning with "#" are skipped.
func handChecked(dir string) (map[string]bool, error) {
	f, err := os.Open(filepath.Join(dir, "hand-checked.txt"))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			names[line] = true
		}
	}
	return names, sc.Err()
}

// generate writes the expectations that are missing, or with update every
// one not written by hand.
func generate(w io.Writer, dir string, update bool) error {
	hand, err := handChecked(dir)
	if err != nil {
		return err
	}
	written := 0
	for _, k := range []conformance.Kind{conformance.Valid, conformance.Invalid, conformance.InvalidEncoder} {
		bases, err := vectorBases(dir, k)
		if err != nil {
			return err
		}
		for _, base := range bases {
			name := k.Dir() + "/" + base
			target := filepath.Join(dir, k.Dir(), base+expectationExt(k))
			if hand[name] {
				continue
			}
			if _, err := os.Stat(target); err == nil && !update {
				continue
			}
			out, err := expectation(dir, k, base)
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			old, _ := os.ReadFile(target)
			if bytes.Equal(old, out) {
				continue
			}
			if err := os.WriteFile(target, out, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s\n", target)
			written++
		}
	}
	fmt.Fprintf(w, "%d expectations written\n", written)
	return nil
}

func expectationExt(k conformance.Kind) string {
	if k == conformance.Valid {
		return ".json"
	}
	return ".error.json"
}

// vectorBases lists the base names of the vectors of kind k: the files
// that hold a payload (or, for encoder vectors, a wire view).
func vectorBases(dir string, k conformance.Kind) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, k.Dir()))
	if err != nil {
		return nil, err
	}
	suffix := ".gcx"
	if k == conformance.InvalidEncoder {
		suffix = ".json"
	}
	var bases []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, suffix) && !strings.HasSuffix(n, ".error.json") && !strings.HasSuffix(n, ".limits.json") {
			bases = append(bases, strings.TrimSuffix(n, suffix))
		}
	}
	sort.Strings(bases)
	return bases, nil
}

// expectation returns what the reference implementation makes of one
// vector, in the vector file format.
func expectation(dir string, k conformance.Kind, base string) ([]byte, error) {
	path := filepath.Join(dir, k.Dir(), base)
	if k == conformance.InvalidEncoder {
		wire, err := os.ReadFile(path + ".json")
		if err != nil {
			return nil, err
		}
		_, err = conformance.Reference().Encode(wire)
		if err == nil {
			return nil, errors.New("the reference encoder accepts this wire view")
		}
		return expectedError(err)
	}
	payload, err := os.ReadFile(path + ".gcx")
	if err != nil {
		return nil, err
	}
	limits := spec.DefaultLimits
	if b, err := os.ReadFile(path + ".limits.json"); err == nil {
		var l conformance.Limits
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, fmt.Errorf("limits: %v", err)
		}
		limits = l.Apply(limits)
	}
	p, err := reference.DecodeLimits(payload, limits)
	if k == conformance.Valid {
		if err != nil {
			return nil, fmt.Errorf("the reference decoder rejects this valid vector: %v", err)
		}
		return spec.MarshalWire(p)
	}
	if err == nil {
		return nil, errors.New("the reference decoder accepts this invalid vector")
	}
	return expectedError(err)
}

func expectedError(err error) ([]byte, error) {
	var e *spec.Error
	if !errors.As(err, &e) {
		return nil, fmt.Errorf("error without class or rule: %v", err)
	}
	want := conformance.ExpectedError{Class: spec.ClassName(err), Rule: e.Rule, Line: e.Line, Column: e.Column, Tag: e.Tag}
	b, err := json.Marshal(want)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// showVectors prints every vector for review: the payload one quoted line at
// a time, then the expectation.
func showVectors(w io.Writer, dir, pattern string) error {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return err
	}
	vs, err := conformance.Load(os.DirFS(dir))
	if err != nil {
		return err
	}
	for _, v := range vs {
		if !re.MatchString(v.Name) {
			continue
		}
		fmt.Fprintf(w, "== %s", v.Name)
		if v.Limits != nil {
			fmt.Fprintf(w, "  limits %s", strings.Join(v.Limits.Flags(), " "))
		}
		fmt.Fprintln(w)
		if v.Payload != nil || v.Kind != conformance.InvalidEncoder {
			showQuoted(w, v.Payload)
		}
		if v.Wire != nil {
			fmt.Fprintf(w, "   view %s\n", strings.TrimSuffix(string(v.Wire), "\n"))
		}
		if v.Want != nil {
			b, _ := json.Marshal(v.Want)
			fmt.Fprintf(w, "   want %s\n", b)
		}
	}
	return nil
}

// showQuoted prints a payload one quoted line at a time; long payloads are
// cut after a few lines.
func showQuoted(w io.Writer, b []byte) {
	const maxLines, maxLine = 12, 160
	if len(b) == 0 {
		fmt.Fprintln(w, "   (empty)")
		return
	}
	s := string(b)
	for n := 0; s != ""; n++ {
		if n == maxLines {
			fmt.Fprintf(w, "   ... %d more bytes\n", len(s))
			return
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			i = len(s) - 1
		}
		line := strconv.Quote(s[:i+1])
		if len(line) > maxLine {
			line = line[:maxLine] + fmt.Sprintf("... (%d bytes)", i+1)
		}
		fmt.Fprintf(w, "   %s\n", line)
		s = s[i+1:]
	}
}
