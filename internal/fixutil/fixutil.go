// Package fixutil builds the small text edits that suggested fixes share:
// adding an import, choosing a fresh name, rendering zero values. It never
// mutates the syntax tree.
package fixutil

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
)

// AddImport returns the name by which file can refer to the package path
// at pos, and the edits that add the import when the file lacks it.
//
// Every fix of a run computes its imports independently, and every driver
// (golangci-lint's too) applies them all, so the name and the edit depend
// on the file and the path alone: two fixes that add one path make the
// same edit, which drivers apply once, and two fixes that add different
// paths never pick the same name. The name is, in order:
//   - the name of an existing import of path;
//   - the alias of path in importAliases, for a path whose usual name
//     another package that fixes import also has (crypto/rand and
//     math/rand/v2 are both rand; math/rand/v2 keeps the name);
//   - the path's package name, when it is free at pos and in the package;
//   - its alias, or the package name with a number, when that is taken.
//
// The import goes where goimports would put it: a standard package into
// the first group of standard packages, any other into the last group
// that holds one, each sorted in (a group of its own when there is none).
func AddImport(pass *analysis.Pass, file *ast.File, path string, pos token.Pos) (name string, edits []analysis.TextEdit) {
	info := pass.TypesInfo
	for _, spec := range file.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil || p != path {
			continue
		}
		if spec.Name != nil {
			if spec.Name.Name == "_" || spec.Name.Name == "." {
				continue
			}
			return spec.Name.Name, nil
		}
		if pkg, ok := info.Implicits[spec].(*types.PkgName); ok {
			return pkg.Name(), nil
		}
	}
	base := pkgNameOf(path)
	name = FreshName(info, file, pos, base)
	if alias, ok := importAliases[path]; ok && (alias.always || name != base) {
		name = FreshName(info, file, pos, alias.name)
	}
	spec := strconv.Quote(path)
	if name != base {
		spec = name + " " + spec
	}
	return name, []analysis.TextEdit{importEdit(pass.Fset, file, path, spec)}
}

// importAliases names the packages that fixes import whose package names
// clash: the nonidempotent fix's key generator (crypto/rand.Text) and the
// nojitter fix's jitter (math/rand/v2.N, or math/rand in older files) are
// all rand. crypto/rand is always imported as crand (unless the file
// imports it already), so that a file that gets both fixes in one run
// builds; the others take their alias only when rand is taken.
var importAliases = map[string]struct {
	name   string
	always bool
}{
	"crypto/rand":  {"crand", true},
	"math/rand/v2": {"randv2", false},
	"math/rand":    {"mrand", false},
}

// AddDecl returns the edit that adds a package-level declaration to file:
// before its first declaration that is not an import (and that
// declaration's doc comment), or at its end. The place is apart from
// where imports are added, so that a fix that adds both (a budget and its
// package) gives the same file under every driver.
func AddDecl(file *ast.File, decl string) analysis.TextEdit {
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			continue
		}
		at := d.Pos()
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Doc != nil {
				at = d.Doc.Pos()
			}
		case *ast.FuncDecl:
			if d.Doc != nil {
				at = d.Doc.Pos()
			}
		}
		return analysis.TextEdit{Pos: at, End: at, NewText: []byte(decl + "\n\n")}
	}
	return analysis.TextEdit{Pos: file.FileEnd, End: file.FileEnd, NewText: []byte("\n" + decl + "\n")}
}

// importEdit returns the edit that adds the import spec of path to file.
func importEdit(fset *token.FileSet, file *ast.File, path, spec string) analysis.TextEdit {
	var gd *ast.GenDecl
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			gd = g
			break
		}
	}
	switch {
	case gd == nil:
		at := file.Name.End()
		return analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n\nimport " + spec)}
	case !gd.Lparen.IsValid():
		// import "fmt": a declaration of its own before it.
		return analysis.TextEdit{Pos: gd.Pos(), End: gd.Pos(), NewText: []byte("import " + spec + "\n")}
	case len(gd.Specs) == 0:
		return analysis.TextEdit{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + spec + "\n")}
	}
	tf := fset.File(gd.Pos())
	start := func(s ast.Spec) token.Pos {
		if is := s.(*ast.ImportSpec); is.Doc != nil {
			return is.Doc.Pos()
		}
		return s.Pos()
	}
	end := func(s ast.Spec) token.Pos {
		if is := s.(*ast.ImportSpec); is.Comment != nil {
			return is.Comment.End()
		}
		return s.End()
	}
	// The groups of the declaration: specs not parted by a blank line.
	var groups [][]*ast.ImportSpec
	for i, s := range gd.Specs {
		if i == 0 || tf.Line(start(s)) > tf.Line(end(gd.Specs[i-1]))+1 {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], s.(*ast.ImportSpec))
	}
	std := isStd(path)
	var group []*ast.ImportSpec
	for _, g := range groups {
		all := true
		for _, s := range g {
			all = all && isStd(specPath(s))
		}
		if std && all {
			group = g
			break
		}
		if !std && !all {
			group = g // the last one wins
		}
	}
	if group == nil {
		// A group of its own, first or last: at the parenthesis, where no
		// sorted insertion goes, so that the order in which a driver
		// applies two fixes' imports does not matter.
		if std {
			at := gd.Lparen + 1
			return analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n\t" + spec + "\n")}
		}
		return analysis.TextEdit{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\n\t" + spec + "\n")}
	}
	for _, s := range group {
		if specPath(s) > path {
			at := start(s)
			return analysis.TextEdit{Pos: at, End: at, NewText: []byte(spec + "\n\t")}
		}
	}
	at := end(group[len(group)-1])
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n\t" + spec)}
}

