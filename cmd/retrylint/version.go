package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// buildVersion describes the binary from its build information: the main
// module's path and version ("(devel)" when built without a version, or a
// pseudo-version the go command derived from the VCS), and the VCS
// revision, time and whether the work tree had changes.
type buildVersion struct {
	path, version          string
	vcs, revision, vcsTime string
	modified, hasBuildInfo bool
	goVersion              string
}

func readBuildVersion() buildVersion {
	v := buildVersion{path: "github.com/retrylint/retrylint", version: "(devel)", goVersion: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.hasBuildInfo = true
	if bi.Main.Path != "" {
		v.path = bi.Main.Path
	}
	if bi.Main.Version != "" {
		v.version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs":
			v.vcs = s.Value
		case "vcs.revision":
			v.revision = s.Value
		case "vcs.time":
			v.vcsTime = s.Value
		case "vcs.modified":
			v.modified = s.Value == "true"
		}
	}
	return v
}

// versionLine is what -version prints: one line with the module version
// and where it was built from.
func versionLine() string {
	v := readBuildVersion()
	line := fmt.Sprintf("retrylint %s %s built with %s", v.version, v.path, v.goVersion)
	switch {
	case v.revision != "":
		line += fmt.Sprintf(" from %s revision %s", v.vcs, v.revision)
		if v.vcsTime != "" {
			line += " of " + v.vcsTime
		}
		if v.modified {
			line += ", with uncommitted changes"
		}
	case v.hasBuildInfo:
		line += "; no VCS revision recorded (built with -buildvcs=false, or outside a repository)"
	default:
		line += "; no build information"
	}
	return line
}

// vetVersionFlag is -V=full, which the go command asks of a vet tool
// before it runs it, to key its cache. The go command wants
// "<name> version <version> ... buildID=<id>", and with a version that
// says devel it keys on the build ID alone: here the SHA-256 of the
// executable, so that a rebuilt retrylint invalidates the cached results
// even when its version does not change. The line carries the module
// version and VCS revision from the build information.
type vetVersionFlag struct{}

func (vetVersionFlag) IsBoolFlag() bool { return true }
func (vetVersionFlag) String() string   { return "" }
func (vetVersionFlag) Set(s string) error {
	if s != "full" && s != "true" {
		return fmt.Errorf("unsupported value -V=%s (use -V=full)", s)
	}
	id, err := executableHash()
	if err != nil {
		return err
	}
	fmt.Println(vetVersionLine(readBuildVersion(), id))
	os.Exit(0)
	return nil
}

func vetVersionLine(v buildVersion, id string) string {
	rev := v.revision
	if rev == "" {
		rev = "unknown-revision"
	}
	if v.modified {
		rev += "+modified"
	}
	return fmt.Sprintf("retrylint version %s %s buildID=%s", strings.ReplaceAll(v.version, " ", "_"), rev, id)
}

func executableHash() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}
