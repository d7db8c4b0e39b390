package budget

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"
)

// unit is the number of fixed-point units in one token: balances are kept
// in micro-tokens, so deposits of any Ratio down to 1e-6 add up exactly.
const unit = 1_000_000

// Defaults, and the limits that keep the fixed-point arithmetic in range.
const (
	defaultRatio        = 0.1
	defaultCap          = 100
	defaultMinPerSecond = 1

	maxCap          = 1e12 // tokens; 1e18 units still fits an int64
	maxMinPerSecond = 1e9  // one floor retry per nanosecond
)

// maxSkip bounds how many refused calls in a row on one CPU may skip the
// clock while the floor is empty (see tryFloor). It bounds how late a floor
// retry can be noticed after the refusal rate drops sharply.
const maxSkip = 16

// The per-CPU shares (see shard).
const (
	// creditBits is the width of the credit in a share's word; the room
	// takes the rest.
	creditBits = 22
	creditMask = 1<<creditBits - 1
	// shareMax bounds the credit a share keeps: a deposit that would
	// reach it publishes one token to the shared bucket instead. A share
	// thus holds at most one whole token and a fraction of the next.
	shareMax = 2 * unit
	// roomChunk is the room a share takes from the free capacity at a
	// time, and maxRoom the most it keeps; the rest goes back. Other
	// shares may take its room beyond ownRoom only, so that room freed by
	// a retry serves the next deposit on the same processor instead of
	// moving between processors on every call of a full bucket.
	roomChunk = 2 * unit
	maxRoom   = 4 * unit
	ownRoom   = unit
	// poolEvery is how many refusals a CPU makes between two poolings of
	// the other CPUs' credit (see pool), and poolWidth how many other
	// shares one pooling visits.
	poolEvery = 16
	poolWidth = 4
	// maxShards bounds the shares of a Budget (256 bytes each).
	maxShards = 64
	// spreadAfter is how many collisions make a budget spread its calls
	// over the processors' shares.
	spreadAfter = 64
)

// An Option configures a Budget or a Registry. Options are checked when New
// or NewRegistry is called, which panics on an invalid one.
type Option func(*config)

// Ratio sets the tokens each original request deposits (OnRequest): the
// long-run fraction of requests that may be retried when everything fails.
// It must be in (0, 1]; the default is 0.1.
func Ratio(r float64) Option { return func(c *config) { c.ratio = r } }

// Cap sets the most tokens the budget can bank, which bounds the retries a
// sudden outage can draw from credit earned while healthy. It must be
// finite and not negative; the default is 100. A Cap below 1 leaves only the
// floor (MinPerSecond) to fund retries.
func Cap(tokens float64) Option { return func(c *config) { c.cap = tokens } }

// MinPerSecond sets the floor: retries allowed per second even when the
// requests have deposited too little, so that a low-traffic client can
// retry at all. It must be finite and not negative; 0 turns the floor off;
// the default is 1. See the package documentation for its exact semantics.
func MinPerSecond(retries float64) Option { return func(c *config) { c.minPerSecond = retries } }

// Clock makes the budget read the time from now instead of the system's
// monotonic clock, for tests and simulations: the floor (MinPerSecond) is
// the only part of a budget that reads the time, and with a fake clock its
// retries come exactly when the test moves the clock on. now must never go
// backwards; nil means the system clock. The package budgettest has such a
// clock. Given to NewRegistry, the clock serves all its budgets.
func Clock(now func() time.Time) Option {
	return func(c *config) {
		if now == nil {
			c.clock = nil
			return
		}
		origin := now()
		c.clock = func() time.Duration { return now().Sub(origin) }
	}
}

// withClock makes the budget read time from now instead of the monotonic
// clock; now must never go backwards. For tests.
func withClock(now func() time.Duration) Option { return func(c *config) { c.clock = now } }

// withShares gives the budget n shares (a power of two) whatever the
// number of processors. For tests.
func withShares(n int) Option { return func(c *config) { c.shares = n } }

