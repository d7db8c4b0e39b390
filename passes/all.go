// Package passes lists retrylint's analyzers, for the command, the
// golangci-lint plugin and the cross-pass tests.
//
// Every pass follows one pattern: a package-level Analyzer whose settings
// are bound to its flags (for the command and go vet), and a constructor
// New(site, cfg) that builds a fresh analyzer from a settings struct,
// requiring the retry-site analyzer site, for drivers that configure
// analyzers without flags (the golangci-lint plugin); nestedretry's
// constructor takes the amplification analyzer (amplify.New(site)) instead.
// New builds the whole set from one Settings value.
package passes

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/passes/blindsleep"
	"github.com/retrylint/retrylint/passes/fixedattempts"
	"github.com/retrylint/retrylint/passes/freshtimeout"
	"github.com/retrylint/retrylint/passes/nestedretry"
	"github.com/retrylint/retrylint/passes/nojitter"
	"github.com/retrylint/retrylint/passes/nonidempotent"
	"github.com/retrylint/retrylint/passes/reusedbody"
	"github.com/retrylint/retrylint/passes/sharedbudget"
)

// All returns every retrylint pass, in a fixed order, with settings bound
// to flags.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		fixedattempts.Analyzer,
		sharedbudget.Analyzer,
		freshtimeout.Analyzer,
		nonidempotent.Analyzer,
		nestedretry.Analyzer,
		nojitter.Analyzer,
		blindsleep.Analyzer,
		reusedbody.Analyzer,
	}
}

// Settings configures every pass at once; the zero value of a field means
// its default. Field names follow the flags (budget-methods is
// BudgetMethods); JSON keys are the flag names.
type Settings struct {
	// Disable lists passes not to run.
	Disable []string `json:"disable"`
	// BudgetMethods are the method names that ask a retry budget
	// (-retrysite.budget-methods).
	BudgetMethods []string `json:"budget-methods"`
	// BudgetFuncs are extra budget checks (-retrysite.budget-funcs).
	BudgetFuncs []string `json:"budget-funcs"`
	// Headers are the idempotency-key header names
	// (-nonidempotent.headers).
	Headers []string `json:"headers"`
	// BudgetModule lets fixes import the budget package where the package
	// does not depend on it yet (-fixedattempts.budget-module).
	BudgetModule bool `json:"budget-module"`
}

// New builds a fresh set of passes from settings, leaving the flag-bound
// analyzers of All untouched.
func New(s Settings) ([]*analysis.Analyzer, error) {
	siteCfg := retrysite.DefaultConfig()
	if s.BudgetMethods != nil {
		siteCfg.BudgetMethods = s.BudgetMethods
	}
	siteCfg.BudgetFuncs = s.BudgetFuncs
	site := retrysite.New(siteCfg)
	all := []*analysis.Analyzer{
		fixedattempts.New(site, &fixedattempts.Config{BudgetModule: s.BudgetModule}),
		sharedbudget.New(site),
		freshtimeout.New(site),
		nonidempotent.New(site, &nonidempotent.Config{Headers: s.Headers}),
		nestedretry.New(amplify.New(site)),
		nojitter.New(site),
		blindsleep.New(site),
		reusedbody.New(site),
	}
	disabled := map[string]bool{}
	for _, name := range s.Disable {
		known := false
		for _, a := range all {
			known = known || a.Name == name
		}
		if !known {
			return nil, fmt.Errorf("disable: no pass named %q", name)
		}
		disabled[name] = true
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		if !disabled[a.Name] {
			out = append(out, a)
		}
	}
	return out, nil
}
