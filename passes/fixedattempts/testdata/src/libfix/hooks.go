package libfix

import (
	"context"
	"time"

	retry5 "github.com/avast/retry-go/v5"
	goretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

// Hooks holds the dependencies of the go-retry, k8s and retry-go v5
// sites.
type Hooks struct{ users, carts, prices, nodes, pods, shipping, billing Store }

// go-retry: the backoff is wrapped in one that stops when the budget
// refuses the retry it allows; Do returns the last error.
func (h *Hooks) User(ctx context.Context) error {
	b := goretry.WithMaxRetries(2, goretry.NewConstant(time.Millisecond))
	return goretry.Do(ctx, b, func(ctx context.Context) error { // want `retry.Do makes up to 3 attempts`
		return goretry.RetryableError(h.users.Put(ctx))
	})
}

// go-retry DoValue, with its type argument: the backoff, a call, is
// evaluated once, where it was.
func (h *Hooks) Cart(ctx context.Context) (string, error) {
	return goretry.DoValue[string](ctx, goretry.WithMaxRetries(2, goretry.NewConstant(time.Millisecond)), func(ctx context.Context) (string, error) { // want `retry.DoValue makes up to 3 attempts`
		v, err := h.carts.Get(ctx)
		if err != nil {
			return "", goretry.RetryableError(err)
		}
		return v, nil
	})
}

// go-retry Constant retries until the context ends: it is Do with
// NewConstant, and becomes that.
func (h *Hooks) Price(ctx context.Context) error {
	return goretry.Constant(ctx, time.Millisecond, func(ctx context.Context) error { // want `retry.Constant retries without bound \(until the context ends\)`
		return goretry.RetryableError(h.prices.Put(ctx))
	})
}

// k8s OnError, a predicate literal: it asks the budget after its own
// verdict; a refusal makes OnError return the error.
func (h *Hooks) Node(ctx context.Context) error {
	return k8sretry.OnError(wait.Backoff{Steps: 3, Duration: time.Millisecond}, func(err error) bool { return err != errRejected }, func() error { // want `retry.OnError makes up to 3 attempts`
		return h.nodes.Put(ctx)
	})
}

// k8s OnError, a named predicate.
func (h *Hooks) Pod(ctx context.Context) error {
	return k8sretry.OnError(k8sretry.DefaultRetry, transient, func() error { return h.pods.Put(ctx) }) // want `retry.OnError makes up to 5 attempts`
}

// retry-go v5: the retrier made for the call gets a RetryIf after the
// default condition, IsRecoverable.
func (h *Hooks) Ship(ctx context.Context) error {
	return retry5.New(retry5.Attempts(3), retry5.Delay(time.Millisecond), retry5.LastErrorOnly(true)).Do(func() error { return h.shipping.Put(ctx) }) // want `retry.\(\*Retrier\).Do makes up to 3 attempts`
}

// retry-go v5, a retrier with data kept in a local used once: its
// condition is asked first; the error lists the attempts made.
func (h *Hooks) Bill(ctx context.Context) (string, error) {
	r := retry5.NewWithData[string](retry5.Attempts(3), retry5.Delay(time.Millisecond), retry5.RetryIf(transient))
	return r.Do(func() (string, error) { return h.billing.Get(ctx) }) // want `retry.\(\*Retrier\).Do makes up to 3 attempts`
}

// Volumes keeps volumes.
type Volumes struct{ volumes Store }

// k8s OnError, a predicate literal that uses a variable named err: the
// wrapper's parameter takes another name, so as not to hide it.
func (v *Volumes) Release(ctx context.Context, err error) error {
	return k8sretry.OnError(wait.Backoff{Steps: 3, Duration: time.Millisecond}, func(e error) bool { return e != err }, func() error { return v.volumes.Put(ctx) }) // want `retry.OnError makes up to 3 attempts`
}
