// Package budget is a signature-only stub for tests of the runtime
// retry budget.
package budget

type Budget struct{}
type Option func(*Budget)
type Registry struct{}
type Stats struct {
	Requests, RetriesAllowed, RetriesRefused uint64
	Tokens                                   float64
}

func New(opts ...Option) *Budget           { return nil }
func Ratio(r float64) Option               { return nil }
func Cap(c float64) Option                 { return nil }
func MinPerSecond(f float64) Option        { return nil }
func (b *Budget) OnRequest()               {}
func (b *Budget) TryRetry() bool           { return true }
func (b *Budget) Stats() Stats             { return Stats{} }
func NewRegistry(opts ...Option) *Registry { return nil }
func (r *Registry) For(dep string) *Budget { return nil }
