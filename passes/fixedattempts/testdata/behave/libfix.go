package libfix

// The driver of rltest.Behave for the libfix package, run with the
// behaving fakes of backoff v4 and v5 and retry-go v4.

import (
	"context"

	"rlbehave"
)

// fake adapts a fake dependency to Store.
type fake struct{ d *rlbehave.Dep }

func (f fake) Get(ctx context.Context) (string, error) { return f.d.Get() }
func (f fake) Put(ctx context.Context) error           { return f.d.Call() }

func BehaveCases() []rlbehave.Case {
	ctx := context.Background()
	down := []rlbehave.Mode{rlbehave.Down}
	return []rlbehave.Case{
		{Name: "Lookup", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return (&Service{inventory: fake{d}}).Lookup(ctx)
		}},
		{Name: "Save", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Service{payments: fake{d}}).Save(ctx)
		}},
		{Name: "Place", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Service{orders: fake{d}}).Place(ctx)
		}},
		// retry-go's error lists the attempts made: a refused retry's
		// lists one.
		{Name: "Settle", Modes: down,
			Refused: map[rlbehave.Mode]string{rlbehave.Down: `All attempts fail:(\n#\d: dependency down)+`},
			Run: func(d *rlbehave.Dep) (string, error) {
				return "", (&Service{ledger: fake{d}}).Settle(ctx)
			}},
	}
}
