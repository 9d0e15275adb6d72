package generator

import (
	"fmt"

	"github.com/mcpgen-dev/mcpgen/generator/schema"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// notePatterns adds a note to api.Notes for each pattern that has no form
// ECMAScript (u flag) reads as RE2 does (schema.PublishedPattern): the
// published schemas leave it out, and the server still checks it.
func notePatterns(api *spec.API) {
	seen := map[*spec.Schema]bool{}
	noted := map[string]bool{}
	for _, old := range api.Notes {
		noted[old.String()] = true
	}
	var walk func(s *spec.Schema)
	walk = func(s *spec.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Pattern != "" {
			if _, ok := schema.PublishedPattern(s.Pattern); !ok {
				n := spec.Diagnostic{Pos: s.Pos, Message: fmt.Sprintf("pattern %q has no form that clients' ECMAScript engines read as the server's RE2 does ((?m) anchors, or a Unicode class over 1 KiB as ranges): it is left out of the published schemas and still checked by the server", s.Pattern)}
				if !noted[n.String()] {
					noted[n.String()] = true
					api.Notes = append(api.Notes, n)
				}
			}
		}
		for _, p := range s.PatternProperties {
			if _, ok := schema.PublishedPattern(p.Pattern); !ok {
				n := spec.Diagnostic{Pos: p.Schema.Pos, Message: fmt.Sprintf("patternProperties pattern %q has no form that clients' ECMAScript engines read as the server's RE2 does: it is left out of the published schemas, with the object's additionalProperties, and still checked by the server", p.Pattern)}
				if !noted[n.String()] {
					noted[n.String()] = true
					api.Notes = append(api.Notes, n)
				}
			}
			walk(p.Schema)
		}
		walk(s.Items)
		for _, it := range s.PrefixItems {
			walk(it)
		}
		walk(s.AdditionalProperties)
		for _, p := range s.Properties {
			walk(p.Schema)
		}
		for _, v := range s.OneOf {
			walk(v)
		}
	}
	for _, nt := range api.Types {
		walk(nt.Schema)
	}
	for _, t := range api.Tools {
		walk(t.Input)
		walk(t.Output)
	}
}
