package scorecard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// PinnedTOONVersion returns the version of the encoder that dir (the
// bench/toon directory) pins in its package.json. Reading it needs no node.
func PinnedTOONVersion(dir string) (string, error) {
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
	return want, nil
}

// TOONVersion returns the version of the encoder installed under dir (the
// bench/toon directory), checking that it is the pinned one.
func TOONVersion(dir string) (string, error) {
	want, err := PinnedTOONVersion(dir)
	if err != nil {
		return "", err
	}
	var installed struct {
		Version string `json:"version"`
	}
	if err := readJSONFile(filepath.Join(dir, "node_modules", TOONPackage, "package.json"), &installed); err != nil {
		return "", &TOONUnavailable{fmt.Sprintf("%s is not installed (run `npm ci --prefix %s` once)", TOONPackage, filepath.ToSlash(dir))}
	}
	if installed.Version != want {
		return "", &TOONUnavailable{fmt.Sprintf("%s %s is installed but %s is pinned (run `npm ci --prefix %s`)", TOONPackage, installed.Version, want, filepath.ToSlash(dir))}
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

// CarryTOON gives sc, measured without TOON, the TOON figures of prev, an
// earlier scorecard, when they are exactly what the encoder would write
// again: prev measured them with the pinned version, and every case of sc
// is in prev with the same response bytes (by SHA-256). It is all or
// nothing, so that a scorecard never mixes measured cases with unmeasured
// ones; the error says why the figures cannot be kept, and sc is then
// left as it was.
func CarryTOON(sc, prev *Scorecard, pinned string) error {
	switch {
	case prev.TOONVersion == "":
		return errors.New("it has no TOON figures")
	case prev.TOONVersion != pinned:
		return fmt.Errorf("its TOON figures are of %s %s, and %s is pinned", TOONPackage, prev.TOONVersion, pinned)
	}
	earlier := make(map[string]*Result, len(prev.Cases))
	for i := range prev.Cases {
		earlier[prev.Cases[i].Name] = &prev.Cases[i]
	}
	var changed, missing []string
	for _, r := range sc.Cases {
		p := earlier[r.Name]
		switch {
		case p == nil || p.TOONComma == nil || p.TOONTab == nil || p.TOONRoundTrip == nil || p.ResponseSHA256 == "":
			missing = append(missing, r.Name)
		case p.ResponseSHA256 != r.ResponseSHA256:
			changed = append(changed, r.Name)
		}
	}
	var why []string
	if len(changed) > 0 {
		why = append(why, fmt.Sprintf("%d changed since it was measured (%s)", len(changed), shortList(changed)))
	}
	if len(missing) > 0 {
		why = append(why, fmt.Sprintf("%d have no TOON figures there tied to their SHA-256 (%s)", len(missing), shortList(missing)))
	}
	if len(why) > 0 {
		return fmt.Errorf("of the %d responses, %s", len(sc.Cases), strings.Join(why, " and "))
	}
	if err := carryRealTOON(sc.RealServers, prev.RealServers); err != nil {
		return err
	}
	for i := range sc.Cases {
		p := earlier[sc.Cases[i].Name]
		comma, tab, rt := *p.TOONComma, *p.TOONTab, *p.TOONRoundTrip
		sc.Cases[i].TOONComma, sc.Cases[i].TOONTab, sc.Cases[i].TOONRoundTrip = &comma, &tab, &rt
	}
	sc.TOONVersion, sc.TOONNote = prev.TOONVersion, ""
	return nil
}

// shortList names at most three cases.
func shortList(names []string) string {
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(names, ", ")
}
