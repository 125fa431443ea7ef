package tokens_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/tokens"
)

// procsChild is the variable that makes the test binary a process that
// counts for the first time (see TestCountKeepsGOMAXPROCS).
const procsChild = "GCX_TOKENS_PROCS_CHILD"

func init() {
	if os.Getenv(procsChild) == "" {
		return
	}
	runtime.GOMAXPROCS(3)
	tokens.MustGet(tokens.CL100K).Count("a first count")
	c := tokens.MustGet(tokens.O200K).NewCounter()
	if _, err := c.WriteString("a first count"); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	c.Count()
	fmt.Println(runtime.GOMAXPROCS(0))
	os.Exit(0)
}

// TestCountKeepsGOMAXPROCS: an encoding's first count, which sizes its
// caches to the processors, reads GOMAXPROCS and leaves it as it was. Only
// a process's first count of each encoding sizes them, so the test runs
// one in a process of its own, with GOMAXPROCS 3.
func TestCountKeepsGOMAXPROCS(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), procsChild+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "3" {
		t.Fatalf("after a process's first counts GOMAXPROCS is %s; it was 3", got)
	}
}
