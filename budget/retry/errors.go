package retry

import (
	"errors"
	"strconv"
	"strings"
)

// The reasons why Do stopped retrying, which the *Error it returns
// matches with errors.Is. A context that ended is the fifth reason: the
// *Error then matches the context's error (context.Canceled or
// context.DeadlineExceeded) instead.
var (
	// ErrAttempts: the last allowed attempt (MaxAttempts) failed.
	ErrAttempts = errors.New("retry: attempts exhausted")

	// ErrBudget: the dependency's retry budget refused the retry, the
	// sign of a dependency in trouble that the budget is shielding.
	ErrBudget = errors.New("retry: budget refused the retry")

	// ErrDeadline: the wait before the retry and the dependency's p99
	// attempt time did not fit before the context's deadline, so Do
	// returned at once instead of making an attempt that would be cut
	// off. The deadline itself has not passed yet.
	ErrDeadline = errors.New("retry: no time for a retry before the deadline")

	// ErrFinal: ShouldRetry reported the error as final, not worth
	// retrying.
	ErrFinal = errors.New("retry: error is not retryable")
)

// An Error is what Do returns when it stops after a failed attempt: the
// error of the last attempt, and why there was no other. It matches both
// with errors.Is and errors.As, so callers test the operation's errors as
// if Do were not there, and the reason when they need it:
//
//	err := retry.Do(ctx, policy, op)
//	switch {
//	case errors.Is(err, retry.ErrBudget):
//		// the dependency is failing and the budget shields it
//	case errors.As(err, &notFound):
//		// the operation's own error, through Do
//	}
//
// When the operation is itself a Do (one layer of retries calling
// another), errors.Is also sees the inner Do's reason; errors.As finds the
// outermost *Error first.
type Error struct {
	// Err is the error of the last attempt, as the operation returned it.
	Err error
	// Reason is why Do stopped: ErrAttempts, ErrBudget, ErrDeadline,
	// ErrFinal, or the context's error.
	Reason error
	// Attempts is the number of attempts made, the first included.
	Attempts int
}

// Error returns the last attempt's message, followed by why Do stopped.
func (e *Error) Error() string {
	if e.Err == nil {
		return "retry: stopped without an error"
	}
	if e.Reason == nil {
		return e.Err.Error()
	}
	var sb strings.Builder
	sb.WriteString(e.Err.Error())
	sb.WriteString(" (retries stopped after ")
	sb.WriteString(strconv.Itoa(e.Attempts))
	if e.Attempts == 1 {
		sb.WriteString(" attempt")
	} else {
		sb.WriteString(" attempts")
	}
	if !errors.Is(e.Err, e.Reason) || isReason(e.Reason) { // a context's error only once
		sb.WriteString(": ")
		sb.WriteString(strings.TrimPrefix(e.Reason.Error(), "retry: "))
	}
	sb.WriteString(")")
	return sb.String()
}

// Unwrap returns the last attempt's error and the reason, for errors.Is
// and errors.As.
func (e *Error) Unwrap() []error {
	if e.Reason == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Reason}
}

// isReason reports whether err is one of the package's reasons.
func isReason(err error) bool {
	return err == ErrAttempts || err == ErrBudget || err == ErrDeadline || err == ErrFinal
}
