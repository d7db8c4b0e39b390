package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const depModelGH = `package gh

import "context"

type RepoService struct{}

func (*RepoService) Get(ctx context.Context) error { return nil }

type IssueService struct{}

func (*IssueService) Get(ctx context.Context) error { return nil }

type Client struct {
	Repositories *RepoService
	Issues       *IssueService
}
`

const depModelP = `package p

import (
	"context"

	"example.com/m/gh"
)

type Inventory struct{}

func (*Inventory) Reserve(ctx context.Context) error { return nil }

type Service struct {
	gh        *gh.Client
	inventory *Inventory
}

type Tool struct{ gh *gh.Client }

func (s *Service) Repos(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.gh.Repositories.Get(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (s *Service) Issues(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.gh.Issues.Get(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (t *Tool) Repos(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = t.gh.Repositories.Get(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (s *Service) Reserve(ctx context.Context) error {
	inv := s.inventory
	var err error
	for i := 0; i < 3; i++ {
		if err = inv.Reserve(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (s *Service) ReserveAgain(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.inventory.Reserve(ctx); err == nil {
			return nil
		}
	}
	return err
}
`

// TestFixBudgetsAreSharedbudgetsDeps: the budgets fixedattempts' fixes add
// are named after the dependency sharedbudget sees (one model,
// retrysite.Deps), so that they agree: s.gh.Repositories and s.gh.Issues
// reach one dependency (the service's gh client) and get one budget; the
// same chain on another type's field is another dependency with a budget
// of its own (one budget for both would be a shared budget); a local
// holding s.inventory is s.inventory. After the fixes nothing is
// reported: every retry is guarded and no budget is shared. (With two
// models, the fixes gave both Repositories loops one repositoriesBudget,
// which sharedbudget then reported as shared by Service.gh and Tool.gh.)
func TestFixBudgetsAreSharedbudgetsDeps(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := module(t, map[string]string{"gh/gh.go": depModelGH, "p/p.go": depModelP})
	mod := "module example.com/m\n\ngo 1.22\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + filepath.Join(repo, "budget") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, dir, "-fixedattempts", "-fixedattempts.budget-module", "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d\n%s", code, stderr)
	}
	fixed, err := os.ReadFile(filepath.Join(dir, "p", "p.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(fixed)
	for _, want := range []string{"serviceGhBudget.TryRetry()", "toolGhBudget.TryRetry()", "inventoryBudget.TryRetry()"} {
		if n := strings.Count(src, want); n == 0 {
			t.Errorf("the fixed file has no %s:\n%s", want, src)
		}
	}
	if n := strings.Count(src, "serviceGhBudget.TryRetry()"); n != 2 {
		t.Errorf("serviceGhBudget guards %d loops, want 2 (Repositories and Issues of one client)", n)
	}
	if n := strings.Count(src, "inventoryBudget.TryRetry()"); n != 2 {
		t.Errorf("inventoryBudget guards %d loops, want 2 (s.inventory, directly and through a local)", n)
	}
	for _, bad := range []string{"repositoriesBudget", "issuesBudget", "invBudget"} {
		if strings.Contains(src, bad) {
			t.Errorf("the fixed file names a budget %s, after no dependency sharedbudget sees:\n%s", bad, src)
		}
	}
	if _, stderr, code := run(t, dir, "-fixedattempts", "-sharedbudget", "./..."); code != 0 {
		t.Errorf("after -fix: exit %d, want nothing reported:\n%s", code, stderr)
	}
}
