// Package ksuid is a signature-only stub for tests.
package ksuid

type KSUID [20]byte

func New() KSUID               { return KSUID{} }
func (k KSUID) String() string { return "" }
