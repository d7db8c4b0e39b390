package conn

import (
	"context"
	"testing"
	"time"
)

// A test helper that polls a lot: listed apart, never the headline.
func waitOpen(t *testing.T, c *Conn) {
	for i := 0; i < 50; i++ {
		if err := c.Open(context.Background()); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("never opened")
}

func TestOpen(t *testing.T) {
	waitOpen(t, &Conn{broker: &Broker{}})
}
