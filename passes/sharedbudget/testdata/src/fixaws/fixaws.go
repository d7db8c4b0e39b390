package fixaws

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// shared is the one retryer.
var shared = retry.NewStandard(func(o *retry.StandardOptions) { o.MaxAttempts = 5 }) // want `AWS retryer shared guards retries to dynamodb and s3`

func clients() (*s3.Client, *dynamodb.Client) {
	cfg := aws.Config{
		Region:  "eu-west-1",
		Retryer: func() aws.Retryer { return shared },
	}
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg)
}

func loaded(ctx context.Context) (*s3.Client, *dynamodb.Client, error) {
	one := retry.NewStandard() // want `AWS retryer one guards retries to dynamodb and s3`
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer {
		return retry.AddWithMaxAttempts(one, 5)
	}))
	if err != nil {
		return nil, nil, err
	}
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg), nil
}
