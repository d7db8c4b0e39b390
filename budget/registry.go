package budget

import (
	"sort"
	"sync"
	"sync/atomic"
)

// A Registry holds one Budget per dependency, created on first use with the
// Registry's options. It is safe for concurrent use. Looking up a known
// dependency takes one atomic load and a map lookup, without locking;
// adding one copies the map, so a Registry suits a bounded set of
// dependencies (services, hosts), not per-request keys. The zero Registry
// uses the default options.
type Registry struct {
	cfg *config // nil: defaults
	mu  sync.Mutex
	m   atomic.Pointer[map[string]*Budget] // never modified once stored
}

// NewRegistry returns an empty Registry whose budgets all use opts. Like
// New, it panics if an option is invalid.
func NewRegistry(opts ...Option) *Registry {
	return &Registry{cfg: newConfig("budget.NewRegistry", opts)}
}

// For returns the budget of the named dependency, creating it on first use.
// Name the dependency, not the call: every retry to the same service must
// share its budget, and no two services may share one.
func (r *Registry) For(dependency string) *Budget {
	if m := r.m.Load(); m != nil {
		if b, ok := (*m)[dependency]; ok {
			return b
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.m.Load()
	if old != nil {
		if b, ok := (*old)[dependency]; ok {
			return b
		}
	}
	cfg := r.cfg
	if cfg == nil {
		cfg = newConfig("budget.Registry", nil)
	}
	b := newBudget(cfg)
	m := make(map[string]*Budget, 1+lenOf(old))
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	m[dependency] = b
	r.m.Store(&m)
	return b
}

func lenOf(m *map[string]*Budget) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// Reset forgets every budget of r, so that For creates new ones, with
// empty buckets and full floors, and Each and Metrics see none until then.
// A budget that For returned before keeps working but is no longer r's.
// It is for tests of code that uses a package-level Registry: call it at
// the start of each test (and with t.Cleanup, to leave none behind), so
// that no test retries on credit that another deposited. Code that looks
// its budget up with For at each request sees the reset; code that kept a
// *Budget from before does not. It is safe to call concurrently with For,
// which then returns a budget either from before or from after the reset.
func (r *Registry) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m.Store(nil)
}

// Each calls fn for every dependency that has a budget, sorted by name, for
// example to export their Stats as metrics. It sees the dependencies known
// when it starts; fn may call For.
func (r *Registry) Each(fn func(dependency string, b *Budget)) {
	m := r.m.Load()
	if m == nil {
		return
	}
	names := make([]string, 0, len(*m))
	for name := range *m {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fn(name, (*m)[name])
	}
}
