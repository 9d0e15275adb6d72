package spec_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// TestLocalRefs: $defs, "$ref: '#'", JSON-pointer refs and nested anchors
// inside a schema become named types, named after their owner and place.
func TestLocalRefs(t *testing.T) {
	api := loadString(t, "mcpgen.yaml", `version: 1
server: {name: s, version: 1.0.0}
types:
  Tree:
    type: object
    properties:
      value: {type: integer}
      children: {type: array, items: {$ref: "#"}}
      first: {$ref: "#/$defs/leaf"}
      second: {$ref: "#leafy"}
      third: {$ref: "#/properties/value"}
    $defs:
      leaf: {type: string, minLength: 1}
      other: {$anchor: leafy, type: boolean}
tools:
  get_tree:
    input:
      properties:
        node: {$ref: "#/$defs/node"}
        again: {$ref: "#"}
      $defs:
        node: {type: object, properties: {next: {$ref: "#/$defs/node"}, name: {type: string}}}
    output: {$ref: "#/$defs/out", $defs: {out: {type: string}}}
`)
	got := map[string]string{}
	for _, nt := range api.Types {
		got[nt.Name] = string(nt.Schema.Type) + nt.Schema.Ref
	}
	want := map[string]string{
		"Tree": "object", "TreeLeaf": "string", "TreeOther": "boolean", "TreeValue": "integer",
		"GetTreeInputNode": "object", "GetTreeInputRoot": "object", "GetTreeOutputOut": "string",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("type %s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("types %v, want %v", got, want)
	}
	props := func(s *spec.Schema) map[string]*spec.Schema {
		m := map[string]*spec.Schema{}
		for _, p := range s.Properties {
			m[p.Name] = p.Schema
		}
		return m
	}
	tree := props(api.Types[0].Schema)
	for prop, ref := range map[string]string{"first": "TreeLeaf", "second": "TreeOther", "third": "TreeValue", "value": "TreeValue"} {
		if p := tree[prop]; p == nil || p.Ref != ref {
			t.Errorf("Tree.%s = %+v, want $ref %s", prop, p, ref)
		}
	}
	if items := tree["children"].Items; items.Ref != "Tree" {
		t.Errorf("children items = %+v, want $ref Tree", items)
	}
	in := props(api.Tools[0].Input)
	if in["again"].Ref != "GetTreeInputRoot" || in["node"].Ref != "GetTreeInputNode" {
		t.Errorf("input = %s", pretty(in))
	}
	if api.Tools[0].Output.Ref != "GetTreeOutputOut" {
		t.Errorf("output = %+v", api.Tools[0].Output)
	}
}

// TestLocalRefNames: a hoisted subschema is named after its place, each
// step by what it is: a keyword ("items" → Item, "additionalProperties" →
// Value, "oneOf/0" → OneOf0) or a member name, which names itself even when
// it is spelled like a keyword (a property called "items" is Items).
func TestLocalRefNames(t *testing.T) {
	for _, c := range []struct {
		name, schema, ref, want string
	}{
		{"items keyword", `properties: {list: {type: array, items: {type: string}}, REF}`, "#/properties/list/items", "TListItem"},
		{"property items", `properties: {items: {type: string}, REF}`, "#/properties/items", "TItems"},
		{"additionalProperties keyword", `properties: {m: {type: object, additionalProperties: {type: string}}, REF}`, "#/properties/m/additionalProperties", "TMValue"},
		{"property additionalProperties", `properties: {additionalProperties: {type: string}, REF}`, "#/properties/additionalProperties", "TAdditionalProperties"},
		{"oneOf keyword", `properties: {a: {oneOf: [{type: string}, {type: integer}]}, REF}`, "#/properties/a/oneOf/0", "TAOneOf0"},
		{"property allOf", `properties: {allOf: {type: object, properties: {x: {type: string}}}, REF}`, "#/properties/allOf/properties/x", "TAllOfX"},
		{"property prefixItems", `properties: {prefixItems: {type: string}, REF}`, "#/properties/prefixItems", "TPrefixItems"},
		{"property properties", `properties: {properties: {type: object, properties: {x: {type: string}}}, REF}`, "#/properties/properties/properties/x", "TPropertiesX"},
		{"property $defs", `properties: {$defs: {type: string}, REF}`, "#/properties/$defs", "TDefs"},
		{"$defs entry items", `$defs: {items: {type: string}}, properties: {REF}`, "#/$defs/items", "TItems"},
		{"property prefixItems of $defs entry items", `$defs: {items: {type: object, properties: {prefixItems: {type: string}}}}, properties: {REF}`, "#/$defs/items/properties/prefixItems", "TItemsPrefixItems"},
		{"property items of additionalProperties", `properties: {m: {type: object, additionalProperties: {type: object, properties: {items: {type: string}}}}, REF}`, "#/properties/m/additionalProperties/properties/items", "TMValueItems"},
	} {
		t.Run(c.name, func(t *testing.T) {
			schema := strings.ReplaceAll(c.schema, "REF", `r: {$ref: "`+c.ref+`"}`)
			src := "version: 1\nserver: {name: s, version: 1.0.0}\ntypes:\n  T: {type: object, " + schema + "}\n"
			api := loadString(t, "mcpgen.yaml", src)
			var names []string
			for _, nt := range api.Types {
				names = append(names, nt.Name)
			}
			if !slices.Contains(names, c.want) {
				t.Errorf("types %v, want one named %s", names, c.want)
			}
		})
	}
}

// TestLocalRefErrors: what a schema cannot resolve is an error at the $ref.
func TestLocalRefErrors(t *testing.T) {
	src := `version: 1
server: {name: s, version: 1.0.0}
types:
  A:
    type: object
    properties:
      x: {$ref: "#/properties/y"}
      z: {$ref: "#/properties"}
      w: {type: object, $id: "https://example.com/w", properties: {q: {type: string}}}
`
	_, err := spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: []byte(src)}}, "mcpgen.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`mcpgen.yaml:7:17: type "A": $ref "#/properties/y" points at nothing in this schema`,
		`mcpgen.yaml:8:17: type "A": $ref "#/properties" points at no subschema of this schema`,
		`mcpgen.yaml:9:25: type "A": an $id inside a schema starts a schema resource of its own`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

