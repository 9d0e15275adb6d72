package surface_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/spec"
	"github.com/mcpgen-dev/mcpgen/surface"
)

const header = "version: 1\nserver: {name: s, version: 1.0.0}\n"

func load(t *testing.T, src string) *spec.API {
	t.Helper()
	api, err := spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: []byte(header + src)}}, "mcpgen.yaml")
	if err != nil {
		t.Fatalf("Load:\n%s\n%v", src, err)
	}
	return api
}

// changes renders Compare's result one line per change, as the CLI does.
func changes(t *testing.T, prev, cur string) []string {
	t.Helper()
	var out []string
	for _, c := range surface.Compare(surface.FromAPI(load(t, prev)), surface.FromAPI(load(t, cur))) {
		kind := "safe"
		if c.Breaking {
			kind = "BREAKING"
		}
		out = append(out, fmt.Sprintf("%s %s %s", kind, c.Rule, c.Message))
	}
	return out
}

func TestCompareRules(t *testing.T) {
	const order = `tools:
  get_order:
    annotations: {readOnlyHint: true}
    input:
      properties:
        order_id: {type: string, maxLength: 8}
        status: {type: string, enum: [PENDING, SHIPPED]}
        limit: {type: integer, minimum: 1, maximum: 100}
      required: [order_id]
    output:
      type: object
      properties:
        total: {type: number}
        state: {type: string, enum: [OPEN, CLOSED]}
        note: {type: string}
      required: [total, state]
`
	tests := []struct {
		name      string
		prev, cur string
		want      []string // every change, in order
	}{
		{"tool deleted (a rename is a deletion and an addition)", order, strings.Replace(order, "get_order:", "fetch_order:", 1), []string{
			`BREAKING TOOL_NO_DELETE previously present tool "get_order" was deleted`,
			`safe TOOL_ADDED tool "fetch_order" was added`,
		}},
		{"argument became required", order, strings.Replace(order, "required: [order_id]", "required: [order_id, limit]", 1), []string{
			`BREAKING ARG_NO_NEW_REQUIRED tool "get_order": input property "limit" became required`,
		}},
		{"required argument added", order, strings.Replace(strings.Replace(order, "required: [order_id]", "required: [order_id, shop]", 1), "limit: {", "shop: {type: string}\n        limit: {", 1), []string{
			`BREAKING ARG_NO_NEW_REQUIRED tool "get_order": required input property "shop" was added`,
		}},
		{"argument became optional", order, strings.Replace(order, "required: [order_id]", "required: []", 1), []string{
			`safe ARG_BECAME_OPTIONAL tool "get_order": input property "order_id" became optional`,
		}},
		{"optional argument added", order, strings.Replace(order, "limit: {", "shop: {type: string}\n        limit: {", 1), []string{
			`safe ARG_ADDED_OPTIONAL tool "get_order": optional input property "shop" was added`,
		}},
		{"argument deleted", order, strings.Replace(order, "        limit: {type: integer, minimum: 1, maximum: 100}\n", "", 1), []string{
			`BREAKING ARG_NO_DELETE tool "get_order": previously present input property "limit" was deleted`,
		}},
		{"input type changed", order, strings.Replace(order, "limit: {type: integer, minimum: 1, maximum: 100}", "limit: {type: string}", 1), []string{
			`BREAKING FIELD_SAME_TYPE tool "get_order": input property "limit" changed type from "integer" to "string"`,
		}},
		{"input type narrowed", strings.Replace(order, "limit: {type: integer", "limit: {type: number", 1), order, []string{
			`BREAKING FIELD_SAME_TYPE tool "get_order": input property "limit" changed type from "number" to "integer"`,
		}},
		{"input type widened", order, strings.Replace(order, "limit: {type: integer", "limit: {type: number", 1), []string{
			`safe TYPE_WIDENED tool "get_order": input property "limit" changed type from "integer" to "number"`,
		}},
		{"output type widened", order, strings.Replace(order, "total: {type: number}", "total: {type: string}", 1), []string{
			`BREAKING FIELD_SAME_TYPE tool "get_order": output property "total" changed type from "number" to "string"`,
		}},
		{"output type narrowed", order, strings.Replace(order, "total: {type: number}", "total: {type: integer}", 1), []string{
			`safe TYPE_NARROWED tool "get_order": output property "total" changed type from "number" to "integer"`,
		}},
		{"input no longer nullable", strings.Replace(order, "order_id: {type: string", "order_id: {nullable: true, type: string", 1), order, []string{
			`BREAKING FIELD_SAME_TYPE tool "get_order": input property "order_id" is no longer nullable`,
		}},
		{"output became nullable", order, strings.Replace(order, "note: {type: string}", "note: {type: string, nullable: true}", 1), []string{
			`BREAKING FIELD_SAME_TYPE tool "get_order": output property "note" became nullable`,
		}},
		{"input enum value deleted", order, strings.Replace(order, "[PENDING, SHIPPED]", "[PENDING]", 1), []string{
			`BREAKING ENUM_VALUE_NO_DELETE tool "get_order": input property "status": enum value "SHIPPED" was deleted`,
		}},
		{"input enum value added", order, strings.Replace(order, "[PENDING, SHIPPED]", "[PENDING, SHIPPED, LOST]", 1), []string{
			`safe ENUM_VALUE_ADDED tool "get_order": input property "status": enum value "LOST" was added`,
		}},
		{"output enum value added", order, strings.Replace(order, "[OPEN, CLOSED]", "[OPEN, CLOSED, VOID]", 1), []string{
			`BREAKING OUTPUT_ENUM_VALUE_NO_ADD tool "get_order": output property "state": enum value "VOID" was added`,
		}},
		{"output enum value deleted", order, strings.Replace(order, "[OPEN, CLOSED]", "[OPEN]", 1), []string{
			`safe ENUM_VALUE_DELETED tool "get_order": output property "state": enum value "CLOSED" was deleted`,
		}},
		{"input constraints tightened", order, strings.Replace(strings.Replace(order, "maxLength: 8", "maxLength: 6, pattern: \"^A\"", 1), "minimum: 1,", "minimum: 2,", 1), []string{
			`BREAKING CONSTRAINT_NO_TIGHTEN tool "get_order": input property "order_id": maxLength was lowered from 8 to 6`,
			`BREAKING CONSTRAINT_NO_TIGHTEN tool "get_order": input property "order_id": pattern "^A" was added`,
			`BREAKING CONSTRAINT_NO_TIGHTEN tool "get_order": input property "limit": minimum was raised from 1 to 2`,
		}},
		{"input constraints loosened", order, strings.Replace(strings.Replace(order, "maxLength: 8", "maxLength: 10", 1), "maximum: 100", "maximum: 1000", 1), []string{
			`safe CONSTRAINT_LOOSENED tool "get_order": input property "order_id": maxLength was raised from 8 to 10`,
			`safe CONSTRAINT_LOOSENED tool "get_order": input property "limit": maximum was raised from 100 to 1000`,
		}},
		{"input enum added to a free string", order, strings.Replace(order, "order_id: {type: string, maxLength: 8}", "order_id: {type: string, maxLength: 8, enum: [A1]}", 1), []string{
			`BREAKING CONSTRAINT_NO_TIGHTEN tool "get_order": input property "order_id": enum "A1" was added`,
		}},
		{"output constraint loosened", strings.Replace(order, "note: {type: string}", "note: {type: string, maxLength: 5}", 1), order, []string{
			`BREAKING OUTPUT_CONSTRAINT_NO_LOOSEN tool "get_order": output property "note": maxLength 5 was removed`,
		}},
		{"output field deleted", order, strings.Replace(order, "        note: {type: string}\n", "", 1), []string{
			`BREAKING OUTPUT_FIELD_NO_DELETE tool "get_order": previously present output property "note" was deleted`,
		}},
		{"output field added", order, strings.Replace(order, "note: {type: string}", "note: {type: string}\n        eta: {type: string}", 1), []string{
			`safe OUTPUT_FIELD_ADDED tool "get_order": output property "eta" was added`,
		}},
		{"output field made optional", order, strings.Replace(order, "required: [total, state]", "required: [total]", 1), []string{
			`BREAKING OUTPUT_FIELD_NO_OPTIONAL tool "get_order": output property "state" became optional`,
		}},
		{"output field made required", order, strings.Replace(order, "required: [total, state]", "required: [total, state, note]", 1), []string{
			`safe OUTPUT_FIELD_BECAME_REQUIRED tool "get_order": output property "note" became required`,
		}},
		{"tool lost read-only and so became destructive", order, strings.Replace(order, "readOnlyHint: true", "readOnlyHint: false", 1), []string{
			`BREAKING TOOL_NO_DESTRUCTIVE tool "get_order" became destructive`,
		}},
		{"tool lost read-only, stating it is not destructive", order, strings.Replace(order, "readOnlyHint: true", "readOnlyHint: false, destructiveHint: false", 1), []string{
			`BREAKING TOOL_NO_DESTRUCTIVE tool "get_order" lost its read-only hint`,
		}},
		{"a read-only tool's destructiveHint does not count", order, strings.Replace(order, "readOnlyHint: true", "readOnlyHint: true, destructiveHint: true", 1), nil},
		{"tool no longer destructive", strings.Replace(order, "readOnlyHint: true", "readOnlyHint: false", 1), order, nil},
		{"scope added", order, strings.Replace(order, "    annotations:", "    scopes: [orders:read]\n    annotations:", 1), []string{
			`BREAKING TOOL_NO_NEW_SCOPE tool "get_order": scope "orders:read" was added`,
		}},
		{"output schema deleted", order, strings.Split(order, "    output:")[0], []string{
			`BREAKING OUTPUT_FIELD_NO_DELETE tool "get_order": previously present output schema was deleted`,
		}},
		{"descriptions do not matter", order, strings.Replace(order, "total: {type: number}", "total: {type: number, description: The sum}", 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := changes(t, tt.prev, tt.cur)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
