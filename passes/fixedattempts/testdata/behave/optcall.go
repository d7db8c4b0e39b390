package optcall

// The driver of rltest.Behave for the optcall package: the call that gave
// a retry helper's optional budget none passes its own dependency's.
// (Charge's With panics before the fix: a nil *budget.Budget.)

import (
	"context"

	"rlbehave"
)

// fake adapts a fake dependency to Store.
type fake struct{ d *rlbehave.Dep }

func (f fake) Put(ctx context.Context, v string) error { return f.d.Call() }

func BehaveCases() []rlbehave.Case {
	ctx := context.Background()
	down := []rlbehave.Mode{rlbehave.Down}
	return []rlbehave.Case{
		{Name: "Reserve", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{inventory: fake{d}}
			return "", s.Reserve(ctx, "x")
		}},
	}
}
