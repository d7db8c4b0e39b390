// Package retryapi holds what retrylint knows of retry libraries, as data.
//
// An Entry is one API of a retry library that makes a retry site: a
// retrying call (backoff.Retry(op, b)), a client configuration
// (retryablehttp.NewClient, resty's SetRetryCount) or a policy builder
// (a failsafe-go retry policy, a gRPC service config, the AWS SDK's
// standard retryer). Entries are keyed by the API's full name as
// types.Func.FullName prints it, without type arguments and vendor
// prefix: "github.com/cenkalti/backoff/v4.Retry",
// "(*resty.dev/v3.Client).SetRetryCount"; a composite literal of a
// client type is keyed by the type's name,
// "github.com/hashicorp/go-retryablehttp.Client". An entry holds:
//
//   - its Form, and the argument positions of the operation (Op), the
//     policy (Policy), the first functional option (Options) and the
//     retry count (Count);
//   - the bound of attempts when nothing else is said (Default, with the
//     note messages give), and the wait between attempts (Backoff: delay
//     and jitter);
//   - the named evaluators that read what the table cannot say as data:
//     Eval for the whole call (the JSON of a gRPC service config, a
//     failsafe-go builder chain, the AWS SDK's option closures, the
//     go-grpc-middleware option scan, the k8s wait condition), PolicyEval
//     for the policy argument, GuardEval for the budget hooks the enclosing
//     code installs, ExemptEval for an exemption that depends on the
//     operation; the retry-site analysis registers one function under each
//     name, as staticcheck registers its call checks;
//   - a fixed exemption (Exempt), the fields of a client whose assignment
//     sets its retry count (CountField) or installs hooks a budget may be
//     asked in (GuardFields), and the hook a suggested fix goes through
//     (Hook).
//
// A Library groups the import paths of one library and version family:
// its functional options and builder methods by name (Option: what each
// does to the attempts, the budget and the wait), and the jitter and
// delay facts of its backoff values, which the nojitter pass and the
// retry-site analysis's backoff read. Guards lists the
// budget checks of rate limiters and circuit breakers.
package retryapi

import (
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/internal/typesx"
)

// BudgetPath is the import path of the project's runtime retry budget.
const BudgetPath = "github.com/retrylint/retrylint/budget"

// Form says what a call of an API does.
type Form uint8

const (
	// RetryingCall runs an operation argument with retries.
	RetryingCall Form = iota + 1
	// ClientConfig builds or configures a client whose requests retry.
	ClientConfig
	// PolicyBuilder builds a policy, interceptor or retryer that requests
	// are later run with.
	PolicyBuilder
)

func (f Form) String() string {
	switch f {
	case RetryingCall:
		return "retrying call"
	case ClientConfig:
		return "client configuration"
	case PolicyBuilder:
		return "policy builder"
	}
	return "unknown form"
}

// Entry is one API of a retry library; see the package doc.
type Entry struct {
	Name    string // the key: the full name of the function, method or client type
	Library string // the Library's name
	API     string // how reports name it: "backoff.Retry"
	Form    Form
	// Argument positions; -1 for none.
	Op      int // the operation run once per attempt
	Policy  int // the policy or backoff value
	Options int // the first functional option (the rest follow)
	Count   int // the retry count (resty's SetRetryCount): attempts are one more
	// NArgs, when not 0, is the number of arguments a call must have to be
	// the API (go-retry's Constant(ctx, d, f), not a method of the name).
	NArgs   int
	Default Bound
	Backoff Backoff
	// Sends is set when the call is itself the attempt
	// (retryablehttp.Post): the default client sends it.
	Sends bool
	// OptionsOf says where the options are when not among the call's
	// arguments: Receiver, the constructor call of the receiver
	// (retry.New(opts...).Do(f)).
	OptionsOf string
	// Constructors are the names of the library's functions that build
	// the receiver that OptionsOf reads.
	Constructors []string
	// The named evaluators (see the package doc); "" for none.
	Eval, PolicyEval, GuardEval, ExemptEval string
	// Exempt, when set, says why a site of the API is no outage risk.
	Exempt string
	// CountField is the client field that holds the retry count, and
	// GuardFields are the fields that install hooks a budget may be
	// asked in (retryablehttp's CheckRetry).
	CountField  string
	GuardFields []string
	// BackoffField is the field of a client (the value the call makes, or
	// the literal) that sets its backoff: retryablehttp's Backoff.
	BackoffField string
	// BackoffNote says, for messages, what the default backoff is when it
	// has no jitter: "retryablehttp.NewClient backs off with DefaultBackoff,
	// which has no jitter".
	BackoffNote string
	// Hook names the library hook a budget fix goes through: HookPermanent,
	// HookRetryIf, HookStopBackoff, HookRetriable, HookThrottling,
	// HookQuota, HookCheckRetry or HookCondition; "" when the API has none.
	Hook string
	// NoHook says, for an API with no Hook, why no hook of the library can
	// refuse a retry the way the library ends its retries, and what to do
	// instead: the related line of a finding with no fix. "" for the
	// general reason.
	NoHook string
}

