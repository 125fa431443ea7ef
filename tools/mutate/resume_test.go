package main

import (
	"strings"
	"testing"
	"time"
)

// A log as a run prints it, an interrupted line and a resumed line among
// its lines; a killed mutant's line ends with the test that failed.
const runLog = `[1/144 2m3s] killed    streaming/decoder.go:359:5:logic && → || TestRecordsOutliveLaterLines
[2/144 2m4s] survived  spec/check.go:197:112:const 1 → 2 
[3/144 2m9s] stillborn jsonmap/auto/auto.go:115:5:droperr return …, err → return …, nil 
[4/144 3m0s] timeout   tokens/split.go:133:6:cmp < → <= 
[5/144 3m1s] killed    wire/reader.go:188:5:cmp == → != go test failed
[from log] killed    codec/version.go:72:3:negate if ra.ranked → if !(…)
go: downloading something
[6/144 3m2s] kil`

func TestResumeKeepsKilledAndStillborn(t *testing.T) {
	log := parseLog(runLog)
	for _, c := range []struct {
		file        string
		line, col   int
		op, desc    string
		want        outcome
		wantPresent bool
	}{
		{"streaming/decoder.go", 359, 5, "logic", "&& → ||", killed, true},
		// A survivor runs again, and so does a timeout, which on a
		// loaded machine may be a survivor's tests that took long.
		{"spec/check.go", 197, 112, "const", "1 → 2", survived, false},
		{"jsonmap/auto/auto.go", 115, 5, "droperr", "return …, err → return …, nil", stillborn, true},
		{"tokens/split.go", 133, 6, "cmp", "< → <=", timedOut, false},
		{"wire/reader.go", 188, 5, "cmp", "== → !=", killed, true},
		{"codec/version.go", 72, 3, "negate", "if ra.ranked → if !(…)", killed, true},
		// The same id with another change is another mutant.
		{"streaming/decoder.go", 359, 5, "logic", "&& → ||!", "", false},
		{"spec/check.go", 197, 112, "const", "0 → 1", "", false},
		{"streaming/decoder.go", 1, 1, "logic", "&& → ||", "", false},
	} {
		m := drawnMutant{site: site{file: c.file, line: c.line, col: c.col, op: c.op, desc: c.desc}}
		got, ok := keptOutcome(log, m)
		if ok != c.wantPresent || (ok && got != c.want) {
			t.Errorf("%s %q: %q, %v; want %q, %v", m.id(), c.desc, got, ok, c.want, c.wantPresent)
		}
	}
	if len(log) != 6 {
		t.Errorf("parseLog read %d lines, want 6: %v", len(log), log)
	}
}

func TestReportSaysWhatCameFromTheLog(t *testing.T) {
	results := []result{
		{site: site{file: "a.go", op: "cmp"}, pkg: "a", outcome: killed},
		{site: site{file: "a.go", op: "cmp"}, pkg: "a", outcome: killed},
		{site: site{file: "a.go", op: "cmp"}, pkg: "a", outcome: survived},
	}
	s := summarize(results, []string{"a"}, map[string]int{"a": 9}, nil)
	if text := markdown(s, "go run ./tools/mutate", 3, 1, time.Minute); strings.Contains(text, "earlier run") {
		t.Errorf("a run without a log speaks of one:\n%s", text)
	}
	s.reused, s.resumed = 2, "run.log"
	text := markdown(s, "go run ./tools/mutate -resume run.log", 3, 1, time.Minute)
	for _, want := range []string{"Of the 3 mutants, 2 kept the outcome", "`-resume run.log`", "the other 1, that run's survivors and timeouts among them, were run again"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

// A report made from logs alone takes a later line over an earlier one
// (a rerun after tests were added), counts a timeout as a survivor, and
// leaves out as not run a mutant no line shows.
func TestLoggedReportJoinsLogs(t *testing.T) {
	log := parseLog(runLog + "\n[1/1 1m0s] killed    spec/check.go:197:112:const 1 → 2 TestCheck\n")
	for _, c := range []struct {
		file      string
		line, col int
		op, desc  string
		want      outcome
	}{
		{"spec/check.go", 197, 112, "const", "1 → 2", killed},
		{"streaming/decoder.go", 359, 5, "logic", "&& → ||", killed},
		{"jsonmap/auto/auto.go", 115, 5, "droperr", "return …, err → return …, nil", stillborn},
		{"tokens/split.go", 133, 6, "cmp", "< → <=", survived},
		{"streaming/decoder.go", 1, 1, "logic", "&& → ||", notRun},
		{"streaming/decoder.go", 359, 5, "logic", "|| → &&", notRun},
	} {
		m := drawnMutant{site: site{file: c.file, line: c.line, col: c.col, op: c.op, desc: c.desc}}
		if got := loggedOutcome(log, m); got != c.want {
			t.Errorf("%s %q: %q, want %q", m.id(), c.desc, got, c.want)
		}
	}
	results := []result{
		{site: site{file: "a.go", op: "cmp"}, pkg: "a", outcome: killed},
		{site: site{file: "a.go", op: "cmp"}, pkg: "a", outcome: notRun},
		{site: site{file: "a.go", op: "cmp"}, pkg: "a", outcome: survived},
	}
	s := summarize(results, []string{"a"}, map[string]int{"a": 9}, nil)
	if s.total.drawn != 2 || s.total.notRun != 1 || s.total.rate() != "50.0%" {
		t.Errorf("tally %+v, rate %s; want 2 run, 1 not run, 50.0%%", s.total, s.total.rate())
	}
	s.reused, s.resumed, s.logged = 2, "all.log", true
	text := markdown(s, "go run ./tools/mutate -resume all.log -logged", 3, 1, 0)
	for _, want := range []string{"running nothing (`-resume all.log -logged`): 2 mutants", "a timeout counted as a survivor", "1 drawn mutants the log lacks are left out as not run", "| **all** | | 2 | 1 | 0 | 1 |"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "The run took") {
		t.Errorf("a report made from logs gives a run's time:\n%s", text)
	}
}
