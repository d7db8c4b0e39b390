// Package shapes holds the loop shapes the fixes must keep the behaviour
// of; testdata/behave/shapes.go runs them before and after the fixes.
package shapes

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Inventory is a dependency.
type Inventory interface {
	Reserve() error
	Get() (string, error)
}

type Service struct {
	inventory Inventory
	payments  Inventory
	orders    Inventory
	stock     Inventory
	shelf     Inventory
	catalog   Inventory
	ledger    Inventory
	archive   Inventory
	feed      Inventory
	mirror    Inventory
	digest    Inventory
	outbox    Inventory
	queue     Inventory
	relay     Inventory
	spool     Inventory
	pager     Inventory
	leases    Inventory
	slots     Inventory
	dialer    Inventory
	redialer  Inventory
	bins      Inventory
	appraisal Inventory
	consult   Inventory
	// last is the last error the activation saw; tally counts the
	// rounds of the ledger's loop.
	last  error
	tally int
	// inventoryBudget is the budget of inventory, and of nothing else.
	inventoryBudget *budget.Budget
}

// A counted loop whose caller sees the loop's own summary of the last
// failure: a refusal breaks out, and the code after the loop says it.
func (s *Service) Reserve() error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = s.inventory.Reserve(); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return errors.Join(errors.New("inventory unavailable"), err)
}

// Only the budget of inventory is in scope: payments gets its own.
func (s *Service) Charge() error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = s.payments.Reserve(); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("payments: %w", err)
}

// A 5xx answers with a nil error; the loop makes the error after the
// success test. The guard goes after it, before the backoff.
func Health(c *http.Client) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var resp *http.Response
		resp, err = c.Get("https://health.example/ping")
		if err == nil && resp.StatusCode/100 == 2 {
			resp.Body.Close()
			return nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("health check: %s", resp.Status)
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Two failure paths, an error and a 5xx, that meet only in the post
// statement: one guard at the top of the next iteration covers both.
func Fetch(c *http.Client) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // want `up to 3 attempts`
		resp, err := c.Get("https://fetch.example/item")
		if err != nil {
			lastErr = err
			time.Sleep(time.Millisecond)
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			lastErr = fmt.Errorf("fetch: %s", resp.Status)
			time.Sleep(time.Millisecond)
			continue
		}
		return resp, nil
	}
	return nil, lastErr
}

// The exit that bounds the attempts is in the body: the budget joins its
// condition, so that a refusal gives up the way the last attempt does.
func (s *Service) Lookup() (string, error) {
	for attempt := 1; ; attempt++ { // want `up to 3 attempts`
		v, err := s.orders.Get()
		if err == nil {
			return v, nil
		}
		if attempt >= 3 {
			return "", fmt.Errorf("lookup: giving up: %w", err)
		}
		time.Sleep(time.Millisecond)
	}
}

// A loop that ends only with its context: a refusal returns the
// attempt's error.
func (s *Service) Watch(ctx context.Context) error {
	for { // want `bounded only by time`
		err := s.stock.Reserve()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

// A 5xx with a nil error in a loop that ends only with its context: a
// refusal returns an error that names the status, and closes the body.
func Poll(ctx context.Context, c *http.Client) (*http.Response, error) {
	for { // want `bounded only by time`
		resp, err := c.Get("https://poll.example/state")
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

// A handler returns nothing: a refusal answers what the exhausted loop
// answers (502), not the 200 a bare return would leave.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err := s.shelf.Reserve(); err == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		time.Sleep(time.Millisecond)
	}
	w.WriteHeader(http.StatusBadGateway)
}

var errPermanent = errors.New("permanent")

// The failing paths meet inside a switch: the refusal breaks out of the
// loop through a label.
func (s *Service) Place() error {
	var lastErr error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		err := s.bins.Reserve()
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errPermanent):
			return err
		default:
			lastErr = err
			time.Sleep(time.Millisecond)
		}
	}
	return fmt.Errorf("place: %w", lastErr)
}

// Failover: the next replica after each failure. No budget fix: a
// budget in front of healthy replicas would refuse the failover that
// keeps the request alive.
func Dial(replicas []Inventory) error {
	var lastErr error
	for _, r := range replicas { // want `tries each of the len\(replicas\) endpoints of replicas in turn, with no retry budget: when all fail, one request makes len\(replicas\) calls`
		err := r.Reserve()
		if err == nil {
			return nil
		}
		lastErr = err
	}
	return fmt.Errorf("all replicas failed: %w", lastErr)
}

