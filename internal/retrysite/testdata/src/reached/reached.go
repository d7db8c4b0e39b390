// Package reached checks Deps.Reached and Deps.Passed: the dependencies a
// site's attempts reach, as the audit groups sites by them, and whether
// what the site retries is its callers' operation.
package reached

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

type Store struct{}

func (*Store) Put(ctx context.Context, v any) error { return nil }

type Cache struct{}

func (*Cache) Set(ctx context.Context, v any) error { return nil }

type Service struct {
	store *Store
	cache *Cache
}

// A local decoder is no dependency: only the store is reached.
func (s *Service) decode(ctx context.Context, body string) error {
	dec := json.NewDecoder(strings.NewReader(body))
	var err error
	for i := 0; i < 3; i++ { // want `reached=\[field:store\] passed=false`
		var v any
		if err = dec.Decode(&v); err != nil && err != io.EOF {
			continue
		}
		if err = s.store.Put(ctx, v); err == nil {
			return nil
		}
	}
	return err
}

// A receiver of a type of this package is keyed by its type.
func (s *Service) recv(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `reached=\[type:Service\] passed=false`
		if err = s.flush(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (s *Service) flush(ctx context.Context) error { return nil }

// A retry helper reaches whatever its callers pass: none of its own.
func retry(ctx context.Context, attempts int, op func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ { // want `reached=\[\] passed=true`
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Its call reaches what the operation reaches: here two dependencies,
// in order, once each.
func (s *Service) viaHelper(ctx context.Context) error {
	return retry(ctx, 3, func(ctx context.Context) error { // want `reached=\[field:store field:cache\] passed=false`
		if err := s.store.Put(ctx, 1); err != nil {
			return err
		}
		if err := s.cache.Set(ctx, 1); err != nil {
			return err
		}
		return s.store.Put(ctx, 2)
	})
}

// A decoder in the operation is no dependency.
func (s *Service) decodeViaHelper(ctx context.Context, body string) error {
	return retry(ctx, 3, func(ctx context.Context) error { // want `reached=\[field:store\] passed=false`
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			return err
		}
		dec := json.NewDecoder(strings.NewReader(body))
		if err := dec.Decode(&v); err != nil {
			return err
		}
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		if _, err := fmt.Fprintf(gz, "%v", v); err != nil {
			return err
		}
		if err := gz.Close(); err != nil {
			return err
		}
		if _, err := io.ReadAll(&buf); err != nil {
			return err
		}
		return s.store.Put(ctx, v)
	})
}

type Broker struct{}

func (*Broker) Dial(ctx context.Context) error { return nil }

type Conn struct {
	broker *Broker
	store  *Store
}

// connect reaches the broker: the one dependency of its calls (a
// goroutine it starts and a context are none).
func (c *Conn) connect(ctx context.Context) error {
	go c.watch(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.broker.Dial(ctx)
}

func (c *Conn) watch(ctx context.Context) { _ = c.store.Put(ctx, 1) }

// save reaches two dependencies.
func (c *Conn) save(ctx context.Context) error {
	if err := c.broker.Dial(ctx); err != nil {
		return err
	}
	return c.store.Put(ctx, 1)
}

// A method of this package called on its receiver reaches what its body
// reaches.
func (c *Conn) open(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `reached=\[field:broker\] passed=false`
		if err = c.connect(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: a body that reaches two dependencies names neither; the
// receiver's type is what is left.
func (c *Conn) openSave(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `reached=\[type:Conn\] passed=false`
		if err = c.save(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A helper that hands its own operation parameter on passes its callers'.
func retryTwice(ctx context.Context, op func(context.Context) error) error {
	return retry(ctx, 2, op) // want `reached=\[\] passed=true`
}

// Look-alike: a loop calling a function value it was not handed (a local)
// is no helper: it reaches no dependency the model can name.
func local(ctx context.Context) error {
	op := func(ctx context.Context) error { return nil }
	var err error
	for i := 0; i < 3; i++ { // want `reached=\[\] passed=false`
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A helper whose operation literal wraps the caller's function passes its
// callers' operation too.
func inTx(ctx context.Context, fn func(context.Context) error) error {
	return retry(ctx, 3, func(ctx context.Context) error { // want `reached=\[\] passed=true`
		return fn(ctx)
	})
}

// Look-alike: a literal that calls a function parameter and a dependency
// of its own is the dependency's.
func (s *Service) inTxAndStore(ctx context.Context, fn func(context.Context) error) error {
	return retry(ctx, 3, func(ctx context.Context) error { // want `reached=\[field:store\] passed=false`
		if err := fn(ctx); err != nil {
			return err
		}
		return s.store.Put(ctx, 1)
	})
}

// Failure is a concrete error type a client returns.
type Failure struct{ Code int }

func (f *Failure) Error() string { return "failed" }

type HTTPService struct{}

func (*HTTPService) Post(ctx context.Context, body []byte) *Failure { return nil }

type Writer struct{ svc *HTTPService }

// batch compresses locally, then posts: a call whose result is a
// concrete error type is one of its calls too, so what it reaches is the
// service, not the compression.
func (w *Writer) batch(ctx context.Context, body []byte) *Failure {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	if _, err := gz.Write(body); err != nil {
		return &Failure{}
	}
	return w.svc.Post(ctx, buf.Bytes())
}

// write reports a failure as an error.
func (w *Writer) write(ctx context.Context, body []byte) error {
	if f := w.batch(ctx, body); f != nil {
		return f
	}
	return nil
}

func (w *Writer) flush(ctx context.Context, body []byte) error {
	var err error
	for i := 0; i < 3; i++ { // want `reached=\[field:svc\] passed=false`
		if err = w.write(ctx, body); err == nil {
			return nil
		}
	}
	return err
}
