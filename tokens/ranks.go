package tokens

import (
	_ "embed"
	"fmt"

	"github.com/gcxwire/gcx/tokens/internal/ranktable"
)

//go:generate go run ./internal/genranks cl100k_base o200k_base

// The rank tables, laid out by package ranktable from tiktoken's rank files
// and embedded as strings, so that they lie in the binary's read-only data
// and loading one reads only its header: the pages a count touches are
// read in as it touches them (BenchmarkLoadTable, docs/performance.md).
var (
	//go:embed cl100k_base.ranks
	cl100kRanks string
	//go:embed o200k_base.ranks
	o200kRanks string
)

// rankFiles maps an encoding's name to its embedded table.
var rankFiles = map[string]*string{CL100K: &cl100kRanks, O200K: &o200kRanks}

// loadTable opens the named encoding's embedded table.
func loadTable(name string) (*table, error) {
	file, ok := rankFiles[name]
	if !ok {
		return nil, fmt.Errorf("no table for %s", name)
	}
	t, err := ranktable.Open(*file)
	if err != nil {
		return nil, err
	}
	return &table{Table: *t}, nil
}
