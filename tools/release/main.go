// Command release builds gcx's release artifacts from the module it is run
// in: a static gcx binary for each platform, their SHA-256 checksums, and
// the npm packages that carry the binaries to users without Go.
//
//	go run ./tools/release [-out DIR] [-targets linux/amd64,...] VERSION
//
// VERSION is a semantic version with its leading v, as the release's git
// tag spells it (v0.4.0). DIR (default dist/VERSION) must not exist yet;
// it receives
//
//	gcx-VERSION-OS-ARCH[.exe]   one binary per target
//	gcxwire-gcx-V.tgz           the launcher package @gcxwire/gcx, packed (V: VERSION without its v)
//	gcxwire-gcx-NODEOS-NODECPU-V.tgz
//	                            one package per target, @gcxwire/gcx-linux-x64 ..., packed
//	SHA256SUMS                  the checksums of the binaries and tarballs, in the form sha256sum -c reads
//	LICENSE                     the module's licence, to attach beside them
//	npm/gcx/                    the launcher package's files, as packed
//	npm/gcx-NODEOS-NODECPU/     each platform package's files, as packed
//
// Every binary is built with CGO_ENABLED=0 (static), -trimpath, an empty
// build ID and the version stamped with -X main.releaseVersion, so that the
// same commit built with the same Go release gives the same bytes on any
// machine. If a target fails to build, the command says which and why,
// writes no checksums and no packages, and exits 1: a partial release is
// not a release.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A target is a platform gcx is released for, named as Go names it and as
// npm's os and cpu fields (Node's process.platform and process.arch) do.
type target struct {
	goos, goarch    string
	nodeOS, nodeCPU string
}

// targets are all the platforms of a release, in the order they are built.
var targets = []target{
	{"linux", "amd64", "linux", "x64"},
	{"linux", "arm64", "linux", "arm64"},
	{"darwin", "amd64", "darwin", "x64"},
	{"darwin", "arm64", "darwin", "arm64"},
	{"windows", "amd64", "win32", "x64"},
	{"windows", "arm64", "win32", "arm64"},
}

func (t target) String() string { return t.goos + "/" + t.goarch }

// exe is the binary's file name on the target.
func (t target) exe() string {
	if t.goos == "windows" {
		return "gcx.exe"
	}
	return "gcx"
}

// binaryName is the binary's name among the release's files.
func (t target) binaryName(version string) string {
	name := "gcx-" + version + "-" + t.goos + "-" + t.goarch
	if t.goos == "windows" {
		name += ".exe"
	}
	return name
}

// npmName is the name of the target's npm package.
func (t target) npmName() string { return "@gcxwire/gcx-" + t.nodeOS + "-" + t.nodeCPU }

// npmDir is the folder of the target's npm package under npm/.
func (t target) npmDir() string { return "gcx-" + t.nodeOS + "-" + t.nodeCPU }

// semver is a release version: vMAJOR.MINOR.PATCH with an optional
// pre-release, without build metadata (npm drops it, Go refuses it in a
// module version).
var semver = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

func main() {
	log := os.Stderr
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	out := fs.String("out", "", "the folder to create for the artifacts (default dist/VERSION)")
	only := fs.String("targets", "", "build only these comma-separated GOOS/GOARCH targets (default all six)")
	fs.Usage = func() {
		fmt.Fprintln(log, "usage: go run ./tools/release [-out DIR] [-targets linux/amd64,...] VERSION")
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		os.Exit(2)
	}
	version := fs.Arg(0)
	selected, err := selectTargets(*only)
	if err == nil && !semver.MatchString(version) {
		err = fmt.Errorf("version %q is not vMAJOR.MINOR.PATCH[-PRERELEASE]", version)
	}
	if err != nil {
		fmt.Fprintf(log, "release: %v\n", err)
		os.Exit(2)
	}
	if *out == "" {
		*out = filepath.Join("dist", version)
	}
	if err := release(version, selected, *out, log); err != nil {
		fmt.Fprintf(log, "release: %v\n", err)
		os.Exit(1)
	}
}

// selectTargets returns the targets a -targets list names, or all of them.
func selectTargets(list string) ([]target, error) {
	if list == "" {
		return targets, nil
	}
	var selected []target
	for _, name := range strings.Split(list, ",") {
		i := slices.IndexFunc(targets, func(t target) bool { return t.String() == name })
		if i < 0 {
			return nil, fmt.Errorf("-targets: %q is not a release target (%v)", name, targets)
		}
		selected = append(selected, targets[i])
	}
	return selected, nil
}

