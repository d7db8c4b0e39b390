// Package fixutil builds the small text edits that suggested fixes share:
// adding an import, choosing a fresh name, rendering zero values. It never
// mutates the syntax tree.
package fixutil

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
)

// AddImport returns the name by which file can refer to the package path
// at pos, and the edits that add the import when the file lacks it. An
// existing import is reused; a new one gets the package's last path
// element, or a fresh local name when that is taken at pos.
func AddImport(info *types.Info, file *ast.File, path string, pos token.Pos) (name string, edits []analysis.TextEdit) {
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
	spec := strconv.Quote(path)
	if name != base {
		spec = name + " " + spec
	}
	// Insert into the first import declaration, or after the package clause.
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() {
			return name, []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + spec + "\n")}}
		}
		return name, []analysis.TextEdit{{Pos: gd.End(), End: gd.End(), NewText: []byte("\nimport " + spec)}}
	}
	at := file.Name.End()
	return name, []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\n\nimport " + spec)}}
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
// is declared neither in the file's scope chain at pos nor in the package
// scope (so a new package-level declaration cannot clash either).
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
	name := b.String()
	if name == "" || token.Lookup(name) != token.IDENT {
		return ""
	}
	if _, err := strconv.Atoi(name); err == nil {
		return ""
	}
	return name
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
