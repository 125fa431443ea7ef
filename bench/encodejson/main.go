// Command encodejson measures gcx encode of large JSON inputs: peak RSS and
// wall time of two gcx binaries side by side, against a Go program that
// only unmarshals the same file into any with encoding/json (this command's
// own unmarshal mode). It makes the inputs itself:
//
//	tiny.json     an array of tiny objects {"a":N,"b":"x"}, of -tiny-size bytes
//	table25.json  search_symbols-500's rows repeated to about 25 MB, each copy's
//	              id suffixed with its copy number and start_line raised by it
//
// Rounds are interleaved (every command once per round, in turn) and each
// figure is the median over rounds, since the machine may be shared. Peak
// RSS and wall time come from /usr/bin/time -v.
//
//	go build -o /tmp/gcx-new ./cmd/gcx
//	git worktree add /tmp/gcx-base <base commit> && (cd /tmp/gcx-base && go build -o /tmp/gcx-old ./cmd/gcx)
//	go build -o /tmp/encodejson ./bench/encodejson
//	/tmp/encodejson -old /tmp/gcx-old -new /tmp/gcx-new -rounds 3 -old-tiny-modes gcx
//	go run ./bench/encodejson unmarshal FILE
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/bench/internal/bigtable"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "unmarshal" {
		if err := unmarshal(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "encodejson:", err)
			os.Exit(1)
		}
		return
	}
	oldBin := flag.String("old", "", "the gcx `binary` to compare against (empty: none)")
	newBin := flag.String("new", "", "the gcx `binary` measured")
	rounds := flag.Int("rounds", 5, "interleaved `rounds`")
	dir := flag.String("dir", os.TempDir(), "where the inputs are made, and kept for the next run")
	tinySize := flag.Int64("tiny-size", 200_000_000, "`bytes` of the array of tiny objects")
	oldTinyModes := flag.String("old-tiny-modes", "gcx,auto", "comma-separated `modes` the old binary runs on the tiny objects (it may need gigabytes and minutes)")
	flag.Parse()
	if *newBin == "" {
		fmt.Fprintln(os.Stderr, "encodejson: -new is required")
		os.Exit(2)
	}
	if err := run(*oldBin, *newBin, *rounds, *dir, *tinySize, *oldTinyModes); err != nil {
		fmt.Fprintln(os.Stderr, "encodejson:", err)
		os.Exit(1)
	}
}

// unmarshal is the baseline: encoding/json reading the file into any.
func unmarshal(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var v any
	return json.Unmarshal(data, &v)
}

// command is one measured command line, with its stdin file.
type command struct {
	name  string
	args  []string
	input string
}

type sample struct{ wall, cpu, rssMiB float64 }

func run(oldBin, newBin string, rounds int, dir string, tinySize int64, oldTinyModes string) error {
	tiny := filepath.Join(dir, fmt.Sprintf("gcx-bench-tiny-%d.json", tinySize))
	table := filepath.Join(dir, "gcx-bench-table25.json")
	if err := makeTiny(tiny, tinySize); err != nil {
		return err
	}
	if err := makeTable(table); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var cmds []command
	add := func(name, bin, input string, args ...string) {
		cmds = append(cmds, command{name: name, args: append([]string{bin}, args...), input: input})
	}
	for _, mode := range []string{"gcx", "auto"} {
		if oldBin != "" && slices.Contains(strings.Split(oldTinyModes, ","), mode) {
			add("tiny, old, mode "+mode, oldBin, tiny, "encode", "--mode", mode)
		}
		add("tiny, new, mode "+mode, newBin, tiny, "encode", "--mode", mode)
	}
	add("tiny, encoding/json Unmarshal", self, "", "unmarshal", tiny)
	for _, mode := range []string{"gcx", "auto"} {
		if oldBin != "" {
			add("table25, old, mode "+mode, oldBin, table, "encode", "--tool", "search_symbols", "--mode", mode)
		}
		add("table25, new, mode "+mode, newBin, table, "encode", "--tool", "search_symbols", "--mode", mode)
	}
	add("table25, encoding/json Unmarshal", self, "", "unmarshal", table)

	samples := make([][]sample, len(cmds))
	for r := range rounds {
		for i, c := range cmds {
			s, err := measure(c)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			samples[i] = append(samples[i], s)
			fmt.Fprintf(os.Stderr, "round %d: %-36s %6.2f s wall %6.2f s CPU %8.1f MiB\n", r+1, c.name, s.wall, s.cpu, s.rssMiB)
		}
	}
	fmt.Printf("| command | wall (median of %d) | CPU, user + sys (median) | peak RSS (median) |\n|---|---:|---:|---:|\n", rounds)
	for i, c := range cmds {
		fmt.Printf("| %s | %.2f s | %.2f s | %.0f MiB |\n", c.name, median(samples[i], func(s sample) float64 { return s.wall }),
			median(samples[i], func(s sample) float64 { return s.cpu }), median(samples[i], func(s sample) float64 { return s.rssMiB }))
	}
	// Per-round ratios against the unmarshal baseline of the same input.
	fmt.Printf("\n| command | wall ÷ Unmarshal's, same round (median) | CPU ÷ Unmarshal's, same round (median) |\n|---|---:|---:|\n")
	for i, c := range cmds {
		base := -1
		for j, b := range cmds {
			if strings.HasSuffix(b.name, "Unmarshal") && strings.SplitN(b.name, ",", 2)[0] == strings.SplitN(c.name, ",", 2)[0] {
				base = j
			}
		}
		if base < 0 || base == i {
			continue
		}
		var wall, cpu []float64
		for r := range samples[i] {
			wall = append(wall, samples[i][r].wall/samples[base][r].wall)
			cpu = append(cpu, samples[i][r].cpu/samples[base][r].cpu)
		}
		id := func(x float64) float64 { return x }
		fmt.Printf("| %s | %.2f× | %.2f× |\n", c.name, median(wall, id), median(cpu, id))
	}
	return nil
}

