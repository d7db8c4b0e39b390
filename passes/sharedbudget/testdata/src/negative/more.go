package negative

import (
	"context"

	"example.com/retryhelp"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/retrylint/retrylint/budget"
	"google.golang.org/grpc"
)

// One dependency through a helper, twice.
var ordersBudget = budget.New()

func (s *Service) helperTwice(ctx context.Context) {
	retryhelp.Do(ctx, ordersBudget, func(ctx context.Context) error { return s.inventory.Reserve(ctx) })
	retryhelp.Do(ctx, ordersBudget, func(ctx context.Context) error { return s.inventory.Release(ctx) })
}

// A registry keyed by a field that names the dependency.
type Named struct {
	name      string
	inventory *Inventory
	payments  *Payments
	reg       *budget.Registry
}

func (n *Named) reserve(ctx context.Context) error {
	for {
		if err := n.inventory.Reserve(ctx); err == nil || !n.reg.For(n.name).TryRetry() {
			return err
		}
	}
}

func (n *Named) charge(ctx context.Context) error {
	for {
		if err := n.payments.Charge(ctx); err == nil || !n.reg.For(n.name+"-payments").TryRetry() {
			return err
		}
	}
}

// Fields of the same name in two types are two budgets.
type InventoryAPI struct {
	inventory *Inventory
	budget    *budget.Budget
}

type PaymentsAPI struct {
	payments *Payments
	budget   *budget.Budget
}

func (a *InventoryAPI) reserve(ctx context.Context) error {
	for {
		if err := a.inventory.Reserve(ctx); err == nil || !a.budget.TryRetry() {
			return err
		}
	}
}

func (a *PaymentsAPI) charge(ctx context.Context) error {
	for {
		if err := a.payments.Charge(ctx); err == nil || !a.budget.TryRetry() {
			return err
		}
	}
}

// One client type, one instance per backend: the field is one
// dependency, whatever instance it belongs to.
type Backend struct {
	conn *grpc.ClientConn
	b    *budget.Budget
}

func (b *Backend) call(ctx context.Context, method string) error {
	for {
		if err := b.conn.Invoke(ctx, method, nil, nil); err == nil || !b.b.TryRetry() {
			return err
		}
	}
}

func (b *Backend) callAgain(ctx context.Context) error {
	for {
		if err := b.conn.Invoke(ctx, "/x.Y/Z", nil, nil); err == nil || !b.b.TryRetry() {
			return err
		}
	}
}

// A client kept in a local variable assigned from a parameter.
func (s *Service) fromParam(ctx context.Context, c *Client) error {
	cl := c
	for {
		if err := cl.Get(ctx); err == nil || !ordersBudget.TryRetry() {
			return err
		}
	}
}

// A value retryer is a new one for each client.
func nopRetryers() (*s3.Client, *dynamodb.Client) {
	cfg := aws.Config{Retryer: func() aws.Retryer { return aws.NopRetryer{} }}
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg)
}

// The shared retryer's config builds one client.
var lone = aws.NopRetryer{}

func oneClient() *s3.Client {
	cfg := aws.Config{Retryer: func() aws.Retryer { return lone }}
	return s3.NewFromConfig(cfg)
}
