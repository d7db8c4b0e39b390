// Package gobreaker is a signature-only stub for tests.
package gobreaker

type Settings struct{ Name string }
type CircuitBreaker struct{}

func NewCircuitBreaker(st Settings) *CircuitBreaker { return nil }
func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) {
	return nil, nil
}
