package search

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// InputArguments reads, in one pass, what the index takes from a tool's
// input schema (a JSON Schema document): its arguments' names in order
// (Doc.Params), their descriptions where they have one (Doc.ParamDocs),
// and the string values of each enum (Doc.ParamValues), local $refs to
// its $defs followed.
func InputArguments(inputSchema []byte) (names, descriptions []string, values [][]string) {
	var root struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	if json.Unmarshal(inputSchema, &root) != nil {
		return nil, nil, nil
	}
	names = slices.Sorted(maps.Keys(root.Properties))
	for _, name := range names {
		raw := root.Properties[name]
		for hop := range maxRefHops {
			var n struct {
				Description string `json:"description"`
				Ref         string `json:"$ref"`
				Enum        []any  `json:"enum"`
			}
			if json.Unmarshal(raw, &n) != nil {
				break
			}
			if hop == 0 && n.Description != "" {
				descriptions = append(descriptions, n.Description)
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
				values = append(values, vs)
			}
			break
		}
	}
	return names, descriptions, values
}
