package generator

// tuplesBehaviour runs in the tuples golden case: tuples decode from and
// encode to JSON arrays, violations point at the item, and values built
// in Go are held to the same schema.
const tuplesBehaviour = `package tuples

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestTupleRoundTrip(t *testing.T) {
	const in = ` + "`" + `{"from":[1.5,2.5],"to":[3,-4],"window":[1],"labelled":["a",2,"x","y"],"header":["v1",{"id":"z"},7,"any"],"loose":[true,null,{"k":1}],"words":["ab"],"meta":{"owner":"o","n":3},"strict":{"a":"x"}}` + "`" + `
	var v RouteInput
	if err := v.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if v.From.Lat != 1.5 || v.From.Lon != 2.5 || v.To.Lon != -4 {
		t.Errorf("points %+v %+v", v.From, v.To)
	}
	if v.Window.Item0 != 1 || v.Window.Item1 != nil {
		t.Errorf("window %+v", v.Window)
	}
	if l := v.Labelled; l.Item0 != "a" || *l.Item1 != 2 || !slices.Equal(l.Rest, []string{"x", "y"}) {
		t.Errorf("labelled %+v", l)
	}
	if h := v.Header; h.Item0 != RouteInputHeaderItem0V1 || h.Item1.ID != "z" || len(h.Rest) != 2 || string(h.Rest[0]) != "7" {
		t.Errorf("header %+v", h)
	}
	if v.Meta.AdditionalProperties["n"] != 3 {
		t.Errorf("meta %+v", v.Meta)
	}
	if got := string(v.AppendJSON(nil)); got != in {
		t.Errorf("encoded\n%s\nwant\n%s", got, in)
	}
}

func TestTupleViolations(t *testing.T) {
	var v RouteInput
	err := v.UnmarshalJSON([]byte(` + "`" + `{"from":[91,0,5],"to":[1],"window":[1,2,3],"labelled":["",-1,"X"],"header":["v3",{}],"loose":["no"],"words":["toolongword"],"meta":{"n":"x"},"strict":{"a":"x","b":1}}` + "`" + `))
	wantPointers(t, err,
		"/from/0", "/from", // maximum 90; items: false after two positions
		"/to",                                    // minItems 2
		"/window",                                // unevaluatedItems: false after two positions
		"/labelled/0", "/labelled/1", "/labelled/2", // minLength, minimum, the rest items' pattern
		"/header/0", "/header/1/id", // enum; the object position's required property
		"/loose/0",     // type
		"/words/0",     // unevaluatedItems: {maxLength: 8}
		"/meta/n",      // unevaluatedProperties: {type: integer}
		"/strict/b",    // unevaluatedProperties: false
	)
	err = v.UnmarshalJSON([]byte(` + "`" + `{"from":{"lat":1},"to":[1,2]}` + "`" + `))
	wantPointers(t, err, "/from")
}

func TestTupleOutput(t *testing.T) {
	root := wire.Path{}
	var e wire.Errors
	one := int64(1)
	validateRouteOutput(&root, &RouteOutput{
		Legs:  []RouteOutputLegsItem{{Item0: Point{Lat: 91}, Item1: Point{}}},
		Trail: &RouteOutputTrail{Item1: &one, Rest: []string{"x"}},
	}, &e)
	// A latitude over 90; a trail with its first position absent and
	// later ones set.
	wantPointers(t, e.Err(), "/legs/0/0/0", "/trail/0")
	a := "a"
	trail := RouteOutputTrail{Item0: &a, Rest: []string{"x"}}
	if got := string(trail.AppendJSON(nil)); got != ` + "`" + `["a"]` + "`" + ` {
		t.Errorf("an array ends at its first absent position: got %s", got)
	}
	km := 12.5
	leg := RouteOutputLegsItem{Item0: Point{Lat: 1, Lon: 2}, Item1: Point{Lat: 3, Lon: 4}, Km: &km}
	if got := string(leg.AppendJSON(nil)); got != ` + "`" + `[[1,2],[3,4],12.5]` + "`" + ` {
		t.Errorf("leg %s", got)
	}
	var back RouteOutputLegsItem
	if err := back.UnmarshalJSON(leg.AppendJSON(nil)); err != nil || back.Km == nil || *back.Km != km {
		t.Errorf("leg round trip: %+v, %v", back, err)
	}
}
`
