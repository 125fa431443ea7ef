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

// The ground floor, the module's internal/ folder, holds what the packages
// above share (the JSON reader, plural words, the rapid generators of GCX1
// payloads). Its packages import, from the module, only each other and spec,
// the data model the whole layout stands on. A generator for a package
// higher up lives under that package (jsonmap/jsongen, codec/internal/tablegen),
// where it may import what it generates for; here it would import upward.
func TestGroundFloorImportsNothingAbove(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	const module = "github.com/gcxwire/gcx/"
	cmd := exec.Command(goTool, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./internal/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./internal/...: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, line := range lines {
		importer, imports, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(importer, module+"internal/") {
			t.Fatalf("go list output looks wrong: %q", line)
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, module) && !strings.HasPrefix(imp, module+"internal/") && imp != module+"spec" {
				t.Errorf("%s, on the ground floor, imports %s above it", importer, imp)
			}
		}
	}
	if len(lines) < 3 {
		t.Errorf("go list found only %d packages under internal/:\n%s", len(lines), out)
	}
}
