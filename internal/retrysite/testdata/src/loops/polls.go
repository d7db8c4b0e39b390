package loops

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"time"
)

// Shapes found on code nobody tuned for (the evaluation's false reports),
// each beside the retry it resembles.

// ---- Waiting for data is no retry ----

// A dependency's sentinel goes round: a retry, bounded by the context.
func waitBusy(ctx context.Context, c *Client) (string, error) {
	for n := 1; ; n++ { // want `loop \[time-bounded\] delay=exponential dep=c`
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Duration(n) * time.Second):
			if v, err := c.Get(ctx, "log"); !errors.Is(err, errBusy) {
				return v, err
			}
		}
	}
}

// Look-alike: only io.ErrNoProgress goes round, the error of a read that
// got no data, which an empty successful answer produces: the loop waits
// for data to appear.
func waitData(ctx context.Context, c *Client) (string, error) {
	for n := 1; ; n++ {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Duration(n) * time.Second):
			if v, err := c.Get(ctx, "log"); !errors.Is(err, io.ErrNoProgress) {
				return v, err
			}
		}
	}
}

// Look-alike: the same test written as a comparison.
func waitDataEq(ctx context.Context, c *Client) (string, error) {
	for {
		v, err := c.Get(ctx, "log")
		if err != io.ErrNoProgress {
			return v, err
		}
		time.Sleep(time.Second)
	}
}

// ---- Taking the next value is no retry ----

type group struct {
	next chan string
	errs chan error
	done chan struct{}
	c    *Client
}

// nextValue takes the next value the group's own goroutine produced.
func (g *group) nextValue(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-g.done:
		return "", errBusy
	case err := <-g.errs:
		return "", err
	case v := <-g.next:
		return v, nil
	}
}

// fetch asks the dependency, and waits for its answer on a channel.
func (g *group) fetch(ctx context.Context) (string, error) {
	v, err := g.c.Get(ctx, "generation")
	if err != nil {
		return "", err
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case g.next <- v:
	}
	return <-g.next, nil
}

// roundTrip hands a request to a writer goroutine and waits for its
// answer: an operation, though its only calls are channel operations.
func (g *group) roundTrip(ctx context.Context, req string) (string, error) {
	g.next <- req
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case err := <-g.errs:
		return "", err
	case v := <-g.next:
		return v, nil
	}
}

// A function of the package that asks a dependency is retried.
func (g *group) retryFetch(ctx context.Context, max int) (string, error) {
	var err error
	for attempt := 1; attempt <= max; attempt++ { // want `loop \[max attempts\]`
		var v string
		if v, err = g.fetch(ctx); err == nil {
			return v, nil
		}
	}
	return "", err
}

// So is one that sends its request over a channel.
func (g *group) retryRoundTrip(ctx context.Context, max int) (string, error) {
	var err error
	for attempt := 1; attempt <= max; attempt++ { // want `loop \[max attempts\]`
		var v string
		if v, err = g.roundTrip(ctx, "q"); err == nil {
			return v, nil
		}
	}
	return "", err
}

// Look-alike: each call takes the next value another goroutine produced,
// whose errors it hands on: the loop consumes values, it does not retry.
func (g *group) takeNext(ctx context.Context, max int) (string, error) {
	var err error
	for attempt := 1; attempt <= max; attempt++ {
		var v string
		if v, err = g.nextValue(ctx); err == nil {
			return v, nil
		}
		if errors.Is(err, ctx.Err()) {
			return "", err
		}
	}
	return "", err
}

// tokens is a stream of answers a reader goroutine fills.
type tokens struct {
	ch chan string
	c  *Client
}

// nextToken takes the next token; once the caller gave up it asks the
// server to stop sending, which can fail.
func (t *tokens) nextToken(ctx context.Context) (string, error) {
	select {
	case tok, ok := <-t.ch:
		if !ok {
			return "", io.EOF
		}
		return tok, nil
	case <-ctx.Done():
		if err := t.c.Put(ctx, "attention", "stop"); err != nil {
			return "", err
		}
		return "", ctx.Err()
	}
}