// The body starts with a statement every failing path passes before the
// next attempt, but so does the first iteration: the guard goes after
// the attempt, never before the first one.
func (s *Service) Recover(cancel <-chan struct{}) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		select {
		case <-cancel:
			return errors.New("recovery aborted")
		default:
		}
		if err = s.inventory.Reserve(); err == nil {
			return nil
		}
	}
	return fmt.Errorf("recover: %w", err)
}

// Conn is a connection to a replica.
type Conn struct{ closed bool }

func (c *Conn) Close() { c.closed = true }

// Dialer dials a replica.
type Dialer interface {
	Dial(host string) (*Conn, error)
}

// Failover by index: the counter takes each replica once, as a range
// over them does; no budget fix.
func DialIndexed(replicas []Inventory) error {
	var err error
	for i := 0; i != len(replicas); i++ { // want `tries each of the len\(replicas\) endpoints of replicas in turn`
		if err = replicas[i].Reserve(); err == nil {
			return nil
		}
	}
	return fmt.Errorf("all replicas failed: %w", err)
}

// Failover again, over hosts: no budget fix.
func Probe(d Dialer, hosts []string) (string, error) {
	var err error
	for _, host := range hosts { // want `tries each of the len\(hosts\) endpoints`
		var conn *Conn
		conn, err = d.Dial(host)
		if conn != nil {
			conn.Close()
		}
		if err == nil {
			return host, nil
		}
	}
	return "", fmt.Errorf("probe: %w", err)
}

// The failing path records the error and goes round with continue; what
// follows its if statement runs only on success: the guard goes before
// the continue, and a refusal leaves the loop as the last attempt does.
func (s *Service) Activate() error {
	for range 3 { // want `up to 3 attempts`
		if err := s.catalog.Reserve(); err != nil {
			s.last = err
			continue
		}
		s.last = nil
		return nil
	}
	return fmt.Errorf("activate: %w", s.last)
}

// The failing case breaks out of the switch, not the loop: the count
// after the switch runs on the failing path too, so the guard goes after
// it, not inside the switch.
func (s *Service) Settle() error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		switch err = s.ledger.Reserve(); err {
		case nil:
			return nil
		default:
			log.Printf("settle: %v", err)
			break
		}
		s.tally++
	}
	return fmt.Errorf("settle: %w", err)
}

// Policy decides whether another attempt follows the n-th.
type Policy interface{ Retry(n int) bool }

