package libs

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"
	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/retry"
	"google.golang.org/grpc"
	"k8s.io/apimachinery/pkg/util/wait"
)

// The apimachinery backoff family retries its condition while it answers
// (false, nil): after a failure, a retry with the bound of Steps.
func waitBackoff(ctx context.Context, s *Store) error {
	bo := wait.Backoff{Duration: time.Second, Factor: 2, Steps: 6}
	return wait.ExponentialBackoff(bo, func() (bool, error) { // want `library wait.ExponentialBackoff \[6 attempts\] dep=s`
		if err := s.Load(ctx); err != nil {
			return false, nil
		}
		return true, nil
	})
}

func waitBackoffCtx(ctx context.Context, s *Store) error {
	return wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Steps: 4}, func(ctx context.Context) (bool, error) { // want `library wait.ExponentialBackoffWithContext \[4 attempts\]`
		if err := s.Load(ctx); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// Look-alike: a condition that polls for a state and returns its errors.
func waitReady(ctx context.Context, s *Store, ready func() bool) error {
	return wait.ExponentialBackoff(wait.Backoff{Steps: 6}, func() (bool, error) {
		if err := s.Load(ctx); err != nil {
			return false, err
		}
		return ready(), nil
	})
}

// The project's own executor: bounded by MaxAttempts, guarded by a Budget.
var storeBudget = budget.New()

func executor(ctx context.Context, s *Store) {
	retry.Do(ctx, retry.Policy{MaxAttempts: 3, InitialDelay: time.Second}, func(ctx context.Context) error { return s.Load(ctx) }) // want `library retry.Do \[3 attempts\] dep=s`
	retry.Do(ctx, retry.Policy{MaxAttempts: 3, Budget: storeBudget}, func(ctx context.Context) error { return s.Load(ctx) })       // want `library retry.Do \[3 attempts\] guard=retry.Policy.Budget dep=s`
	p := retry.Policy{MaxAttempts: 5}
	retry.DoValue(ctx, p, func(ctx context.Context) (int, error) { return 0, s.Load(ctx) }) // want `library retry.DoValue \[5 attempts\] dep=s`
}

var storeBudgets = budget.NewRegistry()

// policyFor makes each dependency's policy, with its budget.
func policyFor(dep string) retry.Policy {
	return retry.Policy{MaxAttempts: 3, Budget: storeBudgets.For(dep)}
}

// policyWithout makes a policy with no budget on one path.
func policyWithout(dep string, budgeted bool) retry.Policy {
	if budgeted {
		return retry.Policy{MaxAttempts: 3, Budget: storeBudgets.For(dep)}
	}
	return retry.Policy{MaxAttempts: 3}
}

// A policy a function of the package makes counts its budget when every
// policy the function returns has one.
func madePolicy(ctx context.Context, s *Store) {
	retry.Do(ctx, policyFor("store"), func(ctx context.Context) error { return s.Load(ctx) })           // want `library retry.Do \[unknown bound\] guard=retry.Policy.Budget dep=s`
	retry.Do(ctx, policyWithout("store", true), func(ctx context.Context) error { return s.Load(ctx) }) // want `library retry.Do \[unknown bound\] dep=s`
}

// A loop over a backoff's ticker.
func ticker(ctx context.Context, s *Store) error {
	t := backoff.NewTicker(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 4))
	defer t.Stop()
	var err error
	for range t.C { // want `loop \[5 attempts\]`
		if err = s.Load(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Interceptor options through variables and slices; options it cannot
// see give an unknown bound, not silence.
func interceptors(extra []grpcretry.CallOption, hidden grpcretry.CallOption) {
	max := grpcretry.WithMax(4)
	opts := []grpcretry.CallOption{grpcretry.WithBackoff(grpcretry.BackoffLinear(time.Second)), grpcretry.WithMax(2)}
	grpc.NewClient("orders:443",
		grpc.WithStreamInterceptor(grpcretry.StreamClientInterceptor(hidden, grpcretry.WithMax(3))), // want `library retry.StreamClientInterceptor \[3 attempts\]`
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(max)),                            // want `library retry.UnaryClientInterceptor \[4 attempts\]`
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(opts...)),                        // want `library retry.UnaryClientInterceptor \[2 attempts\]`
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(extra...)),                       // want `library retry.UnaryClientInterceptor \[unknown bound\]`
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3), grpcretry.Disable())),
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithBackoff(nil))),
	)
}