// release builds the artifacts of version for the targets into out.
func release(version string, selected []target, out string, log io.Writer) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	// A fresh folder: artifacts of an earlier run must not pass as this one's.
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists: remove it or name another with -out", out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	goVersion, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return fmt.Errorf("go env GOVERSION: %v", err)
	}
	fmt.Fprintf(log, "release %s with %s, from %s\n", version, strings.TrimSpace(string(goVersion)), root)
	var failed []string
	for _, t := range selected {
		path := filepath.Join(out, t.binaryName(version))
		if err := build(root, t, version, path); err != nil {
			fmt.Fprintf(log, "FAIL %s: %v\n", t, err)
			failed = append(failed, t.String())
			continue
		}
		fmt.Fprintf(log, "ok   %s  %s\n", t, path)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d targets failed (%s): no checksums or npm packages written", len(failed), len(selected), strings.Join(failed, ", "))
	}
	tarballs, err := writeNPM(root, out, version, selected)
	if err != nil {
		return err
	}
	var artifacts []string
	for _, t := range selected {
		artifacts = append(artifacts, t.binaryName(version))
	}
	if err := writeChecksums(out, append(artifacts, tarballs...)); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s, %s, the npm packages under %s and their tarballs\n", filepath.Join(out, "SHA256SUMS"), filepath.Join(out, licenseFile), filepath.Join(out, "npm"))
	return nil
}

// moduleRoot returns the folder of the main module, which must be gcx.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %v (run the command inside the gcx module)", err)
	}
	path, dir, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if path != "github.com/gcxwire/gcx" {
		return "", fmt.Errorf("the main module is %s, not github.com/gcxwire/gcx", path)
	}
	return dir, nil
}

// buildFlags are go build's flags for a release binary of version. They
// make it reproducible: -trimpath leaves out the paths of this machine,
// -buildid= the build ID that would otherwise vary with them, and
// -buildvcs=false the version control stamp, which go build writes for a
// plain git clone but not for a git worktree or an unpacked archive of the
// same files (the version stamped with -X names the release, and its tag
// the commit); -s -w drop the symbol table and DWARF, which a user's
// binary does not need (the build information that go version -m reads
// stays).
func buildFlags(version string) []string {
	return []string{"-trimpath", "-buildvcs=false", "-ldflags", "-s -w -buildid= -X main.releaseVersion=" + version}
}

// buildEnv is the environment of a release build for t: everything that
// changes the bytes is set here rather than taken from the caller's
// environment (GOFLAGS included), and the microarchitecture levels are the
// defaults every machine of the platform runs.
func buildEnv(t target) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "CGO_ENABLED", "GOOS", "GOARCH", "GOFLAGS", "GOAMD64", "GOARM64", "GOEXPERIMENT":
			return true
		}
		return false
	})
	return append(env, "CGO_ENABLED=0", "GOOS="+t.goos, "GOARCH="+t.goarch,
		"GOFLAGS=-mod=readonly", "GOAMD64=v1", "GOARM64=v8.0")
}

// build builds gcx for t into path.
func build(root string, t target, version, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	args := append([]string{"build"}, buildFlags(version)...)
	args = append(args, "-o", abs, "./cmd/gcx")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = buildEnv(t)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, output.Bytes())
	}
	return nil
}

// writeChecksums writes SHA256SUMS for the named files of out: the
// binaries and the npm tarballs, everything a user downloads.
func writeChecksums(out string, names []string) error {
	var sums bytes.Buffer
	for _, name := range names {
		sum, err := fileSHA256(filepath.Join(out, name))
		if err != nil {
			return err
		}
		// Two spaces: sha256sum's text mode, which it reads back with -c.
		fmt.Fprintf(&sums, "%s  %s\n", sum, name)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), sums.Bytes(), 0o644)
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %v", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// packageJSON is the part of package.json the release writes. Decoding the
// launcher's template refuses fields it does not list, so that a field
// added there is not dropped from the release without a word.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Keywords             []string          `json:"keywords,omitempty"`
	Homepage             string            `json:"homepage,omitempty"`
	Repository           *repository       `json:"repository,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Files                []string          `json:"files"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

type repository struct {
	Type      string `json:"type"`
	URL       string `json:"url"`
	Directory string `json:"directory,omitempty"`
}

// launcherDir is the launcher package's source, relative to the module root.
const launcherDir = "npm/gcx"

