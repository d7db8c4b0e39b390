// Package config is a signature-only stub for tests.
package config

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type LoadOptions struct {
	Region           string
	Retryer          func() aws.Retryer
	RetryMaxAttempts int
}
type LoadOptionsFunc func(*LoadOptions) error

func LoadDefaultConfig(ctx context.Context, optFns ...func(*LoadOptions) error) (aws.Config, error) {
	return aws.Config{}, nil
}
func WithRegion(v string) LoadOptionsFunc              { return nil }
func WithRetryer(v func() aws.Retryer) LoadOptionsFunc { return nil }
func WithRetryMaxAttempts(v int) LoadOptionsFunc       { return nil }
