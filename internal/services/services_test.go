package services_test

import (
	"fmt"
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/internal/services"
)

// show runs the analyzer and reports what it finds: each link at its
// call, each registration at its call, and a main package's binary at
// main; its facts are the analyzer's, so that one run checks both.
var show = &analysis.Analyzer{
	Name:      "show",
	Doc:       "report links and registrations",
	FactTypes: services.Analyzer.FactTypes,
	Run: func(pass *analysis.Pass) (any, error) {
		r, err := services.Analyzer.Run(pass)
		if err != nil {
			return nil, err
		}
		res := r.(*services.Result)
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				for _, l := range res.Links(n) {
					msg := "link " + l.Kind + " " + l.Method
					if l.Transport.Interesting() {
						msg += " ×" + l.Transport.String()
					}
					pass.Reportf(n.Pos(), "%s", msg)
				}
				if fd, ok := n.(*ast.FuncDecl); ok && fd.Name.Name == "main" && pass.Pkg.Name() == "main" {
					var ms []string
					for _, s := range res.Main {
						ms = append(ms, s.Method)
					}
					pass.Reportf(fd.Pos(), "binary serves %s", strings.Join(ms, ", "))
				}
				return true
			})
		}
		for _, s := range res.Served {
			msg := fmt.Sprintf("serves %s by %s", s.Method, s.Name)
			if i := strings.Index(s.Via, "(through "); i >= 0 {
				msg += " " + s.Via[i:]
			}
			pass.Reportf(amplify.Pos(pass.Fset, s.Pos), "%s", msg)
		}
		return nil, nil
	},
}

// TestServices checks the facts (sends, registrations, descriptors, what
// functions serve) and, through show, the links and registrations.
func TestServices(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	pkgs := []string{"ledgerpb", "grpcuse", "httpsend", "routes", "binary", "ledgerconnect", "ledgertwirp", "rpcuse"}
	analysistest.Run(t, dir, show, pkgs...)
}
