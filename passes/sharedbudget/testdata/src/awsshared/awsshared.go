package awsshared

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// One retryer for every client of the configuration.
var shared = retry.NewStandard() // want `AWS retryer shared guards retries to dynamodb and s3 with one retry quota: one failing dependency drains the other's credit`

func clients() (*s3.Client, *dynamodb.Client) {
	cfg := aws.Config{
		Region:  "eu-west-1",
		Retryer: func() aws.Retryer { return shared },
	}
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg)
}

// Through config.WithRetryer, a local instance, and a wrapper that keeps
// the instance.
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

// An assignment to the config's Retryer before the clients are built.
func assigned(cfg aws.Config) (*s3.Client, *dynamodb.Client) {
	r := retry.NewStandard() // want `AWS retryer r guards retries to dynamodb and s3`
	cfg.Retryer = func() aws.Retryer { return r }
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg)
}

// One instance set as each client's Options.Retryer.
func options(cfg aws.Config) (*s3.Client, *dynamodb.Client) {
	r := retry.NewStandard() // want `AWS retryer r guards retries to dynamodb and s3`
	return s3.NewFromConfig(cfg, func(o *s3.Options) { o.Retryer = r }),
		dynamodb.New(dynamodb.Options{Retryer: r})
}
