// Package typesx holds the small questions about functions and packages
// that the retry-site analysis and the passes ask alike: which package a
// callee lives in (vendoring aside), which named type its receiver has.
package typesx

import (
	"go/types"
	"strings"
)

// PkgPath returns the import path of fn's package with any vendor prefix
// removed, or "" for builtins.
func PkgPath(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	return TrimVendor(fn.Pkg().Path())
}

// TrimVendor removes a vendor directory prefix from an import path.
func TrimVendor(path string) string {
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		return path[i+len("/vendor/"):]
	}
	return strings.TrimPrefix(path, "vendor/")
}

// RecvName returns the name of the named type of fn's receiver, without
// pointer, or "" for a package-level function or an interface method.
func RecvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// IsInterfaceMethod reports whether fn is the method of an interface.
func IsInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// IsFunc reports whether fn is the package-level function path.name.
func IsFunc(fn *types.Func, path, name string) bool {
	return fn != nil && fn.Name() == name && RecvName(fn) == "" && !IsInterfaceMethod(fn) && PkgPath(fn) == path
}
