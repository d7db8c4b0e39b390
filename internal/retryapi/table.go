package retryapi

// The libraries, by family. A library's Options and Jitter are keyed by
// the short name of the option, function, value or type.

// Library names.
const (
	BackoffV4     = "backoff.v4"
	BackoffV5     = "backoff.v5"
	RetryGo       = "retrygo"
	RetryGoV5     = "retrygo.v5"
	GoRetry       = "goretry"
	RetryableHTTP = "retryablehttp"
	Resty         = "resty"
	GRPC          = "grpc"
	GRPCRetry     = "grpcretry"
	Failsafe      = "failsafe"
	AWS           = "aws"
	K8sRetry      = "k8s"
	K8sWait       = "k8swait"
	RetryDo       = "retrydo"
	Gax           = "gax"
)

// Projects: a library across its versions.
const (
	ProjectBackoff       = "cenkalti/backoff"
	ProjectRetryGo       = "avast/retry-go"
	ProjectGoRetry       = "sethvargo/go-retry"
	ProjectRetryableHTTP = "hashicorp/go-retryablehttp"
	ProjectResty         = "go-resty/resty"
)

// The named evaluators; the retry-site analysis registers a function
// under each.
const (
	EvalServiceConfig = "grpc.serviceconfig" // the JSON of a gRPC service config
	EvalFailsafeChain = "failsafe.chain"     // a failsafe-go builder chain
	EvalAWSOptions    = "aws.options"        // the AWS SDK's option closures
	EvalInterceptor   = "grpcretry.options"  // the go-grpc-middleware option scan
	EvalWaitCondition = "k8swait.condition"  // a k8s wait condition that retries failures

	PolicyBackoffV4 = "backoff.v4.policy" // a cenkalti/backoff v4 BackOff value
	PolicyGoRetry   = "goretry.policy"    // a sethvargo/go-retry Backoff value
	PolicyK8s       = "k8s.backoff"       // a k8s wait.Backoff value
	PolicyRetryDo   = "retrydo.policy"    // the project's retry.Policy literal

	GuardResty     = "resty.conditions" // the retry conditions and hooks a resty client is given
	GuardRetriable = "k8s.retriable"    // a budget asked by k8s retry.OnError's retriable predicate

	ExemptGoRetry = "goretry.retryable" // go-retry retries only errors marked retryable
)

// Values of the k8s backoffs the client-go retry package declares.
var K8sBackoffs = map[string]Bound{
	"k8s.io/client-go/util/retry.DefaultRetry":   {Kind: BoundCount, N: 5},
	"k8s.io/client-go/util/retry.DefaultBackoff": {Kind: BoundCount, N: 4},
}

// K8sBackoffWaits are the waits of the k8s backoffs the client-go retry
// package declares: DefaultRetry's Factor 1 and DefaultBackoff's 5, both
// with Jitter 0.1.
var K8sBackoffWaits = map[string]Backoff{
	"k8s.io/client-go/util/retry.DefaultRetry":   {Delay: FixedDelay, Jitter: true},
	"k8s.io/client-go/util/retry.DefaultBackoff": {Delay: GrowingDelay, Jitter: true},
}

// RetryableClient is the key of go-retryablehttp's client type.
const RetryableClient = "github.com/hashicorp/go-retryablehttp.Client"

// AWSNoQuota is the rate limiter that switches the AWS SDK's retry quota
// off.
const AWSNoQuota = "github.com/aws/aws-sdk-go-v2/aws/ratelimit.None"

// GRPCMaxAttempts is gRPC's cap on a retryPolicy's maxAttempts, and the
// count it assumes when maxAttempts cannot be read.
const GRPCMaxAttempts = 5

var backoffJitter = map[string]Jitter{
	"NewExponentialBackOff": Jittered, // RandomizationFactor 0.5 unless an option says otherwise
	"NewConstantBackOff":    NoJitter,
	"ConstantBackOff":       NoJitter,
	"ExponentialBackOff":    NoJitter, // a literal without RandomizationFactor
	"WithMaxRetries":        WrapsFirst,
	"WithContext":           WrapsFirst,
}

