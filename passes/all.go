// Package passes lists retrylint's analyzers, for the command, the
// golangci-lint plugin and the cross-pass tests.
package passes

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/passes/freshtimeout"
)

// All returns every retrylint pass, in a fixed order.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		freshtimeout.Analyzer,
	}
}
