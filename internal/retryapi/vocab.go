package retryapi

import (
	"fmt"
	"strings"
)

// This file is the vocabulary of attempt bounds and backoffs that the
// table, the retry-site analysis and the passes share.

// BoundKind classifies what limits the attempts of a retry site.
type BoundKind uint8

const (
	BoundUnknown BoundKind = iota // not known statically
	BoundCount                    // at most N attempts (N = 0: a count that is not a constant, see Expr)
	BoundTime                     // bounded only by time (a deadline, a context, MaxElapsedTime)
	Unbounded                     // nothing bounds the attempts
)

// String names the kind as reports do: "count", "time", "unbounded",
// "unknown".
func (k BoundKind) String() string {
	switch k {
	case BoundCount:
		return "count"
	case BoundTime:
		return "time"
	case Unbounded:
		return "unbounded"
	}
	return "unknown"
}

// Bound is the attempt bound of a retry site. Attempts count every call, the
// first included.
type Bound struct {
	Kind BoundKind
	N    int    // attempts, when Kind == BoundCount and the count is constant
	Expr string // the count's source text, when Kind == BoundCount and N == 0: Base+Offset
	Base string // the count's variable part: "maxRetries", "len(servers)"
	// Offset is what the count adds to Base: maxRetries+1 attempts.
	Offset int
	// Param names the parameter of the enclosing function that is Base,
	// and ParamIndex is its index, when Base is one: a helper called with
	// a constant there makes that constant plus Offset attempts.
	Param      string
	ParamIndex int
	Note       string // a short explanation for messages, e.g. "MaxElapsedTime 15m by default"
}

// Add returns the bound of n more attempts.
func (b Bound) Add(n int) Bound {
	if b.Kind != BoundCount || n == 0 {
		return b
	}
	if b.N > 0 {
		b.N += n
		return b
	}
	b.Offset += n
	b.Expr = addOffset(b.Base, int64(b.Offset))
	return b
}

// Times returns the bound of b attempts each making inner's: the product
// of two counts, or the weaker of the two kinds.
func (b Bound) Times(inner Bound) Bound {
	if b.Kind == BoundCount && inner.Kind == BoundCount {
		switch {
		case b.N > 0 && inner.N > 0:
			return Bound{Kind: BoundCount, N: b.N * inner.N}
		default:
			e := b.String()
			e = strings.TrimSuffix(e, " attempts") + "×" + strings.TrimSuffix(inner.String(), " attempts")
			return Bound{Kind: BoundCount, Base: e, Expr: e}
		}
	}
	rank := func(k BoundKind) int { return [...]int{BoundUnknown: 1, BoundCount: 0, BoundTime: 2, Unbounded: 3}[k] }
	if rank(inner.Kind) > rank(b.Kind) {
		return inner
	}
	return b
}

// WithParam returns the bound of a call that passes v for the bound's
// parameter.
func (b Bound) WithParam(v int64) Bound {
	if b.Kind != BoundCount || b.Param == "" {
		return b
	}
	n := v + int64(b.Offset)
	if n < 1 {
		return Bound{Kind: BoundUnknown}
	}
	return Bound{Kind: BoundCount, N: int(n), Note: b.Note}
}

func (b Bound) String() string {
	switch b.Kind {
	case BoundCount:
		if b.N > 0 {
			return fmt.Sprintf("%d attempts", b.N)
		}
		return b.Expr + " attempts"
	case BoundTime:
		return "time-bounded"
	case Unbounded:
		return "unbounded"
	}
	return "unknown bound"
}

// Delay classifies the wait between attempts.
type Delay uint8

const (
	NoDelay      Delay = iota // immediate retries
	FixedDelay                // a constant wait
	GrowingDelay              // an exponential or otherwise growing wait
	SomeDelay                 // a wait of a shape we do not classify
)

func (d Delay) String() string {
	return [...]string{"none", "fixed", "exponential", "yes"}[d]
}

// Backoff describes the wait between attempts.
type Backoff struct {
	Delay  Delay
	Jitter bool
}

// String says the wait as tests and facts do: "fixed",
// "exponential+jitter".
func (b Backoff) String() string {
	t := b.Delay.String()
	if b.Jitter {
		t += "+jitter"
	}
	return t
}

// addOffset writes text+n, folding a trailing constant of text.
func addOffset(text string, n int64) string {
	switch {
	case n > 0:
		return fmt.Sprintf("%s+%d", text, n)
	case n < 0:
		return fmt.Sprintf("%s-%d", text, -n)
	}
	return text
}

// AddOffset writes the count text+n ("maxRetries+1").
func AddOffset(text string, n int64) string { return addOffset(text, n) }
