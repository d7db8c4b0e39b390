package nestedretry

import (
	_ "embed"
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/srcpos"
	"github.com/retrylint/retrylint/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports nested retries, over the flag-bound amplification and
// retry-site analyzers.
var Analyzer = New(amplify.Analyzer)

// New returns the pass requiring the amplification analyzer amp
// (amplify.Analyzer, or one made by amplify.New over a retry-site
// analyzer of its own).
func New(amp *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "nestedretry",
		Doc:      docsection.Must(doc, "nestedretry"),
		URL:      "https://pkg.go.dev/github.com/retrylint/retrylint/passes/nestedretry",
		Requires: []*analysis.Analyzer{amp, suppress.Analyzer},
		Run:      run,
	}
}

// Category of the diagnostics.
const category = "nested_retries"

func run(pass *analysis.Pass) (any, error) {
	res := amplify.Of(pass)
	if res == nil {
		return nil, fmt.Errorf("nestedretry requires the amplify analyzer")
	}
	for _, a := range res.Sites {
		if Reportable(a) {
			report(pass, a)
		}
	}
	return nil, nil
}

// Reportable reports whether a site's nesting is worth a diagnostic: an
// unbudgeted site that retries, whose attempts reach another retry site
// that multiplies by two or more.
func Reportable(a *amplify.SiteAmp) bool {
	s := a.Site
	if s.Guard != nil || a.Exempt != "" || a.Config || !a.Nested() {
		return false
	}
	if s.Bound.Kind == retrysite.BoundCount && s.Bound.N == 1 {
		return false
	}
	return a.Inner.Kind != amplify.Count || a.Inner.Value >= 2
}

// Message returns the diagnostic's text for a reportable site.
func Message(a *amplify.SiteAmp) string {
	var b strings.Builder
	b.WriteString("retries nest: ")
	b.WriteString(ownPhrase(a))
	for _, st := range a.Chain[1:] {
		fmt.Fprintf(&b, " × %s in %s", stepPhrase(st.Factor), st.Func)
	}
	fmt.Fprintf(&b, " = %s calls per request at the deepest dependency when it fails; ", a.Total.Phrase())
	if who := DeadlineOwner(a.Chain); who != "" {
		fmt.Fprintf(&b, "keep the retry in %s, the outermost layer that has the request's deadline and can stop retrying when the caller gives up, and make the other layers fail fast", who)
	} else {
		b.WriteString("no layer has the request's deadline: keep the retry here, the outermost, give it the caller's context, and make the layers below fail fast")
	}
	return b.String()
}

// DeadlineOwner names the outermost function along a chain that knows the
// request's deadline, or "".
func DeadlineOwner(chain []amplify.Step) string {
	for _, st := range chain {
		if st.Deadline && st.Func != "" {
			return st.Func
		}
	}
	return ""
}

func ownPhrase(a *amplify.SiteAmp) string {
	b := a.Site.Bound
	switch {
	case b.Kind == retrysite.BoundCount && b.N > 0:
		return fmt.Sprintf("up to %d attempts here", b.N)
	case b.Kind == retrysite.BoundCount && b.Expr != "":
		return fmt.Sprintf("up to %s attempts here", b.Expr)
	case b.Kind == retrysite.BoundTime:
		return "attempts bounded only by time here"
	case b.Kind == retrysite.Unbounded:
		return "unbounded attempts here"
	}
	return "an unknown number of attempts here"
}

func stepPhrase(m amplify.Mult) string {
	switch m.Kind {
	case amplify.Count:
		return m.Phrase()
	case amplify.UnknownCount:
		return "an unknown number"
	case amplify.TimeBounded:
		return "a time-bounded number"
	}
	return "an unbounded number"
}

func report(pass *analysis.Pass, a *amplify.SiteAmp) {
	d := analysis.Diagnostic{
		Pos:      a.Site.Pos,
		End:      siteEnd(a.Site),
		Category: category,
		Message:  Message(a),
	}
	for _, st := range a.Chain[1:] {
		if p := srcpos.Pos(pass.Fset, st.Pos); p.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{
				Pos:     p,
				Message: fmt.Sprintf("%s retries here (%s)", st.Func, st.Factor),
			})
		}
	}
	suppress.Report(pass, d)
}

// siteEnd returns the end of the smallest node naming the site: the for
// keyword of a loop, the callee of a call.
func siteEnd(s *retrysite.Site) token.Pos {
	if s.Kind == retrysite.Loop {
		return s.Pos + token.Pos(len("for"))
	}
	return token.NoPos
}
