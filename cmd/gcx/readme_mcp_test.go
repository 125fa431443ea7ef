package main

import (
	"regexp"
	"strings"
	"testing"
)

// figure is a figure README.md's "For MCP users" quotes: a share in
// percent, or a count of tokens with its thousands separated.
var figure = regexp.MustCompile(`[0-9]+\.[0-9]%|[0-9]{1,3}(?:,[0-9]{3})+`)

// No drifting figures for MCP users either: every share and every count of
// tokens README.md's "For MCP users" quotes is in the real servers' table
// of the committed scorecard it names. When the scorecard changes, this
// test names the figures to refresh.
func TestReadmeMCPUsersQuotesTheScorecard(t *testing.T) {
	readme, err := readRepoFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(readme, "\n## For MCP users\n")
	if !ok {
		t.Fatal(`README.md has no "## For MCP users" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	const scorecardFile = "bench/wire-format/scorecard.md"
	if !strings.Contains(section, "("+scorecardFile+")") {
		t.Errorf("README.md's For MCP users does not link %s, where its figures come from", scorecardFile)
	}
	scorecard, err := readRepoFile(scorecardFile)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(scorecard, "\n## Real servers\n")
	if !ok {
		t.Fatalf("%s has no Real servers section", scorecardFile)
	}
	table, _, _ = strings.Cut(table, "\n### ")
	cells := map[string]bool{}
	for _, f := range regexp.MustCompile(`[0-9]+(?:\.[0-9]+%)?`).FindAllString(table, -1) {
		cells[f] = true
	}
	found := 0
	for _, f := range figure.FindAllString(section, -1) {
		found++
		if !cells[strings.ReplaceAll(f, ",", "")] {
			t.Errorf("README.md's For MCP users quotes %s, which the real servers' table of %s does not hold: refresh the section from it", f, scorecardFile)
		}
	}
	if found < 10 {
		t.Errorf("README.md's For MCP users quotes %d figures of the scorecard; it should say what each kind of server saves", found)
	}
}
