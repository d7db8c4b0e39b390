package b

import "testing"

func TestSave(t *testing.T) {
	var n int = "not a number"
	_ = n
}
