package amplify

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind classifies a multiplier, in increasing order of severity.
type Kind uint8

const (
	// Count is a finite number of calls, Value.
	Count Kind = iota
	// UnknownCount: some factor's attempt count is not known statically
	// (a count held in a variable, a policy built elsewhere); Value is the
	// product of the known factors.
	UnknownCount
	// TimeBounded: some factor retries until a deadline or a maximum
	// elapsed time, with no count; Value is the product of the counted
	// factors.
	TimeBounded
	// Unbounded: some factor retries with no bound at all.
	Unbounded
)

func (k Kind) String() string {
	switch k {
	case Count:
		return "count"
	case UnknownCount:
		return "unknown"
	case TimeBounded:
		return "time-bounded"
	case Unbounded:
		return "unbounded"
	}
	return "invalid"
}

// Mult is a worst-case multiplier: how many calls one call of a function
// (or one execution of a retry site) can send to the deepest dependency it
// reaches when that dependency fails every time.
type Mult struct {
	Kind  Kind
	Value float64 // product of the finite factors; at least 1
	// Open says that an attempt reaches code whose retries cannot be seen
	// (a method called through an interface, a function value, recursion):
	// the true multiplier may be larger than the one shown.
	Open bool
	// Assumed says that a budget's ratio was not known statically and was
	// taken as the common default, 10% (a factor of 1.1).
	Assumed bool
}

// One is the multiplier of code that does not retry.
func One() Mult { return Mult{Kind: Count, Value: 1} }

// Times returns the multiplier of m nested around n.
func (m Mult) Times(n Mult) Mult {
	return Mult{
		Kind:    max(m.Kind, n.Kind),
		Value:   m.Value * n.Value,
		Open:    m.Open || n.Open,
		Assumed: m.Assumed || n.Assumed,
	}
}

// Worse reports whether m is a worse amplification than n, in the order
// of risk: unbounded (whatever factors surround it), then time-bounded,
// then the larger product of the counted factors (a count that is not
// known ranks by its known part and, at the same value, above a known
// count), then an open one.
func (m Mult) Worse(n Mult) bool {
	if r, q := m.rank(), n.rank(); r != q {
		return r > q
	}
	// Unbounded is unbounded: a factor around it changes nothing.
	if d := m.Value - n.Value; math.Abs(d) > 1e-9 && m.Kind != Unbounded {
		return d > 0
	}
	if m.Kind != n.Kind {
		return m.Kind > n.Kind
	}
	return m.Open && !n.Open
}

// rank is the first key of Worse: counts, known or not, compare by value.
func (m Mult) rank() int {
	switch m.Kind {
	case Unbounded:
		return 2
	case TimeBounded:
		return 1
	}
	return 0
}

// Comparable reports whether m can be compared with a limit on the number
// of calls: a count, or a product unbounded (beyond every limit). A count
// that is not known, and a time-bounded product, have only a known part.
func (m Mult) Comparable() bool { return m.Kind == Count || m.Kind == Unbounded }

// Exceeds reports whether m certainly exceeds a limit on the number of
// calls: a count above it, an unbounded product, or a product whose known
// part is already above it. A product that is not comparable and whose
// known part is within the limit does not exceed it (see Comparable).
func (m Mult) Exceeds(limit float64) bool {
	if m.Kind == Unbounded {
		return true
	}
	return m.Value > limit+1e-9
}

// Interesting reports whether m says more than "one call": a value above
// one or a kind other than Count.
func (m Mult) Interesting() bool { return m.Kind != Count || m.Value > 1+1e-9 }

// Num formats the finite value: integers as integers, others with two
// decimals ("27", "1.33").
func (m Mult) Num() string { return formatNum(m.Value) }

func formatNum(v float64) string {
	if r := math.Round(v); math.Abs(v-r) < 1e-9 {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// String formats m for tables and facts: "27", "≥3" (open), "~1.33"
// (assumed budget ratio), "3 × ?" (unknown count), "time-bounded",
// "3 × time-bounded", "unbounded".
func (m Mult) String() string {
	prefix := ""
	if m.Open {
		prefix = "≥"
	}
	if m.Assumed {
		prefix += "~"
	}
	times := ""
	if m.Value > 1+1e-9 {
		times = formatNum(m.Value) + " × "
	}
	switch m.Kind {
	case Count:
		return prefix + formatNum(m.Value)
	case UnknownCount:
		return prefix + times + "?"
	case TimeBounded:
		return prefix + times + "time-bounded"
	case Unbounded:
		return prefix + times + "unbounded"
	}
	return fmt.Sprintf("Mult(%d)", m.Kind)
}

// Phrase formats m for messages: "27", "at least 3", "about 1.33",
// "3 × an unknown number of", "a time-bounded number of", "an unbounded
// number of"; it reads before "calls".
func (m Mult) Phrase() string {
	prefix := ""
	switch {
	case m.Kind != Count:
		// "an unknown number" says it all
	case m.Open:
		prefix = "at least "
	case m.Assumed:
		prefix = "about "
	}
	times := ""
	if m.Value > 1+1e-9 {
		times = formatNum(m.Value) + " × "
	}
	switch m.Kind {
	case UnknownCount:
		return prefix + times + "an unknown number of"
	case TimeBounded:
		return prefix + times + "a time-bounded number of"
	case Unbounded:
		return "an unbounded number of"
	}
	return prefix + formatNum(m.Value)
}
