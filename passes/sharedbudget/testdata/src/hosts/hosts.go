package hosts

import (
	"context"
	"net/http"

	"example.com/pb"
	"github.com/retrylint/retrylint/budget"
	"google.golang.org/grpc"
)

var httpBudget = budget.New() // want `retry budget httpBudget guards retries to inventory.example.com and payments.example.com`

func getInventory(ctx context.Context) (*http.Response, error) {
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", "https://inventory.example.com/items", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil || !httpBudget.TryRetry() {
			return resp, err
		}
	}
}

func getPayments(ctx context.Context) (*http.Response, error) {
	for {
		resp, err := http.Get("https://payments.example.com/charges")
		if err == nil || !httpBudget.TryRetry() {
			return resp, err
		}
	}
}

type Client struct {
	inventoryURL string
	paymentsURL  string
	http         *http.Client
	b            *budget.Budget // want `retry budget Client.b guards retries to inventoryURL and paymentsURL`
}

func (c *Client) inventory(ctx context.Context) (*http.Response, error) {
	for {
		resp, err := c.http.Get(c.inventoryURL + "/items")
		if err == nil || !c.b.TryRetry() {
			return resp, err
		}
	}
}

func (c *Client) payments(ctx context.Context) (*http.Response, error) {
	for {
		resp, err := c.http.Get(c.paymentsURL + "/charges")
		if err == nil || !c.b.TryRetry() {
			return resp, err
		}
	}
}

type Backend struct {
	inventoryConn *grpc.ClientConn
	paymentsConn  *grpc.ClientConn
	payments      pb.PaymentsClient
}

var grpcBudget = budget.New() // want `retry budget grpcBudget guards retries to inventoryConn and payments`

func (b *Backend) reserve(ctx context.Context) error {
	for {
		_, err := pb.NewInventoryClient(b.inventoryConn).Reserve(ctx, &pb.ReserveRequest{})
		if err == nil || !grpcBudget.TryRetry() {
			return err
		}
	}
}

func (b *Backend) charge(ctx context.Context) error {
	for {
		_, err := b.payments.Charge(ctx, &pb.ChargeRequest{})
		if err == nil || !grpcBudget.TryRetry() {
			return err
		}
	}
}

// A stub kept in a local variable is its connection too.
func (b *Backend) reserveAgain(ctx context.Context) error {
	c := pb.NewInventoryClient(b.inventoryConn)
	for {
		_, err := c.Reserve(ctx, &pb.ReserveRequest{})
		if err == nil || !grpcBudget.TryRetry() {
			return err
		}
	}
}
