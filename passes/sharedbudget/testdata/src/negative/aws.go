package negative

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// A factory that builds a new retryer for each client.
func freshRetryers() (*s3.Client, *dynamodb.Client) {
	cfg := aws.Config{Retryer: func() aws.Retryer { return retry.NewStandard() }}
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg)
}

// A factory whose retryer is made inside it.
func insideFactory() (*s3.Client, *dynamodb.Client) {
	cfg := aws.Config{Retryer: func() aws.Retryer {
		r := retry.NewStandard()
		return retry.AddWithMaxAttempts(r, 5)
	}}
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg)
}

// One instance for the clients of one service.
var s3Retryer = retry.NewStandard()

func oneService() (*s3.Client, *s3.Client) {
	cfg := aws.Config{Retryer: func() aws.Retryer { return s3Retryer }}
	return s3.NewFromConfig(cfg), s3.NewFromConfig(cfg)
}

// The shared factory is replaced by each client's own retryer.
func overridden() (*s3.Client, *dynamodb.Client) {
	cfg := aws.Config{Retryer: func() aws.Retryer { return s3Retryer }}
	return s3.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.Retryer = retry.NewStandard() })
}

// Set on the config after the first client copied it.
func late(cfg aws.Config) (*s3.Client, *dynamodb.Client) {
	r := retry.NewStandard()
	s := s3.NewFromConfig(cfg)
	cfg.Retryer = func() aws.Retryer { return r }
	return s, dynamodb.NewFromConfig(cfg)
}
