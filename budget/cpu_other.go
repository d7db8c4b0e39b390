//go:build !gc || purego

package budget

// perCPU is false where the processor running a goroutine cannot be read:
// every Budget then has a single share, which is exact and slower under
// contention.
const perCPU = false

func cpu() int { return 0 }
