package generator

// The behavioural tests run inside the temporary module of the golden cases,
// against the generated package itself. Each checks what a caller of the
// generated server sees: the JSON pointers of the violations, defaults,
// and that encoding what was decoded gives the same JSON back.

// problemsHelper turns an error into "pointer: message" lines.
const problemsHelper = `
func problems(t *testing.T, err error) []string {
	t.Helper()
	var ve *wire.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a *wire.ValidationError, got %v", err)
	}
	var out []string
	for _, fe := range ve.Errors {
		out = append(out, fe.Pointer)
	}
	return out
}

func wantPointers(t *testing.T, err error, want ...string) {
	t.Helper()
	if got := problems(t, err); !slices.Equal(got, want) {
		t.Errorf("pointers = %q, want %q (%v)", got, want, err)
	}
}
`

const ordersBehaviour = `package ordersmcp

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestInput(t *testing.T) {
	var in GetOrderStatusInput
	if err := in.UnmarshalJSON([]byte(` + "`" + `{"order_id":"A1001"}` + "`" + `)); err != nil {
		t.Fatal(err)
	}
	if in.OrderID != "A1001" || in.Verbose {
		t.Errorf("decoded %+v", in)
	}
	if got := string(in.AppendJSON(nil)); got != ` + "`" + `{"order_id":"A1001","verbose":false}` + "`" + ` {
		t.Errorf("encoded %s", got)
	}
	err := in.UnmarshalJSON([]byte(` + "`" + `{"order_id":7,"extra":true}` + "`" + `))
	wantPointers(t, err, "/order_id", "/extra")
	err = in.UnmarshalJSON([]byte(` + "`" + `{"verbose":"yes"}` + "`" + `))
	wantPointers(t, err, "/verbose", "/order_id")
	err = in.UnmarshalJSON([]byte(` + "`" + `{"order_id":"B123456789"}` + "`" + `))
	wantPointers(t, err, "/order_id", "/order_id")
	// Constraints of the values that decoded are reported with the type,
	// required and unknown-property errors, all at once.
	err = in.UnmarshalJSON([]byte(` + "`" + `{"order_id":"B123456789","verbose":1,"extra":1}` + "`" + `))
	wantPointers(t, err, "/order_id", "/order_id", "/verbose", "/extra")
	if err := in.UnmarshalJSON([]byte(` + "`" + `{"order_id":` + "`" + `)); err == nil || errors.As(err, new(*wire.ValidationError)) {
		t.Errorf("truncated input: want a syntax error, got %v", err)
	}
}

func TestOutputRoundTrip(t *testing.T) {
	src := ` + "`" + `{"order_id":"A1","status":"SHIPPED","items":[{"sku":"X","quantity":2}]}` + "`" + `
	var out GetOrderStatusOutput
	if err := out.UnmarshalJSON([]byte(src)); err != nil {
		t.Fatal(err)
	}
	if out.Status != OrderStatusShipped || len(out.Items) != 1 || out.Items[0].Quantity != 2 {
		t.Errorf("decoded %+v", out)
	}
	if got := string(out.AppendJSON(nil)); got != src {
		t.Errorf("encoded %s, want %s", got, src)
	}
	err := out.UnmarshalJSON([]byte(` + "`" + `{"order_id":"A1","status":"LOST","items":[{"sku":"X","quantity":0},{"sku":"Y"}]}` + "`" + `))
	wantPointers(t, err, "/status", "/items/0/quantity", "/items/1/quantity")
	err = out.UnmarshalJSON([]byte(` + "`" + `{"order_id":"A1","status":"LOST","items":[{"sku":"X","quantity":0}]}` + "`" + `))
	wantPointers(t, err, "/status", "/items/0/quantity")
}

func TestValidInputAllocatesOnlyTheValue(t *testing.T) {
	data := []byte(` + "`" + `{"order_id":"A1001","verbose":true}` + "`" + `)
	var in GetOrderStatusInput
	// The one allocation is the order_id string.
	if n := testing.AllocsPerRun(100, func() { _ = in.UnmarshalJSON(data) }); n > 1 {
		t.Errorf("%v allocations per decode, want at most 1", n)
	}
}
`

