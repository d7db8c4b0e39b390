package driver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Progress receives how far loading has come: packages whose files are all
// parsed, out of the packages to load (0 until the go command has listed
// them and built the export data of their dependencies, which is the first
// part of loading). It is called from several goroutines, one call at a
// time.
type Progress func(loaded, total int)

// Load reports its progress to a Progress given to it: it lists the
// packages first (a go list without export data, so that the count is
// known before the dependencies are compiled), then counts the files
// go/packages parses.

// countParsed returns a ParseFile hook that parses as go/packages does
// and reports the packages whose files are all parsed.
func countParsed(dir string, patterns []string, tests bool, progress Progress) func(*token.FileSet, string, []byte) (*ast.File, error) {
	var (
		mu      sync.Mutex
		left    = map[string]int{}      // package ID -> files not parsed yet
		byFile  = map[string][]string{} // file -> IDs of the packages that hold it
		total   int
		loaded  int
		listed  bool
		listErr bool
	)
	list := func() {
		listed = true
		cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles, Tests: tests, Dir: dir}
		pkgs, err := packages.Load(cfg, patterns...)
		if err != nil {
			listErr = true
			return
		}
		for _, p := range pkgs {
			if len(p.GoFiles) == 0 {
				continue
			}
			total++
			for _, f := range p.GoFiles {
				f = filepath.Clean(f)
				byFile[f] = append(byFile[f], p.ID)
				left[p.ID]++
			}
		}
	}
	// List at once, before the go command compiles the dependencies.
	mu.Lock()
	list()
	if !listErr {
		progress(0, total)
	}
	mu.Unlock()
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		// What go/packages does without a hook.
		f, err := parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
		mu.Lock()
		defer mu.Unlock()
		if !listed || listErr {
			return f, err
		}
		ids := byFile[filepath.Clean(filename)]
		delete(byFile, filepath.Clean(filename))
		for _, id := range ids {
			left[id]--
			if left[id] == 0 {
				loaded++
			}
		}
		if len(ids) > 0 {
			progress(loaded, total)
		}
		return f, err
	}
}
