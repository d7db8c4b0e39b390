package negative

import (
	"context"

	"example.com/sdk"
	"github.com/retrylint/retrylint/budget"
)

// The services of one API client reach one API.
type Bot struct {
	gh *sdk.Client
}

var apiBudget = budget.New()

func (b *Bot) repo(ctx context.Context) error {
	for {
		if err := b.gh.Repos.Get(ctx, "x"); err == nil || !apiBudget.TryRetry() {
			return err
		}
	}
}

func (b *Bot) issues(ctx context.Context) error {
	for {
		if err := b.gh.Issues.List(ctx); err == nil || !apiBudget.TryRetry() {
			return err
		}
	}
}

// The client is a parameter: not known.
func issuesOf(ctx context.Context, c *sdk.Client) error {
	for {
		if err := c.Issues.List(ctx); err == nil || !apiBudget.TryRetry() {
			return err
		}
	}
}
