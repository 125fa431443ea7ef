// Command realstats measures, on real source code and real repository
// history, the rates the corpus generator (../gencases) imitates: how often
// the lines that call one function repeat, how long commit messages are and
// how often they repeat, how long documentation paragraphs are. It prints
// figures only; nothing it reads is copied into the corpus.
//
// Usage, from the repository root:
//
//	go run ./bench/wire-format/internal/realstats -goroot "$(go env GOROOT)" -git DIR[,DIR...]
//
// -git takes clones of real repositories (any, with their history; a bare
// clone will do: files are read from HEAD).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// calls are functions the Go standard library calls from many places; their
// call sites stand in for what find_usages returns for a widely used
// function.
var calls = []string{
	"errors.New(", "strings.HasPrefix(", "strconv.Itoa(", "filepath.Join(", "io.ReadFull(",
	"errors.Is(", "os.Getenv(", "bytes.Equal(",
}

func main() {
	goroot := flag.String("goroot", "", "a Go installation whose src/ is measured")
	gits := flag.String("git", "", "comma-separated clones of repositories whose history and Markdown are measured")
	flag.Parse()
	if *goroot != "" {
		if err := callSites(filepath.Join(*goroot, "src")); err != nil {
			fmt.Fprintln(os.Stderr, "realstats:", err)
			os.Exit(1)
		}
	}
	if *gits != "" {
		for _, dir := range strings.Split(*gits, ",") {
			if err := history(dir); err != nil {
				fmt.Fprintln(os.Stderr, "realstats:", err)
				os.Exit(1)
			}
		}
		if err := paragraphs(strings.Split(*gits, ",")); err != nil {
			fmt.Fprintln(os.Stderr, "realstats:", err)
			os.Exit(1)
		}
	}
}

// callSites reports, for each function in calls, the share of distinct
// lines among its call sites, alone and with one line of context either
// side, and the length and indentation of those lines.
func callSites(src string) error {
	var files [][]string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files = append(files, strings.Split(string(b), "\n"))
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Printf("call sites in %s (%d files)\n", src, len(files))
	var distinct, distinctCtx []float64
	var lengths, tabs []float64
	for _, call := range calls {
		var sites, ctx []string
		for _, lines := range files {
			for i, l := range lines {
				t := strings.TrimLeft(l, "\t ")
				if !strings.Contains(l, call) || strings.HasPrefix(t, "//") || strings.HasPrefix(l, "func ") {
					continue
				}
				sites = append(sites, l)
				ctx = append(ctx, strings.Join(lines[max(0, i-1):min(len(lines), i+2)], "\n"))
				lengths = append(lengths, float64(len(l)))
				tabs = append(tabs, float64(len(l)-len(strings.TrimLeft(l, "\t"))))
			}
		}
		d, dc := distinctShare(sites), distinctShare(ctx)
		distinct, distinctCtx = append(distinct, d), append(distinctCtx, dc)
		fmt.Printf("  %-20s %5d sites: %5.1f%% distinct lines, %5.1f%% distinct 3-line snippets\n", call, len(sites), 100*d, 100*dc)
	}
	fmt.Printf("  median over the functions: %.1f%% distinct lines, %.1f%% distinct 3-line snippets\n", 100*median(distinct), 100*median(distinctCtx))
	fmt.Printf("  line length in bytes: %s\n", quantiles(lengths))
	fmt.Printf("  leading tabs: %s\n", quantiles(tabs))
	return nil
}

// history reports commit message lengths, how many carry a body, and how
// many distinct messages and authors a run of 100 consecutive commits has
// (what a git_log tool returns).
func history(dir string) error {
	out, err := exec.Command("git", "-C", dir, "log", "--format=%an%x00%B%x01").Output()
	if err != nil {
		return fmt.Errorf("git log in %s: %v", dir, err)
	}
	type commit struct{ author, message string }
	var commits []commit
	for _, rec := range strings.Split(string(out), "\x01") {
		author, message, ok := strings.Cut(strings.Trim(rec, "\n"), "\x00")
		if ok {
			commits = append(commits, commit{author, strings.Trim(message, "\n")})
		}
	}
	var subjects, bodies, messages []float64
	for _, c := range commits {
		subject, body, _ := strings.Cut(c.message, "\n")
		subjects = append(subjects, float64(len(subject)))
		messages = append(messages, float64(len(c.message)))
		if body = strings.Trim(body, "\n"); body != "" {
			bodies = append(bodies, float64(len(body)))
		}
	}
	fmt.Printf("history of %s: %d commits\n", dir, len(commits))
	fmt.Printf("  subject length: %s\n", quantiles(subjects))
	fmt.Printf("  with a body: %.0f%%; body length: %s\n", 100*float64(len(bodies))/float64(len(commits)), quantiles(bodies))
	fmt.Printf("  message length: %s\n", quantiles(messages))
	var msgs, authors []float64
	for i := 0; i+100 <= len(commits); i += 10 {
		m, a := map[string]bool{}, map[string]bool{}
		for _, c := range commits[i : i+100] {
			m[c.message], a[c.author] = true, true
		}
		msgs, authors = append(msgs, float64(len(m))), append(authors, float64(len(a)))
	}
	fmt.Printf("  per 100 consecutive commits: distinct messages %s; distinct authors %s\n", quantiles(msgs), quantiles(authors))
	return nil
}

var fence = regexp.MustCompile("(?s)```.*?```")

// paragraphs reports the length of the prose paragraphs of the Markdown
// files at the repositories' HEAD (code blocks, headings, lists, tables and
// HTML left out): what a document search returns a chunk of.
func paragraphs(dirs []string) error {
	var lengths []float64
	for _, dir := range dirs {
		out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "--name-only", "HEAD").Output()
		if err != nil {
			return fmt.Errorf("git ls-tree in %s: %v", dir, err)
		}
		for _, name := range strings.Fields(string(out)) {
			if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") || strings.Contains(strings.ToUpper(name), "CHANGELOG") {
				continue
			}
			b, err := exec.Command("git", "-C", dir, "show", "HEAD:"+name).Output()
			if err != nil {
				return fmt.Errorf("git show HEAD:%s in %s: %v", name, dir, err)
			}
			for _, p := range regexp.MustCompile(`\n\s*\n`).Split(fence.ReplaceAllString(string(b), ""), -1) {
				p = strings.TrimSpace(p)
				if p == "" || strings.ContainsAny(p[:1], "#|<-*>[!") || bytes.HasPrefix([]byte(p), []byte("1.")) {
					continue
				}
				lengths = append(lengths, float64(len(p)))
			}
		}
	}
	fmt.Printf("Markdown prose paragraphs: %d, length %s\n", len(lengths), quantiles(lengths))
	return nil
}

func distinctShare(s []string) float64 {
	if len(s) == 0 {
		return 0
	}
	seen := map[string]bool{}
	for _, x := range s {
		seen[x] = true
	}
	return float64(len(seen)) / float64(len(s))
}

func median(xs []float64) float64 { return quantile(xs, 0.5) }

func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// quantiles prints the 5th, 10th, 25th, 50th, 75th, 90th and 95th
// percentiles.
func quantiles(xs []float64) string {
	var parts []string
	for _, q := range []float64{0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95} {
		parts = append(parts, fmt.Sprintf("p%02.0f %.0f", 100*q, quantile(xs, q)))
	}
	return strings.Join(parts, ", ")
}
