package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/spec"
)

// hostTarget returns the release target of this machine, skipping the
// test where this machine is not one.
func hostTarget(t *testing.T) target {
	t.Helper()
	i := slices.IndexFunc(targets, func(x target) bool { return x.goos == runtime.GOOS && x.goarch == runtime.GOARCH })
	if i < 0 {
		t.Skipf("%s/%s is not a release target", runtime.GOOS, runtime.GOARCH)
	}
	return targets[i]
}

// Two releases of the same tree give the same bytes, and what they hold
// is what a user needs: a binary that names the release and the
// specification revision, checksums that match it, and npm packages at the
// release's version. (The second build reuses the first's compiled
// packages from the build cache; .ci/run builds a second time in another
// folder with an empty cache.)
func TestReleaseReproducible(t *testing.T) {
	host := hostTarget(t)
	const version = "v0.0.0-test.1"
	var outs []string
	for range 2 {
		out := filepath.Join(t.TempDir(), "dist")
		var log bytes.Buffer
		if err := release(version, []target{host}, out, &log); err != nil {
			t.Fatalf("%v\n%s", err, log.Bytes())
		}
		outs = append(outs, out)
	}
	binary := host.binaryName(version)
	launcherTarball := "gcxwire-gcx-0.0.0-test.1.tgz"
	platformTarball := "gcxwire-gcx-" + host.nodeOS + "-" + host.nodeCPU + "-0.0.0-test.1.tgz"
	for _, name := range []string{binary, launcherTarball, platformTarball, "SHA256SUMS", "npm/gcx/package.json", "npm/" + host.npmDir() + "/package.json", "npm/" + host.npmDir() + "/bin/" + host.exe()} {
		a, errA := os.ReadFile(filepath.Join(outs[0], name))
		b, errB := os.ReadFile(filepath.Join(outs[1], name))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v, %v", name, errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two releases of the same tree", name)
		}
	}
	out := outs[0]

	got, err := exec.Command(filepath.Join(out, binary), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("gcx %s, GCX1 specification revision %s\n", version, spec.Revision); string(got) != want {
		t.Errorf("gcx --version: %q, want %q", got, want)
	}

	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	var wantSums strings.Builder
	for _, name := range []string{binary, launcherTarball, platformTarball} {
		sum, err := fileSHA256(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&wantSums, "%s  %s\n", sum, name)
	}
	if string(sums) != wantSums.String() {
		t.Errorf("SHA256SUMS:\n%s\nwant\n%s", sums, wantSums.String())
	}
	// Each tarball holds its package's folder, file for file, under
	// package/: what is under bin/ executable, the rest not, whatever the
	// build machine's file system says.
	for tarball, dir := range map[string]string{launcherTarball: "npm/gcx", platformTarball: "npm/" + host.npmDir()} {
		entries := readTarball(t, filepath.Join(out, tarball))
		var want []string
		err := filepath.WalkDir(filepath.Join(out, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join(out, dir), path)
			mode := 0o644
			if strings.HasPrefix(filepath.ToSlash(rel), "bin/") {
				mode = 0o755
			}
			want = append(want, fmt.Sprintf("package/%s %o %x", filepath.ToSlash(rel), mode, sha256.Sum256(mustRead(t, path))))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(entries, want) {
			t.Errorf("%s holds\n%s\nwant its folder %s\n%s", tarball, strings.Join(entries, "\n"), dir, strings.Join(want, "\n"))
		}
	}
	if packaged, _ := os.ReadFile(filepath.Join(out, "npm", host.npmDir(), "bin", host.exe())); !bytes.Equal(packaged, mustRead(t, filepath.Join(out, binary))) {
		t.Errorf("the npm package's binary is not the release's")
	}

	launcher := readJSON(t, filepath.Join(out, "npm", "gcx", "package.json"))
	if launcher.Version != "0.0.0-test.1" || launcher.Bin["gcx"] != "bin/gcx.js" {
		t.Errorf("launcher: version %q, bin %v", launcher.Version, launcher.Bin)
	}
	if len(launcher.OptionalDependencies) != len(targets) {
		t.Errorf("launcher: %d optional dependencies, want one per target (%d)", len(launcher.OptionalDependencies), len(targets))
	}
	for _, x := range targets {
		if v := launcher.OptionalDependencies[x.npmName()]; v != "0.0.0-test.1" {
			t.Errorf("launcher: optional dependency %s at %q", x.npmName(), v)
		}
	}
	platform := readJSON(t, filepath.Join(out, "npm", host.npmDir(), "package.json"))
	if platform.Name != host.npmName() || platform.Version != "0.0.0-test.1" ||
		!slices.Equal(platform.OS, []string{host.nodeOS}) || !slices.Equal(platform.CPU, []string{host.nodeCPU}) ||
		!slices.Equal(platform.Files, []string{"bin/" + host.exe()}) {
		t.Errorf("platform package: %+v", platform)
	}
	if info, err := os.Stat(filepath.Join(out, "npm", host.npmDir(), "bin", host.exe())); err != nil || info.Mode().Perm()&0o111 == 0 {
		t.Errorf("the platform package's binary is not executable: %v", err)
	}

	// The licence goes with every artifact: beside the binaries, in every
	// package (npm pack takes a package's LICENSE whatever files says),
	// and named in every package.json.
	license := mustRead(t, filepath.Join("..", "..", licenseFile))
	for _, dir := range []string{".", "npm/gcx", "npm/" + host.npmDir()} {
		if got, err := os.ReadFile(filepath.Join(out, dir, "LICENSE")); err != nil || !bytes.Equal(got, license) {
			t.Errorf("%s/LICENSE is not the module's LICENSE (%v)", dir, err)
		}
	}
	for _, p := range []*packageJSON{launcher, platform} {
		if p.License != "MIT" {
			t.Errorf("%s: license %q, want MIT", p.Name, p.License)
		}
	}
}

// The module's licence is MIT, as the packages' license fields say.
func TestLicenseIsMIT(t *testing.T) {
	license := string(mustRead(t, filepath.Join("..", "..", licenseFile)))
	for _, want := range []string{"MIT License\n", "Copyright (c) 2026 The gcx authors\n", "Permission is hereby granted, free of charge"} {
		if !strings.Contains(license, want) {
			t.Errorf("LICENSE does not hold %q", want)
		}
	}
	launcher, err := readPackageJSON(filepath.Join("..", "..", launcherDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if launcher.License != "MIT" {
		t.Errorf("%s/package.json: license %q, want MIT", launcherDir, launcher.License)
	}
}

// The launcher finds the platform package by Node's names for the
// platform, which must be the names the release gives the packages.
func TestLauncherNamesThePlatformPackages(t *testing.T) {
	js := string(mustRead(t, filepath.Join("..", "..", launcherDir, "bin", "gcx.js")))
	for _, want := range []string{"`@gcxwire/gcx-${process.platform}-${process.arch}`", `process.platform === "win32" ? "gcx.exe" : "gcx"`, "`${platformPackage}/bin/${binaryFile}`"} {
		if !strings.Contains(js, want) {
			t.Errorf("bin/gcx.js does not hold %s", want)
		}
	}
	for _, x := range targets {
		if x.npmName() != "@gcxwire/gcx-"+x.nodeOS+"-"+x.nodeCPU || !slices.Contains([]string{"linux", "darwin", "win32"}, x.nodeOS) || !slices.Contains([]string{"x64", "arm64"}, x.nodeCPU) {
			t.Errorf("%v: npm names %s, %s/%s", x, x.npmName(), x.nodeOS, x.nodeCPU)
		}
	}
}

// A target that does not build fails the release: the command says which,
// and writes no checksums and no npm packages that would pass for a
// complete release.
func TestReleaseFailsLoudly(t *testing.T) {
	host := hostTarget(t)
	out := filepath.Join(t.TempDir(), "dist")
	var log bytes.Buffer
	broken := target{"linux", "nosucharch", "linux", "nosucharch"}
	err := release("v0.0.0-test.1", []target{host, broken}, out, &log)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 targets failed (linux/nosucharch)") {
		t.Fatalf("release with a target that cannot build: %v", err)
	}
	if !strings.Contains(log.String(), "FAIL linux/nosucharch: go build") {
		t.Errorf("the log does not say which target failed and why:\n%s", log.Bytes())
	}
	for _, name := range []string{"SHA256SUMS", "npm"} {
		if _, err := os.Stat(filepath.Join(out, name)); !os.IsNotExist(err) {
			t.Errorf("%s written by a failed release (%v)", name, err)
		}
	}
	if tarballs, _ := filepath.Glob(filepath.Join(out, "*.tgz")); len(tarballs) > 0 {
		t.Errorf("tarballs written by a failed release: %v", tarballs)
	}
	// And a second run into the same folder is refused, not mixed in.
	if err := release("v0.0.0-test.1", []target{host}, out, &log); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("release into an existing folder: %v", err)
	}
}

func TestVersionSyntax(t *testing.T) {
	for v, ok := range map[string]bool{
		"v0.1.0": true, "v1.20.3": true, "v1.0.0-rc.1": true, "v0.0.0-test.1": true,
		"0.1.0": false, "v1.0": false, "v01.0.0": false, "v1.0.0+build.5": false, "v1.0.0-": false, "": false,
	} {
		if semver.MatchString(v) != ok {
			t.Errorf("%q: accepted %v, want %v", v, !ok, ok)
		}
	}
	for list, ok := range map[string]bool{"": true, "linux/amd64": true, "linux/amd64,windows/arm64": true, "linux/386": false, "linux": false} {
		if _, err := selectTargets(list); (err == nil) != ok {
			t.Errorf("-targets %q: %v", list, err)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readJSON(t *testing.T, path string) *packageJSON {
	t.Helper()
	var p packageJSON
	if err := json.Unmarshal(mustRead(t, path), &p); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &p
}

// readTarball lists a gzipped tar's regular files as "name mode sha256",
// in the order they are stored, failing on anything else it holds.
func readTarball(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tr := tar.NewReader(zr)
	var entries []string
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return entries
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if hdr.Typeflag != tar.TypeReg || !hdr.ModTime.Equal(npmEpoch) || hdr.Uid != 0 || hdr.Gid != 0 {
			t.Errorf("%s: entry %s: type %c, time %v, owner %d:%d", path, hdr.Name, hdr.Typeflag, hdr.ModTime, hdr.Uid, hdr.Gid)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, hdr.Name, err)
		}
		entries = append(entries, fmt.Sprintf("%s %o %x", hdr.Name, hdr.Mode, sha256.Sum256(body)))
	}
}