type config struct {
	ratio, cap, minPerSecond float64
	clock                    func() time.Duration
	shares                   int // 0: one per processor
}

// newConfig applies opts over the defaults and panics if the result is
// invalid, naming the option at fault.
func newConfig(caller string, opts []Option) *config {
	c := &config{ratio: defaultRatio, cap: defaultCap, minPerSecond: defaultMinPerSecond}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	switch {
	case !(c.ratio > 0 && c.ratio <= 1): // also catches NaN
		panic(fmt.Sprintf("%s: Ratio(%v) is outside (0, 1]", caller, c.ratio))
	case math.Round(c.ratio*unit) < 1:
		panic(fmt.Sprintf("%s: Ratio(%v) is below the resolution of 1e-6 tokens", caller, c.ratio))
	case math.IsNaN(c.cap):
		panic(fmt.Sprintf("%s: Cap(%v) is not a number", caller, c.cap))
	case c.cap < 0:
		panic(fmt.Sprintf("%s: Cap(%v) is negative", caller, c.cap))
	case c.cap > maxCap:
		panic(fmt.Sprintf("%s: Cap(%v) exceeds the maximum of %g tokens", caller, c.cap, float64(maxCap)))
	case math.IsNaN(c.minPerSecond):
		panic(fmt.Sprintf("%s: MinPerSecond(%v) is not a number", caller, c.minPerSecond))
	case c.minPerSecond < 0:
		panic(fmt.Sprintf("%s: MinPerSecond(%v) is negative", caller, c.minPerSecond))
	case c.minPerSecond > maxMinPerSecond:
		panic(fmt.Sprintf("%s: MinPerSecond(%v) exceeds the maximum of %g per second", caller, c.minPerSecond, float64(maxMinPerSecond)))
	}
	return c
}

// cacheLine separates the fields that different CPUs write, so that a
// write to one does not evict the others from other cores' caches. 128
// bytes covers CPUs that fetch cache lines in adjacent pairs.
const cacheLine = 128

// A Budget is the retry budget of one dependency: a token bucket that every
// original request fills by Ratio tokens and every retry drains by one,
// bounded by Cap, plus a floor of MinPerSecond retries per second. Create it
// with New (or Registry.For); the zero Budget refuses every retry. A Budget
// is safe for concurrent use and must not be copied.
type Budget struct {
	// Read-only after New.
	ratio     int64 // units deposited by OnRequest
	cap       int64 // most units the bucket holds
	interval  int64 // nanoseconds per floor retry; 0: no floor
	tolerance int64 // nanoseconds of floor credit banked beyond one retry
	now       func() int64
	shards    []shard // one per CPU; nil: spare is the only share
	mask      int     // len(shards) - 1, a power of two minus one
	// compact is the share every call uses until the budget spreads over
	// the processors' shares; then nil. Nil in the zero Budget.
	compact atomic.Pointer[shard]
	_       [cacheLine]byte

	// The shared bucket, written when credit or capacity moves between
	// CPUs: never on a call that the caller's share can serve.
	tokens atomic.Int64 // whole tokens published by the shares, in units
	free   atomic.Int64 // capacity that no share holds as room, in units
	full   atomic.Bool  // hint: no room is left anywhere (see moreRoom)
	// collisions counts the counter increments that lost a race while the
	// budget was not spread (see incr).
	collisions atomic.Uint64
	_          [cacheLine - 32]byte

	// The floor, written when a retry draws on it.
	floorTAT atomic.Int64 // when the floor is full again (GCRA's theoretical arrival time)
	_        [cacheLine - 8]byte

	lat latency // attempt durations (ObserveLatency)

	spare [1]shard // the only share when shards is nil
}

