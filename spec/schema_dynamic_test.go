package spec_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// TestDynamicRefs: a $dynamicRef binds per path to the $dynamicAnchor of
// the outermost resource of the dynamic scope that declares it; a type
// whose binding differs from its own is copied per binding.
func TestDynamicRefs(t *testing.T) {
	api := loadString(t, "mcpgen.yaml", `version: 1
server: {name: s, version: 1.0.0}
types:
  List:
    type: array
    items: {$dynamicRef: "#item"}
    $defs:
      item: {$dynamicAnchor: item}
  StringList:
    $ref: List
    $defs:
      item: {$dynamicAnchor: item, type: string}
  NumberList:
    $ref: List
    $defs:
      item: {$dynamicAnchor: item, type: number}
  Pair:
    type: object
    properties:
      strings: {$ref: StringList}
      any: {$ref: List}
      plain: {$dynamicRef: "#/$defs/x"}
      other: {$dynamicRef: "List#item"}
    $defs:
      x: {type: boolean}
tools:
  put:
    input:
      properties:
        numbers: {$ref: NumberList}
        mine: {$ref: List}
        pair: {$ref: Pair}
      $defs:
        own: {$dynamicAnchor: item, type: integer}
`)
	types := map[string]*spec.Schema{}
	for _, nt := range api.Types {
		types[nt.Name] = nt.Schema
	}
	items := func(name string) string {
		s := types[name]
		if s == nil {
			t.Fatalf("no type %s (types %v)", name, keys(types))
		}
		if s.Ref != "" {
			s = types[s.Ref]
		}
		if s == nil || s.Items == nil {
			t.Fatalf("type %s: no items", name)
		}
		return s.Items.Ref
	}
	want := "List ListItem ListOfNumberListItem ListOfPutInputOwn ListOfStringListItem NumberList NumberListItem NumberListOfPutInputOwn Pair PairOfPutInputOwn PairX PutInputOwn StringList StringListItem StringListOfPutInputOwn"
	if got := strings.Join(keys(types), " "); got != want {
		t.Errorf("types %s\nwant  %s", got, want)
	}
	for name, want := range map[string]string{
		"List":       "ListItem",
		"StringList": "StringListItem",
		"NumberList": "NumberListItem",
	} {
		if got := items(name); got != want {
			t.Errorf("%s items = $ref %s, want %s", name, got, want)
		}
	}
	props := map[string]*spec.Schema{}
	for _, p := range api.Tools[0].Input.Properties {
		props[p.Name] = p.Schema
	}
	// The input's own $dynamicAnchor is outermost: it binds item for
	// every list the input reaches, NumberList's included.
	for _, p := range []string{"numbers", "mine"} {
		ref := props[p].Ref
		if got := items(ref); got != "PutInputOwn" {
			t.Errorf("input %s: $ref %s, items $ref %s, want PutInputOwn", p, ref, got)
		}
	}
	for _, p := range types["Pair"].Properties {
		if p.Name == "plain" && p.Schema.Ref != "PairX" {
			t.Errorf("Pair.plain = $ref %q: a $dynamicRef whose target has no $dynamicAnchor is a $ref", p.Schema.Ref)
		}
		// "List#item" names List's anchor: dynamic, and Pair on its
		// own binds nothing, so List's own item.
		if p.Name == "other" && p.Schema.Ref != "ListItem" {
			t.Errorf("Pair.other = $ref %q, want ListItem", p.Schema.Ref)
		}
	}
	// Reached from the input, whose item binds first, Pair is copied.
	if ref := props["pair"].Ref; ref != "PairOfPutInputOwn" {
		t.Errorf("input pair = $ref %q, want PairOfPutInputOwn", ref)
	} else {
		for _, p := range types[ref].Properties {
			if p.Name == "other" && p.Schema.Ref != "PutInputOwn" {
				t.Errorf("%s.other = $ref %q, want PutInputOwn", ref, p.Schema.Ref)
			}
		}
	}
}

// TestDynamicRefUnderConstraint: a $dynamicRef inside a constraint
// subschema (allOf, not, if, ...) is refused, one under a member that is
// merely named like a constraint keyword is not, and a member named like a
// map keyword ("properties") does not hide the keyword after it.
func TestDynamicRefUnderConstraint(t *testing.T) {
	for _, c := range []struct {
		name, props, want string // want: the keyword named in the error, "" for none
	}{
		{"allOf keyword", `d: {type: string, allOf: [{$dynamicRef: "#name"}]}`, "allOf"},
		{"property named not", `not: {$dynamicRef: "#name"}`, ""},
		{"property named allOf", `allOf: {type: object, properties: {x: {$dynamicRef: "#name"}}}`, ""},
		{"not under a property named properties", `properties: {type: string, not: {$dynamicRef: "#name"}}`, "not"},
		{"allOf under a property named properties", `properties: {type: string, allOf: [{$dynamicRef: "#name"}]}`, "allOf"},
		{"if under a property named $defs", `$defs: {type: string, if: {$dynamicRef: "#name"}}`, "if"},
		{"property named not under a property named properties", `properties: {type: object, properties: {not: {$dynamicRef: "#name"}}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "version: 1\nserver: {name: s, version: 1.0.0}\ntypes:\n  T:\n    type: object\n    properties: {" + c.props + "}\n    $defs: {name: {$dynamicAnchor: name, type: string}}\n"
			_, err := spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: []byte(src)}}, "mcpgen.yaml")
			switch {
			case c.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), "$dynamicRef under "+c.want+" is not supported")):
				t.Errorf("error %v, want $dynamicRef under %s refused", err, c.want)
			}
		})
	}
}

func keys(m map[string]*spec.Schema) []string {
	return slices.Sorted(maps.Keys(m))
}
