package nojitter

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
)

// checkLibrary reports a retry-library site whose backoff, as the
// retry-site analysis reads the library's configuration (the same reading
// that gives the audit its backoff column), waits without jitter: at the
// place the code sets it (Site.BackoffAt), in the analysis's words.
func (c *checker) checkLibrary(s *retrysite.Site) {
	at := s.BackoffAt
	if at == nil || s.BackoffNote == "" || s.Backoff.Jitter || s.Backoff.Delay == retrysite.NoDelay || c.done[at.Pos()] {
		return
	}
	c.done[at.Pos()] = true
	d := analysis.Diagnostic{
		Pos: at.Pos(), End: at.End(), Category: catLibrary,
		Message: s.BackoffNote + ": clients that failed together retry together; add jitter",
	}
	if !within(at, s.Node) {
		d.Related = []analysis.RelatedInformation{{Pos: s.Pos, Message: "retried by " + s.API}}
	}
	suppress.Report(c.pass, d)
}

// within reports whether n lies inside outer.
func within(n, outer ast.Node) bool { return outer.Pos() <= n.Pos() && n.End() <= outer.End() }
