package search

import (
	"reflect"
	"testing"
)

func TestParamValues(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		want         [][]string
	}{
		{"enums in name order, others left out",
			`{"properties":{"status":{"enum":["open","past_due"]},"limit":{"type":"integer"},"expiry":{"enum":["one_day","one_week"]}}}`,
			[][]string{{"one_day", "one_week"}, {"open", "past_due"}}},
		{"a $ref to $defs, followed",
			`{"properties":{"limit":{"$ref":"#/$defs/InteractionGroup"}},"$defs":{"InteractionGroup":{"type":"string","enum":["existing_users","contributors_only"]}}}`,
			[][]string{{"existing_users", "contributors_only"}}},
		{"values that are not strings left out",
			`{"properties":{"level":{"enum":[1,2,"high",null]},"on":{"enum":[true,false]}}}`,
			[][]string{{"high"}}},
		{"a $ref that goes nowhere or round", `{"properties":{"a":{"$ref":"#/$defs/B"},"c":{"$ref":"#/$defs/C"}},"$defs":{"C":{"$ref":"#/$defs/C"}}}`, nil},
		{"not a schema", `[1,2]`, nil},
	} {
		if got := ParamValues([]byte(c.schema)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParamValues = %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzParamValues: any bytes, no panic and no endless loop.
func FuzzParamValues(f *testing.F) {
	f.Add([]byte(`{"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A"}}}`))
	f.Add([]byte(`{"properties":{"status":{"enum":["open","closed",1]}}}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		ParamValues(schema)
	})
}
