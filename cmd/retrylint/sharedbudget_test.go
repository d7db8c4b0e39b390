package main_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

const sharedBudget = `package s

import (
	"context"
	"sync"
)

type Budget struct {
	mu sync.Mutex
	n  float64
}

func NewBudget() *Budget { return &Budget{n: 10} }

func (b *Budget) TryRetry() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n < 1 {
		return false
	}
	b.n--
	return true
}

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
}

var defaultBudget = NewBudget()

func (s *Service) Reserve(ctx context.Context) error {
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !defaultBudget.TryRetry() {
			return err
		}
	}
}

func (s *Service) Charge(ctx context.Context) error {
	for {
		if err := s.payments.Charge(ctx); err == nil || !defaultBudget.TryRetry() {
			return err
		}
	}
}
`

const sharedMessage = "retry budget defaultBudget guards retries to inventory and payments"

// TestSharedBudget runs the sharedbudget pass from the command and under
// go vet, applies its fix, and checks that the fixed package builds and
// is clean.
func TestSharedBudget(t *testing.T) {
	dir := module(t, map[string]string{"s/s.go": sharedBudget})

	_, stderr, code := run(t, dir, "-sharedbudget", "./...")
	if code != 3 || !strings.Contains(stderr, "s.go:38:5: "+sharedMessage) {
		t.Errorf("-sharedbudget: exit %d, stderr:\n%s", code, stderr)
	}

	vet := exec.Command("go", "vet", "-vettool="+retrylint, "./...")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOWORK=off")
	if out, err := vet.CombinedOutput(); err == nil || !strings.Contains(string(out), sharedMessage) {
		t.Errorf("go vet -vettool: err %v, output:\n%s", err, out)
	}

	if _, stderr, code := run(t, dir, "-sharedbudget", "-fix", "./..."); code != 3 && code != 0 {
		t.Fatalf("-sharedbudget -fix: exit %d, stderr:\n%s", code, stderr)
	}
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the fixed module does not build: %v\n%s", err, out)
	}
	fixed, err := os.ReadFile(dir + "/s/s.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fixed), "var inventoryBudget = NewBudget()\nvar paymentsBudget = NewBudget()") {
		t.Errorf("fixed file:\n%s", fixed)
	}
	if _, stderr, code := run(t, dir, "-sharedbudget", "./..."); code != 0 {
		t.Errorf("after the fix: exit %d, stderr:\n%s", code, stderr)
	}
}
