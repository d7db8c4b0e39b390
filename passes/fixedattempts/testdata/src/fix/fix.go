package fix

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/retrylint/retrylint/budget"
	"google.golang.org/grpc"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) (string, error) { return "", nil }
func (c *Client) Put(ctx context.Context) error           { return nil }

type Service struct {
	inventory       *Client
	payments        *Client
	inventoryBudget *budget.Budget
	paymentsBudget  *budget.Budget
}

// A budget for the dependency is a field of the receiver: guard with it.
func (s *Service) reserve(ctx context.Context) (string, error) {
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		v, err := s.inventory.Get(ctx)
		if err == nil {
			return v, nil
		}
		time.Sleep(time.Second)
	}
	return "", errors.New("gave up")
}

// The failure branch is the then branch.
func (s *Service) charge(ctx context.Context) error {
	var err error
retry:
	for attempt := 0; attempt < 4; attempt++ { // want `up to 4 attempts`
		if err = s.payments.Put(ctx); err != nil {
			time.Sleep(time.Second)
			continue retry
		}
		return nil
	}
	return err
}

var ordersBudget = budget.New()

type Orders struct{}

func (o *Orders) Place(ctx context.Context) error { return nil }

// A package-level budget named after the dependency.
func place(ctx context.Context, orders *Orders) {
	for range 3 { // want `up to 3 attempts`
		if err := orders.Place(ctx); err == nil {
			return
		}
	}
}

// A gRPC service config gets retryThrottling.
func dial() {
	grpc.NewClient("orders", grpc.WithDefaultServiceConfig(`{"methodConfig": [{"retryPolicy": {"maxAttempts": 3}}]}`))             // want `retryPolicy makes up to 3 attempts`
	grpc.NewClient("orders", grpc.WithDefaultServiceConfig("{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 2}}]}")) // want `retryPolicy makes up to 2 attempts`
}

// A service config laid out on lines gets retryThrottling on a line of
// its own.
const ordersConfig = `{
	"methodConfig": [{
		"name": [{"service": "orders.Orders"}],
		"retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}
	}]
}`

func dialConfig() {
	grpc.NewClient("orders", grpc.WithDefaultServiceConfig(ordersConfig)) // want `retryPolicy makes up to 4 attempts`
}

// The AWS SDK's retry quota, switched off.
func aws() {
	_ = awsretry.NewStandard(func(o *awsretry.StandardOptions) { // want `retry.NewStandard with ratelimit.None makes up to 3 attempts \(the SDK default\) with no retry quota`
		o.RateLimiter = ratelimit.None
	})
}
