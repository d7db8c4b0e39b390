// Package nojitter defines an Analyzer that reports retries whose waits
// between attempts have no random term.
//
// # Analyzer nojitter
//
// nojitter: report retry waits without jitter
//
// A budget bounds volume, not timing: ten percent of traffic arriving as
// one synchronised burst is still a spike. Clients that failed together
// (the dependency went down for all of them at once) and wait the same
// 250ms, or the same 100ms, 200ms, 400ms, come back together, in waves
// that hit the dependency just as it recovers. A random term in each wait
// (jitter) spreads them out.
//
// The pass reports a retry loop (the shared retry-site analysis's loops)
// whose every wait between two attempts is deterministic:
//   - constant: time.Sleep(250*time.Millisecond), time.After(d) with d a
//     parameter, a field or a variable set before the loop;
//   - growing with the attempt with no random term:
//     time.Duration(1<<attempt) * base, attempt * 200ms, d *= 2 in the loop,
//     min(d, maxDelay), a table of delays indexed by the attempt, a
//     function of the analyzed code computing it so (a fact).
//
// The waits are time.Sleep, time.After, time.NewTimer, time.Tick, a
// timer's or ticker's Reset, a receive from a ticker made before the loop
// with a period, and a call taking a context and a duration whose name
// says it waits (sleep(ctx, d), gax.Sleep). The diagnostic is at the first
// wait, with the loop as related information.
//
// It also reports retry libraries configured without jitter (at the
// option or construction that makes them so):
//   - cenkalti/backoff: an ExponentialBackOff with RandomizationFactor 0
//     (a literal that leaves it out, WithRandomizationFactor(0), or the
//     field set to 0), and a ConstantBackOff, in Retry, RetryNotify,
//     RetryWithData and the v5 WithBackOff, through WithMaxRetries and
//     WithContext;
//   - avast/retry-go: DelayType(retry.FixedDelay), DelayType(retry.BackOffDelay),
//     a CombineDelay of those, or a delay function with no random term;
//   - sethvargo/go-retry: NewExponential, NewConstant and NewFibonacci not
//     wrapped in WithJitter, WithJitterPercent or WithFullJitter, and the
//     Constant, Exponential and Fibonacci shortcuts;
//   - go-retryablehttp: a Backoff of DefaultBackoff (the default of
//     NewClient, when the client does not leave the function, and of the
//     package-level Get, Head, Post and PostForm), or a Backoff function
//     with no random term.
//
// Bad:
//
//	for attempt := 0; attempt < 4; attempt++ {
//		if err = c.send(ctx, msg); err == nil {
//			return nil
//		}
//		time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond)
//	}
//
// Good:
//
//	time.Sleep(rand.N(time.Duration(1<<attempt) * 100 * time.Millisecond)) // math/rand/v2: full jitter
//
// Not reported: a wait with a random term (math/rand, math/rand/v2,
// crypto/rand, a function whose result depends on one, known through a
// fact); a wait the pass cannot see into (a value from the server such as
// Retry-After, a call of code it does not analyze, a backoff object's
// NextBackOff); a loop where one wait is such a value; retries without any
// wait (a different problem); gRPC service configs (gRPC jitters its
// backoff itself), cenkalti's default ExponentialBackOff and retry-go's
// default delay (both jitter); the retryablehttp jitter backoffs; sites
// that are not retries by the model.
//
// Fix, for loops: full jitter on every wait, rand.N(d) from math/rand/v2
// where the file's Go version has it (1.22), else
// time.Duration(rand.Int63n(int64(d))) from math/rand; a cap inside the
// computed wait stays. Both panic on a duration that is not positive, so a
// wait that is not a positive constant becomes rand.N(max(d, 1)) (needs Go
// 1.21 for max; none before). No fix for library configurations, waits on
// a ticker, or generated files.
//
// Facts: none of its own. What a wait's duration depends on is
// internal/durkind's, shared with the retry-site analysis's backoff; the
// functions of other packages are known through the retry-site
// analysis's DelayFact: those with one numeric result whose result depends
// on a random source ("delay(random)"), and those returning a
// time.Duration computed deterministically from their inputs
// ("delay(deterministic)").
package nojitter
