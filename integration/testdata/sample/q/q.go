// Package q has no retry code.
package q

func add(a, b int) int { return a + b }
