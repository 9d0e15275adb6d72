package spec

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// subschemaShape says how a keyword holds subschemas: one schema, a list
// of them, or a map of them keyed by member name.
type subschemaShape int

const (
	oneSubschema subschemaShape = iota + 1
	subschemaList
	subschemaMap
)

// subschemaKeywords are the keywords of JSON Schema 2020-12 whose value
// is, or holds, subschemas, with the shape of that value: the applicator
// vocabulary, the unevaluated vocabulary, $defs of the core vocabulary and
// contentSchema of the content vocabulary. OpenAPI 3.0 and Swagger 2.0
// schema objects have no subschema keyword outside this set (their
// discriminator names types, it holds none). Every other keyword's value is
// data, however much it looks like a schema: enum, const, default and
// examples values, x- extensions, required and dependentRequired names.
var subschemaKeywords = map[string]subschemaShape{
	"items":                 oneSubschema,
	"contains":              oneSubschema,
	"not":                   oneSubschema,
	"if":                    oneSubschema,
	"then":                  oneSubschema,
	"else":                  oneSubschema,
	"additionalProperties":  oneSubschema,
	"propertyNames":         oneSubschema,
	"unevaluatedItems":      oneSubschema,
	"unevaluatedProperties": oneSubschema,
	"contentSchema":         oneSubschema,
	"allOf":                 subschemaList,
	"anyOf":                 subschemaList,
	"oneOf":                 subschemaList,
	"prefixItems":           subschemaList,
	"$defs":                 subschemaMap,
	"properties":            subschemaMap,
	"patternProperties":     subschemaMap,
	"dependentSchemas":      subschemaMap,
}

// schemaStep is one step from a schema down to a subschema: the keyword
// holding it and its token under that keyword (see memberSubschemas). A
// path of steps keeps apart what a JSON pointer's tokens mix up: the token
// of a map keyword is a member name, which may be spelled like a keyword (a
// property called "items" or "allOf") but never is one.
type schemaStep struct {
	keyword, token string
}

// memberSubschemas calls visit with each subschema that the member k: v
// of a schema holds, in document order, and with its JSON pointer token
// under k: "" for a keyword holding one schema, the index in a list, the
// member name in a map. A value of the wrong shape (a list keyword whose
// value is no sequence, a map keyword whose value is no mapping) holds
// none; the values visited may be of any kind, a mapping, a boolean schema
// or a mistake, for visit to judge.
func memberSubschemas(k string, v *yaml.Node, visit func(token string, sub *yaml.Node)) {
	switch subschemaKeywords[k] {
	case oneSubschema:
		visit("", v)
	case subschemaList:
		if v.Kind == yaml.SequenceNode {
			for j, e := range v.Content {
				visit(strconv.Itoa(j), e)
			}
		}
	case subschemaMap:
		if v.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(v.Content); j += 2 {
				visit(v.Content[j].Value, v.Content[j+1])
			}
		}
	}
}

// eachSubschema calls visit with every direct subschema of the schema n
// (none unless n is a mapping), in document order: the keyword holding it,
// its token under that keyword (see memberSubschemas) and the subschema.
func eachSubschema(n *yaml.Node, visit func(keyword, token string, sub *yaml.Node)) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		memberSubschemas(k, n.Content[i+1], func(token string, sub *yaml.Node) {
			visit(k, token, sub)
		})
	}
}
