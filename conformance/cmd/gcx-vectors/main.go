// Command gcx-vectors keeps the conformance vector files in their
// canonical form and shows vectors for review.
//
// Usage, from the repository root:
//
//	go run ./conformance/cmd/gcx-vectors -fmt               # rewrite every file in canonical form
//	go run ./conformance/cmd/gcx-vectors -show [-run RE]    # print vectors, inputs quoted line by line
//
// -fmt reads every CATEGORY/GROUP.json under the vectors directory, checks
// it as the runner does, sorts nothing and changes no value: it rewrites
// the file in the form conformance.Format gives, so that hand-written and
// generated files look alike and a diff shows only what changed. -show
// prints each vector with its input and expected bytes quoted one line at a
// time, so TAB, CR, NUL and invalid UTF-8 are visible.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gcxwire/gcx/conformance"
)

func main() {
	dir := flag.String("dir", filepath.Join("conformance", "vectors"), "the vectors directory")
	format := flag.Bool("fmt", false, "rewrite every vectors file in canonical form")
	show := flag.Bool("show", false, "print the vectors")
	run := flag.String("run", "", "with -show, only vectors whose name CATEGORY/GROUP/ID matches this regular expression")
	flag.Parse()
	var err error
	switch {
	case *format && !*show:
		err = formatFiles(*dir)
	case *show && !*format:
		err = showVectors(os.Stdout, *dir, *run)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gcx-vectors:", err)
		os.Exit(1)
	}
}

func formatFiles(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return err
	}
	for _, name := range files {
		if filepath.Base(filepath.Dir(name)) == conformance.VersionsDir {
			continue // version files are not vectors files
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		f, err := conformance.ParseFile(b)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		out, err := conformance.Format(f)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if string(out) != string(b) {
			if err := os.WriteFile(name, out, 0o644); err != nil {
				return err
			}
			fmt.Println("formatted", name)
		}
	}
	// LoadSuite checks what one file cannot: ids unique across files, each
	// file in its category's directory, the version files.
	_, err = conformance.LoadSuite(os.DirFS(dir))
	return err
}

func showVectors(w io.Writer, dir, run string) error {
	re, err := regexp.Compile(run)
	if err != nil {
		return err
	}
	vectors, err := conformance.Load(os.DirFS(dir))
	if err != nil {
		return err
	}
	for i := range vectors {
		v := &vectors[i]
		if !re.MatchString(v.Name()) {
			continue
		}
		fmt.Fprintf(w, "== %s [%s] op %s\n   %s\n", v.Name(), strings.Join(v.Rules, " "), v.Op, v.Description)
		if v.Limits != nil {
			fmt.Fprintf(w, "   limits %s\n", strings.Join(v.Limits.Flags(), " "))
		}
		if v.Tool != "" {
			fmt.Fprintf(w, "   tool %s, mode %s\n", v.Tool, v.Mode)
		}
		conformance.WriteQuoted(w, "input", v.Input, 10)
		e := &v.Expected
		switch {
		case e.View != nil:
			fmt.Fprintf(w, "   view %s\n", conformance.CutText(string(e.View)))
			if e.OrError != nil {
				fmt.Fprintf(w, "   or a %s error [%s] on line %d\n", e.OrError.Class, e.OrError.Rule, e.OrError.Line)
			}
		case e.Error != nil:
			fmt.Fprintf(w, "   error %s [%s]", e.Error.Class, e.Error.Rule)
			if e.Error.Line > 0 {
				fmt.Fprintf(w, " at line %d, column %d", e.Error.Line, e.Error.Column)
			}
			if e.Error.Tag != "" {
				fmt.Fprintf(w, " tag %s", e.Error.Tag)
			}
			fmt.Fprintln(w)
		}
		if e.Output != nil {
			conformance.WriteQuoted(w, "output", e.Output, 10)
		}
		if e.Value != nil {
			fmt.Fprintf(w, "   value %s\n", conformance.CutText(*e.Value))
		}
	}
	return nil
}
