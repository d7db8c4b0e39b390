package fixutil

import "testing"

func TestIdentName(t *testing.T) {
	for in, want := range map[string]string{
		"inventory":       "inventory",
		"Payments":        "payments",
		"ledger.internal": "ledgerInternal",
		"api-v2.example":  "apiV2Example",
		"2fa":             "fa",
		"type":            "",
		"123":             "",
		"":                "",
	} {
		if got := IdentName(in); got != want {
			t.Errorf("IdentName(%q) = %q, want %q", in, got, want)
		}
	}
}
