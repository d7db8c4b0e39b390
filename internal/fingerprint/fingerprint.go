// Package fingerprint names a finding without its line number, so that it
// keeps its name when code above it changes. The lint mode's SARIF output
// (partialFingerprints) and its baseline file (-baseline,
// -write-baseline) use the same names.
//
// A finding's key is a hash of
//   - its rule (the pass that reports it),
//   - its file: the module path, then the file's path inside the module
//     (so that two modules of a workspace are told apart, and a checkout's
//     location does not matter),
//   - the function that encloses it ("(*T).M", "T.M", "F"; "" at package
//     level),
//   - its message, with positions and spacing normalized,
//   - its site: the Go tokens of the reported line, without comments and
//     spacing (reformatting or a comment at the end of the line keeps the
//     key; editing the line itself does not).
//
// Two findings with the same key (the same loop pasted twice into one
// function) are told apart by their order: a Counter numbers them,
// "key:1", "key:2", in the order of the output, which is by position.
package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
)

// Version is part of every key: a change to how keys are computed changes
// it, and with it every key.
const Version = "v1"

// A Finding is what a key is computed from.
type Finding struct {
	Rule    string // the pass or rule that reports it
	File    string // module path + "/" + slash path inside the module
	Func    string // enclosing function; "" at package level
	Message string
	Site    string // the source text of the reported line
}

// Key returns the finding's key: 32 hexadecimal digits.
func (f Finding) Key() string {
	h := sha256.New()
	for _, s := range []string{Version, f.Rule, f.File, f.Func, Message(f.Message), Site(f.Site)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// A Counter numbers keys in the order they are seen, so that identical
// findings get distinct fingerprints.
type Counter map[string]int

// Next returns "key:n" for the n-th time key is seen.
func (c Counter) Next(key string) string {
	c[key]++
	return fmt.Sprintf("%s:%d", key, c[key])
}

var (
	posRE   = regexp.MustCompile(`(\.go):\d+(:\d+)?`)
	lineRE  = regexp.MustCompile(`\bline \d+`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// Message normalizes a message: positions in it lose their line and
// column ("x.go:12:3" is "x.go", "line 12" is "line"), and runs of spaces
// are one space.
func Message(msg string) string {
	msg = posRE.ReplaceAllString(msg, "$1")
	msg = lineRE.ReplaceAllString(msg, "line")
	return strings.TrimSpace(spaceRE.ReplaceAllString(msg, " "))
}

// Site normalizes a line of Go source: its tokens, one space apart,
// without comments.
func Site(line string) string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(line)
	s.Init(fset.AddFile("", -1, len(src)), src, func(token.Position, string) {}, 0)
	var toks []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch {
		case tok == token.SEMICOLON && lit == "\n":
			continue // inserted at the end of the line
		case lit != "":
			toks = append(toks, lit)
		default:
			toks = append(toks, tok.String())
		}
	}
	return strings.Join(toks, " ")
}

// File returns the name of a file for a key: the module path and the
// file's slash path inside the module directory. A file outside the
// module directory (or with no module) keeps its base name only.
func File(modPath, modDir, filename string) string {
	if modDir != "" {
		if rel, err := filepath.Rel(modDir, filename); err == nil && !strings.HasPrefix(rel, "..") {
			return strings.TrimSuffix(modPath+"/"+filepath.ToSlash(rel), "/")
		}
	}
	return filepath.Base(filename)
}

// Func returns the name of the function declared at the top level of file
// that encloses pos: "F", "T.M" or "(*T).M" (type parameters left out),
// or "" when pos lies outside every function.
func Func(file *ast.File, pos token.Pos) string {
	for _, decl := range file.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || pos < fd.Pos() || pos >= fd.End() {
			continue
		}
		if fd.Recv == nil || len(fd.Recv.List) == 0 {
			return fd.Name.Name
		}
		t := fd.Recv.List[0].Type
		star := false
		if s, ok := t.(*ast.StarExpr); ok {
			star, t = true, s.X
		}
		switch x := t.(type) {
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		name := "?"
		if id, ok := t.(*ast.Ident); ok {
			name = id.Name
		}
		if star {
			return "(*" + name + ")." + fd.Name.Name
		}
		return name + "." + fd.Name.Name
	}
	return ""
}
