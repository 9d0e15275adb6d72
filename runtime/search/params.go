package search

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// ParamValues returns, for each argument of a tool's input schema (a JSON
// Schema document; local $refs to its $defs are followed) in the order of
// their names, the string values of its enum, for Doc.ParamValues;
// arguments without one are left out. The index keeps the short lists.
func ParamValues(inputSchema []byte) [][]string {
	var root struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	if json.Unmarshal(inputSchema, &root) != nil {
		return nil
	}
	var out [][]string
	for _, name := range slices.Sorted(maps.Keys(root.Properties)) {
		raw := root.Properties[name]
		for range maxRefHops {
			var n struct {
				Ref  string `json:"$ref"`
				Enum []any  `json:"enum"`
			}
			if json.Unmarshal(raw, &n) != nil {
				break
			}
			if def, ok := strings.CutPrefix(n.Ref, "#/$defs/"); ok {
				raw = root.Defs[def]
				continue
			}
			var vs []string
			for _, v := range n.Enum {
				if s, ok := v.(string); ok {
					vs = append(vs, s)
				}
			}
			if len(vs) > 0 {
				out = append(out, vs)
			}
			break
		}
	}
	return out
}
