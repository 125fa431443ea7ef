// Command vsgcxgo measures package streaming side by side with the
// published GCX1 Go package, github.com/gortexhq/gcx-go, on the benchmark
// set of streaming/bench_test.go.
//
// The published package is not part of this module and is not fetched:
// give it a checkout of it (git clone https://github.com/gortexhq/gcx-go).
// Its non-test files are laid over internal/gcxgo with `go test -overlay`,
// with the side-by-side test beside them in streaming
// (sidebyside_test.go.txt here), whose TestSideBySide runs every contender in
// interleaved rounds and prints medians of per-round ratios.
//
//	go run ./tools/vsgcxgo -src ../gcx-go [-rounds 7] [-time 150ms] [-shapes REGEXP] [-cpu 1] [-clock cpu|wall]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	src := flag.String("src", os.Getenv("GCX_GO_DIR"), "a checkout of github.com/gortexhq/gcx-go (default $GCX_GO_DIR)")
	rounds := flag.Int("rounds", 7, "interleaved rounds")
	each := flag.Duration("time", 0, "time per contender per round (default the test's, 150ms)")
	shapes := flag.String("shapes", "", "regexp selecting the shapes")
	cpu := flag.String("cpu", "", "GOMAXPROCS for the run, passed to go test -cpu")
	tags := flag.String("tags", "", "extra build tags, such as purego")
	clock := flag.String("clock", "cpu", "cpu: the process's CPU time, steadier on a shared machine; wall: elapsed time")
	flag.Parse()
	if *src == "" {
		fail("no -src: clone github.com/gortexhq/gcx-go and name its directory")
	}
	if err := run(*src, *rounds, *each, *shapes, *cpu, *tags, *clock); err != nil {
		fail(err.Error())
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "vsgcxgo:", msg)
	os.Exit(1)
}

func run(src string, rounds int, each fmt.Stringer, shapes, cpu, tags, clock string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		return err
	}
	replace := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		replace[filepath.Join(root, "internal", "gcxgo", filepath.Base(f))] = abs
	}
	if len(replace) == 0 {
		return fmt.Errorf("%s holds no Go files of the package", src)
	}
	replace[filepath.Join(root, "streaming", "sidebyside_gcxgo_test.go")] = filepath.Join(root, "tools", "vsgcxgo", "sidebyside_test.go.txt")
	overlay, err := os.CreateTemp("", "vsgcxgo-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(overlay.Name())
	if err := json.NewEncoder(overlay).Encode(map[string]any{"Replace": replace}); err != nil {
		return err
	}
	if err := overlay.Close(); err != nil {
		return err
	}
	// vet would look for internal/gcxgo on disk, where the overlay alone has it.
	args := []string{"test", "-vet=off", "-tags", tags, "-overlay", overlay.Name(), "-run", "^TestSideBySide$", "-count", "1", "-v", "-timeout", "60m"}
	if cpu != "" {
		args = append(args, "-cpu", cpu)
	}
	args = append(args, "./streaming", "-args", fmt.Sprintf("-vs.rounds=%d", rounds), "-vs.clock="+clock)
	if s := each.String(); s != "0s" {
		args = append(args, "-vs.time="+s)
	}
	if shapes != "" {
		args = append(args, "-vs.shapes="+shapes)
	}
	fmt.Fprintln(os.Stderr, "go", strings.Join(args, " "))
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// moduleRoot returns the directory of this module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the gcx module")
	}
	return filepath.Dir(mod), nil
}
