package driver

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestLoadProgress: Load reports the packages to load before it compiles
// their dependencies, then each package whose files are all parsed, up to
// all of them.
func TestLoadProgress(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc A() int { return 1 }\n",
		"a/a2.go":     "package a\n\nfunc A2() int { return 2 }\n",
		"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\nfunc B() int { return a.A() }\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { B() }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	var mu sync.Mutex
	var calls [][2]int
	pkgs, err := Load(dir, []string{"./..."}, true, func(loaded, total int) {
		mu.Lock()
		calls = append(calls, [2]int{loaded, total})
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	// a, b, b [b.test] and the test main b.test.
	if len(calls) < 2 || calls[0] != [2]int{0, 4} || calls[len(calls)-1] != [2]int{4, 4} {
		t.Errorf("progress %v, want (0 of 4) first and (4 of 4) last", calls)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] < calls[i-1][0] {
			t.Errorf("progress went back: %v", calls)
		}
	}
	if len(pkgs) < 3 {
		t.Errorf("%d packages loaded", len(pkgs))
	}
	// Without a Progress, Load parses as before.
	if _, err := Load(dir, []string{"./..."}, true); err != nil {
		t.Fatal(err)
	}
}
