package gh

import "context"

type RepoService struct{}

func (*RepoService) Get(ctx context.Context) error { return nil }

type Client struct{ Repositories *RepoService }

func Fetch(ctx context.Context) error { return nil }