// licenseFile is the module's licence, relative to the module root. Every
// npm package carries a copy (npm pack takes LICENSE whatever files says),
// and the release folder one to attach beside the binaries: whoever has
// one artifact has the terms under which they may use it.
const licenseFile = "LICENSE"

// writeNPM writes the launcher package with version filled in, and one
// platform package per target holding its binary, each as a folder under
// out/npm and packed beside the binaries; it returns the tarballs' names.
func writeNPM(root, out, version string, selected []target) ([]string, error) {
	npmVersion := strings.TrimPrefix(version, "v")
	launcher, err := readPackageJSON(filepath.Join(root, launcherDir, "package.json"))
	if err != nil {
		return nil, err
	}
	// The launcher depends on every platform's package, each at exactly the
	// release's version; npm installs the one whose os and cpu match.
	var want []string
	for _, t := range targets {
		want = append(want, t.npmName())
	}
	var have []string
	for name := range launcher.OptionalDependencies {
		have = append(have, name)
	}
	slices.Sort(want)
	slices.Sort(have)
	if !slices.Equal(want, have) {
		return nil, fmt.Errorf("%s/package.json: optionalDependencies are %v, want the release's platform packages %v", launcherDir, have, want)
	}
	// A package without a licence is one nobody may use: the launcher's
	// field is required, and the platform packages take the same.
	if launcher.License == "" {
		return nil, fmt.Errorf("%s/package.json: no license field", launcherDir)
	}
	if err := copyFiles(root, out, nil, licenseFile); err != nil {
		return nil, err
	}
	launcher.Version = npmVersion
	for name := range launcher.OptionalDependencies {
		launcher.OptionalDependencies[name] = npmVersion
	}
	dir := filepath.Join(out, "npm", "gcx")
	if err := copyFiles(filepath.Join(root, launcherDir), dir, launcher.Files, "README.md"); err != nil {
		return nil, err
	}
	if err := copyFiles(root, dir, nil, licenseFile); err != nil {
		return nil, err
	}
	if err := writePackageJSON(filepath.Join(dir, "package.json"), launcher); err != nil {
		return nil, err
	}
	tarballs := []string{tarballName(launcher.Name, npmVersion)}
	if err := packNPM(dir, filepath.Join(out, tarballs[0])); err != nil {
		return nil, err
	}
	for _, t := range selected {
		dir := filepath.Join(out, "npm", t.npmDir())
		pkg := &packageJSON{
			Name:        t.npmName(),
			Version:     npmVersion,
			Description: fmt.Sprintf("The gcx binary for %s: installed with @gcxwire/gcx, which runs it.", t),
			License:     launcher.License,
			Homepage:    launcher.Homepage,
			Repository:  &repository{Type: launcher.Repository.Type, URL: launcher.Repository.URL},
			Files:       []string{"bin/" + t.exe()},
			OS:          []string{t.nodeOS},
			CPU:         []string{t.nodeCPU},
		}
		if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
			return nil, err
		}
		if err := copyFile(filepath.Join(out, t.binaryName(version)), filepath.Join(dir, "bin", t.exe()), 0o755); err != nil {
			return nil, err
		}
		if err := copyFiles(root, dir, nil, licenseFile); err != nil {
			return nil, err
		}
		if err := writePackageJSON(filepath.Join(dir, "package.json"), pkg); err != nil {
			return nil, err
		}
		tarball := tarballName(pkg.Name, npmVersion)
		if err := packNPM(dir, filepath.Join(out, tarball)); err != nil {
			return nil, err
		}
		tarballs = append(tarballs, tarball)
	}
	return tarballs, nil
}

func readPackageJSON(path string) (*packageJSON, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p packageJSON
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &p, nil
}

func writePackageJSON(path string, p *packageJSON) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // engines' ">=18" as written, not "\u003e=18"
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// copyFiles copies the named files (package.json's files, and extra) from
// src to dst, keeping each file's executable bit.
func copyFiles(src, dst string, files []string, extra ...string) error {
	for _, name := range append(slices.Clone(files), extra...) {
		info, err := os.Stat(filepath.Join(src, name))
		if err != nil {
			return err
		}
		if info.IsDir() {
			return fmt.Errorf("%s: package files are listed one by one, not as folders", filepath.Join(src, name))
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755); err != nil {
			return err
		}
		if err := copyFile(filepath.Join(src, name), filepath.Join(dst, name), info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string, perm os.FileMode) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, perm); err != nil {
		return err
	}
	// WriteFile's mode is filtered by the umask; a binary must stay executable.
	return os.Chmod(dst, perm)
}
