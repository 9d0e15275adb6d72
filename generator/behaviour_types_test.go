package generator

// typeListsBehaviour runs in the type_lists golden case: a value of a
// list of types is kept as the JSON it is, a value of an unlisted kind is
// a type error, and each keyword constrains values of its own type only.
const typeListsBehaviour = `package typelists

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestTypeListAccepts(t *testing.T) {
	const in = ` + "`" + `{"ref":"AB","refs":[7,"XY"],"amount":null,"flag":"yes","shape":[1],"limit":2.5,"tags":{"a":"x","b":false}}` + "`" + `
	var v LookupInput
	if err := v.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if string(v.Ref) != ` + "`" + `"AB"` + "`" + ` || string(v.Refs[0]) != "7" || !v.AmountNull || string(v.Limit) != "2.5" {
		t.Errorf("decoded %+v", v)
	}
	if got := string(v.AppendJSON(nil)); got != in {
		t.Errorf("encoded\n%s\nwant\n%s", got, in)
	}
	v = LookupInput{}
	if err := v.UnmarshalJSON([]byte(` + "`" + `{"ref":12}` + "`" + `)); err != nil || string(v.Limit) != "10" {
		t.Errorf("a number where minLength and pattern apply to strings only: %v; limit default %s", err, v.Limit)
	}
}

func TestTypeListViolations(t *testing.T) {
	var v LookupInput
	err := v.UnmarshalJSON([]byte(` + "`" + `{"ref":true,"refs":["a",0,1.5],"amount":-1,"flag":"no","shape":"s","limit":0.3,"tags":{"a":1}}` + "`" + `))
	wantPointers(t, err,
		"/ref",                     // a boolean: not a string or an integer
		"/refs/0", "/refs/0",       // minLength 2, pattern ^[A-Z]
		"/refs/1", "/refs/2",       // minimum 1; 1.5 is no integer
		"/amount", "/flag",         // minimum 0; not in the enum
		"/shape", "/limit",         // not an object or array; not a multiple of 0.5
		"/tags/a",                  // not a string or a boolean
	)
	var ve *wire.ValidationError
	errors.As(err, &ve)
	if msg := ve.Errors[0].Message; !strings.Contains(msg, "string or an integer") {
		t.Errorf("type message %q does not name the listed types", msg)
	}
}

func TestTypeListOutput(t *testing.T) {
	root := wire.Path{}
	var e wire.Errors
	validateLookupOutput(&root, &LookupOutput{Ref: Ref("[1]")}, &e)
	wantPointers(t, e.Err(), "/ref")
	e = wire.Errors{}
	validateLookupOutput(&root, &LookupOutput{Ref: Ref("3")}, &e)
	if err := e.Err(); err != nil {
		t.Errorf("an integer ref: %v", err)
	}
}
`

// booleansBehaviour runs in the boolean_subschemas golden case: false
// refuses a member, pattern member, position or match that is there, true
// takes any value, and constraint subschemas count members.
const booleansBehaviour = `package booleans

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestBooleanSchemasAccept(t *testing.T) {
	const in = ` + "`" + `{"name":"n","extra":{"any":[1]},"labels":{"l-a":3},"pair":["a",{"k":1}],"none":[],"anyItems":[1,"b"]}` + "`" + `
	var v TagInput
	if err := v.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if string(v.Extra) != ` + "`" + `{"any":[1]}` + "`" + ` || v.Pair.Item2 != nil || len(v.None) != 0 {
		t.Errorf("decoded %+v", v)
	}
	if got := string(v.AppendJSON(nil)); got != in {
		t.Errorf("encoded\n%s\nwant\n%s", got, in)
	}
}

func TestBooleanSchemasRefuse(t *testing.T) {
	var v TagInput
	err := v.UnmarshalJSON([]byte(` + "`" + `{"name":"n","legacy":null,"labels":{"x-a":1},"pair":["a",1,2],"none":[1],"anyItems":[1,2,3],"alone":{"a":"x","b":"y"}}` + "`" + `))
	wantPointers(t, err,
		"/legacy",     // false: must be absent, even null
		"/labels/x-a", // a pattern of false
		"/pair/2",     // a position of false
		"/none",       // items: false: no item
		"/anyItems",   // contains: true, maxContains 2: three match
		"/alone/b",    // with a, additionalProperties: false
	)
	if err := v.UnmarshalJSON([]byte(` + "`" + `{"name":"n","alone":{"b":"y"}}` + "`" + `)); err != nil {
		t.Errorf("without a, b is allowed: %v", err)
	}
	// Seven members, with extra: dependentSchemas' maxProperties 6.
	err = v.UnmarshalJSON([]byte(` + "`" + `{"name":"n","extra":1,"labels":{},"pair":["a"],"none":[],"anyItems":[1],"noMatch":[2]}` + "`" + `))
	wantPointers(t, err, "")
	var ve *wire.ValidationError
	if errors.As(err, &ve) && ve.Errors[0].Message != wire.MsgMaxProperties(6) {
		t.Errorf("message %q", ve.Errors[0].Message)
	}
}
`
