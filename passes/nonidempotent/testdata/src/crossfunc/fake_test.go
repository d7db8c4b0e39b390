package crossfunc

import "context"

// fakeStore is a test double of Store: it never runs where the package is
// used, so the POST that remote.Store retries is reported with the tests
// analyzed too, as go vet analyzes a package.
type fakeStore struct{ calls int }

func (f *fakeStore) Store(ctx context.Context, b []byte) error {
	f.calls++
	return nil
}

var _ Store = (*fakeStore)(nil)
