package conformance

import (
	"os/exec"
	"strings"
	"testing"
)

// The gcx command links no test gear: neither package testing nor go-cmp
// (nor rapid), which only the Go test API (package conformancetest) and
// tests use. Nor does package conformance, which the command runs. A
// failure names the package that imports the gear.
func TestCommandLinksNoTestGear(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	gear := func(path string) bool {
		return path == "testing" || strings.HasPrefix(path, "github.com/google/go-cmp/") || strings.HasPrefix(path, "pgregory.net/rapid")
	}
	for _, pkg := range []string{"./cmd/gcx", "./conformance"} {
		cmd := exec.Command(goTool, "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, pkg)
		cmd.Dir = ".."
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			importer, imports, _ := strings.Cut(line, " ")
			if gear(importer) {
				continue
			}
			for _, imp := range strings.Fields(imports) {
				if gear(imp) {
					t.Errorf("%s links %s: %s imports it", pkg, imp, importer)
				}
			}
		}
	}
}
