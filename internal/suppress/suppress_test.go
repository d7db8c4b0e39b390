package suppress

import (
	"go/ast"
	"testing"
)

func TestSilences(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"//nolint:retrylint", true},
		{"//nolint:retrylint // the budget is upstream", true},
		{"// nolint:retrylint", true}, // golangci-lint accepts the space
		{"//  nolint:fixedattempts", true},
		{"//nolint:errcheck,fixedattempts", true},
		{"//nolint:errcheck, fixedattempts", false}, // golangci-lint ends the list at a space
		{"//nolint:all", true},
		{"//nolint", true},
		{"//nolint // reason", true},
		{"//nolint:errcheck", false},
		{"//nolintx", false},
		{"// nolintx", false},
		{"/* nolint:retrylint */", false},
		{"//lint:ignore fixedattempts startup probe, bounded by the deploy", true},
		{"//lint:ignore retrylint reason", true},
		{"//lint:ignore sharedbudget,fixedattempts reason", true},
		{"//lint:ignore fixedattempts", false}, // no reason
		{"//lint:ignore", false},
		{"//lint:ignore sharedbudget reason", false},
		{"//lint:ignore all reason", false}, // all is golangci-lint's
		{"//lint:ignorefixedattempts reason", false},
		{"// lint:ignore fixedattempts reason", false}, // staticcheck's form has no space
		{"//retrylint:ignore fixedattempts reason", true},
		{"//retrylint:ignore retrylint reason", true},
		{"//retrylint:ignore fixedattempts", false},
		{"// a comment about fixedattempts", false},
	} {
		d, ok := parse(&ast.Comment{Text: tc.text})
		if got := ok && d.silences("fixedattempts"); got != tc.want {
			t.Errorf("%q silences fixedattempts: %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	d, ok := parse(&ast.Comment{Text: "//lint:ignore fixedattempts,nestedretry  startup  probe"})
	if !ok || d.Form != LintIgnore || len(d.Names) != 2 || d.Names[1] != "nestedretry" || d.Reason != "startup probe" {
		t.Errorf("parse = %+v, %v", d, ok)
	}
	d, ok = parse(&ast.Comment{Text: "//nolint"})
	if !ok || d.Form != NoLint || d.Names != nil {
		t.Errorf("bare nolint: parse = %+v, %v", d, ok)
	}
}
