package driver

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// isDirPattern reports whether pattern names directories (./x, ../x, /x,
// . or ..) rather than import paths.
func isDirPattern(pattern string) bool {
	return pattern == "." || pattern == ".." || strings.HasPrefix(pattern, "./") ||
		strings.HasPrefix(pattern, "../") || filepath.IsAbs(pattern)
}

// absDir returns the absolute, symlink-free form of path relative to dir.
func absDir(dir, path string) string {
	if !filepath.IsAbs(path) {
		base := dir
		if base == "" {
			base = "."
		}
		path = filepath.Join(base, path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// within reports whether path is root or lies below it.
func within(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+string(filepath.Separator))
}

// goCmd runs the go command in dir and returns its standard output.
func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// goEnv holds the go command's settings that decide what a directory
// pattern means.
type goEnv struct {
	gomod, gowork, go111module string
}

// readGoEnv asks the go command, once, for the settings of dir.
func readGoEnv(dir string) (goEnv, error) {
	out, err := goCmd(dir, "env", "GOMOD", "GOWORK", "GO111MODULE")
	if err != nil {
		return goEnv{}, err
	}
	f := strings.Split(out+"\n\n", "\n")
	return goEnv{gomod: strings.TrimSpace(f[0]), gowork: strings.TrimSpace(f[1]), go111module: strings.TrimSpace(f[2])}, nil
}

func (e goEnv) workspace() bool { return e.gowork != "" && e.gowork != "off" }

// inModule reports whether the directory lies in a module or a workspace
// (or the go command is in GOPATH mode, where directories are packages
// too).
func (e goEnv) inModule() bool {
	return e.go111module == "off" || e.workspace() || e.gomod != "" && e.gomod != os.DevNull
}

// dirPatterns returns the patterns that name directories (not files).
func dirPatterns(patterns []string) []string {
	var out []string
	for _, p := range patterns {
		if isDirPattern(p) && !strings.HasSuffix(p, ".go") {
			out = append(out, p)
		}
	}
	return out
}

// noModule is the error for directory patterns outside any module: the go
// command's own ("directory prefix . does not contain main module", ".
// matched no packages") does not say why, nor what to do.
func noModule(dir string, patterns []string) error {
	abs := absDir(dir, ".")
	var files []string
	entries, _ := os.ReadDir(abs)
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	hint := "file.go"
	switch {
	case len(files) > 3:
		hint = strings.Join(files[:3], " ") + " ..."
	case len(files) > 0:
		hint = strings.Join(files, " ")
	}
	return fmt.Errorf("no go.mod in %s or any directory above it, so %s names no package: run retrylint inside a Go module (go mod init creates one), or name the Go files: retrylint %s",
		abs, strings.Join(patterns, " "), hint)
}

// expandWorkspace adds, in a Go workspace, one pattern <module>/... for each
// workspace module below the directory of each <dir>/... pattern, and drops
// the <dir>/... pattern itself when dir lies in no workspace module (the go
// command rejects it there).
func expandWorkspace(dir string, patterns []string, env goEnv) ([]string, error) {
	var dirPatterns []string
	for _, p := range patterns {
		if (p == "./..." || strings.HasSuffix(p, "/...")) && isDirPattern(p) {
			dirPatterns = append(dirPatterns, p)
		}
	}
	if len(dirPatterns) == 0 {
		return patterns, nil
	}
	if !env.workspace() {
		return patterns, nil
	}
	list, err := goCmd(dir, "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		return nil, err
	}
	var modules []string
	for _, m := range strings.Split(list, "\n") {
		if m != "" {
			modules = append(modules, absDir("", m))
		}
	}
	var out []string
	for _, p := range patterns {
		if !(p == "./..." || strings.HasSuffix(p, "/...")) || !isDirPattern(p) {
			out = append(out, p)
			continue
		}
		root := absDir(dir, strings.TrimSuffix(p, "/..."))
		inModule := false
		var below []string
		for _, m := range modules {
			switch {
			case within(root, m):
				inModule = true
			case within(m, root):
				below = append(below, m)
			}
		}
		if inModule || len(below) == 0 {
			out = append(out, p) // a pattern in no module keeps its error
		}
		for _, m := range below {
			out = append(out, filepath.Join(m, "...")) // absolute: dir-independent
		}
	}
	return out, nil
}

// unmatched returns an error naming each pattern that matched no package:
// those the go command reported as errors (a directory or import path that
// does not exist, a directory without Go files) and <dir>/... or
// <path>/... patterns under which no package was loaded.
func unmatched(dir string, patterns, expanded []string, pkgs []*packages.Package) error {
	var errs []error
	for _, p := range pkgs {
		if len(p.GoFiles) == 0 && len(p.CompiledGoFiles) == 0 && len(p.OtherFiles) == 0 && len(p.Errors) > 0 {
			msg := p.Errors[0].Msg
			if !strings.HasPrefix(msg, "pattern ") {
				msg = "pattern " + p.ID + ": " + msg
			}
			errs = append(errs, errors.New(msg))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	dirs := map[string]bool{}
	for _, p := range pkgs {
		if p.Dir != "" {
			dirs[absDir("", p.Dir)] = true
		}
	}
	matches := func(pattern string) bool {
		if pattern == "..." {
			return len(pkgs) > 0
		}
		prefix := strings.TrimSuffix(pattern, "/...")
		if isDirPattern(pattern) {
			root := absDir(dir, prefix)
			for d := range dirs {
				if within(d, root) {
					return true
				}
			}
			return false
		}
		for _, p := range pkgs {
			if p.PkgPath == prefix || strings.HasPrefix(p.PkgPath, prefix+"/") {
				return true
			}
		}
		return false
	}
	for _, pattern := range patterns {
		if (pattern == "..." || strings.HasSuffix(pattern, "/...")) && !matches(pattern) {
			errs = append(errs, fmt.Errorf("pattern %s matched no packages", pattern))
		}
	}
	if len(errs) == 0 && len(pkgs) == 0 {
		errs = append(errs, fmt.Errorf("%s matched no packages", strings.Join(expanded, " ")))
	}
	return errors.Join(errs...)
}
