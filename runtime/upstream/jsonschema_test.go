package upstream

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func mustCompile(t testing.TB, doc string) *compiledSchema {
	t.Helper()
	s, err := compileSchema([]byte(doc))
	if err != nil {
		t.Fatalf("compile %s: %v", doc, err)
	}
	return s
}

func mustValue(t testing.TB, doc string) any {
	t.Helper()
	v, err := decodeJSONValue([]byte(doc))
	if err != nil {
		t.Fatalf("decode %s: %v", doc, err)
	}
	return v
}

func TestSchemaDeviations(t *testing.T) {
	const pet = `{"type":"object","properties":{
		"id":{"type":"integer","minimum":1},
		"name":{"type":"string","minLength":1,"maxLength":5,"pattern":"^[a-z]+$"},
		"status":{"enum":["available","sold"]},
		"born":{"type":"string","format":"date"},
		"tags":{"type":"array","items":{"$ref":"#/$defs/Tag"},"maxItems":2,"uniqueItems":true},
		"owner":{"type":["object","null"],"properties":{"email":{"type":"string","format":"email"}},"additionalProperties":false}
	},"required":["id","name"],"$defs":{"Tag":{"type":"object","properties":{"n":{"type":"number","multipleOf":0.5}},"required":["n"]}}}`
	s := mustCompile(t, pet)
	for _, c := range []struct {
		value string
		want  []string // "pointer: problem" of every deviation
	}{
		{`{"id":1,"name":"rex"}`, nil},
		{`{"id":1.0,"name":"rex","owner":null}`, nil},
		{`{"name":"rex"}`, []string{"/id: is required"}},
		{`{"id":"1","name":"rex"}`, []string{"/id: expected integer, got string"}},
		{`{"id":1.5,"name":"rex"}`, []string{"/id: expected integer, got number"}},
		{`{"id":0,"name":"Rex!!!"}`, []string{"/id: 0 is less than the minimum 1", "/name: is 6 characters long, longer than 5", "/name: does not match the pattern ^[a-z]+$"}},
		{`{"id":1,"name":"a","status":"adopted"}`, []string{`/status: "adopted" is not one of the documented values`}},
		{`{"id":1,"name":"a","born":"2024-02-30"}`, []string{"/born: is not a valid date"}},
		{`{"id":1,"name":"a","tags":[{"n":1},{"n":1.0},{"n":0.3}]}`, []string{"/tags: has 3 items, more than 2", "/tags/2/n: 0.3 is not a multiple of 0.5", "/tags: items 0 and 1 are equal; the items must be unique"}},
		{`{"id":1,"name":"a","tags":[{}]}`, []string{"/tags/0/n: is required"}},
		{`{"id":1,"name":"a","owner":{"email":"x","x~y/z":1}}`, []string{"/owner/email: is not a valid email", "/owner/x~0y~1z: is not a documented property"}},
		{`[]`, []string{"(root): expected object, got array"}},
	} {
		devs, _ := s.validate(mustValue(t, c.value), 20)
		var got []string
		for _, d := range devs {
			got = append(got, d.String())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.value, got, c.want)
		}
	}
}

func TestSchemaCombinators(t *testing.T) {
	s := mustCompile(t, `{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"number","minimum":10}],"not":{"const":"no"}}`)
	for value, want := range map[string]bool{`"a"`: true, `3`: true, `12`: false, `2.5`: false, `"no"`: false, `null`: false} {
		if got := s.valid(mustValue(t, value)); got != want {
			t.Errorf("%s: valid %v, want %v", value, got, want)
		}
	}
	// A recursive reference compiles once and terminates.
	tree := mustCompile(t, `{"$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`)
	if !tree.valid(mustValue(t, `{"kids":[{"kids":[{}]}]}`)) || tree.valid(mustValue(t, `{"kids":[{"kids":[1]}]}`)) {
		t.Error("recursive schema")
	}
	if _, err := compileSchema([]byte(`{"$ref":"other.json#/x"}`)); err == nil {
		t.Error("a reference out of the document compiled")
	}
}

