// Package wait is a signature-only stub for tests.
package wait

import "time"

type Backoff struct {
	Duration time.Duration
	Factor   float64
	Jitter   float64
	Steps    int
	Cap      time.Duration
}
