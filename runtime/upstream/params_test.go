package upstream

import "testing"

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