const constraintsBehaviour = `package constraints

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestDefaults(t *testing.T) {
	var in CheckInput
	if err := in.UnmarshalJSON([]byte(` + "`" + `{"code":"AB","count":2,"must_or_null":null}` + "`" + `)); err != nil {
		t.Fatal(err)
	}
	if in.Level != Level2 || in.Mode != CheckInputModeFast || in.Settings.Depth != 5 || in.MustOrNull != nil {
		t.Errorf("defaults not applied: %+v", in)
	}
	want := ` + "`" + `{"code":"AB","count":2,"level":2,"mode":"fast","must_or_null":null,"settings":{"depth":5}}` + "`" + `
	if got := string(in.AppendJSON(nil)); got != want {
		t.Errorf("encoded %s\nwant    %s", got, want)
	}
}

func TestEveryConstraint(t *testing.T) {
	var in CheckInput
	err := in.UnmarshalJSON([]byte(` + "`" + `{
		"code": "a", "day": "2026-13-01", "at": "yesterday", "email": "nope", "site": "relative/path",
		"uuid": "123", "count": 3, "ratio": 1, "step": 0.3, "bigint": 0, "color": "pink", "level": 4,
		"mode": "medium", "fixed": "v2", "flag": false, "choice": "two", "tags": ["a", "a", "", "b"],
		"points": [{"x": 1}, {"x": 1}], "maybe": "toolong", "must_or_null": 1,
		"labels": {"a": "123456789", "b": "x", "c": "y"}, "extras": {"a": "x", "b": -1, "c": 1, "d": 2},
		"settings": {"depth": 1}
	}` + "`" + `))
	wantPointers(t, err,
		"/code", "/code", "/day", "/at", "/email", "/site", "/uuid", "/count", "/ratio", "/step",
		"/bigint", "/color", "/level", "/mode", "/fixed", "/flag", "/choice",
		"/tags/2", "/tags", "/tags", "/points", "/maybe",
		"/labels/a", "/labels", "/extras/b", "/extras")
}

// TestEveryViolationAtOnce: constraint violations of the values that
// decoded come with the type, required and unknown-property errors; a
// value of the wrong type or a missing one is not checked further.
func TestEveryViolationAtOnce(t *testing.T) {
	var in CheckInput
	err := in.UnmarshalJSON([]byte(` + "`" + `{"code":"a","count":1.5,"tags":[1],"open":{"z":[]},"extras":{"q":"s"},"short":"toolong","nope":1}` + "`" + `))
	wantPointers(t, err, "/code", "/code", "/count", "/tags/0", "/extras/q", "/short", "/nope", "/must_or_null")
	// A duplicate is only judged among items of the right type.
	err = in.UnmarshalJSON([]byte(` + "`" + `{"code":"AB","count":2,"must_or_null":null,"tags":[1,"",""]}` + "`" + `))
	wantPointers(t, err, "/tags/0", "/tags/1", "/tags/2")
	err = in.UnmarshalJSON([]byte(` + "`" + `{"code":"AB","count":2,"must_or_null":null,"tags":["x","",""]}` + "`" + `))
	wantPointers(t, err, "/tags/1", "/tags/2", "/tags")
}

// TestPropertyCountIncludesUnknown: minProperties and maxProperties count
// the unknown properties of the input too, so an object of one unknown
// property is reported for that property, not also as too small.
func TestPropertyCountIncludesUnknown(t *testing.T) {
	var in CheckInput
	const base = ` + "`" + `{"code":"AB","count":2,"must_or_null":null,"pair":` + "`" + `
	for src, want := range map[string][]string{
		` + "`" + `{"a":"x"}` + "`" + `:          nil,
		` + "`" + `{}` + "`" + `:                 {"/pair: must have at least 1 property"},
		` + "`" + `{"z":1}` + "`" + `:            {"/pair/z: is not allowed"},
		` + "`" + `{"a":"x","z":1}` + "`" + `:    {"/pair/z: is not allowed", "/pair: must have at most 1 property"},
	} {
		err := in.UnmarshalJSON([]byte(base + src + "}"))
		var got []string
		var ve *wire.ValidationError
		if errors.As(err, &ve) {
			for _, fe := range ve.Errors {
				got = append(got, fe.Pointer+": "+fe.Message)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}
`

