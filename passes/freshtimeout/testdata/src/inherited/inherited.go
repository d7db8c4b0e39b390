// Package inherited holds the inherited contexts other than a
// context.Context or a request: a gRPC stream's, a cobra command's, a
// context type parameter, and goroutines the function waits for.
package inherited

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/grpc"
)

func use(context.Context) error { return nil }

// A gRPC streaming handler: the stream carries the call's context.
func watch(req string, stream grpc.ServerStream) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `^context.WithTimeout starts from context.Background, discarding the deadline inherited from stream.Context\(\)$`
	defer cancel()
	return use(c)
}

// A generated stream type embeds grpc.ServerStream.
type Feed_SubscribeServer interface {
	Send(m string) error
	grpc.ServerStream
}

type feed struct{}

func (feed) Subscribe(req string, srv Feed_SubscribeServer) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from srv.Context\(\)$`
	defer cancel()
	return use(c)
}

// A client stream is the call's too.
func recvAll(cs grpc.ClientStream) error {
	c, cancel := context.WithTimeout(context.TODO(), time.Second) // want `inherited from cs.Context\(\)$`
	defer cancel()
	return use(c)
}

// A cobra command's RunE.
func newCmd() *cobra.Command {
	return &cobra.Command{
		Use: "sync",
		RunE: func(cmd *cobra.Command, args []string) error {
			c, cancel := context.WithTimeout(context.Background(), time.Minute) // want `inherited from cmd.Context\(\)$`
			defer cancel()
			return use(c)
		},
	}
}

func runSync(cmd *cobra.Command, args []string) error {
	c, cancel := context.WithTimeout(context.Background(), time.Minute) // want `inherited from cmd.Context\(\)$`
	defer cancel()
	return use(c)
}

// A context typed by a type parameter.
func get[C context.Context](ctx C, key string) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

type Ctx interface {
	context.Context
	Logger() string
}

func getLogged[C Ctx](ctx C) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

// A goroutine the function waits for: it receives what the goroutine
// sends.
func fetch(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		errc <- use(c)
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wg.Wait() for it.
func fanOut(ctx context.Context, keys []string) {
	var wg sync.WaitGroup
	for range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
			defer cancel()
			use(c)
		}()
	}
	wg.Wait()
}

// <-done, closed by the goroutine.
func waitDone(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		use(c)
	}()
	<-done
}

// A bound literal started by go and waited for.
func waitBound(ctx context.Context) {
	results := make(chan error)
	work := func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		results <- use(c)
	}
	go work()
	for err := range results {
		_ = err
	}
}

// The new context captured by a goroutine the function waits for is not
// handed off.
func waitedCapture(ctx context.Context) error {
	jctx, cancel := context.WithTimeout(context.Background(), time.Minute) // want `inherited from ctx$`
	defer cancel()
	errc := make(chan error)
	go func() { errc <- use(jctx) }()
	return <-errc
}

// A field WaitGroup.
type pool struct{ wg sync.WaitGroup }

func (p *pool) run(ctx context.Context) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		use(c)
	}()
	p.wg.Wait()
}

// Look-alikes.

// A test's Context is the test's lifetime, not a caller's deadline.
func TestSync(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

func BenchmarkSync(b *testing.B) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

// Context() returning something else.
type session struct{}

func (session) Context() string { return "" }

func handle(s session) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return use(c)
}

// A type parameter not constrained to a context.
func getAny[C any](v C) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return use(c)
}

// A goroutine whose results go to the caller: detached.
func results(ctx context.Context) <-chan error {
	errc := make(chan error, 1)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		errc <- use(c)
	}()
	return errc
}

// wg.Done without a Wait in the function.
func noWait(ctx context.Context, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}()
}

// Waiting for another WaitGroup.
func otherWait(ctx context.Context) {
	var a, b sync.WaitGroup
	a.Add(1)
	go func() {
		defer a.Done()
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}()
	b.Wait()
}

// A receive before the goroutine starts does not wait for it.
func recvBefore(ctx context.Context, errc chan error) {
	<-errc
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		errc <- use(c)
	}()
}

// A receive in another goroutine does not wait for it.
func recvElsewhere(ctx context.Context) {
	errc := make(chan error)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		errc <- use(c)
	}()
	go func() { <-errc }()
}

// The new context captured by a goroutine nobody waits for.
func startedCapture(ctx context.Context) {
	jctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	go func() {
		defer cancel()
		use(jctx)
	}()
}

// A goroutine that ends when the function closes its channel runs during
// the call.
func watchdog(ctx context.Context) error {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		select {
		case <-stop:
		case <-c.Done():
		}
	}()
	return use(ctx)
}

// A command's detached goroutine.
func runDetached(cmd *cobra.Command, args []string) error {
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	}()
	return nil
}

// A stream handler's deferred cleanup.
func (feed) Publish(req string, srv Feed_SubscribeServer) error {
	uctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	defer use(uctx)
	return nil
}

// A stream whose context is known to be done.
func drain(stream grpc.ServerStream) error {
	<-stream.Context().Done()
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return use(c)
}

// A type-parameter context explicitly detached.
func detach[C context.Context](ctx C) error {
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	return use(c)
}

// testing.TB and *testing.F are the test's too.
func helper(tb testing.TB) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

func FuzzSync(f *testing.F) {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}
