package surface_test

import (
	"strings"
	"testing"
)

// TestCompareApplicators: a change to a 2020-12 applicator (allOf, anyOf,
// not, if/then/else, dependentRequired), to a structured const or enum,
// or to a pattern or format is reported: breaking when an input may now
// refuse a value it accepted (an output, return one it did not promise),
// and CONSTRAINT_NO_UNDECIDED_CHANGE when that cannot be told.
func TestCompareApplicators(t *testing.T) {
	const base = `tools:
  contact:
    input:
      properties:
        method: {type: string, enum: [phone, email]}
        phone: {type: string}
        email: {type: string}
        code: {type: string, allOf: [{minLength: 2}], anyOf: [{pattern: "^[A-Z]+$"}, {pattern: "^[0-9]+$"}]}
        shape: {type: object, properties: {x: {type: integer}, y: {type: integer}}, enum: [{x: 1, y: 2}]}
        tag: {type: string, pattern: "^t", format: email}
      dependentRequired: {phone: [method]}
      if: {properties: {method: {const: phone}}, required: [method]}
      then: {required: [phone]}
    output:
      type: object
      properties:
        id: {type: string, allOf: [{minLength: 2}], not: {const: "00"}}
`
	replace := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("base lacks %q", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	const in, out = `tool "contact": input`, `tool "contact": output`
	tests := []struct {
		name      string
		prev, cur string
		want      []string
	}{
		{"input allOf subschema added", base, replace("allOf: [{minLength: 2}], anyOf", "allOf: [{minLength: 2}, {maxLength: 9}], anyOf"), []string{
			`BREAKING CONSTRAINT_NO_TIGHTEN ` + in + ` property "code": allOf subschema {"maxLength":9,"type":"string"} was added`,
		}},
		{"input allOf subschema removed", base, replace("allOf: [{minLength: 2}], anyOf", "anyOf"), []string{
			`safe CONSTRAINT_LOOSENED ` + in + ` property "code": allOf subschema {"minLength":2,"type":"string"} was removed`,
		}},
		{"input anyOf subschema added", base, replace(`{pattern: "^[0-9]+$"}]`, `{pattern: "^[0-9]+$"}, {maxLength: 1}]`), []string{
			`safe CONSTRAINT_LOOSENED ` + in + ` property "code": anyOf subschema {"maxLength":1,"type":"string"} was added`,
		}},
		{"input anyOf subschema removed", base, replace(`, {pattern: "^[0-9]+$"}]`, `]`), []string{
			`BREAKING CONSTRAINT_NO_TIGHTEN ` + in + ` property "code": anyOf subschema {"pattern":"^[0-9]+$","type":"string"} was removed`,
		}},
		{"input dependentRequired grew", base, replace("{phone: [method]}", "{phone: [method], email: [method]}"), []string{
			`BREAKING CONSTRAINT_NO_TIGHTEN ` + in + `: dependentRequired: "email" now requires "method"`,
		}},
		{"input dependentRequired shrank", base, replace("      dependentRequired: {phone: [method]}\n", ""), []string{
			`safe CONSTRAINT_LOOSENED ` + in + `: dependentRequired: "phone" no longer requires "method"`,
		}},
		{"input then changed", base, replace("then: {required: [phone]}", "then: {required: [email]}"), []string{
			`BREAKING CONSTRAINT_NO_UNDECIDED_CHANGE ` + in + `: then changed from {"required":["phone"]} to {"required":["email"]}; mcpgen cannot tell whether values are gained or lost, so it may break clients`,
		}},
		{"input else added", base, replace("then: {required: [phone]}", "then: {required: [phone]}\n      else: {required: [email]}"), []string{
			`BREAKING CONSTRAINT_NO_TIGHTEN ` + in + `: else {"required":["email"]} was added`,
		}},
		{"input if changed", base, replace("{const: phone}}, required: [method]}", "{const: email}}, required: [method]}"), []string{
			`BREAKING CONSTRAINT_NO_UNDECIDED_CHANGE ` + in + `: if changed from {"additionalProperties":false,"properties":[["method",{"const":"phone","type":"string"}]],"required":["method"]} to {"additionalProperties":false,"properties":[["method",{"const":"email","type":"string"}]],"required":["method"]}; mcpgen cannot tell whether values are gained or lost, so it may break clients`,
		}},
		{"structured enum reordered is no change", base, replace("enum: [{x: 1, y: 2}]", "enum: [{y: 2, x: 1}]"), nil},
		{"structured enum value changed", base, replace("enum: [{x: 1, y: 2}]", "enum: [{x: 1, y: 3}]"), []string{
			`BREAKING ENUM_VALUE_NO_DELETE ` + in + ` property "shape": enum value {"x":1,"y":2} was deleted`,
			`safe ENUM_VALUE_ADDED ` + in + ` property "shape": enum value {"x":1,"y":3} was added`,
		}},
		{"input pattern and format changed", base, replace(`pattern: "^t", format: email`, `pattern: "^u", format: uri`), []string{
			`BREAKING CONSTRAINT_NO_TIGHTEN ` + in + ` property "tag": pattern changed from "^t" to "^u"`,
			`BREAKING CONSTRAINT_NO_TIGHTEN ` + in + ` property "tag": format changed from "email" to "uri"`,
		}},
		{"output allOf subschema removed", base, replace(`allOf: [{minLength: 2}], not`, `not`), []string{
			`BREAKING OUTPUT_CONSTRAINT_NO_LOOSEN ` + out + ` property "id": allOf subschema {"minLength":2,"type":"string"} was removed`,
		}},
		{"output allOf subschema added", base, replace(`allOf: [{minLength: 2}], not`, `allOf: [{minLength: 2}, {maxLength: 4}], not`), []string{
			`safe CONSTRAINT_TIGHTENED ` + out + ` property "id": allOf subschema {"maxLength":4,"type":"string"} was added`,
		}},
		{"output not changed", base, replace(`not: {const: "00"}`, `not: {const: "01"}`), []string{
			`BREAKING CONSTRAINT_NO_UNDECIDED_CHANGE ` + out + ` property "id": not changed from {"const":"00","type":"string"} to {"const":"01","type":"string"}; mcpgen cannot tell whether values are gained or lost, so it may break clients`,
		}},
		{"output not removed", base, replace(`, not: {const: "00"}`, ``), []string{
			`BREAKING OUTPUT_CONSTRAINT_NO_LOOSEN ` + out + ` property "id": not {"const":"00","type":"string"} was removed`,
		}},
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