// A shard is one CPU's share of a Budget: its counters, and a part of the
// bucket's capacity (room) and balance (credit) packed in one word, so that
// a call touches only cache lines that its own CPU writes. Deposits land in
// the share of the CPU that makes them, and retries are paid from it first.
//
// The capacity is conserved: Cap = free + the room of every share + the
// credit of every share + tokens. A deposit turns room into credit, a paid
// retry turns a token of credit back into room; a deposit finding no room
// anywhere is dropped, which is how the bucket stops at Cap.
type shard struct {
	// Written on every call made on the CPU.
	requests      atomic.Uint64
	allowed       atomic.Uint64
	refused       atomic.Uint64
	nextCheck     atomic.Uint64 // refused calls skip the clock while refused < nextCheck
	lastCheckRefs atomic.Uint64 // refused at the last floor check
	lastCheck     atomic.Int64  // clock at the last floor check
	poolNext      atomic.Uint64 // the first share the next pooling visits
	_             [cacheLine - 56]byte

	// room<<creditBits | credit, in units. Written by deposits and paid
	// retries on the CPU, read and written by other CPUs when they pool
	// credit or take room.
	share atomic.Uint64
	_     [cacheLine - 8]byte
}

func unpack(w uint64) (room, credit int64) {
	return int64(w >> creditBits), int64(w & creditMask)
}

func pack(room, credit int64) uint64 {
	return uint64(room)<<creditBits | uint64(credit)
}

// New returns a budget for one dependency, starting with an empty bucket
// and a full floor. It panics if an option is invalid: a Ratio outside
// (0, 1], a negative Cap or MinPerSecond, or a NaN or out-of-range value.
func New(opts ...Option) *Budget {
	return newBudget(newConfig("budget.New", opts))
}

func newBudget(c *config) *Budget {
	b := &Budget{
		ratio: int64(math.Round(c.ratio * unit)),
		cap:   int64(math.Round(c.cap * unit)),
	}
	b.free.Store(b.cap)
	n := c.shares
	if n == 0 {
		n = shardCount()
	}
	if n > 1 {
		b.shards = make([]shard, n)
		b.mask = n - 1
	}
	b.compact.Store(&b.all()[0])
	if c.clock != nil {
		clock := c.clock
		b.now = func() int64 { return int64(clock()) }
	} else {
		start := time.Now()
		b.now = func() int64 { return int64(time.Since(start)) }
	}
	if c.minPerSecond > 0 {
		b.interval = max(1, int64(math.Round(float64(time.Second)/c.minPerSecond)))
		// The floor banks one second's worth of retries, and at least one.
		b.tolerance = max(0, int64(time.Second)-b.interval)
		t := b.now()
		b.floorTAT.Store(t)
		for i := range b.all() {
			b.all()[i].lastCheck.Store(t)
		}
	}
	return b
}

// shardCount is the number of shares of a new Budget: the processors that
// run Go code, rounded up to a power of two, at most maxShards. Processors
// added later share them.
func shardCount() int {
	if !perCPU {
		return 1
	}
	n := 1
	for n < runtime.GOMAXPROCS(0) && n < maxShards {
		n *= 2
	}
	return n
}

// all returns the budget's shares.
func (b *Budget) all() []shard {
	if b.shards != nil {
		return b.shards
	}
	return b.spare[:]
}

// local returns the share that the caller uses: the first until the
// budget is spread, then the one of the processor running the caller.
func (b *Budget) local() *shard {
	if s := b.compact.Load(); s != nil {
		return s
	}
	return b.localSpread()
}

//go:noinline
func (b *Budget) localSpread() *shard {
	if b.shards == nil {
		return &b.spare[0] // the zero Budget, or a single share
	}
	return &b.shards[cpu()&b.mask]
}

// incr adds one to a counter of a share. Every call increments exactly
// one, and does so with a compare-and-swap, whose failure shows that calls
// from two processors collided on the share; after spreadAfter collisions
// on a budget that is not spread yet, it spreads. A budget whose calls do
// not collide (one goroutine, or goroutines taking turns on the
// processors) thus keeps the cost of a single share, and reading the
// processor is paid only where it saves cache-line transfers.
func (b *Budget) incr(c *atomic.Uint64) {
	if n := c.Load(); !c.CompareAndSwap(n, n+1) {
		b.incrCollided(c)
	}
}

//go:noinline
func (b *Budget) incrCollided(c *atomic.Uint64) {
	c.Add(1)
	if b.compact.Load() != nil {
		b.collided()
	}
}

