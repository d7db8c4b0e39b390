package retrysite

import (
	"testing"

	"github.com/retrylint/retrylint/internal/retryapi"
)

// TestEvaluatorsRegistered checks that every evaluator the retryapi table
// names is registered here, and every registered one is named.
func TestEvaluatorsRegistered(t *testing.T) {
	used := map[string]bool{}
	for _, e := range retryapi.Entries() {
		for _, c := range []struct {
			name string
			ok   bool
		}{
			{e.Eval, evals[e.Eval] != nil},
			{e.PolicyEval, policyEvals[e.PolicyEval] != nil},
			{e.GuardEval, guardEvals[e.GuardEval] != nil},
			{e.ExemptEval, exemptEvals[e.ExemptEval] != nil},
		} {
			if c.name == "" {
				continue
			}
			used[c.name] = true
			if !c.ok {
				t.Errorf("%s: evaluator %q is not registered", e.Name, c.name)
			}
		}
	}
	for _, m := range []map[string]bool{keys(evals), keys(policyEvals), keys(guardEvals), keys(exemptEvals)} {
		for name := range m {
			if !used[name] {
				t.Errorf("evaluator %q is named by no entry", name)
			}
		}
	}
}

func keys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}
