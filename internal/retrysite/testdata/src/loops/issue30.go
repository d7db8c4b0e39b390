package loops

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Issue 30: retry loops in code nobody tuned for.

type partition struct{ ID int }

type pconn struct{}

func (c *pconn) ReadPartitions(topic string) ([]partition, error) { return nil, nil }

func isTemp(err error) bool { return err != nil }

func sleepCtx(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// The attempt runs in a goroutine that reports over channels; the loop
// lives in the goroutine's literal and waits before each attempt.
func lookupPartition(ctx context.Context, c *pconn, topic string, id int) (partition, error) {
	found := make(chan partition, 1)
	errs := make(chan error, 1)
	go func() {
		for attempt := 0; true; attempt++ { // want `loop \[time-bounded\] delay=exponential dep=c`
			if attempt != 0 {
				if !sleepCtx(ctx, time.Duration(attempt)*100*time.Millisecond) {
					errs <- ctx.Err()
					return
				}
			}
			ps, err := c.ReadPartitions(topic)
			if err != nil {
				if isTemp(err) {
					continue
				}
				errs <- err
				return
			}
			for _, p := range ps {
				if p.ID == id {
					found <- p
					return
				}
			}
		}
	}()
	select {
	case p := <-found:
		return p, nil
	case err := <-errs:
		return partition{}, err
	case <-ctx.Done():
		return partition{}, ctx.Err()
	}
}

type txKind int

const (
	txOK txKind = iota
	txTryAgain
	txConnFailed
	txMoved
	txFatal
)

type txOutcome struct {
	kind txKind
	err  error
	addr string
}

func nodeAt(addr string) *txNode { return &txNode{} }

type txNode struct{}

func (n *txNode) exec(ctx context.Context, cmds []string) *txOutcome {
	if err := n.write(ctx, cmds); err != nil {
		return &txOutcome{kind: txConnFailed, err: err}
	}
	if len(cmds) == 0 {
		return &txOutcome{kind: txFatal, err: errGaveUp}
	}
	if len(cmds) == 1 {
		return &txOutcome{kind: txMoved, err: errGaveUp, addr: cmds[0]}
	}
	return &txOutcome{kind: txOK}
}

func (n *txNode) write(ctx context.Context, cmds []string) error { return nil }

// pingOutcome is an outcome returned by value.
type pingOutcome struct {
	kind txKind
	err  error
}

func (n *txNode) ping(ctx context.Context) pingOutcome {
	if err := n.write(ctx, nil); err != nil {
		return pingOutcome{kind: txConnFailed, err: err}
	}
	return pingOutcome{kind: txOK}
}

// The outcome's kind, of a value returned by value, says how it went.
func pingUntilOK(ctx context.Context, n *txNode) error {
	for attempt := 0; attempt < 3; attempt++ { // want `loop \[3 attempts\] delay=fixed dep=n`
		if out := n.ping(ctx); out.kind == txOK {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errGaveUp
}

// pingTally is a value with no error in it.
type pingTally struct {
	kind txKind
	n    int
}

func (n *txNode) count(ctx context.Context) pingTally {
	if err := n.write(ctx, nil); err != nil {
		return pingTally{kind: txConnFailed}
	}
	return pingTally{kind: txOK, n: 1}
}

// Its look-alike: the value carries no error, so the call says nothing
// of a failure, and the loop is none.
func countUntilOK(ctx context.Context, n *txNode) int {
	for attempt := 0; attempt < 3; attempt++ {
		if t := n.count(ctx); t.kind == txOK {
			return t.n
		}
		time.Sleep(100 * time.Millisecond)
	}
	return 0
}

// Success told by an outcome kind: the attempt returns a classification,
// not a nil error.
func txPipeline(ctx context.Context, n *txNode, cmds []string, max int) error {
	var lastErr error
	for attempt := 0; attempt <= max; attempt++ { // want `loop \[max\+1 attempts\] delay=fixed dep=n`
		if attempt > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		out := n.exec(ctx, cmds)
		lastErr = out.err
		switch out.kind {
		case txOK:
			return nil
		case txTryAgain, txConnFailed:
		case txMoved:
			// What the failure says: the node it names.
			n = nodeAt(out.addr)
		case txFatal:
			return lastErr
		}
	}
	return lastErr
}

type streamer struct {
	hc            *http.Client
	maxRetries    int
	retryOnStatus []int
}

// A status compared with the elements of a list, the request cloned each
// attempt.
func (s *streamer) stream(req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for i := 0; i <= s.maxRetries; i++ { // want `loop \[s.maxRetries\+1 attempts\] delay=fixed dep=hc`
		if i > 0 {
			req = req.Clone(req.Context())
		}
		var shouldRetry bool
		res, err = s.hc.Do(req)
		if err != nil {
			shouldRetry = true
		}
		if res != nil {
			for _, code := range s.retryOnStatus {
				if res.StatusCode == code {
					shouldRetry = true
				}
			}
		}
		if !shouldRetry {
			break
		}
		time.Sleep(time.Second)
	}
	return res, err
}

// Look-alike: a goroutine worker that hands on every partition it reads;
// its success goes round for more.
func streamPartitions(ctx context.Context, c *pconn, topic string, out chan<- partition) {
	go func() {
		for {
			ps, err := c.ReadPartitions(topic)
			if err != nil {
				if isTemp(err) {
					continue
				}
				return
			}
			for _, p := range ps {
				out <- p
			}
			time.Sleep(time.Second)
		}
	}()
}

// Look-alike: waiting for a partition to appear, leaving on every error:
// a poll, not a retry.
func awaitPartition(ctx context.Context, c *pconn, topic string, id int) (partition, error) {
	for {
		ps, err := c.ReadPartitions(topic)
		if err != nil {
			return partition{}, err
		}
		for _, p := range ps {
			if p.ID == id {
				return p, nil
			}
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: the range does work with each element (and leaves on its
// failure): a consumer, whose success goes round.
func consumePartitions(ctx context.Context, c *pconn, sink *Client, topic string) error {
	for {
		ps, err := c.ReadPartitions(topic)
		if err != nil {
			if isTemp(err) {
				continue
			}
			return err
		}
		for _, p := range ps {
			if err := sink.Put(ctx, topic, strconv.Itoa(p.ID)); err != nil {
				return err
			}
		}
	}
}

type pageKind int

const (
	pageMore pageKind = iota
	pageLast
	pageFailed
)

type pageOutcome struct {
	kind pageKind
	next string
	err  error
}

func (n *txNode) page(ctx context.Context, cursor string) *pageOutcome {
	if err := n.write(ctx, nil); err != nil {
		return &pageOutcome{kind: pageFailed, err: err}
	}
	if cursor == "" {
		return &pageOutcome{kind: pageLast}
	}
	return &pageOutcome{kind: pageMore, next: cursor + "+"}
}

// Look-alike: a classification loop that pages: its success kind goes on
// to the next page.
func classifiedPages(ctx context.Context, n *txNode) error {
	cursor := "start"
	for {
		out := n.page(ctx, cursor)
		switch out.kind {
		case pageMore:
			cursor = out.next
		case pageLast:
			return nil
		case pageFailed:
			return out.err
		}
	}
}

// Look-alike: the kind's class is what the package's literals make it;
// here every kind is made both with and without an error, so it says
// nothing.
type mixedKind int

const (
	mixedA mixedKind = iota
	mixedB
)

type mixedOutcome struct {
	kind mixedKind
	err  error
}

func (n *txNode) mixed(ctx context.Context) *mixedOutcome {
	if err := n.write(ctx, nil); err != nil {
		return &mixedOutcome{kind: mixedA, err: err}
	}
	if err := n.write(ctx, nil); err != nil {
		return &mixedOutcome{kind: mixedB, err: err}
	}
	if ctx == nil {
		return &mixedOutcome{kind: mixedA}
	}
	return &mixedOutcome{kind: mixedB}
}

func mixedLoop(ctx context.Context, n *txNode) error {
	for i := 0; i < 3; i++ {
		out := n.mixed(ctx)
		switch out.kind {
		case mixedA:
			return nil
		case mixedB:
			time.Sleep(time.Second)
		}
	}
	return errGaveUp
}

// A list of constant statuses holds those statuses.
func (s *streamer) constList(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		res, err := s.hc.Do(req)
		if err != nil {
			return nil, err
		}
		again := false
		for _, code := range []int{502, 503, 504} {
			if res.StatusCode == code {
				again = true
			}
		}
		if !again {
			return res, nil
		}
		res.Body.Close()
		time.Sleep(time.Second)
	}
	return nil, errGaveUp
}

// Look-alike: a list of success statuses; any other status goes round,
// success among them.
func (s *streamer) acceptedList(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		res, err := s.hc.Do(req)
		if err != nil {
			return nil, err
		}
		for _, code := range []int{200, 201} {
			if res.StatusCode == code {
				return res, nil
			}
		}
		res.Body.Close()
		time.Sleep(time.Second)
	}
	return nil, errGaveUp
}

// Look-alike: a list nothing says anything of (statuses of a pending
// job) is no set of failures.
func (s *streamer) pendingList(req *http.Request, pending []int) (*http.Response, error) {
	for {
		res, err := s.hc.Do(req)
		if err != nil {
			return nil, err
		}
		wait := false
		for _, code := range pending {
			if res.StatusCode == code {
				wait = true
			}
		}
		if !wait {
			return res, nil
		}
		res.Body.Close()
		time.Sleep(time.Second)
	}
}

type query struct{ offset int }

func (q *query) Clone() *query { return &query{offset: q.offset} }
func (q *query) Next() *query  { return &query{offset: q.offset + 10} }

func (s *streamer) run(q *query) error { return nil }

// A copy of the request is the request.
func (s *streamer) cloned(q *query) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		if i > 0 {
			q = q.Clone()
		}
		if err = s.run(q); err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: the next query is other work.
func (s *streamer) advanced(q *query) error {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			q = q.Next()
		}
		if err = s.run(q); err == nil {
			return nil
		}
	}
	return err
}

type transport interface {
	Dial(ctx context.Context) (net.Conn, error)
}

var transports = map[string]transport{}

// Failover over keys: each protocol name picks the transport the attempt
// is made on, and the first connection returns.
func dialProtocols(ctx context.Context, protocols []string) (net.Conn, error) {
	var err error
	for _, proto := range protocols { // want `loop \[len\(protocols\) attempts\]`
		dialer, ok := transports[proto]
		if !ok {
			continue
		}
		var conn net.Conn
		conn, err = dialer.Dial(ctx)
		if conn != nil {
			return conn, nil
		}
	}
	return nil, err
}

type decoder interface {
	Decode(b []byte) (string, error)
}

var decoders = map[string]decoder{}

// Look-alike: each format picks a decoder, no endpoint; trying formats
// in turn is other work.
func decodeAny(formats []string, b []byte) (string, error) {
	var err error
	for _, format := range formats {
		dec := decoders[format]
		var s string
		if s, err = dec.Decode(b); err == nil {
			return s, nil
		}
	}
	return "", err
}

type shardRing map[string]*Client

// Look-alike: the key picks the node and is also the work handed to it.
func (r shardRing) putFirst(ctx context.Context, keys []string) error {
	for _, key := range keys {
		node := r[key]
		if err := node.Put(ctx, key, "v"); err == nil {
			return nil
		}
	}
	return errBusy
}

// Failover over resolved addresses: the list's type says they are
// endpoints, whatever they are named.
func dialResolved(ctx context.Context, d *net.Dialer, ips []net.IP, port string) (net.Conn, error) {
	var lastErr error
	for _, ip := range ips { // want `loop \[len\(ips\) attempts\]`
		conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// Look-alike: every resolved address is dialed; a success goes on.
func dialEach(ctx context.Context, d *net.Dialer, ips []net.IP, port string) []net.Conn {
	var conns []net.Conn
	for _, ip := range ips {
		conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), port))
		if err != nil {
			continue
		}
		conns = append(conns, conn)
	}
	return conns
}

// batchReq is an argument struct.
type batchReq struct {
	attempt int
	last    error
	cursor  string
}

type batcher interface {
	Send(ctx context.Context, r batchReq) (string, error)
}

// An argument struct built from the counter and the last error: the
// attempt's number and what the failure said, handed on: the same
// operation.
func sendBatch(ctx context.Context, b batcher) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=fixed dep=b`
		if _, err = b.Send(ctx, batchReq{attempt: i, last: err}); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Its look-alike builds the struct from the next of a list of cursors,
// by the counter: each iteration sends other work.
func sendFirst(ctx context.Context, b batcher, cursors []string) error {
	for i := 0; i < len(cursors); i++ {
		if _, err := b.Send(ctx, batchReq{cursor: cursors[i]}); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errGaveUp
}
