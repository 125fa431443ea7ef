package tokens_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCommandLinksNoOracle: the gcx command counts with this package alone;
// tiktoken-go and its regular expression engine stay in the tests, and so
// do its loader's text tables, which the embedded rank tables replace.
func TestCommandLinksNoOracle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/gcxwire/gcx/cmd/gcx").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	deps := strings.Fields(string(out))
	found := false
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/pkoukk/tiktoken-go") ||
			strings.HasPrefix(dep, "github.com/dlclark/regexp2") || strings.HasSuffix(dep, "/tokens/tokenstest") {
			t.Errorf("gcx links %s", dep)
		}
		found = found || dep == "github.com/gcxwire/gcx/tokens"
	}
	if !found {
		t.Errorf("go list -deps output looks wrong:\n%s", out)
	}
}