var backoffDelays = map[string]Delay{
	"NewExponentialBackOff": GrowingDelay,
	"ExponentialBackOff":    GrowingDelay,
	"NewConstantBackOff":    FixedDelay,
	"ConstantBackOff":       FixedDelay,
}

var retryGoOptions = map[string]Option{
	"Attempts":                     {Effect: Attempts, Zero: ZeroForever, Note: "Attempts(0)"},
	"UntilSucceeded":               {Effect: Forever, Note: "UntilSucceeded"},
	"WithThrottle":                 {Effect: Throttle},
	"WithFixedTokenBucketThrottle": {Effect: Throttle},
	"RetryIf":                      {Effect: Condition},
	"DelayType":                    {Effect: SetsBackoff},
}

var retryGoJitter = map[string]Jitter{
	"FixedDelay":             NoJitter,
	"BackOffDelay":           NoJitter,
	"RandomDelay":            Jittered,
	"FullJitterBackoffDelay": Jittered,
	"CombineDelay":           Combines,
}

var retryGoDelays = map[string]Delay{
	"FixedDelay":             FixedDelay,
	"BackOffDelay":           GrowingDelay,
	"RandomDelay":            FixedDelay, // a random wait up to MaxJitter, the same range every time
	"FullJitterBackoffDelay": GrowingDelay,
}

var librariesTable = []*Library{
	{Name: BackoffV4, Project: ProjectBackoff,
		Paths: []string{"github.com/cenkalti/backoff", "github.com/cenkalti/backoff/v3", "github.com/cenkalti/backoff/v4"},
		Options: map[string]Option{
			"WithMaxElapsedTime":      {Effect: TimeCap, Note: "MaxElapsedTime is 0"},
			"WithRandomizationFactor": {Effect: SetsFactor},
		},
		Jitter: backoffJitter, Delays: backoffDelays},
	{Name: BackoffV5, Project: ProjectBackoff, OpaqueOptions: true,
		Paths: []string{"github.com/cenkalti/backoff/v5"},
		Options: map[string]Option{
			"WithMaxTries":            {Effect: Attempts, Zero: ZeroIgnored},
			"WithMaxElapsedTime":      {Effect: TimeCap},
			"WithBackOff":             {Effect: SetsBackoff},
			"WithRandomizationFactor": {Effect: SetsFactor},
		},
		Jitter: backoffJitter, Delays: backoffDelays},
	{Name: RetryGo, Project: ProjectRetryGo,
		Paths:   []string{"github.com/avast/retry-go", "github.com/avast/retry-go/v3", "github.com/avast/retry-go/v4"},
		Options: retryGoOptions, Jitter: retryGoJitter, Delays: retryGoDelays},
	{Name: RetryGoV5, Project: ProjectRetryGo,
		Paths:   []string{"github.com/avast/retry-go/v5"},
		Options: retryGoOptions, Jitter: retryGoJitter, Delays: retryGoDelays},
	{Name: GoRetry, Project: ProjectGoRetry,
		Paths:      []string{"github.com/sethvargo/go-retry"},
		JitterHint: "wrap it in WithJitter or WithJitterPercent",
		Jitter: map[string]Jitter{
			"NewExponential":     NoJitter,
			"NewConstant":        NoJitter,
			"NewFibonacci":       NoJitter,
			"Constant":           NoJitter,
			"Exponential":        NoJitter,
			"Fibonacci":          NoJitter,
			"WithJitter":         Jittered,
			"WithJitterPercent":  Jittered,
			"WithFullJitter":     Jittered,
			"WithMaxRetries":     Wraps,
			"WithCappedDuration": Wraps,
			"WithMaxDuration":    Wraps,
		},
		Delays: map[string]Delay{
			"NewExponential": GrowingDelay,
			"NewConstant":    FixedDelay,
			"NewFibonacci":   GrowingDelay,
		}},
	{Name: RetryableHTTP, Project: ProjectRetryableHTTP,
		Paths: []string{"github.com/hashicorp/go-retryablehttp"},
		Jitter: map[string]Jitter{
			"DefaultBackoff":               NoJitter,
			"LinearJitterBackoff":          Jittered,
			"RateLimitLinearJitterBackoff": Jittered,
		},
		Delays: map[string]Delay{
			"DefaultBackoff":               GrowingDelay,
			"LinearJitterBackoff":          GrowingDelay,
			"RateLimitLinearJitterBackoff": GrowingDelay,
		}},
	{Name: Resty, Project: ProjectResty,
		Paths: []string{"github.com/go-resty/resty/v2", "resty.dev/v3"}},
	{Name: GRPC, Paths: []string{"google.golang.org/grpc"}},
	{Name: GRPCRetry,
		Paths: []string{"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry", "github.com/grpc-ecosystem/go-grpc-middleware/retry"},
		Options: map[string]Option{
			"WithMax": {Effect: Attempts},
			"Disable": {Effect: Disable},
		}},
	{Name: Failsafe,
		Paths: []string{"github.com/failsafe-go/failsafe-go/retrypolicy", "github.com/failsafe-go/failsafe-go/failsafehttp", "github.com/failsafe-go/failsafe-go/failsafegrpc"},
		Options: map[string]Option{
			"WithMaxRetries":    {Effect: Retries, Zero: NegForever, Note: "max retries -1"},
			"WithMaxAttempts":   {Effect: Attempts, Zero: NegForever, Note: "max retries -1"},
			"WithMaxDuration":   {Effect: TimeCap, Note: "WithMaxDuration"},
			"WithBudget":        {Effect: Budget},
			"WithDelay":         {Effect: SetsDelay},
			"WithBackoff":       {Effect: SetsDelay},
			"WithBackoffFactor": {Effect: SetsDelay},
			"WithRandomDelay":   {Effect: SetsDelay},
			"WithJitter":        {Effect: SetsJitter},
			"WithJitterFactor":  {Effect: SetsJitter},
		}},
	{Name: AWS, Paths: []string{"github.com/aws/aws-sdk-go-v2/aws/retry"}},
	{Name: K8sRetry, Paths: []string{"k8s.io/client-go/util/retry"}},
	{Name: K8sWait, Paths: []string{"k8s.io/apimachinery/pkg/util/wait"}},
	{Name: RetryDo, Paths: []string{"github.com/retrylint/retrylint/budget/retry"}},
	// gax-go: a Backoff's Pause grows its wait (×2 up to 30s) and draws it
	// uniformly below (full jitter); gax.Sleep is a context-aware wait.
	{Name: Gax, Paths: []string{"github.com/googleapis/gax-go/v2"},
		Jitter: map[string]Jitter{"Backoff": Jittered},
		Delays: map[string]Delay{"Backoff": GrowingDelay}},
}

