// Package shop_test runs the passes that work across packages over a
// realistic multi-package module (testdata/shop, module mode): a gateway
// that retries orders, which retries the ledger, which retries the
// database, with variants for 3 and 4 attempts per layer, budgets at every
// hop, a shared retry helper, an interface and recursion.
package shop_test

import (
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/passes/nestedretry"
)

func shop(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("testdata", "shop"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestNestedRetry(t *testing.T) {
	analysistest.Run(t, shop(t), nestedretry.Analyzer, "./...")
}

// TestAmplification checks the multiplier every function exports, as the
// command's driver computes it (dependencies from export data).
func TestAmplification(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	pkgs, err := driver.Load(shop(t), []string{"./..."}, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := driver.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d load errors", n)
	}
	graph, err := driver.Analyze([]*analysis.Analyzer{amplify.Analyzer}, pkgs, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, f := range act.AllObjectFacts() {
			fact, ok := f.Fact.(*amplify.AmpFact)
			if !ok || f.Object.Pkg() != act.Package.Types {
				continue
			}
			got[f.Object.Pkg().Name()+"."+strings.TrimPrefix(amplifyName(f.Object), f.Object.Pkg().Name()+".")] = fact.Mult.String()
		}
	}
	want := map[string]string{
		// 3 per layer: 27 at the database.
		"ledger.(*Client).Post":        "3",
		"orders.(*Client).Get":         "9",
		"gateway.(*Server).ServeHTTP":  "27",
		"gateway.(*Server).HandleOnce": "9",
		// 4 per layer: 64.
		"ledger.(*Client).Post4":    "4",
		"orders.(*Client).Get4":     "16",
		"gateway.(*Server).Handle4": "64",
		// A 10% budget per hop: 1.1 × 1.1 × 1.1.
		"ledger.(*Client).PostBudgeted":    "1.1",
		"orders.(*Client).GetBudgeted":     "1.21",
		"gateway.(*Server).HandleBudgeted": "1.33",
		// A retry helper shared across packages; its own operation is a
		// function value, so its multiplier is open.
		"retryx.Do":                      "≥3",
		"ledger.(*Client).PostHelper":    "3",
		"orders.(*Client).GetHelper":     "9",
		"gateway.(*Server).HandleHelper": "27",
		// An interface and recursion end the walk, marked open.
		"orders.(*Client).GetVia":     "≥3",
		"gateway.(*Server).HandleVia": "≥9",
		"ledger.(*Client).Replay":     "≥2",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: multiplier %q, want %q", name, got[name], w)
		}
	}
	var extra []string
	for name, g := range got {
		if _, ok := want[name]; !ok {
			extra = append(extra, name+" "+g)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("unexpected facts (only functions that amplify export one): %s", strings.Join(extra, "; "))
	}
}

func amplifyName(obj interface{ Name() string }) string {
	if fn, ok := obj.(*types.Func); ok {
		return amplify.FuncName(fn)
	}
	return obj.Name()
}
