package retryloop

import (
	"go/ast"
	"sort"
)

// path returns the nodes of the loop's control-flow graph that a path
// from the attempt to the next attempt passes, in source order: what runs
// between a failed attempt and the next one (the wait, a reset of the
// request). Success never reaches the next attempt (the definition), so
// every such path carries a failure or an outcome no test looked at.
func (f *flow) path() []ast.Node {
	if f.graph == nil {
		return nil
	}
	leads := f.leadsBack()
	seen := map[ast.Node]bool{}
	var out []ast.Node
	for k := range leads {
		b := f.l.g.Blocks[k.block]
		passed := k.st.passedHead || b.Stmt == f.l.stmt
		for i := k.from; i < len(b.Nodes); i++ {
			n := b.Nodes[i]
			// As run walks: the attempt ends the walk (the next attempt,
			// or a new one of a nested loop), and so does a call that
			// makes the same attempt once the head is passed.
			if n == f.node || f.siblings[n] && passed {
				break
			}
			if seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos() != out[j].Pos() {
			return out[i].Pos() < out[j].Pos()
		}
		return out[i].End() < out[j].End()
	})
	return out
}

// leadsBack returns the explored nodes that lead to the attempt again,
// computed once per flow.
func (f *flow) leadsBack() map[fkey]bool {
	if f.leads != nil {
		return f.leads
	}
	preds := map[fkey][]fkey{}
	for k, n := range f.graph {
		for _, s := range n.succ {
			preds[s] = append(preds[s], k)
		}
	}
	leads := map[fkey]bool{}
	var work []fkey
	for k, n := range f.graph {
		if n.arrives {
			leads[k] = true
			work = append(work, k)
		}
	}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range preds[k] {
			if !leads[p] {
				leads[p] = true
				work = append(work, p)
			}
		}
	}
	f.leads = leads
	return leads
}
