package nonidempotent

import (
	"go/types"

	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// The HTTP client libraries the pass knows are the retryapi table's:
// go-retryablehttp and resty (v2 and v3).

// libOf names the retry library of an import path, or "".
func libOf(path string) string {
	if l := retryapi.LibraryOf(path); l != nil {
		return l.Name
	}
	return ""
}

func isResty(path string) bool     { return libOf(path) == retryapi.Resty }
func isRetryable(path string) bool { return libOf(path) == retryapi.RetryableHTTP }

// isLibPtr reports whether t is a pointer to the named type name of lib.
func isLibPtr(t types.Type, lib, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && retryapi.IsType(p.Elem(), lib, name)
}

// isLibFunc reports whether fn is the package-level function name of lib.
func isLibFunc(fn *types.Func, lib, name string) bool {
	return fn != nil && fn.Name() == name && typesx.RecvName(fn) == "" && !typesx.IsInterfaceMethod(fn) && libOf(typesx.PkgPath(fn)) == lib
}
