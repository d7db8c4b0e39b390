package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// The shapes of the definition (the package doc of retrysite), each beside
// the look-alike that must stay silent.

var errBusy = errors.New("busy")

// ---- Failure is what the code treats as failure ----

// The canonical HTTP retry: a transport error and a failure status both go
// round; a success status returns.
func canonical(ctx context.Context, c *http.Client, url string) error {
	var lastErr error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=fixed dep=c`
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := c.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 300 {
			return nil
		}
		lastErr = fmt.Errorf("status %d", resp.StatusCode)
		time.Sleep(time.Second)
	}
	return lastErr
}

// Its cousin: the status test nested under the error test.
func cousin(url string) error {
	var err error
	var resp *http.Response
	for range 3 { // want `loop \[3 attempts\] delay=fixed`
		resp, err = http.Post(url, "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			err = errors.New(resp.Status)
		}
		time.Sleep(time.Second)
	}
	return err
}

// A switch on the status: the retryable cases go round.
func statusSwitch(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ { // want `loop \[4 attempts\]`
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusOK:
			return resp, nil
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		default:
			return resp, nil
		}
	}
	return nil, errBusy
}

// Look-alike: the status sorts answers, but every answer returns.
func statusSorted(c *http.Client, req *http.Request) (*http.Response, error) {
	for {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusOK:
			return resp, nil
		default:
			return nil, fmt.Errorf("status %d", resp.StatusCode)
		}
	}
}

// Look-alike: waiting for a resource to appear (404 goes round) is
// polling for a state, not a retry of an outage: a 503 returns.
func waitExists(c *http.Client, req *http.Request) (*http.Response, error) {
	for {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusNotFound {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
}

// A classified error in the loop condition; the attempt before the loop
// counts: 4 attempts.
func busyCond(ctx context.Context, c *Client) error {
	err := c.Put(ctx, "k", "v")
	for r := 0; errors.Is(err, errBusy) && r < 3; r++ { // want `loop \[4 attempts\]`
		time.Sleep(time.Second)
		err = c.Put(ctx, "k", "v")
	}
	return err
}

// errors.As with a method of the unwrapped error.
func timeouts(ctx context.Context, c *Client) error {
	for i := 0; i < 5; i++ { // want `loop \[5 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			continue
		}
		return err
	}
	return errBusy
}

type tempErr struct{}

func (tempErr) Error() string { return "temporary" }

