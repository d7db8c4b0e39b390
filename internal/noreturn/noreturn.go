// Package noreturn answers whether a call can return, for the control-flow
// graphs (go/cfg's mayReturn) that the retry-loop definition and the
// passes build: a call of panic, of a function known never to return (a
// table of the standard library's and the common logging packages'), or
// of a function of the analyzed package whose every path ends in such a
// call (decided by induction over the package's own graphs, as x/tools'
// ctrlflow does) does not return; any other call may.
package noreturn

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/internal/typesx"
)

// Index decides calls for one package. It is not safe for concurrent use.
type Index struct {
	info  *types.Info
	pkg   *types.Package
	files []*ast.File
	decls map[*types.Func]*ast.FuncDecl
	memo  map[*types.Func]bool // the package's functions: true when they never return
}

// New returns the index of a package with the given files.
func New(info *types.Info, pkg *types.Package, files []*ast.File) *Index {
	return &Index{info: info, pkg: pkg, memo: map[*types.Func]bool{}, files: files}
}

// MayReturn reports whether a call can return.
func (x *Index) MayReturn(call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := x.info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return false
		}
	}
	fn := typesx.Callee(x.info, call)
	if fn == nil {
		return true
	}
	if Known(fn) {
		return false
	}
	if fn.Pkg() != x.pkg {
		return true
	}
	return !x.never(fn.Origin())
}

// never reports whether fn, a function of the package, never returns: its
// graph has no reachable return. A call cycle is broken by taking the
// function being decided to return.
func (x *Index) never(fn *types.Func) bool {
	if nr, ok := x.memo[fn]; ok {
		return nr
	}
	x.memo[fn] = false
	fd := x.decl(fn)
	if fd == nil || fd.Body == nil {
		return false
	}
	nr := cfg.New(fd.Body, x.MayReturn).NoReturn()
	x.memo[fn] = nr
	return nr
}

func (x *Index) decl(fn *types.Func) *ast.FuncDecl {
	if x.decls == nil {
		x.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range x.files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if obj, ok := x.info.Defs[fd.Name].(*types.Func); ok {
						x.decls[obj] = fd
					}
				}
			}
		}
	}
	return x.decls[fn]
}

// Known reports whether fn is a function of another package known never
// to return: os.Exit, runtime.Goexit, log's Fatal and Panic functions, a
// test's Fatal, FailNow and Skip, and the Fatal, Panic and Exit functions
// of the common logging packages. The names are the packages' documented
// API, matched by prefix (Fatalf, Fatalln, Panicf).
func Known(fn *types.Func) bool {
	name := fn.Name()
	switch typesx.PkgPath(fn) {
	case "os", "syscall":
		return name == "Exit"
	case "runtime":
		return name == "Goexit"
	case "log", "log/slog":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
	case "testing":
		return strings.HasPrefix(name, "Fatal") || name == "FailNow" || strings.HasPrefix(name, "Skip")
	case "go.uber.org/zap", "github.com/sirupsen/logrus", "k8s.io/klog", "k8s.io/klog/v2", "github.com/rs/zerolog/log":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic") || strings.HasPrefix(name, "Exit")
	}
	return false
}
