package perdep

import (
	"context"
	"fmt"
	"time"
)

// Stream opens and resumes through function values its constructor sets:
// each field is a dependency of its own (openBudget, resumeBudget),
// though both have one type.
type Stream struct {
	open, resume func(ctx context.Context) error
}

func (s *Stream) Open(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = s.open(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("open: %w", err)
}

func (s *Stream) Resume(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = s.resume(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("resume: %w", err)
}
