// Package errors wraps errors, like github.com/pkg/errors.
package errors

func Wrap(err error, msg string) error { return err }
