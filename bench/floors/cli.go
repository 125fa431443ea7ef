package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcxwire/gcx/bench/internal/bigtable"
	"github.com/gcxwire/gcx/bench/scorecard"
)

// The command line, timed process against process: the gcx binary, built
// once, started afresh for every operation with its input on stdin (a
// regular file, as `gcx encode < file` has it) and its output to
// /dev/null. A row's two sides are whole processes, so each includes its
// start-up. Their alloc column is left at zero: what this program
// allocates to start a process says nothing, and a child's peak RSS as
// rusage reports it includes this process's own, which the child's exec
// replaced (its memory is measured with /usr/bin/time -v instead, in
// docs/performance.md).

// cliBuild is the binaries and inputs the command-line rows run, made at
// the first run of one of their sides: nothing is built for -from, or for
// -only that leaves no such row.
type cliBuild struct {
	once sync.Once
	err  error
	dir  string // a temporary directory, removed by cleanup

	table  []byte // the 25 MB table (bigtable)
	twoRow []byte // search_symbols-5's first two rows
}

var cli cliBuild

// cliBinary and cliUnmarshal are the built programs' paths in cli.dir.
const (
	cliBinary    = "gcx"
	cliUnmarshal = "encodejson" // bench/encodejson: its unmarshal mode reads a file into any
)

// setup builds gcx and bench/encodejson and writes the inputs.
func (c *cliBuild) setup() error {
	c.once.Do(func() {
		if c.dir, c.err = os.MkdirTemp("", "gcx-floors-"); c.err != nil {
			return
		}
		for name, pkg := range map[string]string{cliBinary: "github.com/gcxwire/gcx/cmd/gcx", cliUnmarshal: "github.com/gcxwire/gcx/bench/encodejson"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(c.dir, name), pkg).CombinedOutput()
			if err != nil {
				c.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
				return
			}
		}
		for name, data := range map[string][]byte{"table25.json": c.table, "two-row.json": c.twoRow} {
			if c.err = os.WriteFile(filepath.Join(c.dir, name), data, 0o644); c.err != nil {
				return
			}
		}
	})
	return c.err
}

// cleanup removes what setup made.
func (c *cliBuild) cleanup() {
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// process returns a side that runs the built program name with args, its
// stdin the input file (none if empty).
func (c *cliBuild) process(sideName, input, name string, args ...string) side {
	run := func() (time.Duration, error) {
		if err := c.setup(); err != nil {
			return 0, err
		}
		cmd := exec.Command(filepath.Join(c.dir, name), args...)
		for i, a := range cmd.Args {
			cmd.Args[i] = strings.ReplaceAll(a, "${dir}", c.dir)
		}
		if input != "" {
			f, err := os.Open(filepath.Join(c.dir, input))
			if err != nil {
				return 0, err
			}
			defer f.Close()
			cmd.Stdin = f
		}
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return 0, err
		}
		defer null.Close()
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = null, &stderr
		start := time.Now()
		err = cmd.Run()
		took := time.Since(start)
		if err != nil {
			return 0, fmt.Errorf("%v: %v: %s", cmd.Args, err, stderr.Bytes())
		}
		return took, nil
	}
	if _, dup := timedSides[sideName]; dup {
		panic("two process sides named " + sideName)
	}
	timedSides[sideName] = func(budget time.Duration) (testing.BenchmarkResult, error) {
		// Runs until the budget is spent, at least once: a side's
		// time is the mean over its runs.
		var res testing.BenchmarkResult
		for res.N == 0 || res.T < budget {
			took, err := run()
			if err != nil {
				return res, err
			}
			res.N++
			res.T += took
		}
		return res, nil
	}
	return side{name: sideName, run: func() error { _, err := run(); return err }}
}

// timedSides measure the sides of those names in place of
// testing.Benchmark, spending about budget each: the process sides.
var timedSides = map[string]func(budget time.Duration) (testing.BenchmarkResult, error){}

// cliRows are the command line's rows: JSON to GCX1 of a large table
// against encoding/json reading it into any, both programs started
// afresh; and auto mode against mode gcx on a two-row input, where
// start-up (the token counter's table) is most of the time.
func cliRows(corpus map[string]scorecard.Case) ([]row, error) {
	large, ok := corpus["search_symbols-500"]
	small, ok5 := corpus["search_symbols-5"]
	if !ok || !ok5 {
		return nil, fmt.Errorf("the corpus lacks search_symbols-500 or search_symbols-5")
	}
	var table bytes.Buffer
	if err := bigtable.Write(&table, large.Response); err != nil {
		return nil, err
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(small.Response, &rows); err != nil || len(rows) < 2 {
		return nil, fmt.Errorf("search_symbols-5 holds no two rows: %v", err)
	}
	twoRow, err := json.Marshal(rows[:2])
	if err != nil {
		return nil, err
	}
	cli.table, cli.twoRow = table.Bytes(), twoRow

	mb := func(n int) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
	tool := []string{"encode", "--tool", "search_symbols", "--mode"}
	return []row{
		{path: "CLI: gcx encode, JSON → GCX1", input: fmt.Sprintf("search_symbols-500's rows ×%d, %s of JSON, a process each", bigtable.Copies, mb(table.Len())),
			bytes:   table.Len(),
			subject: cli.process("gcx encode --mode gcx < table", "table25.json", cliBinary, append(tool, "gcx")...),
			against: cli.process("a Go program: read the file, encoding/json Unmarshal into any", "", cliUnmarshal, "unmarshal", "${dir}/table25.json"),
			goal:    0.8},
		{path: "CLI: gcx encode, auto", input: fmt.Sprintf("search_symbols-5's first two rows, %.1f kB of JSON, a process each", float64(len(twoRow))/1000),
			bytes:   len(twoRow),
			subject: cli.process("gcx encode --mode auto (two rows)", "two-row.json", cliBinary, append(tool, "auto")...),
			against: cli.process("gcx encode --mode gcx (two rows)", "two-row.json", cliBinary, append(tool, "gcx")...),
			goal:    2, bound: "loading the token counter's table at start-up"},
	}, nil
}
