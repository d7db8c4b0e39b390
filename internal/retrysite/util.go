package retrysite

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/factscope"
	"github.com/retrylint/retrylint/internal/noreturn"
	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/srcpos"
	"github.com/retrylint/retrylint/internal/typesx"
	"github.com/retrylint/retrylint/internal/varindex"
)

// analyzer holds the state of one run over a package.
type analyzer struct {
	pass    *analysis.Pass
	scope   *factscope.Scope // whose facts the package reads
	insp    *inspector.Inspector
	methods map[string]bool // budget method names
	funcs   map[string]bool // extra budget checks
	sites   []*Site
	sends   []inspector.Cursor // calls that send through an HTTP client (clientSend), found by findLibrary

	// The functions known as budget checks and retry helpers, from the
	// facts of the dependencies and of this package: looking a callee up
	// here is cheaper than importing a fact for every call.
	guardFuncs  map[*types.Func]bool
	helperFuncs map[*types.Func]*HelperFact
	helperSites map[*types.Func]*Site // the site that makes a function of the package a helper
	// litHelpers are the local variables that hold a function literal
	// which is a retry helper (exec := func(run func() error) error {
	// for ... }), given that value once; litSites the site that makes
	// each one.
	litHelpers map[types.Object]*HelperFact
	litSites   map[types.Object]*Site

	decls map[*types.Func]*ast.FuncDecl // the package's functions (declOf)
	pure  map[*types.Func]bool          // memo of isPureFunc

	vars *varindex.Index // what the package does with each variable

	definer  *retryloop.Definer // the retry-loop definition, and its readings of counts
	sleepers *sleepers          // the sleep helpers
	noret    *noreturn.Index    // which calls can return

	dur *durkind.Env // what durations depend on (durEnv)
}

func (a *analyzer) sortSites() {
	sort.SliceStable(a.sites, func(i, j int) bool { return srcpos.Compare(a.pass.Fset, a.sites[i].Pos, a.sites[j].Pos) < 0 })
}

// callee returns the function or method a call statically invokes, or nil.
func (a *analyzer) callee(call *ast.CallExpr) *types.Func {
	return typesx.Callee(a.pass.TypesInfo, call)
}

// resultsError reports whether the call's results include an error (or a
// *net/http.Response).
func (a *analyzer) resultsError(call *ast.CallExpr) bool {
	return typesx.ResultsError(a.pass.TypesInfo, call)
}

func unparen(e ast.Expr) ast.Expr { return ast.Unparen(e) }

// intConst returns the constant integer value of e.
func (a *analyzer) intConst(e ast.Expr) (int64, bool) { return typesx.IntConst(a.pass.TypesInfo, e) }

// stringConst returns the constant string value of e.
func (a *analyzer) stringConst(e ast.Expr) (string, bool) {
	return typesx.StringConst(a.pass.TypesInfo, e)
}

// objOf returns the object an identifier or selector denotes.
func (a *analyzer) objOf(e ast.Expr) types.Object { return typesx.ObjOf(a.pass.TypesInfo, e) }

// render returns the source text of n, shortened for messages.
func (a *analyzer) render(n ast.Node) string {
	return types.ExprString(n.(ast.Expr))
}

// pureStd lists standard packages whose error results never come from a
// dependency: retrying their calls is not a retry of remote work. Of
// those, localIO do local input and output (files, pipes): a call of
// theirs made directly is not an attempt, but a function of the package
// that does such work is (reloading a certificate while it is written).
var pureStd = map[string]bool{
	"errors": true, "fmt": true, "strconv": true, "strings": true, "bytes": true,
	"regexp": true, "path": true, "path/filepath": true, "sort": true, "slices": true,
	"maps": true, "unicode/utf8": true, "math": true, "math/big": true, "time": true,
	"text/template": true, "html/template": true, "io": true, "io/ioutil": true,
	"io/fs": true, "bufio": true, "os": true, "syscall": true, "context": true,
	"encoding/json": true, "encoding/xml": true, "encoding/base64": true, "encoding/hex": true,
	"encoding/binary": true, "encoding/gob": true, "encoding/csv": true, "encoding/pem": true,
	"compress/gzip": true, "compress/flate": true, "compress/zlib": true, "archive/tar": true,
	"archive/zip": true, "crypto/rand": true, "crypto/x509": true, "crypto/tls": true,
	"mime": true, "mime/multipart": true, "net/url": true, "net/netip": true,
	"reflect": true, "unsafe": true, "sync": true, "runtime": true, "flag": true,
	"text/scanner": true, "go/parser": true, "go/format": true, "go/types": true,
	"golang.org/x/sys/unix": true, "golang.org/x/sys/windows": true,
}

