package upstream

import (
	"net/url"
	"strings"
	"testing"
)

func TestParamStyles(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{string(AppendPathParam(nil, "id", "simple", false, []byte(`"a b/c"`))), "a%20b%2Fc"},
		{string(AppendPathParam(nil, "id", "simple", false, []byte(`[1,2]`))), "1,2"},
		{string(AppendPathParam(nil, "id", "label", true, []byte(`[1,2]`))), ".1.2"},
		{string(AppendPathParam(nil, "id", "matrix", false, []byte(`[1,2]`))), ";id=1,2"},
		{string(AppendPathParam(nil, "id", "matrix", true, []byte(`{"a":1,"b":2}`))), ";a=1;b=2"},
		{string(AppendPathParam(nil, "id", "simple", true, []byte(`{"a":1,"b":2}`))), "a=1,b=2"},
		{string(AppendQueryParam(nil, "s", "form", true, []byte(`["a","b"]`))), "s=a&s=b"},
		{string(AppendQueryParam(nil, "s", "form", false, []byte(`["a","b"]`))), "s=a,b"},
		{string(AppendQueryParam(nil, "s", "spaceDelimited", false, []byte(`["a","b"]`))), "s=a%20b"},
		{string(AppendQueryParam(nil, "s", "pipeDelimited", false, []byte(`["a","b"]`))), "s=a|b"},
		// OpenAPI's style examples: an object is its k,v list joined by
		// the style's delimiter (R%20100%20G%20200, R|100|G|200).
		{string(AppendQueryParam(nil, "c", "spaceDelimited", false, []byte(`{"R":100,"G":"a b"}`))), "c=R%20100%20G%20a+b"},
		{string(AppendQueryParam(nil, "c", "pipeDelimited", false, []byte(`{"R":100,"G":200}`))), "c=R|100|G|200"},
		{string(AppendQueryParam(nil, "c", "form", false, []byte(`{"R":100,"G":200}`))), "c=R,100,G,200"},
		{string(AppendPathParam(nil, "c", "label", true, []byte(`{"R":100,"G":200}`))), ".R=100.G=200"},
		{string(AppendQueryParam(nil, "m", "deepObject", true, []byte(`{"a":{"b":"c"},"d":[1]}`))), "m%5Ba%5D%5Bb%5D=c&m%5Bd%5D%5B0%5D=1"},
		// Objects and arrays inside arrays nest as Stripe (Rack) reads
		// them: line_items[0][price]=p, not the item's JSON text.
		{string(AppendQueryParam(nil, "line_items", "deepObject", true, []byte(`[{"price":"p","quantity":2},{"price":"q","tax_rates":["t1"]}]`))),
			"line_items%5B0%5D%5Bprice%5D=p&line_items%5B0%5D%5Bquantity%5D=2&line_items%5B1%5D%5Bprice%5D=q&line_items%5B1%5D%5Btax_rates%5D%5B0%5D=t1"},
		{string(AppendQueryParam(nil, "m", "deepObject", true, []byte(`{"a":[[1,2],{"b":null}]}`))), "m%5Ba%5D%5B0%5D%5B0%5D=1&m%5Ba%5D%5B0%5D%5B1%5D=2"},
		{HeaderParam(false, []byte(`"x y"`)), "x y"},
		{CookieParam("c", true, []byte(`"v"`)), "c=v"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestDeepObjectOnePass: the one-pass deepObject serialisation escapes
// names and values as url.QueryEscape does, writes numbers and booleans as
// written, leaves a null member out and writes a null item as an empty
// value, and finds an empty member at any depth.
func TestDeepObjectOnePass(t *testing.T) {
	got := string(AppendQueryParam([]byte("a=1"), "m", "deepObject", true,
		[]byte(` {"k y&":"v/=+ é", "n":-1.5e+3, "t":true, "f":false, "z":null, "l":[null, "x"]} `)))
	want := "a=1&m%5Bk+y%26%5D=v%2F%3D%2B+%C3%A9&m%5Bn%5D=-1.5e%2B3&m%5Bt%5D=true&m%5Bf%5D=false&m%5Bl%5D%5B0%5D=&m%5Bl%5D%5B1%5D=x"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var c ArgCheck
	if q := c.Query([]byte("a=1"), "p", "p", "deepObject", true, []byte(`{"a":[{"b":{"c":"x"}},{"b":{"c":[]}}]}`)); string(q) != "a=1" {
		t.Errorf("q = %s", q)
	}
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), "/p/a/1/b/c: must not be an empty") {
		t.Errorf("err = %v", err)
	}
	if q := AppendQueryParam(nil, "m", "deepObject", true, []byte(`{"a":`)); len(q) != 0 {
		t.Errorf("malformed JSON: %s", q)
	}
}

func FuzzDeepObject(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,{"c":"d"}]},"e":null}`))
	f.Add([]byte(`[{},[]]`))
	f.Fuzz(func(t *testing.T, value []byte) {
		var c ArgCheck
		q := c.Query(nil, "p", "p", "deepObject", true, value)
		if _, err := url.ParseQuery(string(q)); err != nil {
			t.Fatalf("%q: %s does not parse: %v", value, q, err)
		}
	})
}

// BenchmarkDeepObject serialises a nested deepObject value with strings
// that need escaping, as a query parameter.
func BenchmarkDeepObject(b *testing.B) {
	value := []byte(`{"customer":{"name":"Ada Lovelace","email":"ada@example.com","tags":["a b","c/d","e&f"]},"metadata":{"order id":"A-1 / 2","note":"a note that is longer than thirty-two bytes, with spaces & signs é"},"limit":25}`)
	q := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		q = AppendQueryParam(q[:0], "filter", "deepObject", true, value)
	}
}