// Receiver is an OptionsOf value: the options of the receiver's
// constructor.
const Receiver = "receiver"

// The hooks a fix uses.
const (
	// HookPermanent: the operation returns backoff.Permanent(err) when
	// the budget refuses.
	HookPermanent = "permanent"
	// HookRetryIf: a RetryIf option asks the budget after the condition
	// in use (retry-go v4 among the call's options, v5 among those of the
	// retrier's constructor).
	HookRetryIf = "retryif"
	// HookStopBackoff: go-retry's backoff is wrapped in a BackoffFunc that
	// stops when the budget refuses the retry the backoff allows; Do then
	// returns the last error. The shortcuts Constant, Exponential and
	// Fibonacci become the Do of their backoff.
	HookStopBackoff = "stopbackoff"
	// HookRetriable: k8s retry.OnError's retriable predicate asks the
	// budget after the predicate in use; OnError then returns the error.
	HookRetriable = "retriable"
	// HookThrottling: the service config gets a retryThrottling entry.
	HookThrottling = "throttling"
	// HookQuota: the retryer's ratelimit.None is replaced, giving back
	// the SDK's retry quota.
	HookQuota = "quota"
	// HookCheckRetry: the go-retryablehttp client's CheckRetry wraps the
	// policy in use and asks the client's own budget.
	HookCheckRetry = "checkretry"
	// HookCondition: the resty client gets a retry condition that asks
	// the client's own budget. resty.dev/v3 has none: its default
	// conditions retry whatever an added one refuses.
	HookCondition = "condition"
)

// Effect is what an option or builder method does.
type Effect uint8

const (
	// Attempts: its first argument is the number of attempts.
	Attempts Effect = iota + 1
	// Retries: its first argument is the number of retries.
	Retries
	// Forever: it makes the retries unbounded (UntilSucceeded).
	Forever
	// TimeCap: it bounds the retries by time; a constant 0 lifts the cap.
	TimeCap
	// Throttle: the library's own throttle guards the retries, unless its
	// argument is nil.
	Throttle
	// Budget: its argument is a budget that guards the retries.
	Budget
	// Condition: a retry condition; a budget it asks guards the retries.
	Condition
	// Disable switches the retries off.
	Disable
	// SetsDelay makes the wait grow.
	SetsDelay
	// SetsJitter adds jitter to the wait.
	SetsJitter
	// SetsBackoff replaces the backoff; the nojitter pass reads its
	// argument.
	SetsBackoff
	// SetsFactor sets the randomization factor; 0 is no jitter.
	SetsFactor
)

// Zero says what a count option's constant 0 (or less) means.
type Zero uint8

const (
	ZeroCounts  Zero = iota // it is a count like any other
	ZeroForever             // no bound: retry-go's Attempts(0)
	ZeroIgnored             // the option sets no limit: backoff v5's WithMaxTries(0)
	NegForever              // a negative count is no bound: failsafe-go's -1
)

// Option is what a functional option or builder method does.
type Option struct {
	Effect Effect
	Zero   Zero
	// Note is what messages say when it makes the retries unbounded.
	Note string
}

// Jitter is the jitter fact of a library object.
type Jitter uint8

const (
	NoJitter   Jitter = iota + 1 // waits without jitter
	Jittered                     // waits with jitter
	Combines                     // combines its arguments (retry-go's CombineDelay)
	Wraps                        // passes its last argument's wait on (a cap, a retry limit)
	WrapsFirst                   // passes its first argument's wait on (backoff's WithMaxRetries)
)

