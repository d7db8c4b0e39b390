package suppress

import (
	"go/ast"
	"testing"
)

func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"//nolint:retrylint", true},
		{"//nolint:retrylint // the budget is upstream", true},
		{"//nolint:errcheck,fixedattempts", true},
		{"//nolint", true},
		{"//nolint // reason", true},
		{"//nolint:errcheck", false},
		{"//nolintx", false},
		{"//lint:ignore fixedattempts startup probe, bounded by the deploy", true},
		{"//lint:ignore retrylint reason", true},
		{"//lint:ignore sharedbudget,fixedattempts reason", true},
		{"//lint:ignore fixedattempts", false}, // no reason
		{"//lint:ignore sharedbudget reason", false},
		{"//retrylint:ignore fixedattempts reason", true},
		{"// nolint:retrylint", false}, // directives have no space after //
		{"// a comment about fixedattempts", false},
	} {
		if got := matches(&ast.Comment{Text: tc.text}, "fixedattempts"); got != tc.want {
			t.Errorf("matches(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
