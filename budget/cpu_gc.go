//go:build gc && !purego

package budget

import _ "unsafe" // for go:linkname

// perCPU reports whether cpu identifies the processor (the scheduler's P)
// running the caller, so that a Budget keeps one share per processor.
const perCPU = true

// procPin and procUnpin are the scheduler's own pinning, which sync.Pool
// uses for the same purpose; the runtime keeps them for linkname callers
// (go.dev/issue/67401).
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// cpu returns the index of the processor running the caller. It is a hint:
// the goroutine may move to another processor as soon as it returns.
func cpu() int {
	p := procPin()
	procUnpin()
	return p
}
