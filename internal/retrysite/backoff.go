package retrysite

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
)

// loopBackoff classifies the wait between the attempts of a loop.
func (a *analyzer) loopBackoff(l *loop) Backoff {
	var b Backoff
	growing := false
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := a.callee(n)
			if fn == nil {
				return true
			}
			path, name := typesx.PkgPath(fn), fn.Name()
			switch {
			case path == "time" && (name == "Sleep" || name == "After" || name == "NewTimer" || name == "Tick" || name == "Reset" || name == "AfterFunc"):
				if b.Delay == NoDelay {
					b.Delay = FixedDelay
				}
			case strings.Contains(path, "backoff") || name == "NextBackOff" || name == "Pause":
				b.Delay, growing = GrowingDelay, true
			case path == "math" && name == "Pow":
				growing = true
			case path == "math/rand" || path == "math/rand/v2":
				b.Jitter = true
			}
			if strings.Contains(strings.ToLower(name), "jitter") {
				b.Jitter = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.MUL_ASSIGN || n.Tok == token.SHL_ASSIGN {
				growing = true
			}
		case *ast.BinaryExpr:
			if n.Op == token.SHL {
				growing = true
			}
		case *ast.SelectStmt:
			if b.Delay == NoDelay {
				b.Delay = SomeDelay
			}
		}
		return true
	})
	if growing && b.Delay != NoDelay {
		b.Delay = GrowingDelay
	}
	return b
}
