// Package fixedattempts defines an Analyzer that reports retry sites that
// no retry budget guards: bounded only by a per-request count, by time, by
// a bound it cannot count, or by nothing; and calls that give a retry
// helper a nil budget.
//
// # Analyzer fixedattempts
//
// fixedattempts: report retries that no retry budget guards
//
// "Retry up to 3 times" bounds one request but not the fleet: when a
// dependency is down, every caller sends it 3 attempts per request, and
// 10,000 requests per second become 30,000 — on a dependency that is already
// failing. A retry budget (each request deposits a fraction of a token, each
// retry withdraws one, a refused retry returns the original error) caps the
// extra load at that fraction: with a 10% budget, 11,000.
//
// The pass reports every retry site the shared retry-site analysis finds —
// hand-written retry loops, retry-library calls (cenkalti/backoff,
// avast/retry-go, sethvargo/go-retry, go-retryablehttp clients, resty
// SetRetryCount, gRPC service configs with a retryPolicy, go-grpc-middleware
// retry interceptors, failsafe-go retry policies, the AWS SDK v2 standard
// retryer with ratelimit.None, k8s retry.OnError) — that no budget guards,
// whatever makes an attempt fail (an error, an HTTP status, a verdict the
// loop computes). The message names the bound: up to N attempts (N× the
// load when the dependency is down), bounded only by time, as many as a
// library setting or a condition that does not count allows, or unbounded.
// A retry helper's loop is reported where it is written (the message names
// the helper and, when a parameter counts the attempts, that parameter); a
// call that passes a budget-taking helper a nil budget is reported at the
// call.
//
// Bad:
//
//	for i := 0; i < 3; i++ {
//		if err = s.inventory.Reserve(ctx, item); err == nil {
//			return nil
//		}
//		time.Sleep(backoff(i))
//	}
//
// Good:
//
//	inventoryBudget.OnRequest()
//	for i := 0; i < 3; i++ {
//		if err = s.inventory.Reserve(ctx, item); err == nil {
//			return nil
//		}
//		if !inventoryBudget.TryRetry() {
//			return err
//		}
//		time.Sleep(backoff(i))
//	}
//
// Recognised guards: a method named like a withdrawal (TryWithdraw,
// Withdraw, TryTake, Take, TryAcquire, TryRetry, AllowRetry, CanRetry,
// Allow, Spend; see -retrysite.budget-methods) with a bool or error result,
// a function that returns such a check's verdict, golang.org/x/time/rate
// limiters, circuit breakers that run the attempt (sony/gobreaker, hystrix),
// library budgets (gRPC retryThrottling, the AWS SDK retry quota,
// retry-go v5 throttles, failsafe-go WithBudget), and such a check asked
// in a library's hook (a retry-go RetryIf, a go-retry backoff, k8s
// OnError's retriable predicate, a go-retryablehttp CheckRetry, a resty
// retry condition, a backoff operation's deferred check).
//
// Not reported: k8s retry.RetryOnConflict (it retries optimistic-concurrency
// conflicts, never an outage), go-retry operations that never mark an error
// retryable, and calls of the project's own retry helpers (the helper's own
// loop is reported once, where it is written) that pass no nil budget. A
// poll helper of the module (a copy of k8s's wait.ExponentialBackoff) has
// no retry loop of its own: each call whose condition answers (false,
// nil) after a failure is reported where it is, with no fix (the
// condition would have to return the failure once a budget refuses, which
// its related line says).
//
// Fixes:
//   - a retry loop with a budget for its dependency in scope (a field,
//     variable or parameter of a budget type) gets the guard on its failure
//     path (at the top of the body when the paths meet only at its head,
//     or when the first attempt is made before the loop), and a deposit
//     before the first attempt for the budget package's Budget. A refusal
//     breaks out of a loop its condition bounds only where nothing after
//     the loop reads what the condition tested (return "", ctx.Err()
//     after for ctx.Err() == nil would return no error; if i == n would
//     take the refusal for a success); there it returns the failure;
//   - a loop that sends one request variable throughout (or what a
//     wrapper made from it hands back, rr.Request()), whose host the code
//     does not name, gets the budget of the request's host from a
//     registry (hostBudgets.For(req.URL.Host)), where the package can
//     import the budget package (below);
//   - otherwise, where the package can import
//     github.com/retrylint/retrylint/budget (it already depends on it, or
//     -fixedattempts.budget-module is set after "go get" of the module), the
//     loop is guarded by a new package-level budget named after the
//     dependency;
//   - a retry helper (a loop around a call of its function parameter) gets
//     a budget parameter that each of its calls in the package fills with
//     its own dependency's budget, where every use of the helper is such
//     a call; a helper that is a function literal held by a local
//     variable gets the parameter in the literal, and the variable's calls
//     fill it (a literal returned or passed on has callers the package
//     does not see: no fix). An exported helper, which calls in other packages use too,
//     gets an optional one instead, a final variadic parameter
//     (retryBudget ...*budget.Budget) asked only when given
//     (len(retryBudget) > 0 && !retryBudget[0].TryRetry()): the calls of
//     the package pass theirs; a call elsewhere compiles and retries as
//     before, and is reported as giving no budget. So does an unexported
//     helper that a test file calls which this run does not analyze
//     (-test=false): the test's calls leave the parameter out (no fix when
//     such a file uses the helper otherwise, as a value). No fix for an exported
//     helper that is variadic already, or a method of an exported type (an
//     interface of another package may name it); a use of the helper as a
//     function value in another package no longer compiles;
//   - a call that gives a helper's budget parameter of the budget package
//     none (nil, or nothing for an optional one) gets its own dependency's
//     budget, as a loop's fix would name it;
//   - a gRPC service config literal gets a retryThrottling entry
//     ("maxTokens": 10, "tokenRatio": 0.1);
//   - the AWS SDK's ratelimit.None is replaced by the SDK's token bucket;
//   - retry-library calls are guarded through the library's hook, so that a
//     refused retry ends the retrying as the library ends it and returns
//     its error: a cenkalti/backoff operation returns backoff.Permanent(err)
//     when the budget refuses; a retry-go call gets a RetryIf that asks the
//     budget after the condition in use (v5: in the constructor of a
//     retrier made for the call); a sethvargo/go-retry Do or DoValue gets
//     its backoff wrapped in a BackoffFunc that stops when the budget
//     refuses (Constant, Exponential and Fibonacci become the Do of their
//     backoff); a k8s retry.OnError gets a retriable predicate that asks
//     the budget after the one in use; a go-retryablehttp client made by
//     NewClient gets a CheckRetry that wraps the policy in use (the one the
//     function sets, else DefaultRetryPolicy), and a client literal one that
//     wraps the literal's CheckRetry (a literal with none panics on its
//     first request; one the function that makes it also sends with is
//     made per request, and a budget beside it would start full each
//     time: neither gets a fix); either refuses with the policy's
//     error or one naming the status, so that Do fails instead of returning
//     a 503 as a success; a resty v2 client gets a retry condition that
//     asks the budget, where the function adds no condition of its own
//     (resty retries when any holds). An HTTP client's budget is its own,
//     made beside it, and deposits when a request's retrying ends. No fix
//     for resty.dev/v3 (its default conditions retry whatever an added one
//     refuses), failsafe-go policies (a policy serves whatever calls run
//     with it; AbortIf returns the last error where the policy returns
//     retrypolicy.ExceededError, and WithBudget limits retries in flight,
//     not their share of the requests, and replaces the error),
//     go-grpc-middleware's interceptors (v2's WithRetriable is asked only
//     about failures, so a budget in it gets no deposit from the calls
//     that succeed; v1 retries by status code alone: a service config
//     with retryThrottling is the alternative), a retry-go v5 retrier
//     that serves other calls, or package-level clients.
//     The finding's related line says why.
//
// The guard sits on the failure path, so the first attempt never asks the
// budget. Where the loop or the library tells whether another attempt
// follows (a counted loop's header, go-retry's backoff), it asks only
// then; elsewhere (a backoff operation, retry-go's RetryIf, k8s OnError's
// predicate, a go-retryablehttp CheckRetry, a loop bounded by time) it
// asks after the last failure too, once more than
// needed, which only makes the budget slightly stricter.
//
// Flags:
//
//	-fixedattempts.budget-module  offer fixes that import the budget package
//	                              even where the package does not depend on it
//	                              yet (default false)
package fixedattempts
