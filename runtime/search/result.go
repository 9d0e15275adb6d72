package search

import (
	"encoding/json"
	"strings"
)

// ResultDescription returns the first paragraph of the description of
// what an operation returns, read from its output schema (a JSON Schema
// document; local $refs to its $defs are followed): the description of the
// object it returns, or of the items of a listing (a bare array, or an
// object whose one array of objects holds them, as {"data": [...],
// "has_more": …}); "" when the schema says nothing. An API describes its
// objects where it defines them, once, and often in the words a person
// uses ("A SetupIntent guides you through … saving a customer's payment
// credentials for future payments"), where its operations only say
// "Creates a SetupIntent". The generator reads it once, when it writes the
// server (runtime.ToolDef.SearchReturns): reading every output schema when
// the index is built would take longer than building it.
func ResultDescription(outputSchema []byte) string {
	var root resultNode
	if json.Unmarshal(outputSchema, &root) != nil {
		return ""
	}
	// resolve parses raw, following $refs into root's $defs.
	resolve := func(raw json.RawMessage) *resultNode {
		for range maxRefHops {
			var n resultNode
			if len(raw) == 0 || json.Unmarshal(raw, &n) != nil {
				return nil
			}
			name, ok := strings.CutPrefix(n.Ref, "#/$defs/")
			if !ok {
				return &n
			}
			raw = root.Defs[name]
		}
		return nil
	}
	n := &root
	if name, ok := strings.CutPrefix(root.Ref, "#/$defs/"); ok {
		n = resolve(root.Defs[name])
	}
	// The object, or a listing's items, or a listing's envelope's items.
	for range 3 {
		if n == nil {
			return ""
		}
		if n.Description != "" {
			lead, _ := splitLead(n.Description)
			return lead
		}
		if items := resolve(n.Items); items != nil {
			n = items
			continue
		}
		var list *resultNode
		for _, p := range n.Properties {
			prop := resolve(p)
			if prop == nil {
				continue
			}
			if items := resolve(prop.Items); items != nil && items.Properties != nil {
				if list != nil {
					return "" // two lists: not a listing's envelope
				}
				list = items
			}
		}
		n = list
	}
	return ""
}

// maxRefHops bounds how many $refs in a row ResultDescription follows.
const maxRefHops = 8

// resultNode is what ResultDescription reads of a schema.
type resultNode struct {
	Ref         string                     `json:"$ref"`
	Description string                     `json:"description"`
	Items       json.RawMessage            `json:"items"`
	Properties  map[string]json.RawMessage `json:"properties"`
	Defs        map[string]json.RawMessage `json:"$defs"`
}
