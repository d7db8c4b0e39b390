package driver

import (
	"maps"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestCutImports: during the analysis a package keeps the imports that
// lead to an analyzed package, and gets the others back afterwards.
func TestCutImports(t *testing.T) {
	pkg := func(id string, imports ...*packages.Package) *packages.Package {
		p := &packages.Package{ID: id, Imports: map[string]*packages.Package{}}
		for _, imp := range imports {
			p.Imports[imp.ID] = imp
		}
		return p
	}
	b := pkg("b", pkg("fmt"))
	between := pkg("between", b, pkg("strings"))
	a := pkg("a", between, pkg("net/http", pkg("io")))
	keys := func(p *packages.Package) []string { return slices.Sorted(maps.Keys(p.Imports)) }

	restore := cutImports([]*packages.Package{a, b})
	if got := keys(a); !slices.Equal(got, []string{"between"}) {
		t.Errorf("a imports %v during the analysis, want [between]", got)
	}
	if got := keys(between); !slices.Equal(got, []string{"b"}) {
		t.Errorf("between imports %v during the analysis, want [b] (it leads to a root)", got)
	}
	if got := keys(b); len(got) != 0 {
		t.Errorf("b imports %v during the analysis, want none", got)
	}
	restore()
	if got := keys(a); !slices.Equal(got, []string{"between", "net/http"}) {
		t.Errorf("a imports %v after the analysis, want [between net/http]", got)
	}
	if got := keys(between); !slices.Equal(got, []string{"b", "strings"}) {
		t.Errorf("between imports %v after the analysis, want [b strings]", got)
	}
	if got := keys(b); !slices.Equal(got, []string{"fmt"}) {
		t.Errorf("b imports %v after the analysis, want [fmt]", got)
	}
}
