// Command score scores retrylint -json output against labels files (see
// package evalscore): a table per labels file, one for all together, and
// every miss, false positive and unlabeled diagnostic.
//
// Usage: go run ./internal/evalscore/score -json out.json labels.tsv...
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/retrylint/retrylint/internal/evalscore"
)

func main() {
	jsonPath := flag.String("json", "", "retrylint -json output to score")
	modcache := flag.String("modcache", "", "the module cache the diagnostics' files are in (default: go env GOMODCACHE)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: score -json FILE [-modcache DIR] LABELS.tsv...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *jsonPath == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *modcache == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "score: go env GOMODCACHE:", err)
			os.Exit(1)
		}
		*modcache = strings.TrimSpace(string(out))
	}
	f, err := os.Open(*jsonPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(1)
	}
	diags, err := evalscore.ReadJSON(f, *modcache)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "score:", *jsonPath+":", err)
		os.Exit(1)
	}
	var all []evalscore.Label
	for _, path := range flag.Args() {
		labels, err := evalscore.ReadLabels(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "score:", err)
			os.Exit(1)
		}
		fmt.Printf("== %s (%d rows; ambiguous rows not scored)\n", path, len(labels))
		evalscore.Table(os.Stdout, evalscore.Score(labels, diags))
		all = append(all, labels...)
	}
	scores := evalscore.Score(all, diags)
	if flag.NArg() > 1 {
		fmt.Printf("== all together (%d rows)\n", len(all))
		evalscore.Table(os.Stdout, scores)
	}
	evalscore.Details(os.Stdout, scores)
}
