// Command gencases writes the generated fixtures of the token scorecard's
// corpus (bench/wire-format/cases). Small fixtures there are written by hand;
// the larger ones come from this program so that anyone can see how they were
// made and regenerate them byte for byte.
//
// Every fixture draws from its own random source, seeded from its file name,
// so adding or changing one fixture never shifts the data of another.
//
// Usage, from the repository root:
//
//	go run ./bench/wire-format/internal/gencases
//
// TestCommittedFixturesMatchGenerator fails when a committed fixture differs
// from this program's output.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// fixture is one case file: the tool it is encoded under, a one-line
// description of the tool and shape, and the tool's JSON response.
type fixture struct {
	Tool        string
	Description string
	Response    any
}

// generators maps each generated fixture's file name (without .json) to the
// function that builds it.
var generators = map[string]func(r *rand.Rand) fixture{
	"search_symbols-60": searchSymbols(60, 60,
		"search_symbols, broad query: 60 ranked hits over Go and TypeScript (id, kind, name, file_path, start_line, signature)"),
	"search_symbols-500": searchSymbols(90, 500,
		"search_symbols at its 500-hit cap: every symbol kind of a Go server with a TypeScript SDK"),
	"find_usages-25":      findUsages25,
	"find_usages-300":     findUsages300,
	"get_callers-150":     getCallers150,
	"analyze-40":          analyze40,
	"contracts-30":        contracts30,
	"dependencies-120":    dependencies120,
	"list_directory-64":   listDirectory64,
	"git_log-100":         gitLog100,
	"list_issues-30":      listIssues30,
	"query-200":           query200,
	"describe_table-24":   describeTable24,
	"slack_history-50":    slackHistory50,
	"list_pods-80":        listPods80,
	"query_range-4x60":    queryRange,
	"search_code-40":      searchCode40,
	"list_directory-1":    listDirectory1,
	"list_events-12":      listEvents12,
	"search_documents-20": searchDocuments20,
}

func main() {
	out := flag.String("out", filepath.Join("bench", "wire-format", "cases"), "directory the fixtures are written to")
	flag.Parse()

	files, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencases:", err)
		os.Exit(1)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(*out, name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gencases:", err)
			os.Exit(1)
		}
	}
}

// generate returns every generated fixture, file name to file contents.
func generate() (map[string][]byte, error) {
	files := make(map[string][]byte, len(generators))
	for name, build := range generators {
		b, err := build(newRand(name)).marshal()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files[name+".json"] = b
	}
	return files, nil
}

// newRand returns the random source of the named fixture.
func newRand(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(h.Sum64(), 0x6763785f62656e63))
}