const oneofBehaviour = `package oneof

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestDiscriminator(t *testing.T) {
	var in AreaInput
	src := ` + "`" + `{"shape":{"kind":"circle","radius":2},"shapes":[{"kind":"square","side":1}]}` + "`" + `
	if err := in.UnmarshalJSON([]byte(src)); err != nil {
		t.Fatal(err)
	}
	if c, ok := in.Shape.(Circle); !ok || c.Radius != 2 {
		t.Errorf("decoded %+v", in)
	}
	if _, ok := in.Shapes[0].(Square); !ok {
		t.Errorf("decoded %+v", in)
	}
	if got := string(in.AppendJSON(nil)); got != src {
		t.Errorf("encoded %s", got)
	}
	err := in.UnmarshalJSON([]byte(` + "`" + `{"shape":{"kind":"triangle"},"shapes":[{"radius":1},{"kind":"circle","radius":1,"side":2}]}` + "`" + `))
	wantPointers(t, err, "/shape/kind", "/shapes/0/kind", "/shapes/1/side")
	err = in.UnmarshalJSON([]byte(` + "`" + `{"shape":{"kind":"square","side":-1}}` + "`" + `))
	wantPointers(t, err, "/shape/side")
}
` + deepUnionBehaviour + chainBehaviour + sealedBehaviour + `

func TestWithoutDiscriminator(t *testing.T) {
	var in LookupInput
	for _, ok := range []string{` + "`" + `{"order":5}` + "`" + `, ` + "`" + `{"order":"x"}` + "`" + `, ` + "`" + `{"order":{"ref":"r"}}` + "`" + `} {
		if err := in.UnmarshalJSON([]byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
		if got := string(in.AppendJSON(nil)); got != ok {
			t.Errorf("encoded %s, want %s", got, ok)
		}
	}
	for _, bad := range []string{` + "`" + `{"order":0}` + "`" + `, ` + "`" + `{"order":""}` + "`" + `, ` + "`" + `{"order":{}}` + "`" + `, ` + "`" + `{"order":true}` + "`" + `} {
		wantPointers(t, in.UnmarshalJSON([]byte(bad)), "/order")
	}
}
`