// isStd reports whether an import path is of the standard library (its
// first element has no dot).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func specPath(s *ast.ImportSpec) string {
	p, _ := strconv.Unquote(s.Path.Value)
	return p
}

// pkgNameOf returns the name a package of the import path declares by
// convention: its last element, or the one before a major-version suffix
// (math/rand/v2 declares rand).
func pkgNameOf(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		return elems[len(elems)-2]
	}
	return last
}

// FreshName returns base, or base followed by a number, such that the name
// is declared neither in the file's scope chain at pos, nor anywhere in
// the innermost scope at pos (a declaration there after pos would clash
// with one the fix adds at pos), nor in the package scope (so a new
// package-level declaration cannot clash either).
func FreshName(info *types.Info, file *ast.File, pos token.Pos, base string) string {
	scope := info.Scopes[file]
	inner := scope
	if scope != nil {
		inner = scope.Innermost(pos)
	}
	taken := func(name string) bool {
		if inner != nil {
			if _, obj := inner.LookupParent(name, pos); obj != nil {
				return true
			}
			if inner.Lookup(name) != nil {
				return true
			}
		}
		if scope != nil && scope.Parent() != nil && scope.Parent().Lookup(name) != nil {
			return true // package scope: declared in another file or later
		}
		return scope != nil && scope.Lookup(name) != nil
	}
	if !taken(base) && token.Lookup(base) == token.IDENT {
		return base
	}
	for i := 2; ; i++ {
		if name := fmt.Sprintf("%s%d", base, i); !taken(name) {
			return name
		}
	}
}

// FileOf returns the file of pass that contains pos.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// ZeroValue returns source text for the zero value of t, as seen from
// package pkg, or "" when it cannot be written simply (a struct or array
// of a type from a package the file may not import). A type parameter's
// zero value is *new(T): nil is not one, whatever its constraint.
func ZeroValue(t types.Type, pkg *types.Package) string {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		if name := tp.Obj().Name(); name != "_" {
			return "*new(" + name + ")"
		}
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsNumeric != 0:
			return "0"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Kind() == types.UnsafePointer:
			return "nil"
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil"
	case *types.Struct, *types.Array:
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == pkg && n.TypeArgs().Len() == 0 {
			return n.Obj().Name() + "{}"
		}
	}
	return ""
}

// Indent returns the indentation of the line holding pos.
func Indent(pass *analysis.Pass, file *ast.File, pos token.Pos) string {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	off := tf.Offset(pos)
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// IdentName turns a dependency's name (a field, a package, a host such as
// ledger.internal) into a lowerCamel Go identifier, or "" when none can be
// made (no letters, a keyword, only digits).
func IdentName(s string) string {
	var b strings.Builder
	upper := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) && b.Len() > 0:
			if b.Len() == 0 {
				r = unicode.ToLower(r)
			} else if upper {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = b.Len() > 0
		}
	}
	name := lowerInitialism(b.String())
	if name == "" || token.Lookup(name) != token.IDENT {
		return ""
	}
	if _, err := strconv.Atoi(name); err == nil {
		return ""
	}
	return name
}

// lowerInitialism lowers the initialism a name starts with, as Go names
// do: OMSBaseURL is omsBaseURL, not oMSBaseURL; URL is url. An upper-case
// letter followed by a lower-case one starts the next word and stays.
func lowerInitialism(name string) string {
	rs := []rune(name)
	n := 0
	for n < len(rs) && (unicode.IsUpper(rs[n]) || n == 0 && unicode.IsLower(rs[n])) {
		n++
	}
	if n > 1 && n < len(rs) && unicode.IsLower(rs[n]) {
		n-- // the B of OMSBase starts Base
	}
	for i := range n {
		rs[i] = unicode.ToLower(rs[i])
	}
	return string(rs)
}

