// Package retryx is a retry helper: a call of Do is a retry site of the
// caller's package (a helper fact).
package retryx

import "time"

// Do calls op up to n times.
func Do(n int, op func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
	}
	return err
}

// Each calls op for every item, once: no retry helper (its look-alike).
func Each(items []string, op func(string) error) error {
	for _, it := range items {
		if err := op(it); err != nil {
			return err
		}
	}
	return nil
}