// collided counts a collision and spreads the budget after spreadAfter.
func (b *Budget) collided() {
	if b.shards != nil && b.collisions.Add(1) >= spreadAfter {
		b.compact.Store(nil)
	}
}

// OnRequest records one original request and deposits Ratio tokens, up to
// Cap. Call it once per logical request, not once per attempt. It does not
// allocate, lock or read the clock.
func (b *Budget) OnRequest() {
	s := b.local()
	if n := s.requests.Load(); !s.requests.CompareAndSwap(n, n+1) { // b.incr, inlined
		b.incrCollided(&s.requests)
	}
	// The common case: room in the share and no token to publish.
	w := s.share.Load()
	if room, credit := unpack(w); room >= b.ratio && credit+b.ratio < shareMax && b.ratio > 0 &&
		s.share.CompareAndSwap(w, pack(room-b.ratio, credit+b.ratio)) {
		return
	}
	if b.ratio > 0 {
		b.deposit(s, b.ratio)
	}
}

// deposit adds amount units of credit to s, turning its room into credit,
// and publishes a whole token to the shared bucket when the share would
// hold shareMax. Without room it takes more (moreRoom); when there is none
// anywhere, the bucket is full and the deposit is cut to the room left.
func (b *Budget) deposit(s *shard, amount int64) {
	for {
		w := s.share.Load()
		room, credit := unpack(w)
		if room < amount {
			if !b.moreRoom(s, amount-room) {
				if room == 0 {
					return // full: the deposit is lost, as at Cap
				}
				amount = room // fill the bucket to Cap exactly
			}
			continue
		}
		room -= amount
		credit += amount
		var publish int64
		for credit >= shareMax {
			credit -= unit
			publish += unit
		}
		if s.share.CompareAndSwap(w, pack(room, credit)) {
			if publish > 0 {
				b.tokens.Add(publish)
			}
			return
		}
	}
}

// moreRoom gives s at least some more room: from the free capacity, else
// from another share's beyond its ownRoom. It reports false when there is
// none: the bucket is full, but for room that other processors keep for
// their own deposits. It then sets the full hint, which lets later
// deposits drop at once; whoever frees room that others can take clears it
// (freed).
func (b *Budget) moreRoom(s *shard, need int64) bool {
	for !b.full.Load() {
		if got := b.takeFree(max(need, roomChunk)); got > 0 {
			b.addRoom(s, got)
			return true
		}
		if got := b.takeRoom(s); got > 0 {
			b.addRoom(s, got)
			return true
		}
		b.full.Store(true)
		// Capacity freed while we looked cleared nothing, because the hint
		// was not set yet: look once more, now that it is.
		if b.free.Load() == 0 && !b.othersHaveRoom(s) {
			return false
		}
		b.full.Store(false)
	}
	return false
}

// takeFree takes up to want units of the free capacity.
func (b *Budget) takeFree(want int64) int64 {
	for {
		f := b.free.Load()
		if f == 0 {
			return 0
		}
		got := min(f, want)
		if b.free.CompareAndSwap(f, f-got) {
			return got
		}
	}
}

// takeRoom takes the room beyond ownRoom of the first other share that
// has some.
func (b *Budget) takeRoom(s *shard) int64 {
	all := b.all()
	for i := range all {
		o := &all[i]
		if o == s {
			continue
		}
		for {
			w := o.share.Load()
			room, credit := unpack(w)
			if room <= ownRoom {
				break
			}
			if o.share.CompareAndSwap(w, pack(ownRoom, credit)) {
				return room - ownRoom
			}
		}
	}
	return 0
}

func (b *Budget) othersHaveRoom(s *shard) bool {
	all := b.all()
	for i := range all {
		if o := &all[i]; o != s {
			if room, _ := unpack(o.share.Load()); room > ownRoom {
				return true
			}
		}
	}
	return false
}

