package loops

import (
	"context"
	"errors"
)

// ---- A loop that re-plans its request on the way round ----

type threadLink int

type threadSender interface {
	Send(ctx context.Context, body string) (string, error)
}

type thread struct {
	link    threadLink
	service threadSender
	notes   int
}

var errThreadGone = errors.New("thread gone")

// plan builds the request from the thread's link.
func (t *thread) plan() string {
	if t.link == 0 {
		return "continue"
	}
	return "create with history"
}

// recoversFrom moves the link on after an error that says the thread is
// gone, and says whether to plan again.
func (t *thread) recoversFrom(err error) bool {
	if errors.Is(err, errThreadGone) && t.link == 0 {
		t.link = 1
		return true
	}
	return false
}

// note counts failures; plan does not read the count.
func (t *thread) note(err error) bool {
	t.notes++
	return err != nil
}

// The verdict sets the link the next request is planned from: the next
// attempt sends a different request, no retry of the same one.
func (t *thread) replan(ctx context.Context) (string, error) {
	for {
		body := t.plan()
		out, err := t.service.Send(ctx, body)
		if err == nil {
			return out, nil
		}
		if !t.recoversFrom(err) {
			return "", err
		}
	}
}

// Look-alike: the verdict sets a field the plan does not read; the same
// request goes again.
func (t *thread) resend(ctx context.Context) (string, error) {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=none dep=service`
		body := t.plan()
		out, err := t.service.Send(ctx, body)
		if err == nil {
			return out, nil
		}
		if !t.note(err) {
			return "", err
		}
	}
	return "", errThreadGone
}

type redialer struct {
	conn threadSender
	dial func() threadSender
}

func (r *redialer) current() threadSender { return r.conn }

func (r *redialer) reconnect() { r.conn = r.dial() }

// Look-alike: the way round sets the connection the attempt is made on,
// not what it sends: a handle looked up again, the same operation.
func (r *redialer) send(ctx context.Context, body string) (string, error) {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=none dep=conn`
		conn := r.current()
		out, err := conn.Send(ctx, body)
		if err == nil {
			return out, nil
		}
		r.reconnect()
	}
	return "", errThreadGone
}
