package streaming

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/spec"
)

// smallLimits are low enough for short fuzz inputs to reach every limit
// error [LIM-3].
var smallLimits = spec.Limits{MaxLineBytes: 40, MaxFields: 3, MaxSections: 2, MaxRows: 4}

// FuzzDifferential decodes arbitrary bytes, delivered whole, one byte at a
// time, in odd chunks and through a reader that fails half-way, under the
// default and under small limits, and checks every answer against the
// reference parser's.
//
// Its seeds are the inputs of decodeCases, committed under
// testdata/fuzz/FuzzDifferential.
func FuzzDifferential(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		for i, lim := range []spec.Limits{spec.DefaultLimits, smallLimits} {
			plan := deliveryPlan{
				reuse:     i == 1,
				portable:  i == 1,
				ways:      deliveriesIn([]int{7, 0, 1, 64}),
				failAfter: len(b) / 2,
				failSizes: []int{3, 11},
				failWith:  i == 0,
			}
			if err := plan.check(b, lim); err != nil {
				t.Fatal(err)
			}
		}
	})
}

var writeCorpus = flag.Bool("gcx.write-corpus", false, "rewrite testdata/fuzz/FuzzDifferential from the named decode cases")

// maxSeed keeps the one-mebibyte case out of the corpus: the fuzzer mutates
// small inputs better.
const maxSeed = 4 << 10

// TestWriteFuzzCorpus keeps the committed seed corpus in step with
// decodeCases when run with -gcx.write-corpus; otherwise it checks that every
// case has its seed file.
func TestWriteFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDifferential")
	unsafeChars := regexp.MustCompile(`[^A-Za-z0-9]+`)
	seen := map[string]bool{}
	for _, c := range decodeCases {
		if len(c.in) > maxSeed {
			continue
		}
		name := strings.Trim(unsafeChars.ReplaceAllString(c.name, "-"), "-")
		if seen[name] {
			t.Fatalf("two decode cases make the seed name %s", name)
		}
		seen[name] = true
		path := filepath.Join(dir, name)
		content := "go test fuzz v1\n[]byte(" + strconv.Quote(c.in) + ")\n"
		if *writeCorpus {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Errorf("seed %s is missing or stale; run go test -run TestWriteFuzzCorpus -gcx.write-corpus", path)
		}
	}
}