// addRoom adds amount units of room to s, keeping at most maxRoom and
// returning the rest to the free capacity.
func (b *Budget) addRoom(s *shard, amount int64) {
	for {
		w := s.share.Load()
		room, credit := unpack(w)
		keep := min(room+amount, max(room, maxRoom))
		if s.share.CompareAndSwap(w, pack(keep, credit)) {
			extra := room + amount - keep
			if extra > 0 {
				b.free.Add(extra)
			}
			if extra > 0 || keep > ownRoom {
				b.freed()
			}
			return
		}
	}
}

// freed clears the full hint after capacity that other shares can take
// was freed.
func (b *Budget) freed() {
	if b.full.Load() {
		b.full.Store(false)
	}
}

// TryRetry asks to make one retry. It withdraws one token and reports true,
// or, when the bucket holds less than a whole token, draws on the floor; it
// reports false when neither can pay, and then the caller must stop
// retrying and return the error of the last attempt. It does not allocate
// or lock; a refusal while the floor is empty usually costs a few atomic
// operations on the caller's CPU and no clock read.
func (b *Budget) TryRetry() bool {
	s := b.local()
	// The common cases without a call: a token in the share, whose
	// room stays private; or no token anywhere that this test can see.
	w := s.share.Load()
	if room, credit := unpack(w); credit >= unit {
		if room+unit <= ownRoom && s.share.CompareAndSwap(w, pack(room+unit, credit-unit)) {
			b.paid(s)
			return true
		}
		if b.payShare(s) {
			b.paid(s)
			return true
		}
	}
	if b.tokens.Load() >= unit && b.payShared(s) {
		b.paid(s)
		return true
	}
	// The first refusal on a processor and every poolEvery-th pool the
	// other processors' credit.
	r := s.refused.Load()
	if r%poolEvery == 0 && b.pool(s) {
		b.paid(s)
		return true
	}
	if b.interval == 0 || r < s.nextCheck.Load() {
		if !s.refused.CompareAndSwap(r, r+1) { // incr, inlined
			b.incrCollided(&s.refused)
		}
		return false
	}
	return b.tryFloor(s)
}

// paid counts an allowed retry.
func (b *Budget) paid(s *shard) {
	if n := s.allowed.Load(); !s.allowed.CompareAndSwap(n, n+1) {
		b.incrCollided(&s.allowed)
	}
}

// payShare pays a retry with a whole token of the caller's share.
func (b *Budget) payShare(s *shard) bool {
	for {
		w := s.share.Load()
		room, credit := unpack(w)
		if credit < unit {
			return false
		}
		if room+unit > maxRoom {
			if s.share.CompareAndSwap(w, pack(room, credit-unit)) {
				b.addRoom(s, unit) // returns the excess room
				return true
			}
			continue
		}
		if s.share.CompareAndSwap(w, pack(room+unit, credit-unit)) {
			if room+unit > ownRoom {
				b.freed()
			}
			return true
		}
	}
}

// payShared pays a retry with a token of the shared part.
func (b *Budget) payShared(s *shard) bool {
	for {
		t := b.tokens.Load()
		if t < unit {
			return false
		}
		if b.tokens.CompareAndSwap(t, t-unit) {
			b.addRoom(s, unit)
			return true
		}
	}
}

// pool moves the credit of other processors' shares (poolWidth of them, in
// turn) to the caller's share, and then pays a retry if that makes a whole
// token. Deposits on different processors thus add up to tokens, however
// they are spread. When one pooling visits every share, it moves nothing
// unless that pays a retry, so that most refusals in an outage only read
// the other processors' cache lines; on more processors than that, each
// pooling moves what it finds, and successive ones add up.
func (b *Budget) pool(s *shard) bool {
	all := b.all()
	if len(all) == 1 {
		return false
	}
	width := min(poolWidth, len(all))
	first := int(s.poolNext.Add(uint64(width)) - uint64(width))
	if width+1 >= len(all) { // every other share is visited
		sum := int64(s.share.Load() & creditMask)
		for k := 0; k < width; k++ {
			if o := &all[(first+k)&b.mask]; o != s {
				sum += int64(o.share.Load() & creditMask)
			}
		}
		if sum < unit {
			return false
		}
	}
	for k := 0; k < width; k++ {
		o := &all[(first+k)&b.mask]
		if o == s {
			continue
		}
		for {
			w := o.share.Load()
			room, c := unpack(w)
			if c == 0 {
				break
			}
			if o.share.CompareAndSwap(w, pack(room, 0)) {
				b.addCredit(s, c)
				break
			}
		}
	}
	return b.payShare(s)
}