// referenceSchemas are the schemas the fuzz target compares the
// interpreter with santhosh-tekuri/jsonschema on: the keywords mcpgen
// writes, in the combinations the published and exact output schemas use.
var referenceSchemas = []string{
	`{"type":"object","properties":{"id":{"type":"integer","minimum":1,"maximum":1e6},"name":{"type":"string","minLength":1,"maxLength":8,"pattern":"^[a-z]+$"},"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true},"kind":{"enum":["a","b",1,null]}},"required":["id","name"],"additionalProperties":false}`,
	`{"type":["object","null"],"properties":{"id":{"type":["integer","null"]},"owner":{"type":["object","null"],"properties":{"login":{"type":["string","null"]}}},"list":{"type":["array","null"],"items":{"$ref":"#/$defs/Item"}}},"$defs":{"Item":{"type":["object","null"],"properties":{"n":{"type":["number","null"]}}}}}`,
	`{"anyOf":[{"type":"string"},{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":10,"multipleOf":0.25}],"not":{"const":"x"}}`,
	`{"oneOf":[{"type":"object","properties":{"t":{"const":"c"},"r":{"type":"number"}},"required":["t"]},{"type":"object","properties":{"t":{"const":"s"}},"required":["t"]}]}`,
	`{"type":"object","additionalProperties":{"type":"integer"},"patternProperties":{"^x-":{"type":"string"}},"propertyNames":{"maxLength":4},"minProperties":1,"maxProperties":3}`,
	`{"type":"array","prefixItems":[{"type":"boolean"},{"type":"null"}],"items":{"type":"number"},"contains":{"type":"number","minimum":5},"maxContains":2}`,
	`{"$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["v"],"dependentRequired":{"kids":["v"]}}}}`,
	`{"if":{"type":"string"},"then":{"minLength":2},"else":{"type":"integer"},"allOf":[{"not":{"type":"null"}}]}`,
}

func compileReference(t testing.TB, i int) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(referenceSchemas[i]))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("s.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("s.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// referenceValid reports whether the reference validator accepts v, and
// false for judged when it cannot decide: santhosh-tekuri/jsonschema panics
// comparing a number whose exponent math/big.Rat refuses (1e1000010), which
// is a limit of the reference, not a disagreement.
func referenceValid(s *jsonschema.Schema, v any) (valid, judged bool) {
	defer func() {
		if recover() != nil {
			valid, judged = false, false
		}
	}()
	return s.Validate(v) == nil, true
}

// FuzzSchemaAgainstReference: for every reference schema and any JSON
// instance, the interpreter and santhosh-tekuri/jsonschema agree on
// whether the instance is valid.
func FuzzSchemaAgainstReference(f *testing.F) {
	for _, seed := range []string{`{"id":1,"name":"ab"}`, `{"id":1,"name":"ab","tags":["a","a"]}`, `null`, `{"id":null,"owner":{"login":null},"list":[null,{"n":1.5}]}`,
		`"s"`, `2.5`, `10`, `"x"`, `{"t":"c","r":1}`, `{"t":"s"}`, `{"x-a":"1","b":2}`, `[true,null,5,6]`, `[true,null,5,6,7]`,
		`{"v":1,"kids":[{"v":2},{"kids":[]}]}`, `"ab"`, `"a"`, `3`, `1e400`, `1.0`, `-0`, `{"a":{"b":[1,{"c":"d"}]}}`} {
		f.Add(seed)
	}
	ours := make([]*compiledSchema, len(referenceSchemas))
	ref := make([]*jsonschema.Schema, len(referenceSchemas))
	for i := range referenceSchemas {
		ours[i] = mustCompile(f, referenceSchemas[i])
		ref[i] = compileReference(f, i)
	}
	f.Fuzz(func(t *testing.T, instance string) {
		v, err := decodeJSONValue([]byte(instance))
		if err != nil {
			return
		}
		rv, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
		if err != nil {
			return
		}
		for i := range referenceSchemas {
			want, judged := referenceValid(ref[i], rv)
			if !judged {
				t.Skipf("the reference validator cannot judge %s", instance)
			}
			if got := ours[i].valid(v); got != want {
				devs, _ := ours[i].validate(v, 5)
				t.Errorf("schema %d, instance %s: valid %v, reference says %v (%v)", i, instance, got, want, devs)
			}
		}
	})
}
