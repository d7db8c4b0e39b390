// Package failsafehttp stands for a retry library's own package: its use
// of the library's API implements the library and is not a retry site.
package failsafehttp

import "github.com/failsafe-go/failsafe-go/retrypolicy"

func NewRetryPolicyBuilder() retrypolicy.Builder[any] {
	return retrypolicy.NewBuilder[any]().WithMaxRetries(2)
}
