// Package sharedbudget defines an Analyzer that reports retry budgets
// that guard retries to two or more different dependencies.
//
// # Analyzer sharedbudget
//
// sharedbudget: report retry budgets shared by several dependencies
//
// A retry budget caps retries at a share of a dependency's requests, so
// that a failing dependency gets little more than its normal load. One
// budget guarding retries to two dependencies lets a broken one drain the
// credit the healthy one needs: while payments is down its retries use up
// the tokens, and the first blip of inventory then finds no retry left.
// Two unrelated services degrade together.
//
// Bad:
//
//	var defaultBudget = budget.New()
//
//	func (s *Service) reserve(ctx context.Context) error {
//		for {
//			err := s.inventory.Reserve(ctx)
//			if err == nil || !defaultBudget.TryRetry() {
//				return err
//			}
//		}
//	}
//
//	func (s *Service) charge(ctx context.Context) error {
//		for {
//			err := s.payments.Charge(ctx)
//			if err == nil || !defaultBudget.TryRetry() {
//				return err
//			}
//		}
//	}
//
// Good: one budget per dependency,
//
//	var inventoryBudget = budget.New()
//	var paymentsBudget = budget.New()
//
// or a budget.Registry keyed by the dependency (reg.For("inventory")).
//
// The pass reads the retry sites of the shared retry-site analysis and
// their budget guards. A budget is
//   - a package variable;
//   - a struct field: the same field of the same type is one budget
//     (s.budget in every method of Service);
//   - a value passed into a retry helper at its budget parameter, also
//     when the helper lives in another package;
//   - a registry entry or map element taken with a constant key
//     (reg.For("default"), budgets["default"]);
//   - a parameter of a function of the package: it is whatever the
//     function's callers in the package pass (a budget above, or one a
//     caller makes: a local variable initialised by a constructor and never
//     assigned again, b := budget.New(), or a constructor call in the
//     argument), followed up to three callers up; a function with no
//     caller in the package keeps the parameter as its budget.
//
// A local variable stands for its initialiser when it is never assigned
// again. A key that is not a constant (reg.For(host), budgets[dep]) is
// taken to follow the dependency: not reported. Budgets built in place in
// the retrying function itself (a per-call counter), parameters of
// function literals, calls through function values or interfaces, and
// functions that check a budget they do not take are not followed.
//
// A guard counts when it asks a budget object: a withdrawal method of any
// type the shared analysis recognises (the budget package's TryRetry,
// TryWithdraw, Allow, ...), a golang.org/x/time/rate.Limiter, a retry
// helper's budget parameter, failsafe-go's WithBudget, or a method listed
// in -retrysite.budget-funcs. Circuit breakers are not budgets. A rate
// limiter (or any budget) asked before every attempt, the first included
// (in the loop condition, or at the top of the loop body or operation on
// every path), guards those retries as much as one asked after a failure
// (docs/design.md, Budgets): one limiter asked by retries to two
// dependencies is a shared budget. A budget asked only before the loop
// guards no retry.
//
// Dependencies are those of the shared analysis (retrysite.Deps, the
// model fixedattempts names its budgets after), trusted only where they
// identify the remote end: the root object of the call's receiver (the
// field s.inventory of a type of the package, also inside a struct of the
// package's own, s.deps.inventory; a package variable; the fields of
// another package's client type are parts of that one client, so
// s.gh.Repos and s.gh.Issues are both gh), the callee's package
// for package-level functions of another package, the URL host of an HTTP
// request when it is a constant or comes from one field, the gRPC client
// connection or stub (a stub built in place, pb.NewInventoryClient(conn),
// is its connection). A receiver that is a parameter, a function of the
// package itself, a transport package's function (net/http.Get with an
// unknown URL) and an HTTP client whose URL is unknown give no dependency.
// A site whose attempts have no known dependency, or several, adds no
// dependency: the pass does not guess. When every attempt targets a
// parameter of the site's function — the URL or address an HTTP send or a
// transport's function is given (also url + "/path" and
// fmt.Sprintf("%s/path", url)), or the receiver of the attempt's method —
// the dependency is what each caller in the package passes there: a
// constant URL's host, a field, a package variable, a client. A helper
// that retries its URL parameter with one budget, called for two hosts,
// shares the budget between them.
//
// The AWS SDK v2 counts too: its retry quota lives in each retryer, and
// aws.Config.Retryer is a factory called once per service client. A
// factory that returns one captured instance (in an aws.Config literal,
// cfg.Retryer = ..., or config.WithRetryer), or one instance set as
// Options.Retryer, shared by the clients of two services (s3.NewFromConfig,
// dynamodb.NewFromConfig) is reported.
//
// One diagnostic per budget, at its declaration when the package declares
// it (for a budget a caller makes, its creation; for a parameter without
// callers, the parameter), else at its first use, naming the
// dependencies, with related information at each use (for a budget or a
// dependency passed by a caller, at the caller's call).
//
// Fixes, when every use of the budget is in one file of the package,
// names the budget itself rather than a parameter the callers fill, and
// belongs to one dependency (a use in a guarded site belongs to its
// dependency; another use, such as a deposit before the loop, to the one
// dependency its function retries):
//   - an unexported package variable or struct field initialised once with
//     a constructor (a New... call, a composite literal) is split into one
//     budget per dependency, named after it (inventoryBudget), with the
//     same initialiser, and each use points at its own;
//   - a budget.Registry entry with a constant key takes the dependency's
//     name as its key;
//   - an AWS retryer factory returns a new retryer, built with the shared
//     one's initialiser, and the shared one is removed.
//
// The pass has no flags of its own: the budget checks it recognises
// follow -retrysite.budget-methods and -retrysite.budget-funcs.
//
// Limitations: a budget shared across packages (a package variable used
// by two packages) is judged in each package alone, and so are budgets
// and dependencies passed by callers in other packages; a function that
// checks a budget it does not take as receiver or argument hides which
// budget it is.
package sharedbudget
