package passes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/passes"
)

// TestAnalyzers checks what every pass must have: a valid analyzer graph, a
// folder named after it, a doc section with a short summary, and a URL.
func TestAnalyzers(t *testing.T) {
	all := passes.All()
	if err := analysis.Validate(all); err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		if _, err := os.Stat(filepath.Join(a.Name, "doc.go")); err != nil {
			t.Errorf("%s: no passes/%s/doc.go", a.Name, a.Name)
		}
		summary, _, _ := strings.Cut(a.Doc, "\n")
		if summary == "" || len(summary) > 60 || strings.HasSuffix(summary, ".") || strings.ToLower(summary[:1]) != summary[:1] {
			t.Errorf("%s: summary %q: want a lowercase phrase of at most 60 characters, no final period", a.Name, summary)
		}
		if !strings.HasSuffix(a.URL, "/passes/"+a.Name) {
			t.Errorf("%s: URL %q does not name the pass", a.Name, a.URL)
		}
		if a.Run == nil {
			t.Errorf("%s: no Run", a.Name)
		}
	}
}

func TestNew(t *testing.T) {
	fresh, err := passes.New(passes.Settings{BudgetMethods: []string{"Ration"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := analysis.Validate(fresh); err != nil {
		t.Fatal(err)
	}
	all := passes.All()
	if len(fresh) != len(all) {
		t.Fatalf("New made %d passes, All has %d", len(fresh), len(all))
	}
	for i := range fresh {
		if fresh[i] == all[i] || fresh[i].Name != all[i].Name {
			t.Errorf("New()[%d] = %s, want a fresh %s", i, fresh[i].Name, all[i].Name)
		}
	}
	some, err := passes.New(passes.Settings{Disable: []string{all[0].Name}})
	if err != nil || len(some) != len(all)-1 {
		t.Errorf("Disable %s: %d passes, err %v", all[0].Name, len(some), err)
	}
	if _, err := passes.New(passes.Settings{Disable: []string{"nosuch"}}); err == nil {
		t.Error("Disable nosuch: want an error")
	}
}
