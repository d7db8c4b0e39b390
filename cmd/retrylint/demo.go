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
	fmt.Fprintln(os.Stderr, "retrylint: no packages given; analyzing the built-in example (run retrylint ./... on your own code, or retrylint help)")
	cmd := exec.Command(self, "./...")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
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
