package negative

import (
	"context"
	"errors"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/retrylint/retrylint/budget"
	sv "github.com/sethvargo/go-retry"
	"golang.org/x/time/rate"
	"google.golang.org/grpc"
	k8sretry "k8s.io/client-go/util/retry"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

type Service struct {
	orders *Client
	b      *budget.Budget
	lim    *rate.Limiter
}

// Guarded by a budget.
func (s *Service) guarded(ctx context.Context) error {
	s.b.OnRequest()
	for i := 0; i < 3; i++ {
		err := s.orders.Get(ctx)
		if err == nil {
			return nil
		}
		if !s.b.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Guarded by a rate limiter.
func (s *Service) limited(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := s.orders.Get(ctx); err == nil || !s.lim.Allow() {
			return err
		}
	}
	return errors.New("gave up")
}

// Conflicts only.
func conflicts(ctx context.Context, c *Client) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error { return c.Get(ctx) })
}

// A go-retry operation that never marks an error retryable does not retry.
func noRetryable(ctx context.Context, c *Client) error {
	return sv.Do(ctx, sv.NewConstant(time.Second), func(ctx context.Context) error { return c.Get(ctx) })
}

// StopBackOff never retries.
func stop(c *Client) error {
	return backoff.Retry(func() error { return c.Get(context.Background()) }, &backoff.StopBackOff{})
}

// A client with retries switched off.
func noRetries() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return c
}

// A service config with its own budget, or no retry policy.
func configs() {
	grpc.NewClient("x",
		grpc.WithDefaultServiceConfig(`{"methodConfig": [{"retryPolicy": {"maxAttempts": 3}}], "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`),
		grpc.WithDefaultServiceConfig(`{"loadBalancingConfig": [{"round_robin": {}}]}`),
	)
}

// Not retry loops: reading, paging, polling that exits on error.
func notRetries(ctx context.Context, c *Client, items []string) error {
	for _, it := range items {
		if err := c.Get(ctx); err == nil {
			_ = it
			return nil
		}
	}
	for {
		if err := c.Get(ctx); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
}

// A helper call is reported where the helper's loop is, not at each call;
// this helper's loop is guarded by a budget that outlives the call.
var helperBudget = budget.New()

func withRetry(op func() error) error {
	helperBudget.OnRequest()
	for {
		err := op()
		if err == nil || !helperBudget.TryRetry() {
			return err
		}
	}
}

func useHelper(ctx context.Context, c *Client) error {
	return withRetry(func() error { return c.Get(ctx) })
}

// Suppressed with a reason, in each of the accepted forms.
func suppressed(ctx context.Context, c *Client) {
	//lint:ignore fixedattempts the deploy tool bounds this startup probe
	for i := 0; i < 30; i++ {
		if c.Get(ctx) == nil {
			break
		}
	}
	for i := 0; i < 30; i++ { //nolint:retrylint // startup probe
		if c.Get(ctx) == nil {
			break
		}
	}
	//retrylint:ignore retrylint warm-up only
	for i := 0; i < 30; i++ {
		if c.Get(ctx) == nil {
			break
		}
	}
}

var retryBudget = budget.New()

// The look-alike of fixnew's generic retry, already guarded: what its fix
// writes, *new(T) on refusal, is silent.
func retryValueGuarded[T any](ctx context.Context, op func(context.Context) (T, error)) (T, error) {
	retryBudget.OnRequest()
	for tries := 1; ; tries++ {
		v, err := op(ctx)
		if err == nil {
			return v, nil
		}
		if !retryBudget.TryRetry() {
			return *new(T), err
		}
		if tries >= 4 {
			return v, err
		}
		time.Sleep(time.Second)
	}
}

type sqlError interface{ SQLState() string }

// isSerializationFailure holds only for a concurrency conflict.
func isSerializationFailure(err error) bool {
	var e sqlError
	if !errors.As(err, &e) {
		return false
	}
	code := e.SQLState()
	return code == "40001" || code == "CR000"
}

// Retries of concurrency conflicts only are exempt: they never retry an
// outage.
func conflictsOnly(ctx context.Context, c *Client) error {
	for {
		err := c.Get(ctx)
		if err == nil || !isSerializationFailure(err) {
			return err
		}
	}
}

func isConflict(err error) bool { return err != nil }

func conflictName(ctx context.Context, c *Client) error {
	for i := 0; i < 5; i++ {
		if err := c.Get(ctx); !isConflict(err) {
			return err
		}
	}
	return errors.New("gave up")
}

// Retrying an interrupted system call is local: exempt.
func readEINTR(fd int, p []byte) (int, error) {
	for {
		n, err := readFD(fd, p)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

var readFD = func(fd int, p []byte) (int, error) { return syscall.Read(fd, p) }
