package retryapi

import (
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// newFunc declares a function or method name in a package of path, with
// a receiver of type recv (pointer when ptr) when recv is not "".
func newFunc(path, recv string, ptr bool, name string) *types.Func {
	pkg := types.NewPackage(path, "p")
	var rv *types.Var
	if recv != "" {
		tn := types.NewTypeName(token.NoPos, pkg, recv, nil)
		var t types.Type = types.NewNamed(tn, types.NewStruct(nil, nil), nil)
		if ptr {
			t = types.NewPointer(t)
		}
		rv = types.NewVar(token.NoPos, pkg, "r", t)
	}
	sig := types.NewSignatureType(rv, nil, nil, nil, nil, false)
	return types.NewFunc(token.NoPos, pkg, name, sig)
}

func TestKeyIsFullName(t *testing.T) {
	for _, fn := range []*types.Func{
		newFunc("github.com/cenkalti/backoff/v4", "", false, "Retry"),
		newFunc("resty.dev/v3", "Client", true, "SetRetryCount"),
		newFunc("github.com/go-resty/resty/v2", "Request", false, "SetRetryCount"),
	} {
		if got, want := Key(fn), fn.FullName(); got != want {
			t.Errorf("Key = %q, FullName = %q", got, want)
		}
	}
	vendored := newFunc("example.com/app/vendor/github.com/cenkalti/backoff/v4", "", false, "Retry")
	if got := Key(vendored); got != "github.com/cenkalti/backoff/v4.Retry" {
		t.Errorf("vendored Key = %q", got)
	}
}

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		fn  *types.Func
		api string // "" for no entry
	}{
		{newFunc("github.com/cenkalti/backoff/v4", "", false, "RetryNotify"), "backoff.RetryNotify"},
		{newFunc("resty.dev/v3", "Client", true, "SetRetryCount"), "resty.SetRetryCount"},
		{newFunc("resty.dev/v3", "Client", false, "SetRetryCount"), "resty.SetRetryCount"}, // receiver spelled without *
		{newFunc("github.com/go-resty/resty/v2", "Request", true, "SetRetryCount"), "resty.SetRetryCount"},
		{newFunc("github.com/avast/retry-go/v5", "Retrier", true, "Do"), "retry.(*Retrier).Do"},
		{newFunc("vendor/github.com/hashicorp/go-retryablehttp", "", false, "NewClient"), "retryablehttp.NewClient"},
		// Look-alikes: other names, other receivers, other packages.
		{newFunc("github.com/cenkalti/backoff/v4", "", false, "Permanent"), ""},
		{newFunc("resty.dev/v3", "Client", true, "SetRetryWaitTime"), ""},
		{newFunc("github.com/avast/retry-go/v4", "Retrier", true, "Do"), ""},
		{newFunc("github.com/go-resty/resty/v2", "", false, "SetRetryCount"), ""},
		{newFunc("example.com/backoff", "", false, "Retry"), ""},
		{newFunc("github.com/sethvargo/go-retry", "Backoff", false, "Next"), ""},
	} {
		e := Of(tc.fn)
		switch {
		case tc.api == "" && e != nil:
			t.Errorf("Of(%s) = %s, want none", tc.fn.FullName(), e.Name)
		case tc.api != "" && e == nil:
			t.Errorf("Of(%s) = nil, want %s", tc.fn.FullName(), tc.api)
		case e != nil && e.API != tc.api:
			t.Errorf("Of(%s).API = %q, want %q", tc.fn.FullName(), e.API, tc.api)
		}
	}
	if Of(nil) != nil {
		t.Error("Of(nil) is not nil")
	}
}

// TestTable checks that every entry names its library, sits in one of
// its paths, has a form and consistent argument positions, and that keys
// are unique.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Entries() {
		if seen[e.Name] {
			t.Errorf("%s: listed twice", e.Name)
		}
		seen[e.Name] = true
		l := Named(e.Library)
		if l == nil {
			t.Errorf("%s: no library %q", e.Name, e.Library)
			continue
		}
		in := false
		for _, p := range l.Paths {
			if strings.HasPrefix(e.Name, p+".") || strings.HasPrefix(e.Name, "("+p+".") || strings.HasPrefix(e.Name, "(*"+p+".") {
				in = true
			}
			if LibraryOf(p) != l {
				t.Errorf("LibraryOf(%s) is not %s", p, l.Name)
			}
		}
		if !in {
			t.Errorf("%s: not in a path of %s", e.Name, l.Name)
		}
		if e.Form == 0 || e.API == "" {
			t.Errorf("%s: no form or API name", e.Name)
		}
		if e.Form == RetryingCall && e.Op < 0 && !e.Sends {
			t.Errorf("%s: a retrying call with no operation", e.Name)
		}
		if (e.PolicyEval != "") != (e.Policy >= 0) && e.Eval != EvalServiceConfig {
			t.Errorf("%s: a policy position without a policy evaluator, or the reverse", e.Name)
		}
		if e.OptionsOf == Receiver && len(e.Constructors) == 0 {
			t.Errorf("%s: options of a receiver with no constructor", e.Name)
		}
		switch e.Hook {
		case "", HookPermanent, HookRetryIf, HookStopBackoff, HookRetriable, HookThrottling, HookQuota, HookCheckRetry, HookCondition:
		default:
			t.Errorf("%s: unknown hook %q", e.Name, e.Hook)
		}
		if e.Hook != "" && e.NoHook != "" {
			t.Errorf("%s: a hook, and a reason it has none", e.Name)
		}
		if e.NoHook != "" && !strings.HasPrefix(e.NoHook, "no fix: ") {
			t.Errorf("%s: NoHook %q does not start as a related line says why there is no fix", e.Name, e.NoHook)
		}
		if (e.Hook == HookStopBackoff || e.Hook == HookRetriable) && e.Op < 0 {
			t.Errorf("%s: hook %s with no operation, whose dependency the budget is named after", e.Name, e.Hook)
		}
	}
	if len(Entries()) < 40 {
		t.Errorf("%d entries", len(Entries()))
	}
	if LibraryOf("example.com/retry") != nil {
		t.Error("an unknown path has a library")
	}
}

func TestGuardOf(t *testing.T) {
	for _, tc := range []struct {
		path, recv, name string
		ok               bool
		kind             GuardKind
		receiver         bool
	}{
		{"golang.org/x/time/rate", "Limiter", "Allow", true, Limiter, true},
		{"golang.org/x/time/rate", "Limiter", "SetLimit", true, 0, false}, // no check, decided
		{"golang.org/x/time/rate", "Limiter", "Take", true, 0, false},     // not a budget method either
		{"github.com/sony/gobreaker/v2", "CircuitBreaker", "Execute", true, Breaker, true},
		{"github.com/sony/gobreaker", "", "Execute", true, Breaker, false},
		{"github.com/afex/hystrix-go/hystrix", "", "Do", true, Breaker, false},
		{"github.com/afex/hystrix-go/hystrix", "", "Configure", false, 0, false},
		{"example.com/rate", "Limiter", "Allow", false, 0, false},
	} {
		g, ok := GuardOf(tc.path, tc.recv, tc.name)
		if ok != tc.ok || g.Kind != tc.kind || g.Receiver != tc.receiver {
			t.Errorf("GuardOf(%s, %s, %s) = %+v, %v", tc.path, tc.recv, tc.name, g, ok)
		}
	}
	if !IsGuardPath("vendor/golang.org/x/time/rate") || IsGuardPath("golang.org/x/time") {
		t.Error("IsGuardPath")
	}
}