// sealedBehaviour: a oneOf is an interface only its variant types
// implement. A discriminated union writes the tag from the variant's type,
// so a wrong or missing one cannot reach the wire; pointers to variants
// encode as their values; decoding stores values; a nil union is null on
// the wire and a violation to the output validator.
const sealedBehaviour = `
func TestSealedEncode(t *testing.T) {
	in := AreaInput{Shape: Circle{Kind: "square", Radius: 2}, Shapes: []Shape{Square{Side: 1}, &Circle{Radius: 3}}}
	const want = ` + "`" + `{"shape":{"kind":"circle","radius":2},"shapes":[{"kind":"square","side":1},{"kind":"circle","radius":3}]}` + "`" + `
	if got := string(in.AppendJSON(nil)); got != want {
		t.Errorf("encoded %s, want %s", got, want)
	}
	if b, err := json.Marshal(in); err != nil || string(b) != want {
		t.Errorf("json.Marshal: %s, %v", b, err)
	}
	var back AreaInput
	if err := back.UnmarshalJSON([]byte(want)); err != nil {
		t.Fatal(err)
	}
	wantBack := AreaInput{Shape: Circle{Kind: "circle", Radius: 2}, Shapes: []Shape{Square{Kind: "square", Side: 1}, Circle{Kind: "circle", Radius: 3}}}
	if !reflect.DeepEqual(back, wantBack) {
		t.Errorf("decoded %#v, want %#v", back, wantBack)
	}
	var e EvaluateInput
	if err := e.UnmarshalJSON([]byte(` + "`" + `{"expr":{"op":"neg","arg":{"op":"num","value":2}},"chain":{"next":{"next":"end","tag":"t"}}}` + "`" + `)); err != nil {
		t.Fatal(err)
	}
	wantE := EvaluateInput{Expr: Neg{Op: "neg", Arg: Num{Op: "num", Value: 2}}, Chain: ChainLink{Next: ChainTaggedLink{Next: ChainEnd("end"), Tag: "t"}}}
	if !reflect.DeepEqual(e, wantE) {
		t.Errorf("decoded %#v, want %#v", e, wantE)
	}
	if got := string(EvaluateInput{Expr: Neg{Arg: &Num{Value: 1}}}.AppendJSON(nil)); got != ` + "`" + `{"expr":{"op":"neg","arg":{"op":"num","value":1}}}` + "`" + ` {
		t.Errorf("encoded %s", got)
	}
	if got := string(AreaInput{}.AppendJSON(nil)); got != ` + "`" + `{"shape":null}` + "`" + ` {
		t.Errorf("a nil union encoded %s, want null", got)
	}
}

func TestSealedValidate(t *testing.T) {
	var root wire.Path
	var e wire.Errors
	bad := DescribeOutput{
		Shapes: []Shape{nil, (*Square)(nil), Square{Side: -1}},
		Best:   RoundLabel("too long a label"),
		Layer:  LayerShape{Value: Circle{}},
	}
	validateDescribeOutput(&root, &bad, &e)
	wantPointers(t, e.Err(), "/shape", "/shapes/0", "/shapes/1", "/shapes/2/side", "/best", "/layer/radius")

	out := DescribeOutput{
		Shape:  Circle{Kind: "circle", Radius: 1},
		Shapes: []Shape{Square{Kind: "square", Side: 2}},
		Best:   Circle{Kind: "circle", Radius: 1},
		Layer:  LayerHidden(true),
	}
	e = wire.Errors{}
	validateDescribeOutput(&root, &out, &e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	var back DescribeOutput
	if err := back.UnmarshalJSON(out.AppendJSON(nil)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, out) {
		t.Errorf("round trip: %#v, want %#v", back, out)
	}
	var d DescribeInput
	if err := d.UnmarshalJSON([]byte(` + "`" + `{"round":"short","layer":{"kind":"square","side":1}}` + "`" + `)); err != nil {
		t.Fatal(err)
	}
	if d.Round != RoundLabel("short") || d.Layer != (LayerShape{Value: Square{Kind: "square", Side: 1}}) {
		t.Errorf("decoded %#v", d)
	}
	wantPointers(t, d.UnmarshalJSON([]byte(` + "`" + `{"round":"much too long","layer":7}` + "`" + `)), "/round", "/layer")

	// An optional tag without a const is filled in from the mapping.
	if got := string(DescribeInput{Pet: Cat{Lives: new(int64(9))}}.AppendJSON(nil)); got != ` + "`" + `{"pet":{"pet_type":"cat","lives":9}}` + "`" + ` {
		t.Errorf("encoded %s", got)
	}
	if err := d.UnmarshalJSON([]byte(` + "`" + `{"pet":{"pet_type":"dog","barks":true}}` + "`" + `)); err != nil {
		t.Fatal(err)
	}
	if dog, ok := d.Pet.(Dog); !ok || !*dog.Barks || *dog.PetType != "dog" {
		t.Errorf("decoded %#v", d.Pet)
	}
}

// describe a shape by its variant: the compiler refuses any other type.
func kindOf(s Shape) string {
	switch s.(type) {
	case Circle, *Circle:
		return "circle"
	case Square, *Square:
		return "square"
	}
	return ""
}

func TestTypeSwitch(t *testing.T) {
	if kindOf(Circle{}) != "circle" || kindOf(&Square{}) != "square" || kindOf(nil) != "" {
		t.Error("type switch")
	}
}
`

