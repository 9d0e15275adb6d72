package generator

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// TestTupleDiagnostics checks what only the Go lowering of a tuple can
// see: an optional position that is nullable (through a named type too),
// and Go field names that collide.
func TestTupleDiagnostics(t *testing.T) {
	const text = `version: 1
server: {name: s, version: 1.0.0}
types:
  Maybe: {type: string, nullable: true}
tools:
  t:
    input:
      properties:
        maybe:
          type: array
          prefixItems: [{type: string}, {type: string, nullable: true}]
          minItems: 1
        named:
          type: array
          prefixItems: [{$ref: Maybe}]
        rest:
          type: array
          prefixItems: [{type: string, title: rest}, {type: integer, title: Rest}]
        twice:
          type: array
          prefixItems: [{type: string, title: x}, {type: integer, title: X}]
`
	api, err := spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: []byte(text)}}, "mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Generate(api, Options{})
	var ds spec.Diagnostics
	if !errors.As(err, &ds) {
		t.Fatalf("want spec.Diagnostics, got %v", err)
	}
	want := []string{
		`mcpgen.yaml:11:41: prefixItems[1] is nullable but may be absent (minItems is 1): null and a shorter array would both be nil in Go; raise minItems to 2 or drop nullable`,
		`mcpgen.yaml:15:25: prefixItems[0] is nullable but may be absent (minItems is 0): null and a shorter array would both be nil in Go; raise minItems to 1 or drop nullable`,
		`mcpgen.yaml:18:25: prefixItems[0]: Go field TInputRest.Rest is taken by the items after the positions: give the position another title`,
		`mcpgen.yaml:18:54: prefixItems[1]: Go field TInputRest.Rest is taken by the items after the positions: give the position another title`,
		`mcpgen.yaml:21:51: prefixItems[1]: Go field TInputTwice.X is taken by position 0: give the position another title`,
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
