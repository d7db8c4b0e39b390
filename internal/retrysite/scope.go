package retrysite

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/factscope"
)

// ModuleFact names the module of a package, so that the packages that
// import it know whether they read its facts (internal/factscope).
type ModuleFact struct{ factscope.Module }

func (*ModuleFact) AFact() {}

// newScope exports the package's ModuleFact and returns its scope.
func newScope(pass *analysis.Pass) *factscope.Scope {
	s := factscope.New(pass, func(pkg *types.Package) (factscope.Module, bool) {
		var f ModuleFact
		ok := pass.ImportPackageFact(pkg, &f)
		return f.Module, ok
	})
	if m, ok := s.Module(); ok {
		pass.ExportPackageFact(&ModuleFact{m})
	}
	return s
}

// ReadsFacts reports whether the analyzed package reads the facts of
// pkg's objects (internal/factscope): a pass that keeps facts of its own
// asks it before it imports one, so that every driver agrees.
func (s *Sites) ReadsFacts(pkg *types.Package) bool {
	return s.a != nil && s.a.scope != nil && s.a.scope.Reads(pkg)
}
