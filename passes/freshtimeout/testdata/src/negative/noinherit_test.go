package negative

import (
	"context"
	"testing"
	"time"
)

func TestFresh(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

func BenchmarkFresh(b *testing.B) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}