// A type assertion on the error.
func assertion(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		err := c.Put(ctx, "k", "v")
		if _, ok := err.(tempErr); ok {
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return errBusy
}

func isRetryable(err error) bool { return errors.Is(err, errBusy) }

// A predicate: retryable errors go round, others return.
func predicate(ctx context.Context, c *Client) error {
	for { // want `loop \[unbounded\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if !isRetryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

func shouldRetry(resp *http.Response, err error) bool {
	return err != nil || resp.StatusCode >= 500
}

// A predicate of the response and the error.
func respPredicate(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		resp, err := c.Do(req)
		if !shouldRetry(resp, err) {
			return resp, err
		}
		time.Sleep(time.Second)
	}
	return nil, errBusy
}

// The response's own success method.
type response struct{ code int }

func (r *response) IsSuccess() bool { return r.code < 300 }

type api struct{}

func (api) Send(ctx context.Context) (*response, error) { return &response{}, nil }

func successMethod(ctx context.Context, a api) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		resp, err := a.Send(ctx)
		if err == nil && resp.IsSuccess() {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

type tryer struct{}

func (tryer) try(ctx context.Context) (retry bool, err error) { return false, nil }

// A verdict returned with the attempt: true means a retry is wanted.
func verdict(ctx context.Context, t tryer) error {
	for { // want `loop \[unbounded\]`
		retry, err := t.try(ctx)
		if !retry {
			return err
		}
		time.Sleep(time.Second)
	}
}

type stepper struct{}

func (stepper) step(ctx context.Context) (more bool, err error) { return false, nil }

// Look-alike: a verdict that means "more work", and errors that leave.
func steps(ctx context.Context, s stepper) error {
	for {
		more, err := s.step(ctx)
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	return nil
}

// Look-alike: an iterator that hands each value and error to yield.
func each(ctx context.Context, c *Client, yield func(string, error) bool) {
	for {
		v, err := c.Get(ctx, "next")
		if !yield(v, err) {
			return
		}
	}
}

type result struct{ Error error }

type producer struct{}

func (producer) produce(ctx context.Context) (*result, error) { return nil, nil }

// An error carried in the result.
func carried(ctx context.Context, p producer) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		var res *result
		res, err = p.produce(ctx)
		if res != nil {
			err = res.Error
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

type iter struct{ err error }

func (i *iter) Err() error { return i.err }

type session struct{}

func (session) query(ctx context.Context) *iter { return &iter{} }

// The attempt returns only an iterator that carries its error.
func iterErr(ctx context.Context, s session) *iter {
	for n := 0; n < 4; n++ { // want `loop \[4 attempts\]`
		it := s.query(ctx)
		if it.Err() == nil {
			return it
		}
	}
	return nil
}

type sender struct{}

func (sender) Send(msg string) <-chan error { return nil }

// The error received from the attempt's channel.
func fromChannel(ctx context.Context, s sender) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		errc := s.Send("m")
		select {
		case err := <-errc:
			if err == nil {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// Look-alike: an accept loop classifies its errors and goes on serving.
func accept(l net.Listener, handle func(net.Conn)) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(time.Second)
				continue
			}
			return err
		}
		go handle(conn)
	}
}

// Look-alike: a test nested in the failure branch, and a success that
// goes on to the next item.
func nested(ctx context.Context, c *Client, out chan<- string) error {
	for {
		v, err := c.Get(ctx, "next")
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			time.Sleep(time.Second)
			continue
		}
		out <- v
	}
}

// ---- Paths, not last statements ----

// The retryable path reaches the next iteration; the rest returns.
func paths(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if isRetryable(err) {
			continue
		}
		return err
	}
	return errBusy
}

// The failure branch ends in an if-else that goes on in one branch.
func ifElse(ctx context.Context, c *Client, fatal func(error) bool) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		if err := c.Put(ctx, "k", "v"); err != nil {
			if fatal(err) {
				return err
			} else {
				time.Sleep(time.Second)
				continue
			}
		}
		return nil
	}
	return errBusy
}

// Look-alike: every failure leaves, by either branch.
func leaveAlways(ctx context.Context, c *Client, fatal func(error) bool) error {
	for {
		if err := c.Put(ctx, "k", "v"); err != nil {
			if fatal(err) {
				return err
			} else {
				return fmt.Errorf("put: %w", err)
			}
		}
		time.Sleep(time.Second)
	}
}

// ---- The same operation ----

// A request rebuilt each iteration from loop-invariant values, into a
// variable declared before the loop.
func rebuilt(ctx context.Context, c *http.Client, url string) error {
	var req *http.Request
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		req, _ = http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

type shard struct{ c *Client }

func (s *shard) Call(ctx context.Context) error { return s.c.Put(ctx, "k", "v") }

type ring struct{}

func (ring) pick(key string) (*shard, error) { return nil, nil }

// An attempt on a handle just looked up.
func handle(ctx context.Context, r ring) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		s, err := r.pick("k")
		if err != nil {
			return err
		}
		if err = s.Call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// The error later made from the attempt's own response: a 5xx becomes the
// loop's error.
func lateError(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		resp, err := c.Do(req)
		if err == nil && resp.StatusCode >= 500 {
			resp.Body.Close()
			err = fmt.Errorf("server error %d", resp.StatusCode)
		}
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errBusy
}

// The attempt at the bottom of the body, tested at the top of the next
// iteration: the test follows the assignment that reaches it.
func bottom(ctx context.Context, c *Client) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		if i > 0 {
			if err == nil {
				return nil
			}
			time.Sleep(time.Second)
		}
		err = c.Put(ctx, "k", "v")
	}
	return err
}

type rpc struct {
	reqs chan chan error
}

