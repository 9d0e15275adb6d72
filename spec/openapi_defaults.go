package spec

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
)

// setDefault sets s's default to the value of n (none for nil) and
// remembers where it is written.
func (l *oaLoader) setDefault(s *Schema, n *yaml.Node) {
	s.Default = nodeJSON(n)
	if n != nil && s.Default != nil {
		l.defaultPos[s] = l.pos(n)
	}
}

// dropBrokenDefaults drops, with a note, every default that does not
// validate against the schema it sits on: its type, enum or const, bounds,
// pattern, format, a union that must match exactly one variant, nested
// values. Vendors publish such defaults (OpenAI's `default: []` on a string
// enum, `default: null` on objects that are not nullable); published, they
// make clients that validate defaults refuse the tool (the official Go
// SDK's does), and filled in, they make the server refuse its own call.
// The check is the one mcpgen.yaml defaults pass (checkValue), which
// follows the generated validators.
func (l *oaLoader) dropBrokenDefaults() {
	types := make(map[string]*NamedType, len(l.api.Types))
	for _, nt := range l.api.Types {
		types[nt.Name] = nt
	}
	c := newValueChecker(types)
	c.documentedFormats = true
	total := 0
	seen := map[*Schema]bool{}
	var walk func(s *Schema)
	walk = func(s *Schema) {
		if s == nil || seen[s] || total > maxTotalValueSteps {
			return
		}
		seen[s] = true
		if s.Default != nil {
			c.steps = 0
			if problem := brokenDefault(&c, s); problem != "" {
				at, ok := l.defaultPos[s]
				if !ok {
					at = s.Pos
				}
				l.notef(at, "%s; the default is dropped: neither published nor filled in", problem)
				s.Default = nil
			}
			total += c.steps
			if total > maxTotalValueSteps {
				l.notef(Pos{File: l.file}, "the defaults are too many to check within the loader's work bound: the rest are published as written")
				return
			}
		}
		for _, p := range s.Properties {
			walk(p.Schema)
		}
		walk(s.Items)
		walk(s.AdditionalProperties)
		for _, v := range s.OneOf {
			walk(v)
		}
		for _, pp := range s.PatternProperties {
			walk(pp.Schema)
		}
		for _, sub := range s.Subschemas() {
			walk(sub)
		}
	}
	for _, nt := range l.api.Types {
		walk(nt.Schema)
	}
	for _, t := range l.api.Tools {
		walk(t.Input)
		walk(t.Output)
	}
}

// brokenDefault is how s's default breaks s ("" when it does not), in the
// words of the mcpgen.yaml diagnostics: `default null is not of type
// "object"`, `default [1,"x"]: at /1: is not of type "integer"`.
func brokenDefault(c *valueChecker, s *Schema) string {
	v, ok := decodeJSON(s.Default)
	if !ok {
		return ""
	}
	v = integralNumbers(v)
	path, problem := c.checkValue(s, v, false, 0)
	switch {
	case problem == "":
		return ""
	case path != "":
		return fmt.Sprintf("default %s: at %s: %s", snippet(v), path, problem)
	}
	return fmt.Sprintf("default %s %s", snippet(v), problem)
}

// integralNumbers rewrites the numbers of v that are integers written with
// a fraction or exponent (1.0, 1e3) as integers: JSON Schema counts them
// as integers, and so does the mcpgen.yaml loader, which reads them so.
func integralNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			return x
		}
		f, ok := new(big.Float).SetString(string(x))
		if !ok {
			return x
		}
		if i, acc := f.Int64(); acc == big.Exact {
			return json.Number(strconv.FormatInt(i, 10))
		}
	case []any:
		for i := range x {
			x[i] = integralNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = integralNumbers(x[k])
		}
	}
	return v
}