// The entries. Backoff and retry-go functions are listed for each of
// their import paths.
var entriesTable = buildEntries()

func buildEntries() []*Entry {
	var out []*Entry
	add := func(e Entry) { out = append(out, &e) }
	growingJitter := Backoff{Delay: GrowingDelay, Jitter: true}

	for _, p := range named0(BackoffV4).Paths {
		for _, name := range []string{"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"} {
			add(Entry{Name: p + "." + name, Library: BackoffV4, API: "backoff." + name, Form: RetryingCall,
				Op: 0, Policy: 1, Options: -1, Count: -1, Backoff: growingJitter, PolicyEval: PolicyBackoffV4, Hook: HookPermanent})
		}
	}
	add(Entry{Name: "github.com/cenkalti/backoff/v5.Retry", Library: BackoffV5, API: "backoff.Retry", Form: RetryingCall,
		Op: 1, Policy: -1, Options: 2, Count: -1, Backoff: growingJitter, Hook: HookPermanent,
		Default: Bound{Kind: BoundTime, Note: "MaxElapsedTime, 15m by default"}})

	for _, p := range named0(RetryGo).Paths {
		hook := ""
		if p == "github.com/avast/retry-go" || p == "github.com/avast/retry-go/v4" {
			hook = HookRetryIf
		}
		for _, name := range []string{"Do", "DoWithData"} {
			add(Entry{Name: p + "." + name, Library: RetryGo, API: "retry." + name, Form: RetryingCall,
				Op: 0, Policy: -1, Options: 1, Count: -1, Backoff: growingJitter, Hook: hook,
				Default: Bound{Kind: BoundCount, N: 10, Note: "the default of 10"}})
		}
	}
	for _, recv := range []string{"Retrier", "RetrierWithData"} {
		add(Entry{Name: "(*github.com/avast/retry-go/v5." + recv + ").Do", Library: RetryGoV5, API: "retry.(*Retrier).Do", Form: RetryingCall,
			Op: 0, Policy: -1, Options: 0, Count: -1, Backoff: growingJitter, OptionsOf: Receiver, Constructors: []string{"New", "NewWithData"}, Hook: HookRetryIf,
			Default: Bound{Kind: BoundCount, N: 10, Note: "the default of 10"}})
	}

	for _, name := range []string{"Do", "DoValue"} {
		add(Entry{Name: "github.com/sethvargo/go-retry." + name, Library: GoRetry, API: "retry." + name, Form: RetryingCall,
			Op: 2, Policy: 1, Options: -1, Count: -1, PolicyEval: PolicyGoRetry, ExemptEval: ExemptGoRetry, Hook: HookStopBackoff})
	}
	for _, name := range []string{"Constant", "Exponential", "Fibonacci"} {
		wait := Backoff{Delay: GrowingDelay}
		if name == "Constant" {
			wait = Backoff{Delay: FixedDelay}
		}
		add(Entry{Name: "github.com/sethvargo/go-retry." + name, Library: GoRetry, API: "retry." + name, Form: RetryingCall,
			Op: 2, Policy: -1, Options: -1, Count: -1, NArgs: 3, ExemptEval: ExemptGoRetry, Backoff: wait, Hook: HookStopBackoff,
			BackoffNote: "retry." + name + " backs off without jitter",
			Default:     Bound{Kind: Unbounded, Note: "until the context ends"}})
	}

	const rh = "github.com/hashicorp/go-retryablehttp"
	add(Entry{Name: rh + ".NewClient", Library: RetryableHTTP, API: "retryablehttp.NewClient", Form: ClientConfig,
		Op: -1, Policy: -1, Options: -1, Count: -1, Backoff: Backoff{Delay: GrowingDelay},
		Default:    Bound{Kind: BoundCount, N: 5, Note: "RetryMax 4 by default"},
		CountField: "RetryMax", GuardFields: []string{"CheckRetry", "PrepareRetry", "Backoff"}, Hook: HookCheckRetry,
		BackoffField: "Backoff", BackoffNote: "retryablehttp.NewClient backs off with DefaultBackoff, which has no jitter"})
	for _, name := range []string{"Get", "Head", "Post", "PostForm"} {
		add(Entry{Name: rh + "." + name, Library: RetryableHTTP, API: "retryablehttp." + name, Form: RetryingCall,
			Op: -1, Policy: -1, Options: -1, Count: -1, Backoff: Backoff{Delay: GrowingDelay}, Sends: true,
			BackoffNote: "retryablehttp." + name + " uses the default client, whose DefaultBackoff has no jitter",
			Default:     Bound{Kind: BoundCount, N: 5, Note: "the default client's RetryMax 4"}})
	}
	// A literal &retryablehttp.Client{...}: its zero RetryMax makes one
	// attempt, so the default is one.
	add(Entry{Name: RetryableClient, Library: RetryableHTTP, API: "retryablehttp.Client", Form: ClientConfig,
		Op: -1, Policy: -1, Options: -1, Count: -1, Backoff: Backoff{Delay: GrowingDelay},
		Default:    Bound{Kind: BoundCount, N: 1},
		CountField: "RetryMax", GuardFields: []string{"CheckRetry", "PrepareRetry"}, BackoffField: "Backoff",
		Hook: HookCheckRetry})

	for _, p := range named0(Resty).Paths {
		for _, recv := range []string{"Client", "Request"} {
			hook, noHook := "", ""
			switch {
			case p == "github.com/go-resty/resty/v2" && recv == "Client":
				hook = HookCondition
			case p == "resty.dev/v3":
				// Its default conditions retry whatever an added one
				// refuses.
				noHook = "no fix: resty.dev/v3 retries when its default retry conditions hold, whatever an added condition says; turn them off (SetRetryDefaultConditions(false)) and add a condition that asks the client's own budget, or run the requests through budget/retry's Do"
			}
			add(Entry{Name: "(*" + p + "." + recv + ").SetRetryCount", Library: Resty, API: "resty.SetRetryCount", Form: ClientConfig,
				Op: -1, Policy: -1, Options: -1, Count: 0, Backoff: growingJitter, GuardEval: GuardResty, Hook: hook, NoHook: noHook})
		}
	}

	add(Entry{Name: "google.golang.org/grpc.WithDefaultServiceConfig", Library: GRPC, API: "grpc.WithDefaultServiceConfig", Form: PolicyBuilder,
		Op: -1, Policy: 0, Options: -1, Count: -1, Backoff: growingJitter, Eval: EvalServiceConfig, Hook: HookThrottling})
	// go-grpc-middleware v2 asks a WithRetriable condition only about
	// failures, so a budget in it would see no request that succeeds and
	// get no deposit from it; v1 retries by status code alone.
	grpcNoHook := map[string]string{
		"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry": "no fix: the retry interceptor's WithRetriable condition is asked only about failures, so a budget in it would get no deposit from the calls that succeed; give the connection a service config retryPolicy with retryThrottling in place of the interceptor, or run the calls through budget/retry's Do",
		"github.com/grpc-ecosystem/go-grpc-middleware/retry":                 "no fix: the v1 retry interceptor retries by status code alone and has no condition through which a budget can refuse a retry; give the connection a service config retryPolicy with retryThrottling in place of the interceptor, or run the calls through budget/retry's Do",
	}
	for _, p := range named0(GRPCRetry).Paths {
		for _, name := range []string{"UnaryClientInterceptor", "StreamClientInterceptor"} {
			add(Entry{Name: p + "." + name, Library: GRPCRetry, API: "retry." + name, Form: PolicyBuilder,
				Op: -1, Policy: -1, Options: 0, Count: -1, Backoff: Backoff{Delay: FixedDelay, Jitter: true}, Eval: EvalInterceptor,
				NoHook: grpcNoHook[p]})
		}
	}
	// failsafe-go's AbortIf ends the retries with the last failure, where
	// a policy without ReturnLastFailure returns retrypolicy.ExceededError
	// after its last attempt; its WithBudget caps the retries in flight and
	// refuses with budget.ErrExceeded. And a policy serves whatever calls
	// run with it, so a budget made beside it is no dependency's own.
	const failsafeNoHook = "no fix: a failsafe-go retry policy serves whatever calls run with it, and its hooks cannot refuse a retry the way it ends (AbortIf returns the last error where the policy returns retrypolicy.ExceededError); give the policy WithBudget, or run each dependency's calls through budget/retry's Do"
	for _, fn := range []string{"retrypolicy.NewBuilder", "retrypolicy.NewWithDefaults", "failsafehttp.NewRetryPolicyBuilder", "failsafegrpc.NewRetryPolicyBuilder"} {
		add(Entry{Name: "github.com/failsafe-go/failsafe-go/" + fn, Library: Failsafe, API: "retrypolicy." + lastName(fn), Form: PolicyBuilder,
			Op: -1, Policy: -1, Options: -1, Count: -1, Backoff: Backoff{Delay: NoDelay}, Eval: EvalFailsafeChain,
			Default: Bound{Kind: BoundCount, N: 3, Note: "the default of 2 retries"}, NoHook: failsafeNoHook})
	}
	for _, name := range []string{"NewStandard", "NewAdaptiveMode"} {
		add(Entry{Name: "github.com/aws/aws-sdk-go-v2/aws/retry." + name, Library: AWS, API: "retry." + name, Form: PolicyBuilder,
			Op: -1, Policy: -1, Options: 0, Count: -1, Backoff: growingJitter, Eval: EvalAWSOptions, Hook: HookQuota,
			Default: Bound{Kind: BoundCount, N: 3, Note: "the SDK default"}})
	}

	add(Entry{Name: "k8s.io/client-go/util/retry.RetryOnConflict", Library: K8sRetry, API: "retry.RetryOnConflict", Form: RetryingCall,
		Op: 1, Policy: 0, Options: -1, Count: -1, PolicyEval: PolicyK8s,
		Exempt: "it retries only optimistic-concurrency conflicts"})
	add(Entry{Name: "k8s.io/client-go/util/retry.OnError", Library: K8sRetry, API: "retry.OnError", Form: RetryingCall,
		Op: 2, Policy: 0, Options: -1, Count: -1, Backoff: growingJitter, PolicyEval: PolicyK8s, GuardEval: GuardRetriable, Hook: HookRetriable})
	add(Entry{Name: "k8s.io/apimachinery/pkg/util/wait.ExponentialBackoff", Library: K8sWait, API: "wait.ExponentialBackoff", Form: RetryingCall,
		Op: 1, Policy: 0, Options: -1, Count: -1, Backoff: growingJitter, PolicyEval: PolicyK8s, Eval: EvalWaitCondition})
	add(Entry{Name: "k8s.io/apimachinery/pkg/util/wait.ExponentialBackoffWithContext", Library: K8sWait, API: "wait.ExponentialBackoffWithContext", Form: RetryingCall,
		Op: 2, Policy: 1, Options: -1, Count: -1, Backoff: growingJitter, PolicyEval: PolicyK8s, Eval: EvalWaitCondition})

	for _, name := range []string{"Do", "DoValue"} {
		add(Entry{Name: "github.com/retrylint/retrylint/budget/retry." + name, Library: RetryDo, API: "retry." + name, Form: RetryingCall,
			Op: 2, Policy: 1, Options: -1, Count: -1, PolicyEval: PolicyRetryDo})
	}
	return out
}