// TestDeepUnion: a recursive union re-reads each value on a decoder of its
// own; nesting is still bounded by wire.MaxDepth over the whole input
// (the outer decoder checked it when it read the union's raw value), so
// deep input is a syntax error, not a stack overflow.
const deepUnionBehaviour = `
func nestedExpr(levels int) []byte {
	return []byte(` + "`" + `{"expr":` + "`" + ` + strings.Repeat(` + "`" + `{"op":"neg","arg":` + "`" + `, levels) + ` + "`" + `{"op":"num","value":1}` + "`" + ` + strings.Repeat("}", levels) + "}")
}

func TestDeepUnion(t *testing.T) {
	var in EvaluateInput
	if err := in.UnmarshalJSON(nestedExpr(wire.MaxDepth - 2)); err != nil {
		t.Fatalf("nesting within MaxDepth: %v", err)
	}
	depth := 0
	for e := in.Expr; ; depth++ {
		neg, ok := e.(Neg)
		if !ok {
			break
		}
		e = neg.Arg
	}
	if depth != wire.MaxDepth-2 {
		t.Errorf("decoded %d levels, want %d", depth, wire.MaxDepth-2)
	}
	for _, levels := range []int{wire.MaxDepth, 100 * wire.MaxDepth} {
		err := in.UnmarshalJSON(nestedExpr(levels))
		var se *wire.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%d levels: want a *wire.SyntaxError, got %v", levels, err)
		}
	}
}
`

// chainBehaviour: a recursive union without a discriminator, both of whose
// object variants recurse, is decoded once per variant at every level:
// 2^levels decodes without a bound. The trial budget makes deep input a
// validation error in bounded time; shallow input still decodes.
const chainBehaviour = `
func chain(levels int, end string) []byte {
	return []byte(` + "`" + `{"expr":{"op":"num","value":1},"chain":` + "`" + ` + strings.Repeat(` + "`" + `{"next":` + "`" + `, levels) + end + strings.Repeat("}", levels) + "}")
}

func TestChainBounded(t *testing.T) {
	var in EvaluateInput
	if err := in.UnmarshalJSON(chain(8, ` + "`" + `"end"` + "`" + `)); err != nil {
		t.Fatalf("8 levels: %v", err)
	}
	n := 0
	for c := in.Chain; ; n++ {
		link, ok := c.(ChainLink)
		if !ok {
			break
		}
		c = link.Next
	}
	if n != 8 {
		t.Errorf("decoded %d levels, want 8", n)
	}
	wantPointers(t, in.UnmarshalJSON(chain(3, "7")), "/chain")
	for _, levels := range []int{40, 400, wire.MaxDepth - 8} {
		start := time.Now()
		err := in.UnmarshalJSON(chain(levels, ` + "`" + `"end"` + "`" + `))
		if took := time.Since(start); took > time.Second {
			t.Errorf("%d levels took %v", levels, took)
		}
		var ve *wire.ValidationError
		if !errors.As(err, &ve) || len(ve.Errors) != 1 || ve.Errors[0].Pointer != "/chain" || ve.Errors[0].Message != wire.MsgTooComplex {
			t.Errorf("%d levels: want /chain %q, got %v", levels, wire.MsgTooComplex, err)
		}
	}
}
`