// nextAsked asks the server for the next token, then takes it.
func (t *tokens) nextAsked(ctx context.Context) (string, error) {
	if err := t.c.Put(ctx, "more", "1"); err != nil {
		return "", err
	}
	select {
	case tok := <-t.ch:
		return tok, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// serverNote is a token that carries a server's error.
type serverNote struct{ fatal bool }

func (e *serverNote) Error() string { return "server note" }

// Look-alike: each call takes the next token of the stream, whatever
// the clause for a cancelled context does; a token that carries a
// non-fatal server error is skipped: the loop reads on, it does not
// retry.
func (t *tokens) readRow(ctx context.Context) (string, error) {
	for {
		tok, err := t.nextToken(ctx)
		var note *serverNote
		if errors.As(err, &note) && !note.fatal {
			continue
		}
		if err != nil {
			return "", err
		}
		return tok, nil
	}
}

// A function that asks the server on every call is an attempt.
func (t *tokens) askRow(ctx context.Context) (string, error) {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		var tok string
		if tok, err = t.nextAsked(ctx); err == nil {
			return tok, nil
		}
		time.Sleep(time.Second)
	}
	return "", err
}

// ---- A sentinel made from a successful answer ----

var (
	errTaken  = errors.New("key taken")
	errFlaky  = errors.New("flaky")
	errAbsent = errors.New("absent")
)

type txnResp struct{ Succeeded bool }

func (c *Client) txn(ctx context.Context, key string) (*txnResp, error) { return nil, nil }

// create makes errTaken only from an answer: the transaction ran, and its
// condition failed.
func (c *Client) create(ctx context.Context, key string) error {
	resp, err := c.txn(ctx, key)
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errTaken
	}
	return nil
}

// createFlaky makes errFlaky from the dependency's error as well.
func (c *Client) createFlaky(ctx context.Context, key string) error {
	resp, err := c.txn(ctx, key)
	if err != nil {
		return errFlaky
	}
	if !resp.Succeeded {
		return errFlaky
	}
	return nil
}

// lookup makes errAbsent from an empty answer.
func (c *Client) lookup(ctx context.Context, key string) (string, error) {
	v, err := c.Get(ctx, key)
	if err != nil {
		return "", err
	}
	if v == "" {
		return "", errAbsent
	}
	return v, nil
}

