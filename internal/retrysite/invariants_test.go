package retrysite_test

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/retrylint/retrylint/internal/retrysite"
)

// within reports whether n lies inside outer.
func within(n, outer ast.Node) bool {
	return n != nil && outer != nil && outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// checkSite returns what is wrong with a site the analysis returned, or
// nil: the invariants every pass relies on without checking them.
func checkSite(s *retrysite.Site) error {
	if s.Node == nil || !s.Pos.IsValid() {
		return fmt.Errorf("%s site without a node or a position", s.Kind)
	}
	if s.Pos < s.Node.Pos() || s.Pos >= s.Node.End() {
		return fmt.Errorf("%s site's position is outside its node", s.Kind)
	}
	if s.Func != nil && !within(s.Node, s.Func) {
		return fmt.Errorf("%s site outside its enclosing function", s.Kind)
	}
	switch s.Kind {
	case retrysite.Loop:
		switch s.Node.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			return fmt.Errorf("loop site on a %T", s.Node)
		}
		l := s.Loop
		if l == nil {
			return fmt.Errorf("loop site without its Loop")
		}
		if l.Stmt != s.Node || l.Func != s.Func {
			return fmt.Errorf("the Loop is not the site's loop")
		}
		if l.Attempt == nil || !within(l.Attempt, l.Stmt) {
			return fmt.Errorf("the attempt is not in the loop")
		}
		if l.Failures == 0 || l.Unguarded&^l.Failures != 0 {
			return fmt.Errorf("failures %s, unguarded %s", l.Failures, l.Unguarded)
		}
		if len(l.Meets) > 0 && (l.Meet != l.Meets[0].Point || l.Err != l.Meets[0].Err) {
			return fmt.Errorf("Meet is not the first of Meets")
		}
		for _, m := range l.Meets {
			if m.Stmt != nil && !within(m.Stmt, l.Body) {
				return fmt.Errorf("a meet point outside the body")
			}
		}
		for _, g := range l.Guards {
			if !within(g.Call, l.Stmt) {
				return fmt.Errorf("a guard outside the loop")
			}
		}
		if len(l.Guards) != len(s.LoopGuards) {
			return fmt.Errorf("%d guards in the Loop, %d on the site", len(l.Guards), len(s.LoopGuards))
		}
		for _, w := range l.Waits {
			if !within(w.At, l.Stmt) {
				return fmt.Errorf("a wait that blocks outside the loop")
			}
			if w.Call != nil && !within(w.Call, l.Func) {
				return fmt.Errorf("a wait whose duration is set outside the function")
			}
		}
		for _, e := range l.BoundExits {
			if !within(e.Node, l.Stmt) {
				return fmt.Errorf("a bound exit outside the loop")
			}
		}
		if l.Bound != s.Bound && !l.TickerBound {
			return fmt.Errorf("the site's bound %s is not the Loop's %s", s.Bound, l.Bound)
		}
		if s.Op != nil {
			return fmt.Errorf("a loop site with an operation argument")
		}
	case retrysite.Library, retrysite.HelperCall:
		switch s.Node.(type) {
		case *ast.CallExpr:
		case *ast.CompositeLit: // a library's configuration literal
			if s.Kind != retrysite.Library {
				return fmt.Errorf("%s site on a composite literal", s.Kind)
			}
		default:
			return fmt.Errorf("%s site on a %T", s.Kind, s.Node)
		}
		if s.Loop != nil || len(s.LoopGuards) > 0 {
			return fmt.Errorf("%s site with a Loop", s.Kind)
		}
		if s.API == "" {
			return fmt.Errorf("%s site without its API", s.Kind)
		}
		if s.Kind == retrysite.Library && s.Entry == nil {
			return fmt.Errorf("library site %s without its table entry", s.API)
		}
		if c := s.Client; c != nil {
			if _, ok := s.Node.(*ast.CallExpr); !ok || s.Kind != retrysite.Library || c.Kind != retrysite.Library || c.Client != nil || c.Entry != s.Entry {
				return fmt.Errorf("send %s whose client is not a library configuration of its entry", s.API)
			}
		}
		if s.Kind == retrysite.HelperCall && s.Helper == nil {
			return fmt.Errorf("helper call %s without its HelperFact", s.API)
		}
	default:
		return fmt.Errorf("site of kind %d", s.Kind)
	}
	if b := s.Bound; b.Kind == retrysite.BoundCount && b.N <= 0 && b.Expr == "" {
		return fmt.Errorf("a count bound with neither a number nor an expression")
	}
	if b := s.Bound; b.Kind != retrysite.BoundCount && (b.N != 0 || b.Expr != "") {
		return fmt.Errorf("a %s bound with a count", b.Kind)
	}
	for _, at := range s.Attempts {
		if at.Call == nil || at.Call.Pos() == token.NoPos {
			return fmt.Errorf("an attempt without its call")
		}
	}
	return nil
}
