package schema

import (
	"encoding/json"
	"testing"
)

func TestTolerant(t *testing.T) {
	shared := Object{{"type", "object"}, {"properties", Object{{"n", Object{{"type", "integer"}, {"minimum", 1}}}}}, {"required", []string{"n"}}, {"additionalProperties", false}}
	doc := Object{
		{"type", "object"},
		{"properties", Object{
			{"status", Object{{"type", "string"}, {"description", "Where it is."}, {"enum", []json.RawMessage{json.RawMessage(`"A"`), json.RawMessage(`"B"`)}}}},
			{"at", Object{{"type", []string{"string", "null"}}, {"format", "date-time"}}},
			{"tags", Object{{"type", "array"}, {"items", Object{{"type", "string"}, {"pattern", "^[a-z]+$"}, {"maxLength", 8}}}, {"maxItems", 3}, {"uniqueItems", true}}},
			{"shape", Object{{"oneOf", []Object{{{"$ref", "#/$defs/Circle"}}, {{"type", "null"}}}}}},
			{"meta", Object{{"type", "object"}, {"additionalProperties", shared}}},
			{"any", Object{}},
		}},
		{"required", []string{"status"}},
		{"additionalProperties", false},
		{"$defs", Object{{"Circle", shared}}},
	}
	before, _ := json.Marshal(doc)
	got, err := json.Marshal(NewTolerant().Document(doc))
	if err != nil {
		t.Fatal(err)
	}
	const relaxedShared = `{"type":["object","null"],"properties":{"n":{"type":["integer","null"],"description":"Documented: minimum 1."}}}`
	want := `{"type":"object","properties":{` +
		`"status":{"type":["string","null"],"description":"Where it is.\n\nDocumented: enum [\"A\",\"B\"]."},` +
		`"at":{"type":["string","null"],"description":"Documented: format \"date-time\"."},` +
		`"tags":{"type":["array","null"],"description":"Documented: maxItems 3; uniqueItems true.","items":{"type":["string","null"],"description":"Documented: pattern \"^[a-z]+$\"; maxLength 8."}},` +
		`"shape":{"anyOf":[{"$ref":"#/$defs/Circle"},{"type":"null"}]},` +
		`"meta":{"type":["object","null"],"additionalProperties":` + relaxedShared + `},` +
		`"any":{}},` +
		`"$defs":{"Circle":` + relaxedShared + `}}`
	if string(got) != want {
		t.Errorf("tolerant document\n got %s\nwant %s", got, want)
	}
	if after, _ := json.Marshal(doc); string(after) != string(before) {
		t.Errorf("the input document changed:\n%s\n%s", before, after)
	}
}
