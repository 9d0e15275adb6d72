package search

import (
	"reflect"
	"testing"
)

func TestInputArguments(t *testing.T) {
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
		if _, _, got := InputArguments([]byte(c.schema)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: values %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzInputArguments: any bytes, no panic and no endless loop.
func FuzzInputArguments(f *testing.F) {
	f.Add([]byte(`{"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A"}}}`))
	f.Add([]byte(`{"properties":{"status":{"enum":["open","closed",1]}}}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		InputArguments(schema)
	})
}

func TestInputArgumentsNamesAndDescriptions(t *testing.T) {
	names, docs, _ := InputArguments([]byte(`{"properties":{"status":{"description":"Only these.","$ref":"#/$defs/S"},` +
		`"limit":{"type":"integer"},"after":{"description":"A cursor."}},"$defs":{"S":{"description":"Not the argument's.","enum":["open"]}}}`))
	if want := []string{"after", "limit", "status"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if want := []string{"A cursor.", "Only these."}; !reflect.DeepEqual(docs, want) {
		t.Errorf("descriptions %q, want %q", docs, want)
	}
}
