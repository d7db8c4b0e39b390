package nojitter

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/fixutil"
)

// loopFix puts full jitter on every wait of a retry loop: each duration d
// becomes rand.N(d) (math/rand/v2, Go 1.22) or
// time.Duration(rand.Int63n(int64(d))) (math/rand), a uniform wait in
// [0, d). A cap inside d stays where it is. Both panic on a duration that
// is not positive, so a duration that is not a positive constant is
// written max(d, 1): a wait the original did not make (zero or negative)
// stays none. Waits on a ticker cannot be jittered: no fix.
func (c *checker) loopFix(waits []wait) *analysis.SuggestedFix {
	for _, w := range waits {
		if w.Ticker != nil || w.Call == nil || w.Dur == nil {
			return nil
		}
	}
	pos := waits[0].At.Pos()
	file := fixutil.FileOf(c.pass, pos)
	if file == nil {
		return nil
	}
	fv := c.pass.TypesInfo.FileVersions[file]
	atLeast := func(v string) bool { return !version.IsValid(fv) || version.Compare(fv, v) >= 0 }
	v2 := atLeast("go1.22")
	hasMax := atLeast("go1.21") && c.isUniverse(file, "max", pos)
	timeName, timeEdits := fixutil.AddImport(c.pass, file, "time", pos)
	haveTime := len(timeEdits) == 0
	path := "math/rand"
	if v2 {
		path = "math/rand/v2"
	}
	randName, edits := fixutil.AddImport(c.pass, file, path, pos)
	for _, w := range waits {
		text := c.src(w.Dur)
		if text == "" {
			return nil
		}
		v, isConst := c.env.ConstDuration(w.Dur)
		positive := isConst && v > 0
		if isConst && !positive {
			return nil // a wait of nothing: nothing to jitter
		}
		if positive && c.untyped(w.Dur) {
			if !haveTime {
				return nil
			}
			text = timeName + ".Duration(" + text + ")"
		}
		if !positive {
			if !hasMax {
				return nil
			}
			text = fixutil.CallArgs("max", text, "1")
		}
		var repl string
		if v2 {
			repl = randName + ".N(" + text + ")"
		} else {
			if !haveTime {
				return nil
			}
			repl = timeName + ".Duration(" + randName + ".Int63n(int64(" + text + ")))"
		}
		edits = append(edits, analysis.TextEdit{Pos: w.Dur.Pos(), End: w.Dur.End(), NewText: []byte(repl)})
	}
	msg := "Wait a random time up to the computed wait (full jitter)"
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// isUniverse reports whether name denotes the predeclared object at pos.
func (c *checker) isUniverse(file *ast.File, name string, pos token.Pos) bool {
	scope := c.pass.TypesInfo.Scopes[file]
	if scope == nil {
		return false
	}
	_, obj := scope.Innermost(pos).LookupParent(name, pos)
	return obj != nil && obj == types.Universe.Lookup(name)
}

// untyped reports whether the constant expression x is untyped in the
// source (5 * 1e9), so that rand.N would infer an int from it; an
// operand that is a typed constant, a variable or a call (time.Second,
// time.Duration(5)) makes it typed.
func (c *checker) untyped(x ast.Expr) bool {
	typed := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			typed = true
		case *ast.Ident:
			if obj := c.pass.TypesInfo.Uses[n]; obj != nil {
				if _, isPkg := obj.(*types.PkgName); isPkg {
					return true
				}
				if b, ok := obj.Type().(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
					typed = true
				}
			}
		}
		return !typed
	})
	return !typed
}

// src returns the source text of n.
func (c *checker) src(n ast.Node) string { return fixutil.Source(c.pass, n) }