// A sentinel the dependency's failure also makes goes round: a retry.
func (c *Client) createRetry(ctx context.Context) error {
	for { // want `loop \[unbounded\]`
		err := c.createFlaky(ctx, "k")
		if err == nil {
			return nil
		}
		if !errors.Is(err, errFlaky) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: only errTaken goes round, which the transaction's answer
// makes; every other error leaves.
func (c *Client) createUnique(ctx context.Context) error {
	for {
		err := c.create(ctx, "k")
		if err == nil {
			return nil
		}
		if !errors.Is(err, errTaken) {
			return err
		}
	}
}

// Look-alike: polling until the key appears; the dependency's own errors
// leave.
func (c *Client) waitPresent(ctx context.Context) (string, error) {
	for {
		v, err := c.lookup(ctx, "k")
		if err != errAbsent {
			return v, err
		}
		time.Sleep(time.Second)
	}
}

// ---- Reconnect, then serve ----

type stream interface {
	Recv() (string, error)
}

func (c *Client) open(ctx context.Context) (stream, error) { return nil, nil }

func canceled(ctx context.Context, err error) bool {
	if ctx.Err() == nil || err == nil {
		return false
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Look-alike: a successful open serves the stream until it breaks, then
// the loop opens another; only the caller's cancellation leaves.
func (c *Client) keepAlive(ctx context.Context, handle func(string)) error {
	for {
		s, err := c.open(ctx)
		if err != nil {
			if canceled(ctx, err) {
				return err
			}
		} else {
			for {
				v, err := s.Recv()
				if err != nil {
					if canceled(ctx, err) {
						return err
					}
					if errors.Is(streamErr(ctx, err), errBusy) {
						c.Put(ctx, "leader", "")
					}
					break
				}
				handle(v)
			}
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// streamErr says what an error of the stream was.
func streamErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return remoteErr(err)
}

// remoteErr unwraps the dependency's error (a function of another
// package would do, as the loop cannot see it is local).
var remoteErr func(error) error

// A translated error is still the attempt's: streamErr(ctx, op(ctx)) goes
// round on a busy dependency.
func (c *Client) retryClassified(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		if err := streamErr(ctx, c.Put(ctx, "k", "v")); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// ---- Failover past an empty answer ----

type sentinelClient struct{ addr string }

func newSentinel(addr string) *sentinelClient { return &sentinelClient{addr} }

func (s *sentinelClient) Replicas(ctx context.Context, master string) ([]string, error) {
	return nil, nil
}

func parseAddrs(replicas []string) []string { return replicas }

// Failover: an error, or an empty answer, moves on to the next sentinel;
// the first non-empty answer returns.
func replicaAddrs(ctx context.Context, sentinelAddrs []string) ([]string, error) {
	for _, addr := range sentinelAddrs { // want `loop \[len\(sentinelAddrs\) attempts\]`
		s := newSentinel(addr)
		replicas, err := s.Replicas(ctx, "main")
		if err != nil {
			continue
		}
		addrs := parseAddrs(replicas)
		if len(addrs) == 0 {
			continue
		}
		return addrs, nil
	}
	return nil, errBusy
}

// Look-alike: every sentinel is asked, its answers gathered; a success
// goes on to the next.
func allReplicas(ctx context.Context, sentinelAddrs []string) []string {
	var all []string
	for _, addr := range sentinelAddrs {
		replicas, err := newSentinel(addr).Replicas(ctx, "main")
		if err != nil {
			continue
		}
		all = append(all, replicas...)
	}
	return all
}

// ---- Taking the next queued value is no retry ----

type queue struct {
	items []string
	conns []*Client
}

// pop takes the first item off the queue: each call hands out the next.
func (q *queue) pop() (string, bool) {
	if len(q.items) == 0 {
		return "", false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

// peek reads the first item and leaves it queued.
func (q *queue) peek() (string, bool) {
	if len(q.items) == 0 {
		return "", false
	}
	return q.items[0], true
}

// idle takes a connection off the pool.
func (q *queue) idle() *Client {
	c := q.conns[len(q.conns)-1]
	q.conns = q.conns[:len(q.conns)-1]
	return c
}

// Look-alike: each iteration pops the next item and stores it; a failure
// moves on to the next item, other work.
func (q *queue) drainTo(ctx context.Context, c *Client) error {
	for {
		v, ok := q.pop()
		if !ok {
			return errAbsent
		}
		if err := c.Put(ctx, "item", v); err == nil {
			return nil
		}
	}
}

// The first item stays queued: a failure stores the same item again.
func (q *queue) storeFirst(ctx context.Context, c *Client) error {
	for { // want `loop \[unknown bound\]`
		v, ok := q.peek()
		if !ok {
			return errAbsent
		}
		if err := c.Put(ctx, "item", v); err == nil {
			return nil
		}
	}
}

// A connection taken off the pool for each attempt: the same request,
// made again on another connection.
func (q *queue) storeOnIdle(ctx context.Context, v string) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		if err = q.idle().Put(ctx, "item", v); err == nil {
			return nil
		}
	}
	return err
}

// ---- Translating an error is no attempt ----

// tokNote is a token that carries a server's error, of a concrete type.
type tokNote struct{ fatal bool }

func (e tokNote) Error() string { return "note" }

type tokStream struct {
	toks chan any
	good bool
}

// markBad marks the stream bad on a fatal note and hands the error on.
func (s *tokStream) markBad(ctx context.Context, err error) error {
	if n, ok := err.(tokNote); ok && n.fatal {
		s.good = false
	}
	return err
}

// Look-alike: the stream's tokens are read on; a non-fatal note goes
// round after markBad, which is handed the note for a parameter of type
// error and says what it was: it makes no attempt.
func (s *tokStream) row() (any, error) {
	for {
		tok, more := <-s.toks
		if !more {
			return nil, io.EOF
		}
		switch n := tok.(type) {
		case tokNote:
			e := s.markBad(context.Background(), n)
			switch e.(type) {
			case tokNote:
			default:
				return nil, e
			}
		default:
			return tok, nil
		}
	}
}

// ---- An answer that says the thing does not exist ----

// The client maps the server's codes to its errors, the absent node's
// and the lost connection's alike: no body tells one from the other, the
// name errNoNode does.
var (
	errNoNode     = errors.New("node does not exist")
	errConnClosed = errors.New("connection closed")
	errOfCode     = map[int]error{-101: errNoNode, -4: errConnClosed}
)

func (c *Client) createNode(ctx context.Context, path string) error {
	v, err := c.Get(ctx, path)
	if err != nil {
		return err
	}
	return errOfCode[len(v)]
}

// A lost connection goes round: a retry.
func (c *Client) createReconnecting(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		err = c.createNode(ctx, "/lock/a")
		if err != errConnClosed {
			return err
		}
	}
	return err
}

// Look-alike: only an absent parent goes round, after the loop creates
// it; the server answered, and no outage answers so.
func (c *Client) createWithParent(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = c.createNode(ctx, "/lock/a")
		if err == errNoNode {
			if err := c.createNode(ctx, "/lock"); err != nil {
				return err
			}
			continue
		}
		return err
	}
	return err
}

// Look-alike: waiting for a file to appear.
func (c *Client) awaitFile(ctx context.Context) (string, error) {
	for {
		v, err := c.Get(ctx, "file")
		if !errors.Is(err, fs.ErrNotExist) {
			return v, err
		}
		time.Sleep(time.Second)
	}
}