// Library is one retry library and version family.
type Library struct {
	Name string
	// Project names the library across versions: nojitter reads
	// cenkalti/backoff v4 and v5 alike.
	Project string
	Paths   []string
	// Options are the functional options and builder methods by name.
	Options map[string]Option
	// OpaqueOptions: options it cannot see (opts...) leave the bound
	// unknown, whatever the visible ones say.
	OpaqueOptions bool
	// Jitter says, by name, which of the library's functions, function
	// values and types wait with or without jitter.
	Jitter map[string]Jitter
	// JitterHint says, for messages about a backoff of the library made
	// without jitter, how to add it: "wrap it in WithJitter".
	JitterHint string
	// Delays says, by the same names, how the waits of those that make
	// a backoff value (or are one) change between attempts: FixedDelay
	// for a constant wait, GrowingDelay for a growing one.
	Delays map[string]Delay
}

// GuardKind classifies the budget check of a Guard entry.
type GuardKind uint8

const (
	Limiter GuardKind = iota + 1 // a rate limiter's admission
	Breaker                      // a circuit breaker that runs the attempt
)

// Guard is a budget check of a rate-limiter or breaker library.
type Guard struct {
	Kind GuardKind
	// Receiver: the budget is the receiver of the call.
	Receiver bool
}

var (
	byName    = map[string]*Entry{}
	byPath    = map[string]*Library{}
	libraries = map[string]*Library{}
)

func init() {
	for _, l := range librariesTable {
		libraries[l.Name] = l
		for _, p := range l.Paths {
			byPath[p] = l
		}
	}
	for _, e := range entriesTable {
		byName[e.Name] = e
	}
}

// Entries returns the table's entries, in the table's order.
func Entries() []*Entry { return entriesTable }

// Libraries returns the table's libraries, in the table's order.
func Libraries() []*Library { return librariesTable }

// LibraryOf returns the library whose import path is path (vendor prefix
// removed), or nil.
func LibraryOf(path string) *Library { return byPath[typesx.TrimVendor(path)] }

// IsType reports whether t is the named type name of the library lib
// (retryablehttp's RoundTripper), vendored or not.
func IsType(t types.Type, lib, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != name || n.Obj().Pkg() == nil {
		return false
	}
	l := LibraryOf(n.Obj().Pkg().Path())
	return l != nil && l.Name == lib
}

// Named returns the library of the name, or nil.
func Named(name string) *Library { return libraries[name] }

// Of returns the entry of a function or method, or nil. A method is found
// whether the table spells its receiver as a pointer or not.
func Of(fn *types.Func) *Entry {
	if fn == nil || fn.Pkg() == nil || LibraryOf(fn.Pkg().Path()) == nil {
		return nil
	}
	key := Key(fn)
	if e := byName[key]; e != nil {
		return e
	}
	if strings.HasPrefix(key, "(*") {
		return byName["("+key[2:]]
	}
	if strings.HasPrefix(key, "(") {
		return byName["(*"+key[1:]]
	}
	return nil
}

// OfType returns the entry of a client type built by a composite
// literal, or nil.
func OfType(obj *types.TypeName) *Entry {
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	return byName[typesx.TrimVendor(obj.Pkg().Path())+"."+obj.Name()]
}

// Lookup returns the entry of a key, or nil.
func Lookup(name string) *Entry { return byName[name] }

// Key returns the table key of fn: types.Func.FullName without the vendor
// prefix and without the receiver's type arguments.
func Key(fn *types.Func) string {
	fn = fn.Origin()
	path := typesx.TrimVendor(fn.Pkg().Path())
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return path + "." + fn.Name()
	}
	t := sig.Recv().Type()
	star := ""
	if p, ok := t.(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return path + "." + fn.Name()
	}
	return "(" + star + path + "." + n.Obj().Name() + ")." + fn.Name()
}

// Option returns what the library's option or builder method of the name
// does.
func (l *Library) Option(name string) (Option, bool) {
	if l == nil {
		return Option{}, false
	}
	o, ok := l.Options[name]
	return o, ok
}

// GuardOf returns what a call of a function of a limiter or breaker
// library checks: path is the import path (vendor prefix removed), recv
// the receiver's type name or "", name the function's. ok is false when
// the table says nothing; a zero Guard with ok true says the call is no
// check (a rate.Limiter method other than its admissions).
func GuardOf(path, recv, name string) (g Guard, ok bool) {
	if recv != "" {
		if g, ok := guardsTable["("+path+"."+recv+")."+name]; ok {
			return g, true
		}
		if guardTypes[path+"."+recv] {
			return Guard{}, true
		}
	}
	g, ok = guardsTable[path+"."+name]
	if recv == "" {
		g.Receiver = false
	}
	return g, ok
}

// IsGuardPath reports whether path is the import path of a limiter or
// breaker library.
func IsGuardPath(path string) bool { return guardPaths[typesx.TrimVendor(path)] }