// TestLocalRefContentSchema: contentSchema holds a subschema (JSON Schema
// 2020-12's content vocabulary), which mcpgen.yaml refuses as an unknown
// keyword. A reference into it is no second error ("points at no
// subschema"): the one diagnostic names the keyword to remove.
func TestLocalRefContentSchema(t *testing.T) {
	src := `version: 1
server: {name: s, version: 1.0.0}
types:
  A:
    type: object
    properties:
      doc: {type: string, contentMediaType: application/json, contentSchema: {type: object}}
      again: {$ref: "#/properties/doc/contentSchema"}
`
	_, err := spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: []byte(src)}}, "mcpgen.yaml")
	want := `mcpgen.yaml:7:63: type "A": property "doc": unknown keyword "contentSchema"`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestRefSiblings: keywords beside a $ref both apply; disjoint ones merge
// with the named type's, and the rest stays an error at the keyword.
func TestRefSiblings(t *testing.T) {
	api := loadString(t, "mcpgen.yaml", `version: 1
server: {name: s, version: 1.0.0}
types:
  Base:
    type: object
    properties: {bar: {type: string}}
    required: [bar]
tools:
  t:
    input:
      properties:
        list: {$ref: "#/$defs/list", maxItems: 2}
        obj: {$ref: Base, properties: {foo: {type: string}}, required: [foo], unevaluatedProperties: false}
      $defs:
        list: {type: array, items: {type: integer}}
`)
	props := map[string]*spec.Schema{}
	for _, p := range api.Tools[0].Input.Properties {
		props[p.Name] = p.Schema
	}
	if l := props["list"]; l.Ref != "" || l.Type != spec.KindArray || l.MaxItems == nil || *l.MaxItems != 2 || l.Items == nil {
		t.Errorf("list = %s", pretty(l))
	}
	if o := props["obj"]; o.Ref != "" || len(o.Properties) != 2 || !o.Properties[0].Required || !o.Properties[1].Required {
		t.Errorf("obj = %s", pretty(o))
	}
	src := `version: 1
server: {name: s, version: 1.0.0}
types:
  Closed: {type: object, properties: {a: {type: string}}, additionalProperties: false}
tools:
  t:
    input:
      properties:
        c: {$ref: Closed, properties: {b: {type: string}}}
`
	_, err := spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: []byte(src)}}, "mcpgen.yaml")
	if err == nil || !strings.Contains(err.Error(), `mcpgen.yaml:9:27: tool "t": input: property "c": keyword "properties" cannot be combined with $ref`) {
		t.Errorf("err = %v", err)
	}
}
