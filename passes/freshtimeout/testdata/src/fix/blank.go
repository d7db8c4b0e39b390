package fix

import (
	"context"
	"time"
)

// The blank parameter is renamed so that the fix can name it; both calls'
// fixes rename it the same way.
func blank(_ context.Context, n int) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from the blank context.Context parameter$`
	defer cancel()
	if n > 1 {
		c2, cancel2 := context.WithTimeout(context.TODO(), time.Second) // want `inherited from the blank context.Context parameter$`
		defer cancel2()
		use(c2)
	}
	return use(c)
}