const recursionBehaviour = `package recursion

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestTree(t *testing.T) {
	src := ` + "`" + `{"root":{"name":"a","children":[{"name":"b","parent":null},{"name":"c","children":[{"name":"d"}]}]}}` + "`" + `
	var in WalkTreeInput
	if err := in.UnmarshalJSON([]byte(src)); err != nil {
		t.Fatal(err)
	}
	if in.Root.Children[1].Children[0].Name != "d" {
		t.Errorf("decoded %+v", in)
	}
	// An explicit null of the optional nullable parent stays null
	// (ParentNull), an absent one absent.
	if !in.Root.Children[0].ParentNull || in.Root.Children[1].ParentNull {
		t.Errorf("ParentNull: %+v", in.Root.Children)
	}
	want := src
	if got := string(in.AppendJSON(nil)); got != want {
		t.Errorf("encoded %s", got)
	}
	err := in.UnmarshalJSON([]byte(` + "`" + `{"root":{"name":"a","children":[{"name":""},{"name":"c","children":[{"name":"d","parent":{"name":""}}]}]}}` + "`" + `))
	wantPointers(t, err, "/root/children/0/name", "/root/children/1/children/0/parent/name")
}

func TestMutualRecursion(t *testing.T) {
	src := ` + "`" + `{"department":{"title":"R&D","teams":[{"lead":"x","department":{"title":"Sub"}}]}}` + "`" + `
	var in OrgChartInput
	if err := in.UnmarshalJSON([]byte(src)); err != nil {
		t.Fatal(err)
	}
	if got := string(in.AppendJSON(nil)); got != src {
		t.Errorf("encoded %s", got)
	}
	err := in.UnmarshalJSON([]byte(` + "`" + `{"department":{"teams":[{"department":{}}]}}` + "`" + `))
	wantPointers(t, err, "/department/teams/0/department/title", "/department/title")
}

// Loop.self, Yin.yang and Yang.yin are required, non-nullable and lead
// back to their own type: pointers in Go, but missing is "required" and
// null is the wrong type, as for any required object.
func TestRequiredCycles(t *testing.T) {
	wantMessages := func(src string, want ...string) {
		t.Helper()
		var in LoopBackInput
		var ve *wire.ValidationError
		if err := in.UnmarshalJSON([]byte(src)); !errors.As(err, &ve) {
			t.Fatalf("%s: want a *wire.ValidationError, got %v", src, err)
		}
		var got []string
		for _, fe := range ve.Errors {
			got = append(got, fe.Pointer+": "+fe.Message)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", src, got, want)
		}
	}
	null := wire.MsgType("object", wire.KindNull)
	wantMessages(` + "`" + `{"loop":{"id":"a","self":{"id":"b"}}}` + "`" + `, "/loop/self/self: "+wire.MsgRequired)
	wantMessages(` + "`" + `{"loop":{"id":"a","self":null}}` + "`" + `, "/loop/self: "+null)
	wantMessages(` + "`" + `{"loop":{"self":{"id":"","self":null}}}` + "`" + `, "/loop/self/id: "+wire.MsgMinLength(1), "/loop/self/self: "+null, "/loop/id: "+wire.MsgRequired)
	wantMessages(` + "`" + `{"yin":{"yang":{"yin":{"depth":-1,"yang":{}}}}}` + "`" + `,
		"/yin/yang/yin/depth: "+wire.MsgMinimum(0), "/yin/yang/yin/yang/yin: "+wire.MsgRequired)
	wantMessages(` + "`" + `{"yin":{"yang":null}}` + "`" + `, "/yin/yang: "+null)
	wantMessages(` + "`" + `{"yin":{}}` + "`" + `, "/yin/yang: "+wire.MsgRequired)

	// No finite value is valid, so Go code that builds one leaves a nil
	// pointer at the end: it is encoded as null, which decoding rejects,
	// and the output validator reports it as missing.
	in := LoopBackInput{Loop: &Loop{ID: "a", Self: &Loop{ID: "b"}}, Yin: &Yin{Yang: &Yang{}}}
	want := ` + "`" + `{"loop":{"id":"a","self":{"id":"b","self":null}},"yin":{"yang":{"yin":null}}}` + "`" + `
	if got := string(in.AppendJSON(nil)); got != want {
		t.Errorf("encoded %s", got)
	}
	wantMessages(want, "/loop/self/self: "+null, "/yin/yang/yin: "+null)
	var root wire.Path
	var e wire.Errors
	validateYin(&root, &Yin{Yang: &Yang{Yin: &Yin{}}}, &e)
	wantPointers(t, e.Err(), "/yang/yin/yang")
	e = wire.Errors{}
	validateYin(&root, &Yin{Yang: &Yang{Yin: &Yin{Yang: &Yang{Yin: &Yin{}}}}}, &e)
	wantPointers(t, e.Err(), "/yang/yin/yang/yin/yang")
}
`

