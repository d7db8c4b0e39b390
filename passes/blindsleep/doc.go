// Package blindsleep defines an Analyzer that reports retry loops whose
// wait between attempts ignores the context the function inherited.
//
// # Analyzer blindsleep
//
// blindsleep: report retry waits that cancellation cannot interrupt
//
// Context cancellation should interrupt backoff. A request whose caller
// gave up (a client disconnected, an upstream deadline passed) is work
// nobody will read; a retry loop that waits with time.Sleep does not
// notice, sleeps out its backoff and makes its next attempt anyway, so
// during an outage the abandoned requests pile up, each still retrying,
// on top of the callers' own retries.
//
// The pass reports a wait between two attempts of a retry loop (the shared
// retry-site analysis's loops; the wait on some path from a failed attempt
// to the next one) that cancellation does not interrupt, in a function
// that inherited a context: a context.Context parameter (or a type
// parameter constrained by it), an *http.Request, gin, echo and fiber
// request contexts, a value with a Context() method such as a gRPC server
// stream, also in function literals that run while such a function runs
// (not those started by go or defer, or run later). The waits are the
// retry-loop model's (internal/retryloop: Loop.Waits, the waits between
// two attempts); of those, the blind ones:
//   - time.Sleep(d);
//   - a receive from time.After(d), time.Tick(d) or a timer's or ticker's
//     C outside a select, or in a select with that one case;
//   - a call of a sleep helper that sleeps blind: a function of the
//     analyzed code that only computes and waits, one of whose waits is one
//     of the above (a fact, so helpers in other packages count too).
//
// One diagnostic per loop, at its first blind wait, with the inherited
// context and the loop's other blind waits as related information. Its message says that a request its caller gave up on
// keeps making attempts, or, when the loop asks the context whether it is
// done (ctx.Err(), ctx.Done()) on the way to the next attempt, that it
// still waits out the backoff.
//
// Bad:
//
//	for attempt := 0; attempt < 5; attempt++ {
//		if err = c.send(ctx, msg); err == nil {
//			return nil
//		}
//		time.Sleep(backoff(attempt))
//	}
//
// Good:
//
//	for attempt := 0; attempt < 5; attempt++ {
//		if err = c.send(ctx, msg); err == nil {
//			return nil
//		}
//		select {
//		case <-ctx.Done():
//			return ctx.Err()
//		case <-time.After(backoff(attempt)):
//		}
//	}
//
// Not reported: a select with a case for ctx.Done() or any other channel
// that is no timer (a shutdown channel interrupts the wait too), or with
// several timers (a wait and an overall timeout of its own: a designed
// wait, as in a transaction that must finish whatever the caller does); a sleep
// helper that selects on a done channel beside its timer (a fact:
// "sleepHelper(aware)"); waits in functions that inherited no context,
// and in literals started by go or defer; waits before the first attempt
// only (before the loop, or on the way out of it); waits of retry
// libraries, which are the library's to interrupt.
//
// Fix, for time.Sleep(d) and a bare receive <-timer: a select that
// returns when the context is done,
//
//	select {
//	case <-ctx.Done():
//		return <zero values>, ctx.Err()
//	case <-time.After(d):
//	}
//
// and, for a select of one timer, the ctx.Done() case. One fix changes
// every blind wait of the loop; it is offered when each can be changed:
// when the function's results allow that return (none, or an error last
// with zero values for the others), when the context's name denotes the
// inherited context (or one derived from it with context.With...) where
// the wait is, not for sleep helpers, and not in generated files. Returning ctx.Err() reports
// the cancellation rather than the last attempt's error.
//
// Facts: the retry-site analysis's SleepFact marks sleep helpers, blind
// or aware, for the packages that call them.
//
// Limitations: a helper that does more than compute and wait (one that
// logs through a third-party logger, say) is not a sleep helper, so a
// blind wait inside it is not seen; a wait in another function than the
// loop's, other than through a sleep helper, is not followed.
package blindsleep
