// Package retry is a signature-only stub for tests.
package retry

import "k8s.io/apimachinery/pkg/util/wait"

var DefaultRetry = wait.Backoff{Steps: 5}
var DefaultBackoff = wait.Backoff{Steps: 4}

func RetryOnConflict(backoff wait.Backoff, fn func() error) error                     { return nil }
func OnError(backoff wait.Backoff, retriable func(error) bool, fn func() error) error { return nil }
