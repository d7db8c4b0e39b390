// Package budgetbench compares the cost of guarding a retry with the
// runtime retry budget (github.com/retrylint/retrylint/budget) against
// golang.org/x/time/rate's Limiter.Allow, the usual alternative, in the
// same run: one budget shared by every goroutine, in the healthy state
// (tokens available), the outage steady state (nine retries in ten
// refused) and the refusal-only path, serially and from one goroutine per
// -cpu (RunParallel).
//
// It holds only benchmarks, kept out of the budget module so that module
// depends on nothing but the standard library. They run in workspace mode
// (go.work at the repository root):
//
//	go test -run '^$' -bench . -benchmem -count 5 -cpu 1,2 ./internal/budgetbench/ ./budget/
package budgetbench
