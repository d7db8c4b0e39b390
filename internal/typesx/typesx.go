// Package typesx holds the small questions about functions and packages
// that the retry-site analysis and the passes ask alike: which package a
// callee lives in (vendoring aside), which named type its receiver has,
// whether a type is a given named type or error, whether an expression
// refers to an object.
package typesx

import (
	"go/ast"
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

// IsNamed reports whether t is the named type path.name (also when the
// package is vendored).
func IsNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && TrimVendor(n.Obj().Pkg().Path()) == path
}

// IsNamedPtr reports whether t is *path.name.
func IsNamedPtr(t types.Type, path, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && IsNamed(p.Elem(), path, name)
}

var errorType = types.Universe.Lookup("error").Type()

// IsError reports whether t is the built-in error type, or an interface
// type that is an error with more methods (a package's own Error
// interface, whose nil is success as error's is).
func IsError(t types.Type) bool {
	if t == nil {
		return false
	}
	if types.Identical(t, errorType) {
		return true
	}
	return types.IsInterface(t) && types.Implements(t, errorType.Underlying().(*types.Interface))
}

// Refers reports whether an identifier under n uses obj.
func Refers(info *types.Info, n ast.Node, obj types.Object) bool {
	if n == nil || obj == nil {
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// stdRoots are the first elements of the standard library's import paths.
var stdRoots = map[string]bool{
	"archive": true, "bufio": true, "bytes": true, "cmp": true, "compress": true,
	"container": true, "context": true, "crypto": true, "database": true, "debug": true,
	"embed": true, "encoding": true, "errors": true, "expvar": true, "flag": true,
	"fmt": true, "go": true, "hash": true, "html": true, "image": true, "index": true,
	"io": true, "iter": true, "log": true, "maps": true, "math": true, "mime": true,
	"net": true, "os": true, "path": true, "plugin": true, "reflect": true, "regexp": true,
	"runtime": true, "slices": true, "sort": true, "strconv": true, "strings": true,
	"structs": true, "sync": true, "syscall": true, "testing": true, "text": true,
	"time": true, "unicode": true, "unique": true, "unsafe": true, "weak": true,
}

// IsStd reports whether path is a standard library package.
func IsStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return stdRoots[first]
}

// FuncKey names a function or method as the tables of this project key
// them: "path.Func", or "path.Type.Method" for a method (of the type or
// of a pointer to it), with the vendor prefix and type arguments removed.
func FuncKey(fn *types.Func) string {
	fn = fn.Origin()
	path := ""
	if fn.Pkg() != nil {
		path = TrimVendor(fn.Pkg().Path())
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return path + "." + fn.Name()
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return path + "." + n.Obj().Name() + "." + fn.Name()
	}
	return path + "." + fn.Name()
}

// IsString reports whether t is a string type (string, or a named type
// whose underlying type is one).
func IsString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
