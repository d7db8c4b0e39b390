package flagx_test

import (
	"flag"
	"slices"
	"testing"

	"github.com/retrylint/retrylint/internal/flagx"
)

func TestList(t *testing.T) {
	var names, repeated, files []string
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Var(&flagx.List{Names: &names, Check: flagx.NoSpaces}, "names", "")
	fs.Var(&flagx.List{Names: &repeated, Repeat: true}, "pkg", "")
	fs.Var(&flagx.List{Names: &files, Repeat: true, Whole: true}, "o", "")
	args := []string{"-names", "a, b,,c", "-names", "d", "-pkg", "x,y", "-pkg", " z ", "-o", "a,b.txt", "-o", "c.txt"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if want := []string{"d"}; !slices.Equal(names, want) {
		t.Errorf("-names %q, want %q (the last use replaces)", names, want)
	}
	if want := []string{"x", "y", "z"}; !slices.Equal(repeated, want) {
		t.Errorf("-pkg %q, want %q (each use adds)", repeated, want)
	}
	if want := []string{"a,b.txt", "c.txt"}; !slices.Equal(files, want) {
		t.Errorf("-o %q, want %q (whole names)", files, want)
	}
	if err := fs.Parse([]string{"-names", "ok,not ok"}); err == nil || names[0] != "d" {
		t.Errorf("a name with a space: error %v, names %q; want an error and the list kept", err, names)
	}
	if got := flagx.Split(" , ,"); got != nil {
		t.Errorf("Split of nothing: %q", got)
	}
}
