package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// deterministicModule returns a module whose findings come from every pass
// and from many files of one package: the go command and go/packages parse
// a package's files concurrently, so the order of their positions in the
// file set differs from run to run.
func deterministicModule(t *testing.T) string {
	t.Helper()
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("p/f%02d.go", i)] = fmt.Sprintf(`package p

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"
)

type Client%[1]d struct{}

func (c *Client%[1]d) Get(ctx context.Context) error { return nil }

func get%[1]d(ctx context.Context, c *Client%[1]d) error {
	for i := 0; i < 3; i++ {
		if err := c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func post%[1]d(ctx context.Context, hc *http.Client, body []byte) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for i := 0; i < 2; i++ {
		req, err := http.NewRequestWithContext(tctx, http.MethodPost, "https://pay.example/charge", bytes.NewReader(body))
		if err != nil {
			return err
		}
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}
`, i)
	}
	files["low/low.go"] = `package low

import (
	"context"
	"time"
)

type DB struct{}

func (DB) Exec(ctx context.Context) error { return nil }

func Write(ctx context.Context, db DB) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = db.Exec(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`
	files["high/high.go"] = `package high

import (
	"context"
	"time"

	"example.com/m/low"
)

func Save(ctx context.Context, db low.DB) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = low.Write(ctx, db); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`
	files["s/s.go"] = sharedBudget
	return module(t, files)
}

// TestDeterministic runs every output format many times, with 1, 2 and 8
// threads, and wants byte-identical output, in the documented order: by
// file, line and column, then pass, then message.
func TestDeterministic(t *testing.T) {
	dir := deterministicModule(t)
	for _, format := range []string{"text", "-json", "-sarif", "-diff"} {
		t.Run(strings.TrimPrefix(format, "-"), func(t *testing.T) {
			args := []string{"./..."}
			switch format {
			case "-diff":
				args = []string{"-fix", "-diff", "./..."}
			case "-json", "-sarif":
				args = []string{format, "./..."}
			}
			var first string
			n := 0
			for _, procs := range []string{"1", "2", "8", "8", "2", "1", "8", "2"} {
				cmd := exec.Command(retrylint, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOMAXPROCS="+procs)
				var out strings.Builder
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 3 {
						t.Fatalf("%v: %v\n%s", args, err, out.String())
					}
				}
				if n == 0 {
					first = out.String()
					if !strings.Contains(first, "f11.go") || !strings.Contains(first, "s.go") || format != "-diff" && !strings.Contains(first, "high.go") {
						t.Fatalf("%v: unexpected output:\n%s", args, first)
					}
				} else if out.String() != first {
					t.Fatalf("%v: run %d (GOMAXPROCS=%s) differs from the first:\n%s\nvs\n%s", args, n, procs, out.String(), first)
				}
				n++
			}
			if format == "text" {
				checkSorted(t, first)
			}
		})
	}
}

// checkSorted checks that the findings of text output (the lines that do
// not start with a tab after the position) are sorted by file, line and
// column.
func checkSorted(t *testing.T, out string) {
	t.Helper()
	re := regexp.MustCompile(`^([^:\s]+):(\d+):(\d+): ([^\t].*)$`)
	type pos struct {
		file      string
		line, col int
	}
	var prev pos
	n := 0
	for _, l := range strings.Split(out, "\n") {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		p := pos{m[1], line, col}
		if n > 0 && (p.file < prev.file || p.file == prev.file && (p.line < prev.line || p.line == prev.line && p.col < prev.col)) {
			t.Errorf("%s:%d:%d comes after %s:%d:%d", p.file, p.line, p.col, prev.file, prev.line, prev.col)
		}
		prev = p
		n++
	}
	if n < 30 {
		t.Errorf("only %d findings in:\n%s", n, out)
	}
}
