package helpers

import (
	"context"
	"testing"
)

// A test's call of the helper: left out of the count of the helper's
// calls, which reads "at each of its 2 calls" with the tests analyzed (go
// vet) and without.
func TestRetry(t *testing.T) {
	s := &Service{inventory: &Inventory{}}
	if err := retry(2, func() error { return s.inventory.Reserve(context.Background()) }); err != nil {
		t.Fatal(err)
	}
}
