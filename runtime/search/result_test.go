package search

import "testing"

func TestResultDescription(t *testing.T) {
	for _, c := range []struct{ name, schema, want string }{
		{"an object", `{"type":"object","description":"A customer.","properties":{"id":{}}}`, "A customer."},
		{"the first paragraph", `{"description":"A customer.\nOf yours.\n\nRelated guide: customers."}`, "A customer.\nOf yours."},
		{"a $ref", `{"$ref":"#/$defs/C","$defs":{"C":{"description":"A customer."}}}`, "A customer."},
		{"refs in a row", `{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/C"},"C":{"description":"A customer."}}}`, "A customer."},
		{"a bare array", `{"type":"array","items":{"$ref":"#/$defs/C"},"$defs":{"C":{"description":"A customer.","properties":{"id":{}}}}}`, "A customer."},
		{"a listing's envelope", `{"type":"object","properties":{"has_more":{"type":"boolean"},"data":{"type":["array","null"],"items":{"$ref":"#/$defs/C"}}},"$defs":{"C":{"description":"A customer.","properties":{"id":{}}}}}`, "A customer."},
		{"an envelope's own description first", `{"description":"A page of customers.","properties":{"data":{"items":{"description":"A customer.","properties":{}}}}}`, "A page of customers."},
		{"two lists", `{"properties":{"a":{"items":{"description":"A.","properties":{}}},"b":{"items":{"description":"B.","properties":{}}}}}`, ""},
		{"a list of strings", `{"properties":{"names":{"items":{"type":"string","description":"A name."}}}}`, ""},
		{"no description", `{"type":"object","properties":{"id":{}}}`, ""},
		{"a ref elsewhere", `{"$ref":"other.json#/C"}`, ""},
		{"a missing def", `{"$ref":"#/$defs/Nope"}`, ""},
		{"a ref cycle", `{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/A"}}}`, ""},
		{"boolean items", `{"items":true}`, ""},
		{"not JSON", `{"description":`, ""},
		{"none", ``, ""},
	} {
		if got := ResultDescription([]byte(c.schema)); got != c.want {
			t.Errorf("%s: ResultDescription = %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzResultDescription: any bytes, no panic and no endless loop.
func FuzzResultDescription(f *testing.F) {
	f.Add([]byte(`{"$ref":"#/$defs/A","$defs":{"A":{"items":{"$ref":"#/$defs/A"}}}}`))
	f.Add([]byte(`{"properties":{"data":{"items":{"description":"A customer.","properties":{}}}}}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		ResultDescription(schema)
	})
}
