// Package srcpos holds what the passes need of positions beyond go/token:
// Compare orders positions of several files the same way in every run,
// InTest says whether a position is in a test file, and Pos turns a position recorded as text by the pass of another package (in
// an analysis fact, "file:line:column") back into a token.Pos that prints
// the same under every driver.
//
// The retrylint command parses every analyzed package into one file set,
// so the file is there. go vet analyzes one package per process and reads
// the packages it imports from export data, whose files have made-up line
// tables: every line one byte long, and only as many lines as the last
// declaration needs. Looked up there, a position lands on the wrong line
// and column (87:1 for 86:2), or on no line at all. Pos then reads the file
// from disk and adds it to the file set, once.
package srcpos

import (
	"cmp"
	"go/token"
	"os"
	"strconv"
	"strings"
)

// Pos returns the position pos ("file:line:column") in fset, or NoPos when
// it is malformed or its file cannot be read or is shorter.
func Pos(fset *token.FileSet, pos string) token.Pos {
	name, line, col, ok := split(pos)
	if !ok {
		return token.NoPos
	}
	info, err := os.Stat(name)
	if err != nil {
		return token.NoPos
	}
	var tf *token.File
	fset.Iterate(func(f *token.File) bool {
		if f.Name() == name && int64(f.Size()) == info.Size() {
			tf = f // parsed from this file's content
			return false
		}
		return true
	})
	if tf == nil {
		data, err := os.ReadFile(name)
		if err != nil {
			return token.NoPos
		}
		tf = fset.AddFile(name, -1, len(data))
		tf.SetLinesForContent(data)
	}
	if line < 1 || line > tf.LineCount() {
		return token.NoPos
	}
	start := tf.LineStart(line)
	off := tf.Offset(start) + col - 1
	if col < 1 || off > tf.Size() {
		return token.NoPos
	}
	return tf.Pos(off)
}

// split splits "file:line:column".
func split(pos string) (file string, line, col int, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(pos[:i], ':')
	if j < 0 {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(pos[j+1 : i])
	col, err2 := strconv.Atoi(pos[i+1:])
	if err1 != nil || err2 != nil || pos[:j] == "" {
		return "", 0, 0, false
	}
	return pos[:j], line, col, true
}

// Compare orders two positions of fset by file name, then offset. The
// order of token.Pos values across files is the order in which the files
// were added to the file set, which go/packages does in parallel: output
// sorted by it would change from run to run.
func Compare(fset *token.FileSet, a, b token.Pos) int {
	if fa, fb := fset.File(a), fset.File(b); fa != fb && fa != nil && fb != nil {
		if c := strings.Compare(fa.Name(), fb.Name()); c != 0 {
			return c
		}
	}
	return cmp.Compare(a, b)
}

// InTest reports whether pos is in a test file (a _test.go file).
func InTest(fset *token.FileSet, pos token.Pos) bool {
	return strings.HasSuffix(fset.Position(pos).Filename, "_test.go")
}