// call waits for its answer on a channel and for the context: remote
// work, not local.
func (r *rpc) call(ctx context.Context) error {
	done := make(chan error, 1)
	r.reqs <- done
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func channelAnswer(ctx context.Context, r *rpc) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		if err := r.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// Look-alike: the next page, by a token from the answer.
func pages(ctx context.Context, c *Client) error {
	token := ""
	for i := 0; i < 10; i++ {
		next, err := c.Get(ctx, token)
		if err == nil && next == "" {
			return nil
		}
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		token = next
	}
	return nil
}

// Look-alike: an offset that moves.
func offsets(ctx context.Context, c *Client) error {
	offset := 0
	for {
		if err := c.Put(ctx, fmt.Sprint(offset), "v"); err == nil {
			return nil
		}
		offset += 100
	}
}

// Look-alike: the counter as an index into items.
func items(ctx context.Context, c *Client, keys []string) error {
	for i := 0; i < len(keys); i++ {
		if _, err := c.Get(ctx, keys[i]); err == nil {
			return nil
		}
	}
	return errBusy
}

// Look-alike: a consumer takes a new value from a channel each iteration
// and drops a bad one.
func consume(ctx context.Context, c *Client, in <-chan string) (string, error) {
	for {
		k := <-in
		v, err := c.Get(ctx, k)
		if err == nil {
			return v, nil
		}
	}
}

// ---- Failover ----

type broker struct{ c *Client }

func (b *broker) Produce(ctx context.Context, msg string) error { return b.c.Put(ctx, "topic", msg) }

// The next broker of a list after each failure.
func failoverBrokers(ctx context.Context, brokers []*broker, msg string) error {
	for _, b := range brokers { // want `loop \[len\(brokers\) attempts\]`
		if err := b.Produce(ctx, msg); err == nil {
			return nil
		}
	}
	return errBusy
}

// The next address, dialed by value.
func failoverAddrs(ctx context.Context, addrs []string) (net.Conn, error) {
	var d net.Dialer
	var lastErr error
	for _, addr := range addrs { // want `loop \[len\(addrs\) attempts\]`
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// Round robin over the servers in a counted loop.
func roundRobin(ctx context.Context, servers []*Client) error {
	for i := 0; i < 5; i++ { // want `loop \[5 attempts\]`
		if err := servers[i%len(servers)].Put(ctx, "k", "v"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

type credentials interface {
	Retrieve(ctx context.Context) (string, error)
}

// Look-alike: a chain of different credential providers, each asked once.
func chain(ctx context.Context, providers []credentials) (string, error) {
	for _, p := range providers {
		v, err := p.Retrieve(ctx)
		if err == nil {
			return v, nil
		}
	}
	return "", errBusy
}

// Look-alike: every address is contacted; a success does not stop it.
func connectAll(ctx context.Context, addrs []string, connect func(context.Context, string) error) int {
	n := 0
	for _, addr := range addrs {
		if err := connect(ctx, addr); err != nil {
			continue
		}
		n++
	}
	return n
}

// ---- Budgets ----

// ---- Bounds a reader can act on ----

const podRetries = 30

// Constants fold: podRetries-1, counted inclusively, is 30.
func folded(ctx context.Context, c *Client) error {
	for i := 0; i <= podRetries-1; i++ { // want `loop \[30 attempts\]`
		if err := c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// A local assigned once from a constant.
func localMax(ctx context.Context, c *Client) error {
	maxRetries := 5
	for i := 0; i < maxRetries; i++ { // want `loop \[5 attempts\]`
		if err := c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// A countdown.
func countdown(ctx context.Context, c *Client, retries int) error {
	for retries > 0 { // want `loop \[retries attempts\]`
		if err := c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		retries--
		time.Sleep(time.Second)
	}
	return errBusy
}

// A countdown from a constant.
func countdownConst(ctx context.Context, c *Client) error {
	left := 3
	for left > 0 { // want `loop \[3 attempts\]`
		if err := c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		left--
	}
	return errBusy
}

// The counter compared with an offset: attempt+1 counts the attempts
// made, so attempt+1 >= 3 leaves after the third.
func offsetGEQ(ctx context.Context, c *Client) error {
	for attempt := 0; ; attempt++ { // want `loop \[3 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if attempt+1 >= 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// attempt+1 > 3 leaves after the fourth.
func offsetGTR(ctx context.Context, c *Client) error {
	for attempt := 0; ; attempt++ { // want `loop \[4 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if attempt+1 > 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// The offset on the right: 3 <= attempt+1 is attempt+1 >= 3.
func offsetFlipped(ctx context.Context, c *Client) error {
	for attempt := 0; ; attempt++ { // want `loop \[3 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if 3 <= attempt+1 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// The offset on the limit: attempt >= max-1 leaves after max attempts.
func offsetLimit(ctx context.Context, c *Client, max int) error {
	for attempt := 0; ; attempt++ { // want `loop \[max attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if attempt >= max-1 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// Tested after the increment, attempts-1 is one behind: attempts-1 == 3
// leaves after the fourth.
func offsetAfterIncrement(ctx context.Context, c *Client) error {
	attempts := 0
	for { // want `loop \[4 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		attempts++
		if attempts-1 == 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// In the loop condition, before the attempt: i+1 < 3 makes two.
func offsetCond(ctx context.Context, c *Client) error {
	for i := 0; i+1 < 3; i++ { // want `loop \[2 attempts\]`
		if err := c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// A countdown with an offset: retries-1 < 0 leaves when retries is 0,
// after retries+1 attempts.
func offsetCountdown(ctx context.Context, c *Client, retries int) error {
	for { // want `loop \[retries\+1 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if retries-1 < 0 {
			return err
		}
		retries--
		time.Sleep(time.Second)
	}
}

// With a context to stop it too: the count still bounds it.
func offsetWithContext(ctx context.Context, c *Client) error {
	for attempt := 0; ; attempt++ { // want `loop \[3 attempts\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if attempt+1 >= 3 {
			return err
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Look-alike: the offset is on another variable, which counts nothing.
func offsetOther(ctx context.Context, c *Client, base int) error {
	for attempt := 0; ; attempt++ { // want `loop \[unbounded\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if base+1 >= 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// A policy decides the last attempt, and a context stops the wait: the
// policy is the bound, not the context.
type lastPolicy struct {
	ctx context.Context
	max int
}

func (r *lastPolicy) isLast(n int) bool { return n+1 >= r.max }

func (r *lastPolicy) run(c *Client) error {
	var err error
	n := 0
	for { // want `loop \[unknown bound\] delay=fixed`
		if err = c.Put(r.ctx, "k", "v"); err == nil {
			return nil
		}
		if r.isLast(n) {
			break
		}
		n++
		select {
		case <-time.After(time.Second):
		case <-r.ctx.Done():
			return r.ctx.Err()
		}
	}
	return err
}

// Look-alike: the call is given the error alone, which it sorts; it
// counts nothing, and the context stays the bound.
func (r *lastPolicy) classified(c *Client) error {
	for { // want `loop \[time-bounded\] delay=fixed`
		err := c.Put(r.ctx, "k", "v")
		if err == nil {
			return nil
		}
		if !r.retryable(err) {
			return err
		}
		select {
		case <-time.After(time.Second):
		case <-r.ctx.Done():
			return r.ctx.Err()
		}
	}
}

func (r *lastPolicy) retryable(err error) bool { return err != nil }

// Look-alike: a count under a condition bounds only the paths where it
// holds; the context bounds them all.
func condCountWithContext(ctx context.Context, c *Client, limited bool) error {
	for attempt := 0; ; attempt++ { // want `loop \[time-bounded\] delay=fixed`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if limited && attempt >= 2 {
			return err
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Look-alike: the context alone stops it; an exit nobody can read beside
// it (a flag of unknown meaning) does not count.
func contextOnly(ctx context.Context, c *Client) error {
	for { // want `loop \[time-bounded`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// The first attempt before the loop, which is entered only when it
// failed: the loop's attempts come after it, so n in all.
func firstBefore(ctx context.Context, c *Client, n int) error {
	err := c.Put(ctx, "k", "v")
	if err == nil {
		return nil
	}
	for a := 1; a < n; a++ { // want `loop \[n attempts\]`
		time.Sleep(time.Second)
		if err = c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
	}
	return err
}

// The same with the attempt in the if's init and a verdict that says
// whether to retry: 1 + 2.
func firstBeforeVerdict(ctx context.Context, c *Client) error {
	retry, err := c.Try(ctx)
	if !retry {
		return err
	}
	for a := 1; a < 3; a++ { // want `loop \[3 attempts\]`
		time.Sleep(time.Second)
		if retry, err = c.Try(ctx); !retry {
			return err
		}
	}
	return err
}

// Look-alike: the call before the loop is entered on its success too (a
// failure returns): no attempt of the retrying, 3 in the loop.
func firstBeforeSuccessGoesOn(ctx context.Context, c *Client) error {
	err := c.Put(ctx, "k", "v")
	if err != nil {
		return err
	}
	for a := 0; a < 3; a++ { // want `loop \[3 attempts\]`
		time.Sleep(time.Second)
		if err = c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: a different operation before the loop.
func otherBefore(ctx context.Context, c *Client) error {
	_, err := c.Get(ctx, "k")
	if err == nil {
		return nil
	}
	for a := 1; a < 3; a++ { // want `loop \[2 attempts\]`
		time.Sleep(time.Second)
		if err = c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: the success before the loop is only logged; the loop is
// entered either way.
func firstBeforeLogged(ctx context.Context, c *Client) error {
	err := c.Put(ctx, "k", "v")
	if err == nil {
		fmt.Println("ok")
	}
	for a := 1; a < 3; a++ { // want `loop \[2 attempts\]`
		time.Sleep(time.Second)
		if err = c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
	}
	return err
}

// ---- Precision ----

// Look-alike: a reading loop that ends on an error or when enough came.
func readN(ctx context.Context, c *Client, n int) ([]string, error) {
	var msgs []string
	var err error
	for err == nil && len(msgs) < n {
		var m string
		m, err = c.Get(ctx, "next")
		if err == nil {
			msgs = append(msgs, m)
		}
	}
	return msgs, err
}

// Look-alike: a refresher on a ticker, whose success waits for the next
// tick.
func refresher(ctx context.Context, c *Client, out chan<- string) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, err := c.Get(ctx, "targets")
		if err != nil {
			continue
		}
		out <- v
	}
}

// Look-alike: a trigger-driven refresh.
func triggered(ctx context.Context, c *Client, trigger <-chan struct{}) {
	for range trigger {
		if _, err := c.Get(ctx, "config"); err != nil {
			continue
		}
	}
}

// Look-alike: a test helper waiting on a channel for a state change.
func waitState(changes <-chan string, want string) error {
	for {
		select {
		case s := <-changes:
			if s == want {
				return nil
			}
		case <-time.After(time.Second):
			return errBusy
		}
	}
}

var errMissing = errors.New("missing")

// Look-alike: a re-read after a one-time local repair. The second read is
// of a repaired state, and there is no third.
func readRepaired(ctx context.Context, c *Client, repair func() error) (string, error) {
	repaired := false
	for {
		v, err := c.Get(ctx, "config")
		if err == nil {
			return v, nil
		}
		if repaired || !errors.Is(err, errMissing) {
			return "", err
		}
		if err := repair(); err != nil {
			return "", err
		}
		repaired = true
	}
}

// Its look-alike: one retry of the same read, with no repair between.
func retryOnce(ctx context.Context, c *Client) (string, error) {
	retried := false
	for { // want `loop \[2 attempts\]`
		v, err := c.Get(ctx, "config")
		if err == nil {
			return v, nil
		}
		if retried {
			return "", err
		}
		retried = true
		time.Sleep(time.Second)
	}
}

// A failed read of the attempt's stream is the attempt's own failure: the
// stream is opened again.
func readAgain(ctx context.Context, open func(context.Context) (io.ReadCloser, error), p []byte) (int, error) {
	var body io.ReadCloser
	for try := 0; try < 3; try++ { // want `loop \[3 attempts\]`
		if body == nil {
			b, err := open(ctx)
			if err != nil {
				return 0, err
			}
			body = b
		}
		n, err := body.Read(p)
		if err == nil || errors.Is(err, io.EOF) {
			return n, err
		}
		body.Close()
		body = nil
	}
	return 0, errBusy
}

type recoverer struct {
	c        *Client
	attempts int
	max      int
}

// A count tested at the top of each iteration, before the attempt, counts
// the attempts made: up to r.max of them.
func (r *recoverer) recover(ctx context.Context) error {
	for { // want `loop \[r.max attempts\]`
		if r.attempts >= r.max {
			return errBusy
		}
		r.attempts++
		if err := r.c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// A test of something decided before the loop bounds nothing.
func policyOrNot(ctx context.Context, c *Client, retryable bool) error {
	for { // want `loop \[unbounded\]`
		err := c.Put(ctx, "k", "v")
		if err == nil || !retryable {
			return err
		}
	}
}
