package spec_test

import (
	"reflect"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// TestDiscriminatorInfersFromConst: a variant the mapping leaves out is
// selected by the const (or one-value enum) of its tag, not by its type
// name; a mapping entry that agrees with the const is kept, and a variant
// with neither is selected by its type name.
func TestDiscriminatorInfersFromConst(t *testing.T) {
	src := `version: 1
server: {name: s, version: 1.0.0}
types:
  StatusChange:
    type: object
    properties: {kind: {type: string, const: status}}
    required: [kind]
  ReassignChange:
    type: object
    properties: {kind: {type: string, enum: [reassigned]}}
  Note:
    type: object
    properties: {kind: {type: string}}
  Change:
    oneOf: [{$ref: StatusChange}, {$ref: ReassignChange}, {$ref: Note}]
    discriminator: {propertyName: kind}
  Mapped:
    oneOf: [{$ref: StatusChange}, {$ref: ReassignChange}, {$ref: Note}]
    discriminator: {propertyName: kind, mapping: {status: StatusChange, memo: Note}}
`
	api := loadString(t, "mcpgen.yaml", src)
	for _, c := range []struct {
		typ  int
		want []spec.DiscriminatorCase
	}{
		{3, []spec.DiscriminatorCase{{Value: "status", Type: "StatusChange"}, {Value: "reassigned", Type: "ReassignChange"}, {Value: "Note", Type: "Note"}}},
		{4, []spec.DiscriminatorCase{{Value: "status", Type: "StatusChange"}, {Value: "reassigned", Type: "ReassignChange"}, {Value: "memo", Type: "Note"}}},
	} {
		nt := api.Types[c.typ]
		if got := nt.Schema.Discriminator.Mapping; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: mapping %v, want %v", nt.Name, got, c.want)
		}
	}
}
