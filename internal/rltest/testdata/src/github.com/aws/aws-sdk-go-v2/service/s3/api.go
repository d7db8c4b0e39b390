// Package s3 is a signature-only stub for tests.
package s3

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
type GetObjectInput struct{ Key *string }
type GetObjectOutput struct{}

func New(options Options, optFns ...func(*Options)) *Client          { return nil }
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { return nil }
func (c *Client) GetObject(ctx context.Context, params *GetObjectInput, optFns ...func(*Options)) (*GetObjectOutput, error) {
	return nil, nil
}