const collectionsBehaviour = `package collections

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestCollectionViolations(t *testing.T) {
	var in TagInput
	err := in.UnmarshalJSON([]byte(` + "`" + `{"kind":"wire","card":"4111","iban":"DE89",
		"labels":{"Zz":"x","ok":"y"},"scores":[90,91,92],"tags":["a"],"values":[0,null],"Bad":1}` + "`" + `))
	// contains bounds at the arrays, the map's bad name, then the
	// object's checks: dependentSchemas of card (expiry, kind), of iban
	// (its length), and the additional property's name.
	wantPointers(t, err, "/labels/Zz", "/scores", "/tags", "/values", "/expiry", "/kind", "/iban", "/Bad")
}

func TestCollectionsValidRoundTrip(t *testing.T) {
	const data = ` + "`" + `{"kind":"card","card":"4111","expiry":"12/29","labels":{"env":"prod"},"scores":[12,95],"tags":["x","urgent"],"values":["a",0],"x-trace":7}` + "`" + `
	var in TagInput
	if err := in.UnmarshalJSON([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if got := string(in.AppendJSON(nil)); got != data {
		t.Errorf("encoded %s\nwant    %s", got, data)
	}
	// minContains 0 is not set: an empty array has no matching item.
	if err := in.UnmarshalJSON([]byte(` + "`" + `{"kind":"card","scores":[]}` + "`" + `)); err == nil {
		t.Error("an empty scores array was accepted; contains asks for one score of 90 or more")
	}
}

func TestArrayApplicators(t *testing.T) {
	for batch, valid := range map[string]bool{
		` + "`" + `[]` + "`" + `:              true,
		` + "`" + `["a"]` + "`" + `:           true,
		` + "`" + `["a","b"]` + "`" + `:       false, // anyOf: neither at most 1 nor at least 3
		` + "`" + `["a","b","c"]` + "`" + `:   true,
		` + "`" + `["a","b","a"]` + "`" + `:   false, // then: 3 or more must be unique
	} {
		var in TagInput
		err := in.UnmarshalJSON([]byte(` + "`" + `{"kind":"wire","batch":` + "`" + ` + batch + ` + "`" + `}` + "`" + `))
		if valid && err != nil || !valid && err == nil {
			t.Errorf("batch %s: valid=%v, got %v", batch, valid, err)
		}
		if !valid && err != nil {
			wantPointers(t, err, "/batch")
		}
	}
}

func TestContainsObjects(t *testing.T) {
	for steps, valid := range map[string]bool{
		` + "`" + `[{"id":"a","done":true}]` + "`" + `:                      false, // no step left to do
		` + "`" + `[{"id":"a","done":false},{"id":"b"}]` + "`" + `:          true,  // b states no done: it does not match
		` + "`" + `[{"id":"a","done":false},{"id":"b","done":false}]` + "`" + `: false, // maxContains 1
	} {
		var in TagInput
		err := in.UnmarshalJSON([]byte(` + "`" + `{"kind":"wire","steps":` + "`" + ` + steps + ` + "`" + `}` + "`" + `))
		if valid && err != nil || !valid && err == nil {
			t.Errorf("steps %s: valid=%v, got %v", steps, valid, err)
		}
		if !valid && err != nil {
			wantPointers(t, err, "/steps")
		}
	}
}

func TestCollectionsOutput(t *testing.T) {
	root := wire.Path{}
	var e wire.Errors
	validateTagOutput(&root, &TagOutput{Ids: []float64{1, 0, -2}}, &e)
	wantPointers(t, e.Err(), "/ids")
	e.Reset()
	validateTagOutput(&root, &TagOutput{Ids: []float64{1, 0.5}}, &e)
	if err := e.Err(); err != nil {
		t.Errorf("two positive ids: %v", err)
	}
}
`

// behaviourTests are the tests above, by the golden case whose generated
// package they run in (TestGoldenBuilds runs them).
var behaviourTests = map[string]string{
	"orders":             ordersBehaviour,
	"constraints":        constraintsBehaviour,
	"oneof":              oneofBehaviour,
	"recursion":          recursionBehaviour,
	"collections":        collectionsBehaviour,
	"go_types":           goTypesBehaviour,
	"pattern_properties": patternPropertiesBehaviour,
	"tuples":             tuplesBehaviour,
	"format_types":       formatTypesBehaviour,
	"unevaluated":        unevaluatedBehaviour,
	"dynamic_refs":       dynamicRefsBehaviour,
	"type_lists":         typeListsBehaviour,
	"boolean_subschemas": booleansBehaviour,
	"openapi_required":   undeclaredRequiredBehaviour,
}
