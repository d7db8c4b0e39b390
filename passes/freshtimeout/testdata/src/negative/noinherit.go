package negative

import (
	"context"
	"time"
)

// No inherited context: main-like setup, init, constructors.

func init() {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

func main() {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

type client struct{ ready bool }

func newClient(addr string, timeout time.Duration) (*client, error) {
	c, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return &client{}, use(c)
}

// A method without a context parameter.
func (cl *client) Close() error {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return use(c)
}

// A parameter named ctx that is not a context.
func notAContext(ctx string) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

// A context in a result, not a parameter.
func returnsContext() (ctx context.Context, cancel context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Second)
}

// A context in a struct field, not a parameter.
type job struct{ ctx context.Context }

func (j *job) run() {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

// A parameter of a named type over context.Context is not the interface.
type myContext interface{ context.Context }

func namedInterface(ctx myContext) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}