// named0 finds a library in the table before the indexes are built.
func named0(name string) *Library {
	for _, l := range librariesTable {
		if l.Name == name {
			return l
		}
	}
	return nil
}

func lastName(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return s[i+1:]
		}
	}
	return s
}

// The budget checks of rate limiters and circuit breakers: a key
// "(path.T).M" is a method; "path.F" is a function, or a method of any
// type of the package (gobreaker's Execute), whose receiver is then the
// budget when Receiver is set.
var guardsTable = map[string]Guard{
	"(golang.org/x/time/rate.Limiter).Allow":    {Kind: Limiter, Receiver: true},
	"(golang.org/x/time/rate.Limiter).AllowN":   {Kind: Limiter, Receiver: true},
	"(golang.org/x/time/rate.Limiter).Wait":     {Kind: Limiter, Receiver: true},
	"(golang.org/x/time/rate.Limiter).WaitN":    {Kind: Limiter, Receiver: true},
	"(golang.org/x/time/rate.Limiter).Reserve":  {Kind: Limiter, Receiver: true},
	"(golang.org/x/time/rate.Limiter).ReserveN": {Kind: Limiter, Receiver: true},
	"github.com/sony/gobreaker.Execute":         {Kind: Breaker, Receiver: true},
	"github.com/sony/gobreaker.Allow":           {Kind: Breaker, Receiver: true},
	"github.com/sony/gobreaker/v2.Execute":      {Kind: Breaker, Receiver: true},
	"github.com/sony/gobreaker/v2.Allow":        {Kind: Breaker, Receiver: true},
	"github.com/afex/hystrix-go/hystrix.Do":     {Kind: Breaker},
	"github.com/afex/hystrix-go/hystrix.DoC":    {Kind: Breaker},
	"github.com/afex/hystrix-go/hystrix.Go":     {Kind: Breaker},
	"github.com/afex/hystrix-go/hystrix.GoC":    {Kind: Breaker},
}

// guardTypes are types whose methods other than those listed are no
// budget checks, whatever their names.
var guardTypes = map[string]bool{"golang.org/x/time/rate.Limiter": true}

var guardPaths = map[string]bool{
	"golang.org/x/time/rate":             true,
	"github.com/sony/gobreaker":          true,
	"github.com/sony/gobreaker/v2":       true,
	"github.com/afex/hystrix-go/hystrix": true,
}
