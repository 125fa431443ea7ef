package scorecard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// TOON is measured with its official encoder, the npm package
// @toon-format/toon at the exact version pinned in bench/toon/package.json,
// run by node through bench/toon/encode.mjs. There is no fallback: where node
// or the installed package is missing, TOON is not measured and the
// scorecard says so.

// TOONPackage is the npm package the scorecard measures TOON with.
const TOONPackage = "@toon-format/toon"

// A TOONOutput is what the official encoder wrote for one case.
type TOONOutput struct {
	Comma string `json:"comma"` // encode(value, {delimiter: ","})
	Tab   string `json:"tab"`   // encode(value, {delimiter: "\t"})
	// RoundTrip reports whether decode gave back the JavaScript value that
	// JSON.parse made of the response, for both delimiters.
	RoundTrip bool `json:"roundTrip"`
}

// TOONUnavailable is the error RunTOON returns when TOON cannot be measured
// here; its message says why and how to fix it.
type TOONUnavailable struct{ Reason string }

func (e *TOONUnavailable) Error() string { return "TOON: not measured: " + e.Reason }

// TOONVersion returns the version of the encoder installed under dir (the
// bench/toon directory), checking that it is the pinned one.
func TOONVersion(dir string) (string, error) {
	var pinned struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := readJSONFile(filepath.Join(dir, "package.json"), &pinned); err != nil {
		return "", &TOONUnavailable{fmt.Sprintf("cannot read the pin: %v", err)}
	}
	want := pinned.Dependencies[TOONPackage]
	if want == "" {
		return "", &TOONUnavailable{fmt.Sprintf("%s/package.json does not pin %s", dir, TOONPackage)}
	}
	var installed struct {
		Version string `json:"version"`
	}
	if err := readJSONFile(filepath.Join(dir, "node_modules", TOONPackage, "package.json"), &installed); err != nil {
		return "", &TOONUnavailable{fmt.Sprintf("%s is not installed (run `npm ci --prefix %s` once)", TOONPackage, dir)}
	}
	if installed.Version != want {
		return "", &TOONUnavailable{fmt.Sprintf("%s %s is installed but %s is pinned (run `npm ci --prefix %s`)", TOONPackage, installed.Version, want, dir)}
	}
	return installed.Version, nil
}

// RunTOON encodes every case's response with the official TOON encoder in a
// single node process and returns the outputs in case order.
func RunTOON(dir string, cases []Case) (version string, out []TOONOutput, err error) {
	version, err = TOONVersion(dir)
	if err != nil {
		return "", nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return "", nil, &TOONUnavailable{"node is not on PATH"}
	}
	script, err := filepath.Abs(filepath.Join(dir, "encode.mjs"))
	if err != nil {
		return "", nil, err
	}
	// One compact JSON value per line: compact JSON never holds a raw LF.
	var in bytes.Buffer
	for _, c := range cases {
		in.Write(c.Response)
		in.WriteByte('\n')
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(node, script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &in, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("TOON: %s: %v: %s", script, err, bytes.TrimSpace(stderr.Bytes()))
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return "", nil, fmt.Errorf("TOON: reading the encoder's output: %v", err)
	}
	if len(out) != len(cases) {
		return "", nil, fmt.Errorf("TOON: %d outputs for %d cases", len(out), len(cases))
	}
	return version, out, nil
}

// IsTOONUnavailable reports whether err says TOON cannot be measured here.
func IsTOONUnavailable(err error) bool {
	var u *TOONUnavailable
	return errors.As(err, &u)
}

func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
