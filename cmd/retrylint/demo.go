package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed example
var example embed.FS

// exampleFiles names the example's Go files and where their source is in
// the repository.
func exampleFiles() (names, sources string) {
	var n, src []string
	entries, _ := example.ReadDir("example")
	for _, e := range entries {
		if name := strings.TrimSuffix(e.Name(), ".txt"); strings.HasSuffix(name, ".go") {
			n = append(n, name)
			src = append(src, "cmd/retrylint/example/"+e.Name())
		}
	}
	return strings.Join(n, ", "), strings.Join(src, ", ")
}

// demo writes the built-in example module to a temporary directory and
// lints it, to show what retrylint reports. It exits 0 when the example
// was analyzed, whatever it reported.
func demo() int {
	dir, err := os.MkdirTemp("", "retrylint-example-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	err = fs.WalkDir(example, "example", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := example.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, strings.TrimSuffix(strings.TrimPrefix(path, "example/"), ".txt"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
	}
	// The example runs in its directory, so that the findings name its
	// files as the source in the repository does; the user's environment
	// (GOFLAGS included) is kept, but not a go.work of theirs.
	names, sources := exampleFiles()
	fmt.Fprintf(os.Stderr, "retrylint: no packages given; analyzing the built-in example, %s (its source: %s in the retrylint repository)\n", names, sources)
	fmt.Fprintln(os.Stderr, "retrylint: run 'retrylint ./...' on your own code, or 'retrylint help'")
	cmd := exec.Command(self, "./...")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "GOWORK=off")
	err = cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok && exit.ExitCode() == 3 {
		return 0 // diagnostics were reported, as expected
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
	}
	return 0
}
