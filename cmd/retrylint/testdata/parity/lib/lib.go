// Package lib is a module the parity module requires: its facts are not
// read by the packages of another module, whichever driver runs.
package lib

import "time"

// Do calls op up to 3 times.
func Do(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

type budget struct{ tokens int }

func (b *budget) TryRetry() bool {
	if b.tokens == 0 {
		return false
	}
	b.tokens--
	return true
}

var shared = &budget{tokens: 10}

// Allow asks a budget: a guard fact, which the other module does not read.
func Allow() bool { return shared.TryRetry() }
