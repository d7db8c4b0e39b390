package driver

import (
	"fmt"
	"strings"
)

// unifiedDiff returns a unified diff (3 lines of context) between the old
// and new contents of the file name (a slash-separated path relative to
// the directory the diff is applied in), with the a/ and b/ prefixes of
// git diff: git apply and patch -p1 take it.
func unifiedDiff(name string, old, new []byte) string {
	a := splitLines(string(old))
	b := splitLines(string(new))
	ops := lineDiff(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
	const ctx = 3
	// Group the operations into hunks.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// Stop after more than 2*ctx equal lines.
			j := end
			for j < len(ops) && ops[j].kind == ' ' {
				j++
			}
			if j == len(ops) || j-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = j
		}
		aStart, bStart := ops[start].a, ops[start].b
		var aN, bN int
		var body strings.Builder
		for _, op := range ops[start:end] {
			switch op.kind {
			case ' ':
				aN++
				bN++
				body.WriteString(" " + op.text)
			case '-':
				aN++
				body.WriteString("-" + op.text)
			case '+':
				bN++
				body.WriteString("+" + op.text)
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		out.WriteString(body.String())
		i = end
	}
	return out.String()
}

// hunkRange renders the range of a hunk that starts after line start
// (0-based) and spans n lines: an empty range names the line before it.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if !strings.HasSuffix(l, "\n") {
			lines[i] = l + "\n\\ No newline at end of file\n"
		}
	}
	return lines
}

type diffOp struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int // line indexes in old and new before this op
}

// lineDiff computes an edit script by longest common subsequence on the
// lines that differ, after trimming the common prefix and suffix (fixes
// change few lines, so the middle stays small).
func lineDiff(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	// LCS table over the middle.
	n, m := len(ma), len(mb)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{' ', a[i], i, i})
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && ma[i] == mb[j]:
			ops = append(ops, diffOp{' ', ma[i], pre + i, pre + j})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			// Deletions before insertions, as diff and git write them.
			ops = append(ops, diffOp{'-', ma[i], pre + i, pre + j})
			i++
		default:
			ops = append(ops, diffOp{'+', mb[j], pre + i, pre + j})
			j++
		}
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, diffOp{' ', a[len(a)-suf+k], len(a) - suf + k, len(b) - suf + k})
	}
	return ops
}
