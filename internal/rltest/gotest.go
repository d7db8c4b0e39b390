package rltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GoTest writes files (name to source: a package's files and its tests,
// standard imports only) into a scratch module of Go version goVersion
// ("1.22") and runs go test there; it returns the output and whether the
// tests passed. It is how a suggested fix's behaviour is checked: the
// golden file a fix produces, compiled with a test that fakes its
// dependency and runs it, and the original file, which the same test
// should fail. The build cache makes a run a few seconds.
func GoTest(t *testing.T, goVersion string, files map[string]string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	mod := "module behave\n\ngo " + goVersion + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		if strings.ContainsAny(name, `/\`) {
			t.Fatalf("GoTest: file name %q is not a base name", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-timeout=120s", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, isExit := err.(*exec.ExitError); !isExit {
			t.Fatalf("go test: %v", err)
		}
	}
	return string(out), err == nil
}

// ReadTestdata returns the content of a file below the calling test's
// testdata folder.
func ReadTestdata(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
