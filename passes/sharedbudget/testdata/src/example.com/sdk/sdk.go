// Package sdk is an API client split into services, like go-github.
package sdk

import "context"

type Client struct {
	Repos  *ReposService
	Issues *IssuesService
}

type ReposService struct{}

func (r *ReposService) Get(ctx context.Context, name string) error { return nil }

type IssuesService struct{}

func (i *IssuesService) List(ctx context.Context) error { return nil }
