package plural

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/propcheck"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 rows"}, {1, "1 row"}, {2, "2 rows"}, {-1, "-1 rows"}, {1000, "1000 rows"}} {
		if got := Count(c.n, "row"); got != c.want {
			t.Errorf("Count(%d, row) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestPropertyCount: the count comes first, as a decimal, and the noun is
// singular exactly when the count is 1.
func TestPropertyCount(t *testing.T) {
	propcheck.Check(t, 1000, func(t *rapid.T) {
		n := rapid.Int().Draw(t, "n")
		got := Count(n, "section")
		want := strconv.Itoa(n) + " section"
		if n != 1 {
			want += "s"
		}
		if got != want {
			t.Fatalf("Count(%d) = %q, want %q", n, got, want)
		}
	})
}
