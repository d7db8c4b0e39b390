package rltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"
)

// ValidateJSON checks the JSON document doc against the JSON Schema
// schema and returns one message per violation (none when doc is valid).
//
// It implements the keywords that the SARIF 2.1.0 schema and retrylint's
// own audit schema use: $ref (to "#/definitions/..." or "#/$defs/..."),
// type, properties, required, additionalProperties, items, minItems,
// maxItems, uniqueItems, enum, const, minimum, maximum, pattern, anyOf,
// oneOf, allOf and the formats uri, uri-reference, uuid and date-time. A schema
// that uses any other keyword is an error, so that a check never passes
// by ignoring a rule.
func ValidateJSON(schema, doc []byte) ([]string, error) {
	var s, d any
	if err := decodeNumbers(schema, &s); err != nil {
		return nil, fmt.Errorf("schema: %v", err)
	}
	if err := decodeNumbers(doc, &d); err != nil {
		return nil, fmt.Errorf("document: %v", err)
	}
	v := &validator{root: s}
	if err := v.checkKeywords(s, "#"); err != nil {
		return nil, err
	}
	v.validate(s, d, "")
	sort.Strings(v.errs)
	return v.errs, nil
}

func decodeNumbers(data []byte, out *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(out)
}

type validator struct {
	root any
	errs []string
}

var knownKeywords = map[string]bool{
	"$schema": true, "$id": true, "title": true, "description": true, "default": true,
	"definitions": true, "$defs": true, "$ref": true, "type": true, "properties": true,
	"required": true, "additionalProperties": true, "items": true, "minItems": true,
	"maxItems": true, "uniqueItems": true, "enum": true, "const": true, "minimum": true,
	"maximum": true, "pattern": true, "anyOf": true, "oneOf": true, "allOf": true,
	"format": true, "examples": true,
}

// checkKeywords rejects schemas with keywords the validator does not
// implement.
func (v *validator) checkKeywords(s any, at string) error {
	m, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	for k, sub := range m {
		if !knownKeywords[k] {
			return fmt.Errorf("schema %s: keyword %q is not supported", at, k)
		}
		switch k {
		case "properties", "definitions", "$defs":
			if mm, ok := sub.(map[string]any); ok {
				for name, ss := range mm {
					if err := v.checkKeywords(ss, at+"/"+k+"/"+name); err != nil {
						return err
					}
				}
			}
		case "items", "additionalProperties":
			if err := v.checkKeywords(sub, at+"/"+k); err != nil {
				return err
			}
		case "anyOf", "oneOf", "allOf":
			if list, ok := sub.([]any); ok {
				for i, ss := range list {
					if err := v.checkKeywords(ss, fmt.Sprintf("%s/%s/%d", at, k, i)); err != nil {
						return err
					}
				}
			}
		case "format":
			switch sub {
			case "uri", "uri-reference", "date-time", "uuid":
			default:
				return fmt.Errorf("schema %s: format %v is not supported", at, sub)
			}
		}
	}
	return nil
}

func (v *validator) errorf(at, format string, args ...any) {
	if at == "" {
		at = "/"
	}
	v.errs = append(v.errs, at+": "+fmt.Sprintf(format, args...))
}

func (v *validator) resolve(ref string) any {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var cur any = v.root
	for _, part := range strings.Split(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]
	}
	return cur
}

// valid reports whether d satisfies s, without recording errors.
func (v *validator) valid(s, d any) bool {
	w := &validator{root: v.root}
	w.validate(s, d, "")
	return len(w.errs) == 0
}

func (v *validator) validate(s, d any, at string) {
	switch s := s.(type) {
	case bool:
		if !s {
			v.errorf(at, "no value is allowed here")
		}
		return
	case map[string]any:
		v.validateObject(s, d, at)
	}
}