var (
	wallRE = regexp.MustCompile(`Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)`)
	rssRE  = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)
	userRE = regexp.MustCompile(`User time \(seconds\): ([\d.]+)`)
	sysRE  = regexp.MustCompile(`System time \(seconds\): ([\d.]+)`)
)

// measure runs c under /usr/bin/time -v, its output discarded.
func measure(c command) (sample, error) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-v"}, c.args...)...)
	if c.input != "" {
		f, err := os.Open(c.input)
		if err != nil {
			return sample{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%v: %s", err, tail(stderr.String()))
	}
	w := wallRE.FindStringSubmatch(stderr.String())
	m := rssRE.FindStringSubmatch(stderr.String())
	u := userRE.FindStringSubmatch(stderr.String())
	sy := sysRE.FindStringSubmatch(stderr.String())
	if w == nil || m == nil || u == nil || sy == nil {
		return sample{}, fmt.Errorf("no figures in /usr/bin/time's output: %s", tail(stderr.String()))
	}
	h, _ := strconv.ParseFloat("0"+w[1], 64)
	mins, _ := strconv.ParseFloat(w[2], 64)
	secs, _ := strconv.ParseFloat(w[3], 64)
	kb, _ := strconv.ParseFloat(m[1], 64)
	user, _ := strconv.ParseFloat(u[1], 64)
	sys, _ := strconv.ParseFloat(sy[1], 64)
	return sample{wall: h*3600 + mins*60 + secs, cpu: user + sys, rssMiB: kb / 1024}, nil
}

func tail(s string) string {
	if len(s) > 400 {
		return "…" + s[len(s)-400:]
	}
	return s
}

func median[T any](xs []T, f func(T) float64) float64 {
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// makeTiny writes an array of tiny objects of at least size bytes, unless
// the file is there already.
func makeTiny(path string, size int64) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	return writeFile(path, func(w *bufio.Writer) error {
		w.WriteByte('[')
		var n int64 = 1
		for i := 0; n < size; i++ {
			if i > 0 {
				w.WriteByte(',')
				n++
			}
			k, _ := fmt.Fprintf(w, `{"a":%d,"b":"x"}`, i)
			n += int64(k)
		}
		return w.WriteByte(']')
	})
}

// makeTable writes the 25 MB search_symbols table, unless it is there.
func makeTable(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	data, err := os.ReadFile(filepath.Join("bench", "wire-format", "cases", "search_symbols-500.json"))
	if err != nil {
		return fmt.Errorf("%w (run from the repository's root)", err)
	}
	var c struct {
		Response json.RawMessage `json:"response"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return err
	}
	return writeFile(path, func(w *bufio.Writer) error { return bigtable.Write(w, c.Response) })
}

func writeFile(path string, fill func(*bufio.Writer) error) error {
	tmp := path + ".partial"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Fprintf(os.Stderr, "made %s\n", path)
	return os.Rename(tmp, path)
}
