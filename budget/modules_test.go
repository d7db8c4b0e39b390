package budget_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// adapterModules are the modules nested in this one, each with its own
// go.mod (and dependencies this module must not have). A package pattern
// stops at a module's boundary, so `go test ./budget/...` does not reach
// them; TestAdapterModules runs their tests.
var adapterModules = []string{"prometheus", "otel"}

// TestAdapterModules runs `go test ./...` in each adapter module present,
// with -race when this test has it, and fails with their output if they
// fail. It reads every file of the modules, so that the go command's test
// cache reruns it when one changes. A download of this module has no
// adapter modules (they are modules of their own), and the test skips.
func TestAdapterModules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command on the adapter modules")
	}
	var dirs []string
	for _, dir := range adapterModules {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			dirs = append(dirs, dir)
		}
	}
	if len(dirs) == 0 {
		t.Skip("no adapter module in this copy of the budget module")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	for _, dir := range dirs {
		dir := dir
		t.Run(dir, func(t *testing.T) {
			readAll(t, dir)
			args := []string{"test"}
			if raceEnabled {
				args = append(args, "-race")
			}
			cmd := exec.Command(goTool, append(args, "./...")...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
			}
			t.Logf("go %s in %s:\n%s", strings.Join(args, " "), dir, out)
		})
	}
}

// readAll reads every file under dir, which makes the go command's test
// cache depend on them.
func readAll(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		_, err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