func (v *validator) validateObject(s map[string]any, d any, at string) {
	if ref, ok := s["$ref"].(string); ok {
		target := v.resolve(ref)
		if target == nil {
			v.errorf(at, "unresolved $ref %s", ref)
		} else {
			v.validate(target, d, at)
		}
	}
	if t, ok := s["type"]; ok && !typeMatches(t, d) {
		v.errorf(at, "type %s, want %v", jsonType(d), t)
		return
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || jsonEqual(x, d)
		}
		if !found {
			v.errorf(at, "value %v is not one of %v", d, e)
		}
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, d) {
		v.errorf(at, "value %v, want %v", d, c)
	}
	switch d := d.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if name, ok := r.(string); ok {
					if _, ok := d[name]; !ok {
						v.errorf(at, "missing required property %q", name)
					}
				}
			}
		}
		names := make([]string, 0, len(d))
		for k := range d {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if ps, ok := props[k]; ok {
				v.validate(ps, d[k], at+"/"+k)
				continue
			}
			if ap, ok := s["additionalProperties"]; ok {
				if b, isBool := ap.(bool); isBool && !b {
					v.errorf(at, "property %q is not allowed", k)
				} else if !isBool {
					v.validate(ap, d[k], at+"/"+k)
				}
			}
		}
	case []any:
		if n, ok := number(s["minItems"]); ok && float64(len(d)) < n {
			v.errorf(at, "%d items, want at least %v", len(d), n)
		}
		if n, ok := number(s["maxItems"]); ok && float64(len(d)) > n {
			v.errorf(at, "%d items, want at most %v", len(d), n)
		}
		if u, _ := s["uniqueItems"].(bool); u {
			for i := range d {
				for j := i + 1; j < len(d); j++ {
					if jsonEqual(d[i], d[j]) {
						v.errorf(at, "items %d and %d are equal", i, j)
					}
				}
			}
		}
		if items, ok := s["items"]; ok {
			for i, x := range d {
				v.validate(items, x, fmt.Sprintf("%s/%d", at, i))
			}
		}
	case json.Number:
		f, _ := d.Float64()
		if n, ok := number(s["minimum"]); ok && f < n {
			v.errorf(at, "%v is below the minimum %v", f, n)
		}
		if n, ok := number(s["maximum"]); ok && f > n {
			v.errorf(at, "%v is above the maximum %v", f, n)
		}
	case string:
		if p, ok := s["pattern"].(string); ok {
			re, err := regexp.Compile(p)
			if err != nil {
				v.errorf(at, "bad pattern %q in schema: %v", p, err)
			} else if !re.MatchString(d) {
				v.errorf(at, "%q does not match %q", d, p)
			}
		}
		switch s["format"] {
		case "uri":
			if u, err := url.Parse(d); err != nil || u.Scheme == "" {
				v.errorf(at, "%q is not an absolute URI", d)
			}
		case "uri-reference":
			if _, err := url.Parse(d); err != nil {
				v.errorf(at, "%q is not a URI reference", d)
			}
		case "uuid":
			if !uuidRE.MatchString(d) {
				v.errorf(at, "%q is not a UUID", d)
			}
		case "date-time":
			if _, err := time.Parse(time.RFC3339, d); err != nil {
				v.errorf(at, "%q is not an RFC 3339 date-time", d)
			}
		}
	}
	if list, ok := s["allOf"].([]any); ok {
		for _, sub := range list {
			v.validate(sub, d, at)
		}
	}
	if list, ok := s["anyOf"].([]any); ok {
		n := 0
		for _, sub := range list {
			if v.valid(sub, d) {
				n++
			}
		}
		if n == 0 {
			v.errorf(at, "matches none of anyOf")
		}
	}
	if list, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, sub := range list {
			if v.valid(sub, d) {
				n++
			}
		}
		if n != 1 {
			v.errorf(at, "matches %d of oneOf, want exactly one", n)
		}
	}
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func number(x any) (float64, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func jsonType(d any) string {
	switch d := d.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if f, err := d.Float64(); err == nil && f == math.Trunc(f) && !strings.ContainsAny(d.String(), ".eE") {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", d)
}

func typeMatches(t, d any) bool {
	switch t := t.(type) {
	case string:
		got := jsonType(d)
		return got == t || t == "number" && got == "integer"
	case []any:
		for _, x := range t {
			if typeMatches(x, d) {
				return true
			}
		}
	}
	return false
}

func jsonEqual(a, b any) bool {
	if x, ok := a.(json.Number); ok {
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, _ := x.Float64()
		fy, _ := y.Float64()
		return fx == fy
	}
	return reflect.DeepEqual(a, b)
}
