package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen-dev/mcpgen/bench/tool"
	"github.com/mcpgen-dev/mcpgen/bench/tool/benchmcp"
	"github.com/mcpgen-dev/mcpgen/examples/orders/ordersmcp"
)

// input is one arguments document and whether the schema accepts it.
type input struct {
	name  string
	json  string
	valid bool
}

// schemaCase is one tool's input schema, the generated decoder for it and
// the inputs every validator sees.
type schemaCase struct {
	name      string
	schema    []byte
	generated func([]byte) error
	inputs    []input
}

func cases(t testing.TB) []schemaCase {
	orders := func(name string) []byte {
		b, err := os.ReadFile("../../examples/orders/ordersmcp/schemas/" + name + ".input.schema.json")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return []schemaCase{
		{
			name:   "bench.get_order_status",
			schema: tool.InputSchema,
			generated: func(b []byte) error {
				var v benchmcp.GetOrderStatusInput
				return v.UnmarshalJSON(b)
			},
			inputs: []input{
				{"minimal", `{"order_id":"A1001","quantity":3}`, true},
				{"all", `{"order_id":"A1234567","quantity":100,"express":true}`, true},
				{"bad pattern", `{"order_id":"B1001","quantity":3}`, false},
				{"too long", `{"order_id":"A12345678","quantity":3}`, false},
				{"too big", `{"order_id":"A1001","quantity":101}`, false},
				{"not integer", `{"order_id":"A1001","quantity":1.5}`, false},
				{"missing", `{"quantity":3}`, false},
				{"unknown", `{"order_id":"A1001","quantity":3,"x":1}`, false},
				{"wrong type", `{"order_id":1001,"quantity":"3","express":"yes"}`, false},
				{"not object", `[1,2]`, false},
			},
		},
		{
			name:   "orders.search_orders",
			schema: orders("search_orders"),
			generated: func(b []byte) error {
				var v ordersmcp.SearchOrdersInput
				return v.UnmarshalJSON(b)
			},
			inputs: []input{
				{"empty", `{}`, true},
				{"all", `{"status":"SHIPPED","limit":50,"cursor":"eyJvIjoxMH0"}`, true},
				{"bad enum", `{"status":"LOST"}`, false},
				{"limit zero", `{"limit":0}`, false},
				{"limit null", `{"limit":null}`, false},
				{"unknown", `{"page":2}`, false},
			},
		},
		{
			name:   "orders.create_return",
			schema: orders("create_return"),
			generated: func(b []byte) error {
				var v ordersmcp.CreateReturnInput
				return v.UnmarshalJSON(b)
			},
			inputs: []input{
				{"ok", `{"order_id":"A1001","reason":"arrived broken, box crushed","idempotency_key":"4f1c2d9e-0b7a-4e55-9a0e-8f3b2c1d0e9f"}`, true},
				{"unicode", `{"order_id":"A1","reason":"défectueux \u00e9 ✓","idempotency_key":"k"}`, true},
				{"empty reason", `{"order_id":"A1001","reason":"","idempotency_key":"k"}`, false},
				{"all missing", `{}`, false},
				{"bad id", `{"order_id":"1001","reason":"r","idempotency_key":"k"}`, false},
			},
		},
	}
}

// validator is one implementation compiled for one schema.
type validator struct {
	name     string
	validate func([]byte) error
}

func validators(t testing.TB, c schemaCase) []validator {
	// santhosh-tekuri/jsonschema: compile once, decode the instance with
	// its UnmarshalJSON (numbers as json.Number), validate.
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.schema))
	if err != nil {
		t.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	if err := comp.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := comp.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	// google/jsonschema-go: resolve once, decode with encoding/json, validate.
	var gs googleschema.Schema
	if err := json.Unmarshal(c.schema, &gs); err != nil {
		t.Fatal(err)
	}
	resolved, err := gs.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return []validator{
		{"mcpgen", c.generated},
		{"santhosh-tekuri", func(b []byte) error {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				return err
			}
			return sch.Validate(v)
		}},
		{"google", func(b []byte) error {
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				return err
			}
			return resolved.Validate(v)
		}},
	}
}

// TestSameVerdicts: the benchmark only compares like with like if every
// validator accepts and rejects exactly the same inputs.
func TestSameVerdicts(t *testing.T) {
	for _, c := range cases(t) {
		for _, v := range validators(t, c) {
			for _, in := range c.inputs {
				err := v.validate([]byte(in.json))
				if (err == nil) != in.valid {
					t.Errorf("%s %s %s: valid=%v, error: %v", c.name, v.name, in.name, in.valid, err)
				}
			}
		}
	}
}

// TestGeneratedValidAllocations: on a valid input the generated decoder
// allocates only what the decoded value holds (its strings and the
// pointers of optional fields), never for validation itself.
func TestGeneratedValidAllocations(t *testing.T) {
	for _, tc := range []struct {
		json   string
		decode func([]byte) error
		want   float64
	}{
		// The order_id string.
		{`{"order_id":"A1001","quantity":3}`, cases(t)[0].generated, 1},
		// Nothing: the constraints of an integer and an enum need no memory.
		{`{"limit":50}`, cases(t)[1].generated, 0},
	} {
		data := []byte(tc.json)
		got := testing.AllocsPerRun(100, func() {
			if err := tc.decode(data); err != nil {
				t.Fatal(err)
			}
		})
		if got != tc.want {
			t.Errorf("%s: %v allocations, want %v", tc.json, got, tc.want)
		}
	}
}

// BenchmarkValidate times each validator on each schema's valid and
// invalid inputs; one op is one pass over all inputs of that kind.
func BenchmarkValidate(b *testing.B) {
	for _, c := range cases(b) {
		for _, valid := range []bool{true, false} {
			var docs [][]byte
			for _, in := range c.inputs {
				if in.valid == valid {
					docs = append(docs, []byte(in.json))
				}
			}
			kind := "valid"
			if !valid {
				kind = "invalid"
			}
			for _, v := range validators(b, c) {
				b.Run(fmt.Sprintf("%s/%s/%s", c.name, kind, v.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						for _, d := range docs {
							if (v.validate(d) == nil) != valid {
								b.Fatal("wrong verdict")
							}
						}
					}
				})
			}
		}
	}
}
