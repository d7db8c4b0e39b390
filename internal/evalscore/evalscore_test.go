package evalscore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScore(t *testing.T) {
	dir := t.TempDir()
	labels := filepath.Join(dir, "set.tsv")
	os.WriteFile(labels, []byte("module\tversion\tfile\tline\tpass\tverdict\tnote\n"+
		"github.com/Ab/c\tv1.0.0\tx.go\t10\tfixedattempts\treport\ta retry loop\n"+
		"github.com/Ab/c\tv1.0.0\tx.go\t20\tfixedattempts\treport\tanother, missed\n"+
		"github.com/Ab/c\tv1.0.0\tx.go\t30\tfixedattempts\tsilent\ta paging loop\n"+
		"github.com/Ab/c\tv1.0.0\tx.go\t40\tfixedattempts\tambiguous\tnot scored\n"+
		"github.com/Ab/c\tv1.0.0\tx.go\t50\tnonidempotent\treport\ta POST\n"), 0o644)
	ls, err := ReadLabels(labels)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 5 || ls[0].Set != "set" || ls[0].Module != "github.com/Ab/c" || ls[0].Line != 10 {
		t.Fatalf("labels: %+v", ls)
	}
	const cache = "/cache"
	js := `{"p": {"fixedattempts": [
		{"posn": "/cache/github.com/!ab/c@v1.0.0/x.go:10:2", "message": "retry loop makes up to 3 attempts"},
		{"posn": "/cache/github.com/!ab/c@v1.0.0/x.go:30:2", "message": "retry loop (wrong)"},
		{"posn": "/cache/github.com/!ab/c@v1.0.0/x.go:40:2", "message": "ambiguous"},
		{"posn": "/cache/github.com/!ab/c@v1.0.0/x.go:60:2", "message": "nobody labelled it"},
		{"posn": "/cache/github.com/!ab/c@v1.0.0/x_test.go:5:2", "message": "a test file"},
		{"posn": "/elsewhere/y.go:1:1", "message": "outside the cache"}],
		"nonidempotent": {"error": "analysis failed"}}}`
	diags, err := ReadJSON(strings.NewReader(js), cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 5 || diags[0].Module != "github.com/Ab/c" {
		t.Fatalf("diags: %+v", diags)
	}
	s := Score(ls, diags)
	fa := s["fixedattempts"]
	if fa.TP != 1 || fa.FN != 1 || fa.FP != 1 || len(fa.Unlabeled) != 1 || !strings.Contains(fa.Unlabeled[0], "x.go:60") {
		t.Errorf("fixedattempts: %+v", fa)
	}
	if fa.Precision() != 0.5 || fa.Recall() != 0.5 {
		t.Errorf("P %v R %v, want 0.5 and 0.5", fa.Precision(), fa.Recall())
	}
	if ni := s["nonidempotent"]; ni.TP != 0 || ni.FN != 1 {
		t.Errorf("nonidempotent: %+v", ni)
	}
	var b strings.Builder
	Table(&b, s)
	if !strings.Contains(b.String(), "  fixedattempts     1    1    1   0.50   0.50          1\n") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestReadLabelsErrors(t *testing.T) {
	dir := t.TempDir()
	for name, row := range map[string]string{
		"columns": "m\tv\tf\t1\tfixedattempts\n",
		"line":    "m\tv\tf\tten\tfixedattempts\treport\tn\n",
		"verdict": "m\tv\tf\t1\tfixedattempts\tmaybe\tn\n",
	} {
		p := filepath.Join(dir, name+".tsv")
		os.WriteFile(p, []byte("header\n"+row), 0o644)
		if _, err := ReadLabels(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
