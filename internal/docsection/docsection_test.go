package docsection

import "testing"

const src = `// Package x does things.
//
// # Analyzer x
//
// x: report the things
//
// Longer prose.
//
//	code sample
//
// # Other heading
//
// not included
package x
`

func TestSection(t *testing.T) {
	got, err := Section(src, "x")
	if err != nil {
		t.Fatal(err)
	}
	want := "report the things\n\nLonger prose.\n\n\tcode sample"
	if got != want {
		t.Errorf("Section = %q, want %q", got, want)
	}
	if _, err := Section(src, "y"); err == nil {
		t.Error("Section(y): want error for a missing heading")
	}
	if _, err := Section("// # Analyzer e\n//\npackage e\n", "e"); err == nil {
		t.Error("Section(e): want error for an empty section")
	}
}
