package retryloop_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/rltest"
)

// The tests of this file sit at each bound of # Limits: a loop just
// inside the bound is a retry loop, the same loop just past it is not
// (the definition stays silent rather than guess), or loses only what the
// bound says it loses.

const header = `package p

import (
	"context"
	"time"
)

type Client struct{}

func (c *Client) Call(ctx context.Context) error   { return nil }
func (c *Client) Prep(ctx context.Context, i int) error { return nil }
func (c *Client) Flag(i int) bool                  { return false }

`

// loops returns the loop sites the analysis finds in src.
func loops(t *testing.T, src string) []*retrysite.Site {
	t.Helper()
	var found []*retrysite.Site
	collect := &analysis.Analyzer{
		Name:     "collect",
		Doc:      "collect the loop sites",
		Requires: []*analysis.Analyzer{retrysite.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			for _, s := range pass.ResultOf[retrysite.Analyzer].(*retrysite.Sites).List {
				if s.Kind == retrysite.Loop {
					found = append(found, s)
				}
			}
			return nil, nil
		},
	}
	if _, err := rltest.RunOnSource(header+src, collect); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return found
}

// candidatesLoop is a retry loop whose retried call comes after n calls
// whose errors are tested (each leaves the function on failure), so that
// the retried call is the (n+1)th candidate.
func candidatesLoop(n int) string {
	var b strings.Builder
	b.WriteString("func f(ctx context.Context, c *Client) error {\n\tfor i := 0; i < 3; i++ {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tif err := c.Prep(ctx, %d); err != nil {\n\t\t\treturn err\n\t\t}\n", i)
	}
	b.WriteString("\t\tif err := c.Call(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn nil\n}\n")
	return b.String()
}

func TestMaxCandidates(t *testing.T) {
	if got := loops(t, candidatesLoop(retryloop.MaxCandidates-1)); len(got) != 1 {
		t.Errorf("the retried call as candidate %d of %d: %d loop sites, want 1", retryloop.MaxCandidates, retryloop.MaxCandidates, len(got))
	}
	if got := loops(t, candidatesLoop(retryloop.MaxCandidates)); len(got) != 0 {
		t.Errorf("the retried call past the last candidate tried: %d loop sites, want 0", len(got))
	}
}

// flagsLoop is a retry loop with k conditions the flow cannot decide
// between the failed attempt and the wait, each setting one of six
// booleans a later condition reads: each condition adds three blocks
// (then, else, join), and the 64 combinations of the booleans fill each
// block with MaxBlockStates states, so the failure's flow has about
// 3 × MaxBlockStates × k nodes.
func flagsLoop(k int) string {
	var b strings.Builder
	b.WriteString("func f(ctx context.Context, c *Client) error {\n\tn := 0\n\tfor i := 0; i < 3; i++ {\n\t\tvar b0, b1, b2, b3, b4, b5 bool\n")
	b.WriteString("\t\terr := c.Call(ctx)\n\t\tif err == nil {\n\t\t\treturn nil\n\t\t}\n")
	for i := range k {
		fmt.Fprintf(&b, "\t\tif c.Flag(%d) {\n\t\t\tb%d = true\n\t\t} else {\n\t\t\tb%d = false\n\t\t}\n", i, i%6, i%6)
	}
	b.WriteString("\t\tif b0 || b1 || b2 || b3 || b4 || b5 {\n\t\t\tn++\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\t_ = n\n\treturn nil\n}\n")
	return b.String()
}

// TestMaxFlowNodes: a flow just inside the bound is followed to its end;
// one just past it is cut short, and the loop is no retry loop. The
// states past MaxBlockStates at one block are forgotten, not the paths:
// the loop inside the bound has 64 combinations of its booleans and is
// found.
func TestMaxFlowNodes(t *testing.T) {
	k := retryloop.MaxFlowNodes / (3 * retryloop.MaxBlockStates)
	if got := loops(t, flagsLoop(k-2)); len(got) != 1 {
		t.Errorf("a flow of about %d nodes: %d loop sites, want 1", 3*retryloop.MaxBlockStates*(k-2), len(got))
	}
	if got := loops(t, flagsLoop(k+2)); len(got) != 0 {
		t.Errorf("a flow of about %d nodes, past the bound of %d: %d loop sites, want 0", 3*retryloop.MaxBlockStates*(k+2), retryloop.MaxFlowNodes, len(got))
	}
}

// slotsLoop is a retry loop whose body assigns n booleans that its
// conditions read, besides the attempt's error and the counter.
func slotsLoop(n int) string {
	var b strings.Builder
	b.WriteString("func f(ctx context.Context, c *Client) error {\n\tn := 0\n\tfor i := 0; i < 3; i++ {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tv%d := c.Flag(%d)\n", i, i)
	}
	b.WriteString("\t\terr := c.Call(ctx)\n\t\tif err == nil {\n\t\t\treturn nil\n\t\t}\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tif v%d {\n\t\t\tn++\n\t\t}\n", i)
	}
	b.WriteString("\t\ttime.Sleep(time.Second)\n\t}\n\t_ = n\n\treturn nil\n}\n")
	return b.String()
}

// TestMaxSlots: variables past the flow's MaxSlots are unknown, which
// loses what a condition on them says but no path: the loop is found
// with more variables than slots, as with fewer.
func TestMaxSlots(t *testing.T) {
	for _, n := range []int{retryloop.MaxSlots - 3, retryloop.MaxSlots + 3} {
		if got := loops(t, slotsLoop(n)); len(got) != 1 {
			t.Errorf("%d variables besides the error and the counter: %d loop sites, want 1", n, len(got))
		}
	}
}

// lateErrLoop is a retry loop whose body first assigns n values (ints,
// neither errors nor flags) that its conditions read, then, after the
// attempt, its verdict (retry := err != nil) and the error of a later
// step (ctxErr := ctx.Err()), on which the verdict is worked out anew by
// a call that says nothing: only that error, a failure, tells that a
// success does not go round there.
func lateErrLoop(n int) string {
	var b strings.Builder
	b.WriteString("func g(ctx context.Context, c *Client) error {\n\tvar err error\n\tk := 0\n\tfor i := 0; ; i++ {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tv%d := i + %d\n", i, i)
	}
	b.WriteString("\t\terr = c.Call(ctx)\n\t\tretry := err != nil\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tif v%d > 9 {\n\t\t\tk++\n\t\t}\n", i)
	}
	b.WriteString("\t\tif ctxErr := ctx.Err(); ctxErr != nil {\n\t\t\terr, retry = ctxErr, c.Flag(i)\n\t\t}\n")
	b.WriteString("\t\tif !retry || i >= 3 {\n\t\t\tbreak\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\t_ = k\n\treturn err\n}\n")
	return b.String()
}

// TestSlotsKeepOutcomes: past MaxSlots, the variables that carry an
// outcome or a verdict (errors, flags) keep their slots before other
// values, so a later step's error still fails a success, and the loop
// stays a retry loop.
func TestSlotsKeepOutcomes(t *testing.T) {
	for _, n := range []int{retryloop.MaxSlots - 6, retryloop.MaxSlots + 3} {
		if got := loops(t, lateErrLoop(n)); len(got) != 1 {
			t.Errorf("%d values assigned before the attempt: %d loop sites, want 1\n%s", n, len(got), lateErrLoop(n))
		}
	}
}