// errorPackage reports whether pkg makes and wraps errors
// (github.com/pkg/errors, golang.org/x/xerrors, multierror packages):
// its error results are the errors it is given or makes.
func errorPackage(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	switch pkg.Name() {
	case "errors", "xerrors", "multierr", "multierror", "errwrap":
		return true
	}
	return false
}

var localIO = map[string]bool{
	"os": true, "io/ioutil": true, "syscall": true, "golang.org/x/sys/unix": true,
	"golang.org/x/sys/windows": true,
}

// isPureCall reports whether call's error can only describe local work:
// a call into a standard package that does no network I/O, a listen on a
// local address, a method of an
// error value (Unwrap), or a function of this package whose own
// error-returning calls are all pure computation.
func (a *analyzer) isPureCall(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil {
		return false
	}
	path := typesx.PkgPath(fn)
	if pureStd[path] || strings.HasPrefix(path, "crypto/") || errorPackage(fn.Pkg()) {
		return true
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		if types.Implements(sig.Recv().Type(), types.Universe.Lookup("error").Type().Underlying().(*types.Interface)) {
			return true
		}
		if (fn.Name() == "Unwrap" || fn.Name() == "Cause") && sig.Params().Len() == 0 {
			return true // walking an error chain
		}
	}
	if fn.Pkg() == a.pass.Pkg {
		return a.isPureFunc(fn)
	}
	// Binding a local address (net.Listen, net.ListenPacket, ...,
	// (*net.ListenConfig).Listen) asks no dependency: retrying it while
	// the port is in use waits for this machine, and loads nothing.
	if path == "net" && strings.HasPrefix(fn.Name(), "Listen") {
		return true
	}
	// Request construction is not the attempt.
	if path == "net/http" && (fn.Name() == "NewRequest" || fn.Name() == "NewRequestWithContext") {
		return true
	}
	if strings.HasSuffix(path, "/go-retryablehttp") && strings.HasPrefix(fn.Name(), "NewRequest") {
		return true
	}
	return false
}

// isPureFunc reports whether the package's function fn does only local
// work: its body makes error-returning calls, and every one is pure. Calls through
// interfaces or function values are not known to be pure; recursion is not
// pure either.
func (a *analyzer) isPureFunc(fn *types.Func) bool {
	if v, ok := a.pure[fn]; ok {
		return v
	}
	if a.pure == nil {
		a.pure = map[*types.Func]bool{}
	}
	fd := a.declOf(fn)
	if fd == nil {
		return false
	}
	a.pure[fn] = false // while in progress: recursion is not pure
	pure, local := true, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				pure = false // an answer that comes from elsewhere
			}
		case *ast.SelectStmt:
			pure = false
		case *ast.CallExpr:
			if !pure || !a.resultsError(n) {
				break
			}
			callee := a.callee(n)
			switch {
			case callee != nil && localIO[typesx.PkgPath(callee)]:
				pure = false // local I/O: a dependency of its own
			case callee != nil && typesx.PkgPath(callee) == "context":
				// ctx.Err() says nothing of the work.
			case a.isPureCall(n):
				local = true
			default:
				pure = false
			}
		}
		return pure
	})
	// A body with no error-returning call at all (a stub, a fake) says
	// nothing of what the function stands for: not known to be pure.
	a.pure[fn] = pure && local
	return pure && local
}

func (a *analyzer) isNil(e ast.Expr) bool { return typesx.IsNil(a.pass.TypesInfo, e) }

// isFalse reports whether e is the constant false.
func isFalse(info *types.Info, e ast.Expr) bool {
	v, ok := typesx.BoolConst(info, e)
	return ok && !v
}

// reassigned reports whether v is assigned after its declaration, or has
// its address taken, anywhere in the package.
func (a *analyzer) reassigned(v *types.Var) bool { return a.vars.Reassigned(v) }

// definingExpr returns the expression that initialises the variable v in
// its declaration (v := e, var v = e; for a, err := f(), the call), or nil.
func (a *analyzer) definingExpr(v *types.Var) ast.Expr {
	if u := a.vars.Of(v); u != nil {
		return u.Init
	}
	return nil
}
