// Package docsection extracts the "# Analyzer <name>" section of a pass's
// package documentation, so that each analyzer's Doc field is written once,
// in its doc.go, and shown by "retrylint help <name>".
package docsection

import (
	"fmt"
	"strings"
)

// Section returns the text of the "# Analyzer name" section of the Go
// source text src (normally a doc.go embedded with go:embed): the comment
// lines after the heading, up to the next heading or the end of the
// comment, with comment markers removed. The first line of the result is
// the analyzer's one-line summary.
func Section(src, name string) (string, error) {
	heading := "# Analyzer " + name
	var out []string
	in := false
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if !strings.HasPrefix(line, "//") {
			if in {
				break
			}
			continue
		}
		text := strings.TrimPrefix(line, "//")
		text = strings.TrimPrefix(text, " ")
		if !in {
			if text == heading {
				in = true
			}
			continue
		}
		if strings.HasPrefix(text, "# ") {
			break
		}
		out = append(out, text)
	}
	if !in {
		return "", fmt.Errorf("docsection: no %q heading", heading)
	}
	// Trim blank lines at both ends.
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return "", fmt.Errorf("docsection: %q section is empty", heading)
	}
	// The summary line may carry a "name: " prefix, as go vet's passes do.
	out[0] = strings.TrimPrefix(out[0], name+": ")
	return strings.Join(out, "\n"), nil
}

// Must is like Section but panics on error; it is meant for package-level
// Analyzer declarations, where a missing section is a programming error
// caught by the first test that loads the package.
func Must(src, name string) string {
	s, err := Section(src, name)
	if err != nil {
		panic(err)
	}
	return s
}
