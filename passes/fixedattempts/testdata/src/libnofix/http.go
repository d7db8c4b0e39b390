package libnofix

import (
	"context"
	"net/http"

	"github.com/failsafe-go/failsafe-go/retrypolicy"
	resty "github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
)

// The client is returned as it is made: there is no statement after it
// to set its CheckRetry in.
func newClient() *retryablehttp.Client {
	return retryablehttp.NewClient() // want `retryablehttp.NewClient makes up to 5 attempts`
}

func policy(max int) retryablehttp.CheckRetry {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) { return err != nil, nil }
}

// The CheckRetry is a call: a wrapper would make a policy on every
// attempt instead of once.
func newChecked() *retryablehttp.Client {
	c := retryablehttp.NewClient() // want `retryablehttp.NewClient makes up to 5 attempts`
	c.CheckRetry = policy(3)
	return c
}

// A client literal that sets no CheckRetry panics on its first request
// (Do calls it): no fix guesses which policy was meant.
func newLiteral() *retryablehttp.Client {
	return &retryablehttp.Client{RetryMax: 3} // want `retryablehttp.Client makes up to 4 attempts`
}

func serverError(r *resty.Response, err error) bool { return err != nil }

// resty retries when any condition holds: a condition of the function's
// own would retry what the budget refused.
func newResty() *resty.Client {
	return resty.New().SetRetryCount(3).AddRetryCondition(serverError) // want `resty.SetRetryCount makes up to 4 attempts`
}

// A failsafe-go policy serves whatever calls run with it; its AbortIf
// ends the retries with the last error where the policy returns
// retrypolicy.ExceededError, and its WithBudget limits the retries in
// flight, not their share of the requests, and refuses with its own
// error: no fix.
func newPolicy() retrypolicy.RetryPolicy[any] {
	return retrypolicy.NewBuilder[any]().WithMaxRetries(3).Build() // want `retrypolicy.NewBuilder makes up to 4 attempts`
}

// A client literal made by the function that sends with it: a client per
// request, whose budget would start full every time.
func fetchOnce(ctx context.Context, url string) error {
	client := &retryablehttp.Client{
		RetryMax:   2,
		CheckRetry: retryablehttp.DefaultRetryPolicy,
		Backoff:    retryablehttp.DefaultBackoff,
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req) // want `retryablehttp.Client.Do makes up to 3 attempts`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The policy is a call: a wrapper would make it on every attempt.
func newPolicyLiteral() *retryablehttp.Client {
	return &retryablehttp.Client{RetryMax: 2, CheckRetry: policy(2)} // want `retryablehttp.Client makes up to 3 attempts`
}