// A policy bounds the attempts, in one condition with the success test:
// only failing paths reach its false branch, so the budget joins the
// condition, asked only when the policy allows another attempt.
func (s *Service) Archive(p Policy) error {
	var err error
	for n := 1; ; n++ { // want `as many attempts as p.Retry allows`
		err = s.archive.Reserve()
		if err == nil || !p.Retry(n) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// The retry's verdict is a condition whose continue is the only way to
// the next attempt; when it does not hold the loop returns the failure. A
// refusal joins the condition and leaves the same way, after the log
// line that said a retry would follow.
func (s *Service) Restock() error {
	for try := 0; ; try++ { // want `up to 3 attempts`
		err := s.inventory.Reserve()
		if err == nil {
			return nil
		}
		willRetry := try < 2 && !errors.Is(err, context.Canceled)
		log.Printf("restock: %v (retrying: %v)", err, willRetry)
		if willRetry {
			time.Sleep(time.Millisecond)
			continue
		}
		return fmt.Errorf("restock: %w", err)
	}
}

// temporary reports whether a failure is worth another attempt.
func temporary(err error) bool { return !errors.Is(err, context.Canceled) }

// A goroutine's loop that only its context ends hands its failure on over
// a channel: a failure it does not retry is sent, and the loop returns. A
// refusal joins the condition of the retry and leaves the same way, with
// the attempt's error.
func (s *Service) Feed(ctx context.Context, errc chan<- error) {
	for attempt := 0; true; attempt++ { // want `bounded only by time`
		if attempt != 0 {
			select {
			case <-ctx.Done():
				errc <- ctx.Err()
				return
			case <-time.After(time.Millisecond):
			}
		}
		err := s.feed.Reserve()
		if err != nil {
			if temporary(err) {
				continue
			}
			errc <- err
			return
		}
		errc <- nil
		return
	}
}

// The same, returning: a failure the loop does not retry is returned
// wrapped, and so is a refused retry.
func (s *Service) Mirror(ctx context.Context) (string, error) {
	for { // want `bounded only by time`
		if err := ctx.Err(); err != nil {
			return "", err
		}
		v, err := s.mirror.Get()
		if err == nil {
			return v, nil
		}
		if temporary(err) {
			time.Sleep(time.Millisecond)
			continue
		}
		return "", fmt.Errorf("mirror: %w", err)
	}
}

// Its look-alike: the failure the loop does not retry is dropped (the
// return carries no error), so a refusal cannot take that way. The guard
// returns the attempt's error instead.
func (s *Service) Digest(ctx context.Context) (string, error) {
	for { // want `bounded only by time`
		if err := ctx.Err(); err != nil {
			return "", err
		}
		v, err := s.digest.Get()
		if err == nil {
			return v, nil
		}
		if temporary(err) {
			time.Sleep(time.Millisecond)
			continue
		}
		return "", nil
	}
}

// The first attempt is made before the loop, which runs only after it
// failed: every iteration is a retry. The guard is at the top of the
// body, asked on each iteration, the first too, and the request is
// counted before the first attempt.
func (s *Service) Send() error {
	err := s.outbox.Reserve()
	if err != nil {
		for r := 0; err != nil && r < 3; r++ { // want `up to 4 attempts`
			time.Sleep(time.Millisecond)
			err = s.outbox.Reserve()
		}
		if err != nil {
			return fmt.Errorf("outbox: %w", err)
		}
	}
	return nil
}

// The counter starts at a parameter the body never assigns, and two
// failing paths meet only in the post statement: the guard at the top of
// the body asks from the second iteration on (attempt > start).
func (s *Service) Drain(start, max int) error {
	var last error
	again := true
	for attempt := start; attempt <= max; attempt++ { // want `up to max\+1 attempts`
		err := s.queue.Reserve()
		if err != nil && again {
			again = false
			last = err
			continue
		}
		if err == nil {
			return nil
		}
		last = err
	}
	return fmt.Errorf("drain: %w", last)
}

// The same, with the first attempt in the header of the if that holds
// the loop: the request is counted before that if.
func (s *Service) Relay() error {
	if err := s.relay.Reserve(); err != nil {
		for r := 0; err != nil && r < 2; r++ { // want `up to 3 attempts`
			time.Sleep(time.Millisecond)
			err = s.relay.Reserve()
		}
		return err
	}
	return nil
}

// Its look-alike: the body moves the start, so no test of the counter
// tells a retry from the first attempt; a flag the first iteration sets
// does.
func (s *Service) Requeue(start, max int) error {
	var last error
	again := true
	for attempt := start; attempt <= max; attempt++ { // want `up to max\+1 attempts`
		err := s.spool.Reserve()
		if err != nil && again {
			again, start = false, attempt
			last = err
			continue
		}
		if err == nil {
			return nil
		}
		last = err
	}
	return fmt.Errorf("requeue: %w", last)
}

// A counter that counts down: the guard asks the budget only when the
// header allows another attempt (retries-1 > 0), never after the last.
func (s *Service) Page() (err error) {
	for retries := 3; retries > 0; retries-- { // want `up to 3 attempts`
		if err = s.pager.Reserve(); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("page: %w", err)
}

// A loop its context bounds, whose code after it returns the context's
// error: a break would return a nil error with no answer, so a refusal
// returns the failure instead.
func (s *Service) Acquire(ctx context.Context) (string, error) {
	for ctx.Err() == nil { // want `bounded only by time`
		v, err := s.leases.Get()
		if err == nil {
			return v, nil
		}
		time.Sleep(time.Millisecond)
	}
	return "", ctx.Err()
}

// Its look-alike returns nothing: a refusal breaks out, as the context
// ending would.
func (s *Service) Release(ctx context.Context) {
	for ctx.Err() == nil { // want `bounded only by time`
		if err := s.slots.Reserve(); err == nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// The code after the loop reads its counter in a log line only: a
// refusal breaks out, and the summary after the loop still runs.
func (s *Service) Dial() error {
	var last error
	attempt := 0
	for attempt = 0; attempt < 3; attempt++ { // want `up to 3 attempts`
		if last = s.dialer.Reserve(); last == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	log.Printf("dial: failed after %d attempts", attempt)
	return fmt.Errorf("dial: %w", last)
}

// The condition asks a method of the service for the count, and the code
// after the loop reads the service: that is no test of how the loop
// ended, so a refusal breaks out.
func (s *Service) Redial() error {
	var err error
	for i := 0; i < s.tries(); i++ { // want `up to s\.tries\(\) attempts`
		if err = s.redialer.Reserve(); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return s.wrap(err)
}

func (s *Service) tries() int { return 3 }

func (s *Service) wrap(err error) error { return fmt.Errorf("redial: %w", err) }

// shouldRetry is a retry policy the analysis does not read: it takes the
// request too.
func shouldRetry(req *http.Request, resp *http.Response, err error) bool {
	return err != nil || resp.StatusCode >= 500
}

// Deliver's last attempt leaves by the exit that tests the counter against
// the header's bound (i >= 3 holds on the last attempt only), beside a
// policy the analysis does not read, with the response open for the code
// after the loop: the budget joins that exit's condition, so a refusal
// leaves the same way, before the response is closed.
func Deliver(c *http.Client, req *http.Request) (string, error) {
	var resp *http.Response
	var err error
	for i := 0; i <= 3; i++ { // want `up to 4 attempts`
		resp, err = c.Do(req)
		if !shouldRetry(req, resp, err) || i >= 3 {
			break
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(time.Millisecond)
	}
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Status, nil
}

// Rewind is Deliver's look-alike that rewinds the request's body into err
// after the exit: a refusal breaking out after the rewind would hand the
// code after the loop a nil error and a closed response. Joining the exit's
// condition, the refusal leaves before the rewind, as the last attempt
// does.
func Rewind(c *http.Client, req *http.Request) (string, error) {
	var resp *http.Response
	var err error
	for i := 0; i <= 3; i++ { // want `up to 4 attempts`
		resp, err = c.Do(req)
		if !shouldRetry(req, resp, err) || i >= 3 {
			break
		}
		if req.GetBody != nil {
			req.Body, err = req.GetBody()
			if err != nil {
				return "", err
			}
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(time.Millisecond)
	}
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Status, nil
}

// Check is the look-alike of Deliver: the last attempt leaves by the header,
// after the body closed the failing response, and the code after the loop
// reads only its status; a refusal breaks after the close too, so no
// response is left open.
func Check(c *http.Client) (int, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		resp, err = c.Get("https://check.example/health")
		if err == nil && resp.StatusCode < 500 {
			resp.Body.Close()
			return resp.StatusCode, nil
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(time.Millisecond)
	}
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// pause waits before the next attempt, and says false when cancel closes
// first.
func pause(cancel <-chan struct{}) bool {
	select {
	case <-time.After(time.Millisecond):
		return true
	case <-cancel:
		return false
	}
}

// Expire retries until a deadline, waiting in a helper that says false once
// the request's context ends. That exit returns the context's error, nil
// while the context lives: it is no way out for a refusal, which breaks
// instead, so that the code after the loop returns the last answer, as
// when the time runs out.
func Expire(c *http.Client, req *http.Request, d time.Duration) (resp *http.Response, err error) {
	end := time.Now().Add(d)
	for time.Now().Before(end) { // want `bounded only by time`
		if resp != nil {
			resp.Body.Close()
		}
		resp, err = c.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if !pause(req.Context().Done()) {
			return nil, req.Context().Err()
		}
	}
	return resp, err
}

// Judge is a retry policy that says why it stops.
type Judge interface {
	Next(err error, n int) (retry bool, why string)
}

// The policy's verdict on the attempt's number comes in a variable the
// body assigns: the exit that leaves on it bounds the attempts, and the
// budget joins it, asked only when the policy allows another attempt.
func (s *Service) Appraise(j Judge) error {
	var err error
	for n := 0; ; { // want `as many attempts as j.Next allows`
		err = s.appraisal.Reserve()
		retry, why := j.Next(err, n)
		if !retry {
			log.Print(why)
			break
		}
		n++
		time.Sleep(time.Millisecond)
	}
	return err
}

// Query counts its own attempts.
type Query struct{ attempts int }

func (q *Query) Add() { q.attempts++ }

// Attempts is a policy asked about a query.
type Attempts interface{ Attempt(q *Query) bool }

// The policy's verdict is asked about the query, which counts its own
// attempts, not about a counter of the loop: still a verdict on what the
// attempts did, so the budget joins it (a stop, c.closed(), asks about
// nothing).
func (s *Service) Consult(p Attempts) error {
	q := &Query{}
	var err error
	for { // want `as many attempts as p.Attempt allows`
		err = s.consult.Reserve()
		q.Add()
		if err == nil || !p.Attempt(q) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// errRejected is what the classify service answers a request it will
// never serve.
var errRejected = errors.New("rejected")

// Classify sorts the failures before it waits: a rejection is not retried
// and returns its own error. The guard goes after that test; asked before
// it, a refusal would turn a rejection into "gave up" and spend a retry
// on a failure nobody retries.
func Classify(c *http.Client) (string, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var resp *http.Response
		resp, err = c.Get("https://classify.example/v1")
		if err == nil {
			defer resp.Body.Close()
			return resp.Status, nil
		}
		if errors.Is(err, errRejected) {
			return "", fmt.Errorf("classify: %w", err)
		}
		time.Sleep(time.Millisecond)
	}
	return "", fmt.Errorf("classify: gave up: %w", err)
}
