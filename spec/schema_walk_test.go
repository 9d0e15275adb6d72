package spec

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestSubschemaKeywords: the walker knows every keyword of JSON Schema
// 2020-12 that holds subschemas (the applicator, unevaluated, core and
// content vocabularies), each with its shape, and no other keyword.
func TestSubschemaKeywords(t *testing.T) {
	want := map[string]subschemaShape{
		// core
		"$defs": subschemaMap,
		// applicator: in place
		"allOf": subschemaList, "anyOf": subschemaList, "oneOf": subschemaList, "not": oneSubschema,
		"if": oneSubschema, "then": oneSubschema, "else": oneSubschema, "dependentSchemas": subschemaMap,
		// applicator: children
		"prefixItems": subschemaList, "items": oneSubschema, "contains": oneSubschema,
		"properties": subschemaMap, "patternProperties": subschemaMap,
		"additionalProperties": oneSubschema, "propertyNames": oneSubschema,
		// unevaluated
		"unevaluatedItems": oneSubschema, "unevaluatedProperties": oneSubschema,
		// content
		"contentSchema": oneSubschema,
	}
	if !maps.Equal(subschemaKeywords, want) {
		t.Errorf("subschemaKeywords = %v, want %v", subschemaKeywords, want)
	}
}

// TestEachSubschema: every subschema-bearing keyword is visited, in
// document order, with its token; values of other keywords that look like
// schemas (property names, enum, const, default and examples values, x-
// extensions, discriminator mappings) and values of the wrong shape are
// not.
func TestEachSubschema(t *testing.T) {
	// Each subschema is {title: T}, T its expected keyword/token.
	src := `
type: object
$defs: {d1: {title: $defs/d1}, d2: {title: $defs/d2}}
properties:
  items: {title: properties/items}
  properties: {title: properties/properties}
  type: {title: properties/type}
patternProperties: {"^a": {title: patternProperties/^a}}
additionalProperties: {title: additionalProperties/}
propertyNames: {title: propertyNames/}
dependentSchemas: {a: {title: dependentSchemas/a}}
unevaluatedProperties: false
allOf: [{title: allOf/0}, {title: allOf/1}]
anyOf: [{title: anyOf/0}]
oneOf: [{title: oneOf/0}]
not: {title: not/}
if: {title: if/}
then: {title: then/}
else: {title: else/}
prefixItems: [{title: prefixItems/0}, true]
items: {title: items/}
contains: {title: contains/}
unevaluatedItems: {title: unevaluatedItems/}
contentSchema: {title: contentSchema/}
enum: [{title: enum}]
const: {title: const}
default: {title: default}
examples: [{title: examples}]
example: {title: example}
x-schema: {title: x-schema}
x-items: {items: {title: x-items/items}}
required: [a]
dependentRequired: {a: [b]}
discriminator: {propertyName: kind, mapping: {a: A}}
$comment: {title: comment}
`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	eachSubschema(doc.Content[0], func(keyword, token string, sub *yaml.Node) {
		id := keyword + "/" + token
		if title := mapValue(sub, "title"); title != nil {
			if title.Value != id {
				t.Errorf("%s visited the subschema titled %q", id, title.Value)
			}
		} else if !isBoolSchema(sub) {
			t.Errorf("%s visited %v, no subschema", id, sub.Kind)
		}
		got = append(got, id)
	})
	want := []string{
		"$defs/d1", "$defs/d2",
		"properties/items", "properties/properties", "properties/type",
		"patternProperties/^a", "additionalProperties/", "propertyNames/", "dependentSchemas/a",
		"unevaluatedProperties/",
		"allOf/0", "allOf/1", "anyOf/0", "oneOf/0", "not/", "if/", "then/", "else/",
		"prefixItems/0", "prefixItems/1", "items/", "contains/", "unevaluatedItems/", "contentSchema/",
	}
	if !slices.Equal(got, want) {
		t.Errorf("visited\n  %s\nwant\n  %s", strings.Join(got, " "), strings.Join(want, " "))
	}
	for kw := range subschemaKeywords {
		if !slices.ContainsFunc(got, func(id string) bool { return strings.HasPrefix(id, kw+"/") }) {
			t.Errorf("keyword %s not visited", kw)
		}
	}
}

// TestEachSubschemaWrongShape: a list keyword whose value is no sequence,
// or a map keyword whose value is no mapping, holds no subschema (the
// loader reports it); a one-schema keyword's value is visited whatever it
// is, for the caller to judge; a node that is no mapping has none.
func TestEachSubschemaWrongShape(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(`{allOf: {title: x}, properties: [{title: y}], $defs: 3, items: 7}`), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	eachSubschema(doc.Content[0], func(keyword, token string, sub *yaml.Node) {
		got = append(got, keyword+"/"+token+"="+sub.Value)
	})
	if want := []string{"items/=7"}; !slices.Equal(got, want) {
		t.Errorf("visited %v, want %v", got, want)
	}
	eachSubschema(doc.Content[0].Content[5], func(keyword, _ string, _ *yaml.Node) {
		t.Errorf("a subschema of a non-schema node: %s", keyword)
	})
	eachSubschema(nil, func(keyword, _ string, _ *yaml.Node) {
		t.Errorf("a subschema of nil: %s", keyword)
	})
}
