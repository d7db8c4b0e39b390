package backoffs

import (
	"context"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	retrygo5 "github.com/avast/retry-go/v5"
	backoff5 "github.com/cenkalti/backoff/v5"
	goretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/cenkalti/backoff/v4"
)

// ---- 7: a library site's wait is the policy it is given --------------------

func libs(ctx context.Context, c *Client) {
	op := func() error { return c.Get(ctx) }
	backoff.Retry(op, backoff.WithMaxRetries(backoff.NewConstantBackOff(time.Second), 3)) // want `backoff=fixed$`
	backoff.Retry(op, backoff.NewExponentialBackOff())                                    // want `backoff=exponential\+jitter$`
	b := backoff.NewExponentialBackOff(backoff.WithRandomizationFactor(0))
	backoff.Retry(op, b) // want `backoff=exponential$`

	backoff5.Retry(ctx, func() (int, error) { return 0, op() })                                                                 // want `backoff=exponential\+jitter$`
	backoff5.Retry(ctx, func() (int, error) { return 0, op() }, backoff5.WithBackOff(backoff5.NewConstantBackOff(time.Second))) // want `backoff=fixed$`

	retrygo.Do(op)                                                                                     // want `backoff=exponential\+jitter$`
	retrygo.Do(op, retrygo.DelayType(retrygo.FixedDelay))                                              // want `backoff=fixed$`
	retrygo.Do(op, retrygo.DelayType(retrygo.CombineDelay(retrygo.BackOffDelay, retrygo.RandomDelay))) // want `backoff=exponential\+jitter$`
	retrygo5.New(retrygo5.DelayType(retrygo5.FixedDelay)).Do(op)                                       // want `backoff=fixed$`

	goretry.Do(ctx, goretry.WithMaxRetries(3, goretry.NewConstant(time.Second)), func(ctx context.Context) error { return goretry.RetryableError(op()) })          // want `backoff=fixed$`
	goretry.Do(ctx, goretry.WithJitter(time.Second, goretry.NewExponential(time.Second)), func(ctx context.Context) error { return goretry.RetryableError(op()) }) // want `backoff=exponential\+jitter$`

	cond := func() (bool, error) {
		if err := op(); err != nil {
			return false, nil
		}
		return true, nil
	}
	wait.ExponentialBackoff(wait.Backoff{Steps: 4, Duration: 10 * time.Millisecond}, cond)                         // want `backoff=fixed$`
	wait.ExponentialBackoff(wait.Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 2, Jitter: 0.1}, cond) // want `backoff=exponential\+jitter$`
	k8sretry.OnError(k8sretry.DefaultBackoff, func(error) bool { return true }, op)                                // want `backoff=exponential\+jitter$`
}
