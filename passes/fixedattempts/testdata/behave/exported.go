package exported

// The driver of rltest.Behave for the exported package. The calls of the
// package pass their own dependency's budget to the fixed helpers; a call
// that passes none, as one in another package does, retries as it did
// before the fix (the Outside cases: run in the healthy mode only, their
// own dependency always down, they return the attempts each call made).

import (
	"context"
	"fmt"
	"regexp"

	"rlbehave"
)

// fake adapts a fake dependency to Store.
type fake struct{ d *rlbehave.Dep }

func (f fake) Put(ctx context.Context, v string) error { return f.d.Call() }

var healthy = &rlbehave.Dep{Mode: rlbehave.Healthy}

// outside counts the attempts of one call that passes no budget, against
// a dependency that is down.
func outside(call func(op func() error) error) (string, error) {
	d := &rlbehave.Dep{Mode: rlbehave.Down}
	err := call(d.Call)
	return fmt.Sprint(d.Calls), err
}

func BehaveCases() []rlbehave.Case {
	ctx := context.Background()
	down := []rlbehave.Mode{rlbehave.Down}
	return []rlbehave.Case{
		{Name: "Reserve", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{inventory: fake{d}, payments: fake{healthy}}
			if err := s.Charge(ctx, "1"); err != nil {
				return "", err
			}
			return "", s.Reserve(ctx, "x")
		}},
		{Name: "Charge", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{inventory: fake{healthy}, payments: fake{d}}
			if err := s.Reserve(ctx, "x"); err != nil {
				return "", err
			}
			return "", s.Charge(ctx, "1")
		}},
		{Name: "Post", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			l := &Ledger{db: fake{d}}
			return l.Post(ctx, "e")
		}},
		// A refusal leaves by the verdict's false branch, which counts
		// the attempts made.
		{Name: "Write", Modes: down, Refused: map[rlbehave.Mode]string{rlbehave.Down: `after [12] attempts: ` + regexp.QuoteMeta(rlbehave.ErrDown.Error())},
			Run: func(d *rlbehave.Dep) (string, error) {
				j := &Journal{log: fake{d}}
				return "", j.Write(ctx, "line")
			}},
		{Name: "OutsideAttempt", Run: func(*rlbehave.Dep) (string, error) {
			return outside(func(op func() error) error {
				return Attempt(ctx, func(context.Context) error { return op() })
			})
		}},
		{Name: "OutsideRetry", Run: func(*rlbehave.Dep) (string, error) {
			return outside(func(op func() error) error {
				return Retry(ctx, func(context.Context) error { return op() })
			})
		}},
		{Name: "OutsideDo", Run: func(*rlbehave.Dep) (string, error) {
			return outside(func(op func() error) error {
				_, err := Do(ctx, 4, func(context.Context) (int, error) { return 0, op() })
				return err
			})
		}},
		{Name: "OutsideUnused", Run: func(*rlbehave.Dep) (string, error) {
			return outside(func(op func() error) error { return Unused(op) })
		}},
	}
}