// addCredit adds credit moved from another share to s, publishing a token
// to the shared part if s would hold shareMax.
func (b *Budget) addCredit(s *shard, amount int64) {
	for {
		w := s.share.Load()
		room, credit := unpack(w)
		credit += amount
		var publish int64
		for credit >= shareMax {
			credit -= unit
			publish += unit
		}
		if s.share.CompareAndSwap(w, pack(room, credit)) {
			if publish > 0 {
				b.tokens.Add(publish)
			}
			return
		}
	}
}

// tryFloor reads the clock and grants a floor retry if one is due, using
// the generic cell rate algorithm: floorTAT is the time at which the floor
// would be full again, and a retry is due when floorTAT - now is at most the
// tolerance. When none is due it estimates how many refusals will arrive
// on this CPU before one is, and lets half of them (at most maxSkip) skip
// the clock.
func (b *Budget) tryFloor(s *shard) bool {
	now := b.now()
	for {
		tat := b.floorTAT.Load()
		if tat-now > b.tolerance {
			b.schedule(s, now, tat-b.tolerance-now)
			b.incr(&s.refused)
			return false
		}
		if b.floorTAT.CompareAndSwap(tat, max(tat, now)+b.interval) {
			b.incr(&s.allowed)
			return true
		}
	}
}

// schedule sets how many refusals on s may skip the clock, given that the
// next floor retry is due in wait nanoseconds: half the refusals expected by
// then at the rate seen since the previous check, at most maxSkip. A slow
// refusal rate reads the clock on every refusal; a fast one, once every
// maxSkip refusals.
func (b *Budget) schedule(s *shard, now, wait int64) {
	r := s.refused.Load()
	prevAt := s.lastCheck.Swap(now)
	prevR := s.lastCheckRefs.Swap(r)
	var skip uint64
	if dt := now - prevAt; dt > 0 && r > prevR {
		expected := float64(r-prevR) / float64(dt) * float64(wait) / 2
		switch {
		case expected >= maxSkip:
			skip = maxSkip
		case expected >= 1:
			skip = uint64(expected)
		}
	}
	s.nextCheck.Store(r + skip)
}

// Stats is a point-in-time view of a Budget, for metrics. The counters only
// grow; the fields are read one by one, so under concurrent use they need
// not add up exactly.
type Stats struct {
	Requests       uint64  // calls of OnRequest
	RetriesAllowed uint64  // calls of TryRetry that reported true
	RetriesRefused uint64  // calls of TryRetry that reported false
	Tokens         float64 // credit in the bucket, in retries, in [0, Cap]; the floor's is not included
}

// Stats returns the budget's counters and balance. It does not lock.
func (b *Budget) Stats() Stats {
	st := Stats{}
	// The shared part first: a publish moves credit from a share to it,
	// so this order never counts one twice. Moves between shares can be,
	// hence the clamp.
	units := b.tokens.Load()
	for i := range b.all() {
		s := &b.all()[i]
		st.Requests += s.requests.Load()
		st.RetriesAllowed += s.allowed.Load()
		st.RetriesRefused += s.refused.Load()
		_, c := unpack(s.share.Load())
		units += c
	}
	st.Tokens = float64(min(units, b.cap)) / unit
	return st
}

// balance returns the units of credit in the shared bucket and in the
// shares, for tests.
func (b *Budget) balance() (shared int64, shares []int64) {
	shared = b.tokens.Load()
	for i := range b.all() {
		_, c := unpack(b.all()[i].share.Load())
		shares = append(shares, c)
	}
	return shared, shares
}
