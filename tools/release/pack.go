package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// npmEpoch is the modification time npm pack gives every entry of a
// tarball, so that packing the same files twice gives the same bytes.
var npmEpoch = time.Date(1985, time.October, 26, 8, 15, 0, 0, time.UTC)

// tarballName is the file npm pack would name the package's tarball:
// the scope's @ dropped and its slash made a hyphen, then the version.
func tarballName(pkgName, npmVersion string) string {
	return strings.ReplaceAll(strings.TrimPrefix(pkgName, "@"), "/", "-") + "-" + npmVersion + ".tgz"
}

// packMode is the mode a file of a package is packed with, by its role
// rather than by the build machine's file system (which on Windows has no
// executable bit): what runs, the files under bin/ (the platform's binary,
// the launcher's script), is 0755; the rest is 0644.
func packMode(rel string) int64 {
	if strings.HasPrefix(rel, "bin/") {
		return 0o755
	}
	return 0o644
}

// packNPM writes the package in dir as the gzipped tar npm install takes
// (what npm pack makes): each file under package/, in lexical order, with
// npm's fixed time, no owner, and the mode packMode gives. The release packs its packages itself, rather than leaving it
// to npm pack afterwards, so that the tarballs users install are built by
// the same reproducible command as the binaries and listed in SHA256SUMS.
func packNPM(dir, dst string) error {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: a package holds regular files only", path)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		mode := packMode(filepath.ToSlash(rel))
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     "package/" + filepath.ToSlash(rel),
			Mode:     mode,
			Size:     int64(len(body)),
			ModTime:  npmEpoch,
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		_, err = tw.Write(body)
		return err
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(dst, buf.Bytes(), 0o644)
}
