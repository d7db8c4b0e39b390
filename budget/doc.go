// Package budget is a runtime retry budget: it limits the retries a client
// sends to one dependency to a fraction of its requests, so that a failing
// dependency gets a little more load, not several times more.
//
// A loop that makes "up to 4 attempts" quadruples its load on a dependency
// that is down, and every layer of such loops multiplies again. A budget of
// 10% keeps the load at 1.1× however long the outage lasts, while still
// retrying the occasional failure of a healthy dependency. This is the
// token bucket of gRPC's retry throttling, Finagle's RetryBudget and the
// retry budgets of Envoy; retrylint's checks recommend it and its fixes
// insert it.
//
// The package imports only the standard library and needs Go 1.21.
//
// # Use
//
// Keep one Budget per dependency, usually a package variable, call
// OnRequest once per original request, and TryRetry before each retry;
// when TryRetry reports false, stop and return the last error:
//
//	var inventoryBudget = budget.New()
//
//	func getStock(ctx context.Context, id string) (*Stock, error) {
//		inventoryBudget.OnRequest()
//		var err error
//		for attempt := 0; attempt < 4; attempt++ {
//			if attempt > 0 {
//				if !inventoryBudget.TryRetry() {
//					return nil, err
//				}
//				sleepWithJitter(ctx, attempt)
//			}
//			var s *Stock
//			if s, err = inventory.Get(ctx, id); err == nil {
//				return s, nil
//			}
//		}
//		return nil, err
//	}
//
// The package retry (github.com/retrylint/retrylint/budget/retry) runs such
// a loop for you, with full-jitter backoff, deadline admission and
// Retry-After; the package deadline (…/budget/deadline) propagates the
// request's deadline over HTTP.
//
// The attempt limit stays: the budget bounds the load of an outage, the
// limit bounds the latency of one request. A budget must not be shared by
// two dependencies: the outage of one would spend the other's credit. A
// Registry hands out one budget per dependency name:
//
//	var retries = budget.NewRegistry()
//	...
//	b := retries.For("payments")
//
// # Semantics
//
// A Budget is a token bucket. Each call of OnRequest deposits Ratio tokens
// (default 0.1); each retry that TryRetry allows withdraws one whole token.
// The bucket holds at most Cap tokens (default 100), so credit banked
// during a long healthy period funds at most Cap retries of a sudden
// outage; after that, retries run at Ratio per request. A new Budget
// starts with an empty bucket: a client that starts into an outage gets no
// burst. Balances are fixed-point (units of 1e-6 tokens), so ten deposits
// of 0.1 make exactly one token, and they never leave [0, Cap], even under
// contention.
//
// The floor lets a client with little traffic retry at all: at Ratio 0.1
// a client sending one request a minute would otherwise wait ten minutes
// for its first retry. The floor is a second bucket, funded by time, that
// TryRetry draws on only when the main bucket holds less than one token.
// It earns MinPerSecond retries per second (default 1; 0 turns it off) and
// banks at most one second's worth, rounded down, and at least one: at the
// default, one retry per second, never two in a row after a quiet spell;
// at MinPerSecond(10), up to ten at once after a quiet second. It starts
// full. Precisely, it is the generic cell rate algorithm with interval
// T = 1s / MinPerSecond and tolerance max(0, 1s − T): a floor retry at time
// t is allowed when TAT − t ≤ tolerance, and sets TAT to max(TAT, t) + T,
// where TAT starts at the Budget's creation.
//
// The floor never grants a retry early or beyond its rate, but it may grant
// one late, because refusals in an outage are the hot path and reading the
// clock costs more than the rest of a refusal. After a refused call reads
// the clock and finds the floor empty, the next k refused calls on the same
// processor (see Concurrency) do not read it: k is half the refusals
// expected there, at the rate seen since the previous read, before the next
// floor retry is due, and at most 16. A slow client thus reads the clock on
// every refusal and gets every floor retry on time; a busy one reads it once
// per 16 refusals. Only when the refusal rate drops sharply (a storm ends
// and traffic trickles in) can a floor retry come late, by at most 16
// refused calls on a processor.
//
// A refused retry is final for that request: return the error of the last
// attempt, not a new one, so callers see what actually failed.
//
// # Concurrency
//
// A Budget starts as the single bucket described above. So that calls
// from many cores do not then fight over its cache lines, it spreads over
// the processors that run Go code once calls from two of them have
// collided on it 64 times (two calls updating the same counter at the same
// instant), and stays spread: each processor then has a share that takes
// the deposits of the requests made on it and pays the retries made on it
// first; credit beyond one token and a fraction of the next moves to a part
// shared by all. A budget whose calls do not collide — one goroutine, or
// goroutines that take turns — never spreads and never reads which
// processor runs the caller.
//
// The capacity is split the same way: the balance never leaves [0, Cap],
// and a deposit is dropped only when the bucket is full, but for the room
// (at most one token) that each processor keeps for its own next deposits
// once its retries freed it, so that a full bucket does not move room
// between processors on every call. A spread bucket can thus stop short of
// Cap by one token per processor that makes no more requests. No credit is
// ever lost or created: after concurrent calls, the deposits equal the
// retries paid plus the balance, exactly.
//
// On a spread budget, a TryRetry is refused only when the caller's share
// and the shared part hold less than one token together with — on the
// processor's first refusal and every 16th — the other processors' shares
// (on more than five processors, four of them per look, in turn). So ten
// deposits of 0.1 make a token wherever they were made, but a retry on one
// processor may be refused while another holds credit (less than two
// tokens) for at most 15 refusals.
//
// # Choosing the options
//
// Ratio is the load an outage may add: 0.1 means 1.1×. Cap bounds the
// first burst of an outage; 100 suits a client making tens of requests per
// second or more, a smaller Cap suits a smaller client. MinPerSecond
// should stay well below Ratio times the request rate, or the floor, not
// the ratio, sets the load of an outage.
//
// # Metrics
//
// Metrics returns, per dependency, the signals to watch: the requests, the
// retries allowed and refused (a rising refusal count is the sign of a
// dependency in trouble that the budget is shielding), the achieved retry
// ratio (RetriesAllowed / Requests), the utilisation of the bank (1 −
// Tokens/Cap: 1 when every banked retry is spent), the tokens and the p99
// attempt time. The package depends on no metrics library. To publish every
// budget of a Registry with expvar:
//
//	expvar.Publish("retry_budgets", expvar.Func(func() any { return retries.Metrics() }))
//
// The module github.com/retrylint/retrylint/budget/prometheus (its own, so
// that this one depends on nothing) registers a Prometheus collector of a
// Registry and of the deadline package's counters, under the names of the
// retry-budget checklist (retry_budget_utilisation,
// retry_budget_exhausted_total, retry_amplification_factor,
// deadline_exceeded_total, deadline_header_present_ratio) with the
// dependency as a label; …/budget/otel does the same with OpenTelemetry
// metrics. The windowed retry ratio is the rate of RetriesAllowed over the
// rate of Requests.
//
// # Tests
//
// A budget remembers: a package-level Registry carries the credit that one
// test deposited into the next, so that a test counting a client's
// attempts sees more retries when other tests ran first. Call the
// Registry's Reset at the start of each such test, or let the code under
// test take its Registry or Budget as a parameter and give each test its
// own. The package budgettest (…/budget/budgettest) has budgets that
// always allow or always refuse a retry, and a fake clock (the Clock
// option) that decides when the floor pays one.
//
// # Latency
//
// ObserveLatency records how long an attempt to the dependency took, in a
// fixed histogram of each Budget (872 bytes, no allocation, no lock), and
// LatencyQuantile returns a quantile of the last 1024 to 2048 of them. The
// retry package records each first attempt that succeeds and refuses a
// retry when now + its backoff + the p99 reaches the deadline.
//
// # Cost
//
// OnRequest and TryRetry are safe for concurrent use, never allocate and
// never lock: a few atomic operations on cache lines that only the
// caller's processor writes in the common case. OnRequest never reads the
// clock; TryRetry reads it only to consult an empty floor, as described
// above. On the 2-core development machine (the benchmark of
// internal/budgetbench in the retrylint repository, medians of 5, one
// budget shared by all goroutines), OnRequest and TryRetry together cost
// 26 ns serially and 56 ns from two goroutines on two cores with tokens
// available, 35 and 73 ns in an outage (nine retries in ten refused), and a
// refusal alone 20–30 ns: 4 to 15 times less than one golang.org/x/time/rate
// Limiter.Allow in the same run (310–350 ns).
//
// # Simulation
//
// The tests simulate one layer of a client: 10,000 requests, each retried
// up to 3 times, each attempt failing independently with a given
// probability, with the default budget (Ratio 0.1, Cap 100, floor 1 per
// second, requests 1 ms apart) and without one. Load is attempts per
// original request:
//
//	failing   load, budget   success, budget   load, no budget   success, no budget
//	    1%       1.009×          100.0%             1.009×            100.0%
//	   30%       1.101×           77.3%             1.415×             99.2%
//	  100%       1.101×            0.0%             4.000×              0.0%
//
// With 1% failing the budget refuses nothing; with 30% it keeps the load at
// 1.1× and still rescues a quarter of the requests whose first attempt
// failed. At 100% the load is 1 + Ratio for every Ratio (1.051× at 0.05,
// 1.201× at 0.2); the floor adds at most one retry per simulated second. An
// outage of 2,000 requests after a long healthy period gets 301 retries:
// the Cap of 100, 0.1 per request and one from the floor.
package budget
