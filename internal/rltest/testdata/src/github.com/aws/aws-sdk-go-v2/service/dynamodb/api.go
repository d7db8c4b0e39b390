// Package dynamodb is a signature-only stub for tests.
package dynamodb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type Options struct {
	Region           string
	Retryer          aws.Retryer
	RetryMaxAttempts int
}
type Client struct{}
type GetItemInput struct{ Key *string }
type GetItemOutput struct{}

func New(options Options, optFns ...func(*Options)) *Client          { return nil }
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { return nil }
func (c *Client) GetItem(ctx context.Context, params *GetItemInput, optFns ...func(*Options)) (*GetItemOutput, error) {
	return nil, nil
}
