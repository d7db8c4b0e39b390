package main

import (
	"encoding/json"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf16"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/driver"
)

// SARIF 2.1.0, the parts retrylint writes. See
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Results            []sarifResult               `json:"results"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name,omitempty"` // only when it differs from the ID
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifText         `json:"help"`
	HelpURI              string            `json:"helpUri"`
	DefaultConfiguration map[string]string `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// writeSARIF writes the findings (each once, in the order of Findings)
// as one SARIF run whose rules are the given analyzers, with file names
// relative to root.
func writeSARIF(w io.Writer, fs []*driver.Finding, rules []*analysis.Analyzer, root string, lines *driver.Lines) error {
	version, semver := toolVersion()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            "retrylint",
			Version:         version,
			SemanticVersion: semver,
			InformationURI:  "https://github.com/retrylint/retrylint",
		}},
		Results:            []sarifResult{},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{"SRCROOT": {URI: "file://" + filepath.ToSlash(root) + "/"}},
		ColumnKind:         "utf16CodeUnits",
	}
	ruleIndex := map[string]int{}
	for _, a := range rules {
		// GitHub code scanning requires non-empty descriptions and help;
		// the meta-test of the passes guarantees a summary line.
		summary, rest, _ := strings.Cut(a.Doc, "\n")
		help := strings.TrimSpace(rest)
		if help == "" {
			help = summary
		}
		if a.URL != "" {
			help += "\n\nDocumentation: " + a.URL
		}
		ruleIndex[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:                   a.Name,
			ShortDescription:     sarifText{summary},
			FullDescription:      sarifText{strings.TrimSpace(summary + "\n" + rest)},
			Help:                 sarifText{help},
			HelpURI:              a.URL,
			DefaultConfiguration: map[string]string{"level": "warning"},
		})
	}
	// The fingerprint leaves out the line number, so that an alert
	// survives edits above it (internal/fingerprint); it is the key of
	// the baseline file too.
	fingerprints := driver.Fingerprints(fs, lines)
	for i, f := range fs {
		idx, ok := ruleIndex[f.Analyzer.Name]
		if !ok {
			continue
		}
		fset := f.Fset()
		loc := sarifLoc(fset, f.Diag.Pos, f.Diag.End, root, lines)
		res := sarifResult{
			RuleID:              f.Analyzer.Name,
			RuleIndex:           idx,
			Level:               "warning",
			Message:             sarifText{f.Diag.Message},
			Locations:           []sarifLocation{loc},
			PartialFingerprints: map[string]string{"retrylint/v2": fingerprints[i]},
		}
		for j, r := range f.Diag.Related {
			rl := sarifLoc(fset, r.Pos, r.End, root, lines)
			id := j + 1
			rl.ID = &id
			rl.Message = &sarifText{r.Message}
			res.RelatedLocations = append(res.RelatedLocations, rl)
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

// toolVersion returns the version of the retrylint module this binary was
// built from, without its "v" (SARIF consumers compare versions that start
// with a number; a build from a checkout is "0.0.0-devel"), and the same
// as semver when it is a semantic version.
func toolVersion() (version, semver string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok || !strings.HasPrefix(bi.Main.Version, "v") {
		return "0.0.0-devel", ""
	}
	v := strings.TrimPrefix(bi.Main.Version, "v")
	return v, v
}

// sarifLoc converts a position range to a SARIF location with a URI
// relative to root when the file lies below it.
func sarifLoc(fset *token.FileSet, pos, end token.Pos, root string, lines *driver.Lines) sarifLocation {
	p := fset.Position(pos)
	e := p
	if end.IsValid() {
		e = fset.Position(end)
	}
	uri, base := filepath.ToSlash(p.Filename), ""
	if rel := driver.Rel(root, p.Filename); rel != p.Filename {
		uri, base = filepath.ToSlash(rel), "SRCROOT"
	} else {
		uri = "file://" + uri
	}
	region := sarifRegion{
		StartLine:   max(p.Line, 1),
		StartColumn: utf16Column(lines.Line(p.Filename, p.Line), p.Column),
		EndLine:     max(e.Line, 1),
		EndColumn:   utf16Column(lines.Line(e.Filename, e.Line), e.Column),
	}
	if region.EndLine < region.StartLine || region.EndLine == region.StartLine && region.EndColumn < region.StartColumn {
		region.EndLine, region.EndColumn = region.StartLine, region.StartColumn
	}
	return sarifLocation{PhysicalLocation: sarifPhysical{
		ArtifactLocation: sarifArtifactLoc{URI: uri, URIBaseID: base},
		Region:           region,
	}}
}

// utf16Column converts a 1-based byte column of line to a 1-based column
// in UTF-16 code units, SARIF's default column kind.
func utf16Column(line string, col int) int {
	if col < 1 {
		return 1
	}
	if col-1 > len(line) {
		return col
	}
	return len(utf16.Encode([]rune(line[:col-1]))) + 1
}

// lineCache reads source files once to look up lines (for the audit's
// SARIF output).
type lineCache struct{ files map[string][]string }

func newLineCache() *lineCache { return &lineCache{files: map[string][]string{}} }

func (c *lineCache) line(name string, n int) string {
	lines, ok := c.files[name]
	if !ok {
		data, _ := os.ReadFile(name)
		lines = strings.Split(string(data), "\n")
		c.files[name] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}
