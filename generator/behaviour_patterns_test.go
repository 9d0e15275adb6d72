package generator

// patternPropertiesBehaviour runs in the pattern_properties golden case:
// every member a pattern names is checked against each matching
// pattern's schema, additionalProperties only against the others, a
// member no pattern admits in a closed object is unknown, and a valid
// input encodes back to the same bytes.
const patternPropertiesBehaviour = `package patternprops

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestPatternViolations(t *testing.T) {
	long := strings.Repeat("a", 65)
	var in MeasureInput
	err := in.UnmarshalJSON([]byte(` + "`" + `{"station":"s",
		"headers":{"x-a":"` + "`" + ` + long + ` + "`" + `","x-trace-1":"zz","Bad":"v"},
		"readings":{"unit":"C","temp_a":70,"temp_max":101,"n":1.5},
		"flags":{"on":false,"X":true},
		"meta":{"x-a":2,"other":[1]}}` + "`" + `))
	// Members in input order: x-a too long; x-trace-1 fails the second
	// pattern's; Bad is named by no pattern; temp_a above 60; temp_max
	// fails both patterns that match it; n (no pattern) is no whole
	// number; on is not true; X is named by no pattern; x-a is not in
	// the enum; "other" may be any value.
	wantPointers(t, err, "/headers/x-a", "/headers/x-trace-1", "/headers/Bad",
		"/readings/temp_a", "/readings/temp_max", "/readings/temp_max", "/readings/n",
		"/flags/on", "/flags/X", "/meta/x-a")
}

func TestPatternValidRoundTrip(t *testing.T) {
	const data = ` + "`" + `{"station":"s","headers":{"x-a":"b","x-trace-1":"0123456789abcdef"},"readings":{"unit":"F","n":3,"temp_max":55},"flags":{"on":true},"meta":{"other":[1],"x-b":"one"}}` + "`" + `
	var in MeasureInput
	if err := in.UnmarshalJSON([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if got := in.Readings.AdditionalProperties["temp_max"]; got != 55 {
		t.Errorf("temp_max = %v, want 55", got)
	}
	if got := string(in.AppendJSON(nil)); got != data {
		t.Errorf("encoded %s\nwant    %s", got, data)
	}
	// minProperties counts the pattern members; maxProperties the
	// members no pattern admits too.
	if err := in.UnmarshalJSON([]byte(` + "`" + `{"station":"s","readings":{"temp_a":1}}` + "`" + `)); err == nil {
		t.Error("readings of one member was accepted; minProperties is 2")
	}
	err := in.UnmarshalJSON([]byte(` + "`" + `{"station":"s","headers":{"x-a":"1","x-b":"2","x-c":"3","x-d":"4","Q":"5"}}` + "`" + `))
	wantPointers(t, err, "/headers/Q", "/headers")
}
`
