// Package flagx holds the list flag the passes and the command share: a
// comma-separated list of names, checked when it is set; and the split of
// such a list, which the suppression directives use too.
package flagx

import (
	"fmt"
	"strings"
)

// Split splits a comma-separated list into its names, with the spaces
// around them trimmed and empty names dropped.
func Split(s string) []string {
	var names []string
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// List is a flag.Value that sets *Names from a comma-separated list.
type List struct {
	Names *[]string
	// Check, when set, rejects a list (all of one Set's names) with an
	// error that says which name is wrong.
	Check func(names []string) error
	// Repeat: each use of the flag adds to the list (the flag may be
	// given several times); otherwise the last use replaces it.
	Repeat bool
	// Whole: each use is one name, taken as given (a file name may hold a
	// comma), not split.
	Whole bool
}

func (l *List) String() string {
	if l == nil || l.Names == nil {
		return ""
	}
	return strings.Join(*l.Names, ",")
}

func (l *List) Set(s string) error {
	names := []string{s}
	if !l.Whole {
		names = Split(s)
	}
	if l.Check != nil {
		if err := l.Check(names); err != nil {
			return err
		}
	}
	if l.Repeat {
		*l.Names = append(*l.Names, names...)
	} else {
		*l.Names = names
	}
	return nil
}

// NoSpaces is a Check for lists of identifiers and import paths: no name
// holds white space.
func NoSpaces(names []string) error {
	for _, name := range names {
		if strings.ContainsAny(name, " \t") {
			return fmt.Errorf("bad name %q: names contain no spaces", name)
		}
	}
	return nil
}
