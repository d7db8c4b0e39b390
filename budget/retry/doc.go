// Package retry runs an operation with retries that a failing dependency
// can afford: attempts counted from the first, exponential backoff with
// full jitter, a classifier of retryable errors, the dependency's retry
// budget asked before each retry, the context checked before each attempt
// and during each wait, no retry that cannot finish before the deadline,
// and the dependency's Retry-After honoured within the deadline and the
// budget.
//
//	var inventoryBudget = budget.New() // one per dependency
//
//	func getStock(ctx context.Context, id string) (*Stock, error) {
//		return retry.DoValue(ctx, retry.Policy{
//			MaxAttempts:  4,
//			InitialDelay: 50 * time.Millisecond,
//			MaxDelay:     time.Second,
//			Budget:       inventoryBudget,
//			ShouldRetry:  retry.IsTransient,
//			RetryAfter:   retry.HTTPRetryAfter,
//		}, func(ctx context.Context) (*Stock, error) {
//			return inventory.Get(ctx, id)
//		})
//	}
//
// A budget keeps the load that retries add to a failing dependency at
// 1 + Ratio (1.1× by default) however long the outage lasts; MaxAttempts
// alone would multiply it by MaxAttempts at each layer of retries.
//
// # Why Do stopped
//
// When the budget, the deadline, the classifier, the attempt count or the
// context stops the retries, Do returns an *Error: it wraps the error of
// the last attempt, so errors.Is and errors.As see that error as if Do were
// not there, and its message starts with it; and it wraps the reason, so
// errors.Is(err, ErrBudget) tells a refused retry (the dependency is
// failing and the budget is shielding it) from ErrDeadline (no time left
// for a retry), ErrAttempts (MaxAttempts spent), ErrFinal (ShouldRetry
// said the error is final) and the context's own error. Do returns nil
// when an attempt succeeds, and the context's error alone when it ended
// before the first attempt.
//
// # Observing retries
//
// Policy.OnRetry is called before each retry's wait, with the attempt that
// failed, its error and the wait (like Notify in cenkalti/backoff and
// OnRetry in retry-go and failsafe-go): log the retry, count it, or add an
// event to the request's span there. A refused retry is not announced; the
// error of Do says it.
//
// # Deadlines
//
// When the context has a deadline, Do refuses a retry for which now + the
// wait + the dependency's observed p99 attempt time reaches the deadline,
// and returns at once, freeing the caller instead of making it wait for an
// attempt that would be cut off. The p99 comes from the budget
// (budget.Budget.LatencyQuantile): Do records the duration of each first
// attempt that succeeds, the healthy traffic whose service time a retry
// needs; failed attempts and retries are not recorded, so that an outage
// does not stretch the estimate. Without a budget, or before any first
// attempt has succeeded, only the wait is checked.
//
// # Errors
//
// An invalid Policy (MaxAttempts below 1, a negative delay, a MaxDelay
// below InitialDelay), a nil context or a nil operation make Do return an
// error wrapping ErrInvalidPolicy before any attempt; Do never panics on
// them. Policy.Validate makes the same check where the Policy is built.
//
// # Classifying errors
//
// HTTPErrorOf turns a failed response into an *HTTPError (its status,
// Retry-After and URL), and HTTPStatusError a bare status. IsTransient,
// for ShouldRetry, retries what is worth it: a 5xx but 501 and 505, a
// 429, and a network timeout. IsServerError, IsTooManyRequests and
// IsTimeout test each class, and AnyOf combines classifiers.
//
// # Tests
//
// Policy.Clock replaces the system clock: with the Clock of
// github.com/retrylint/retrylint/budget/budgettest, Do's waits return at
// once and the tests of a retrying service run in no time. That package
// also has budgets that always allow or always refuse a retry.
//
// The package imports only the standard library and the budget package.
package retry