// Source returns the source text of n as the pass reads its file, or ""
// when the file cannot be read.
func Source(pass *analysis.Pass, n ast.Node) string {
	tf := pass.Fset.File(n.Pos())
	if tf == nil {
		return ""
	}
	data, err := pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	if start < 0 || end > len(data) || start > end {
		return ""
	}
	return string(data[start:end])
}

// CallArgs returns the source of a call of fun with args, as gofmt lays it
// out: with more than one argument, gofmt drops the blanks around the
// operators of an argument (max(d * 2, 1) is max(d*2, 1)), whatever
// encloses the call, so an argument taken from a context with one (a
// wait's duration in time.Sleep(d * 2)) is printed again. Arguments with
// a comment, or that do not parse, are kept as they are.
func CallArgs(fun string, args ...string) string {
	text := fun + "(" + strings.Join(args, ", ") + ")"
	if len(args) < 2 || strings.Contains(text, "//") || strings.Contains(text, "/*") {
		return text
	}
	fset := token.NewFileSet()
	e, err := parser.ParseExprFrom(fset, "", text, 0)
	if err != nil {
		return text
	}
	var b bytes.Buffer
	if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&b, fset, e); err != nil || strings.Contains(b.String(), "\n") {
		return text // a multi-line argument keeps its own layout
	}
	return b.String()
}

// Claims holds the names the fixes of one pass declare in one package, by
// the scope they are declared in (a *types.Scope, or the node of a
// function whose whole body counts as one). A pass's fixes are made one
// by one but applied together, so a name one fix declares must be free
// for the pass's other fixes too: a pass keeps one Claims per package and
// makes its fixes in the order it reports them, so that the names are the
// same in every run.
type Claims map[any]map[string]bool

// Taken reports whether a fix has claimed name in scope.
func (c Claims) Taken(scope any, name string) bool { return c[scope][name] }

// Claim records that a fix declares name in scope.
func (c Claims) Claim(scope any, name string) {
	if c[scope] == nil {
		c[scope] = map[string]bool{}
	}
	c[scope][name] = true
}

// InsertStmt returns the edit that puts text, a statement whose lines
// after the first are already indented as st, on lines of its own before
// st (or after it, with after set). Where st starts its line (ends it, for
// after), the edit is at the start of a line, so that it stays apart from
// another fix that cuts or moves st's whole line; every driver then
// applies both.
func InsertStmt(pass *analysis.Pass, file *ast.File, st ast.Node, after bool, text string) analysis.TextEdit {
	indent := Indent(pass, file, st.Pos())
	tf := pass.Fset.File(st.Pos())
	var src []byte
	if tf != nil {
		src, _ = pass.ReadFile(tf.Name())
	}
	if !after {
		if tf != nil && src != nil {
			start := tf.LineStart(tf.Line(st.Pos()))
			if strings.TrimSpace(string(src[tf.Offset(start):tf.Offset(st.Pos())])) == "" {
				return analysis.TextEdit{Pos: start, End: start, NewText: []byte(indent + text + "\n")}
			}
		}
		return analysis.TextEdit{Pos: st.Pos(), End: st.Pos(), NewText: []byte(text + "\n" + indent)}
	}
	if tf != nil && src != nil {
		end := tf.Offset(st.End())
		if nl := strings.IndexByte(string(src[end:]), '\n'); nl >= 0 && end+nl+1 < len(src) {
			rest := strings.TrimSpace(string(src[end : end+nl]))
			if rest == "" || strings.HasPrefix(rest, "//") && !strings.Contains(rest, "*/") {
				at := tf.Pos(end + nl + 1)
				return analysis.TextEdit{Pos: at, End: at, NewText: []byte(indent + text + "\n")}
			}
		}
	}
	return analysis.TextEdit{Pos: st.End(), End: st.End(), NewText: []byte("\n" + indent + text)}
}

// Unique returns edits without the repeats of an edit (an import that two
// parts of one fix both add), in their order: a fix whose edits repeat is
// applied twice by a driver that does not merge them.
func Unique(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	for _, e := range edits {
		dup := false
		for _, o := range out {
			if o.Pos == e.Pos && o.End == e.End && string(o.NewText) == string(e.NewText) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, e)
		}
	}
	return out
}
