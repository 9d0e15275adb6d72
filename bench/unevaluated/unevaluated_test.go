// Package unevaluated_test measures what tracking the evaluated members
// costs: the generated decoder and validator of an object closed by
// unevaluatedProperties, whose then and else declare a member each,
// against the same object with both members declared on it.
//
//	go test -bench . -benchmem -count 10 ./unevaluated | benchstat -col /schema -
package unevaluated_test

import (
	"testing"

	"github.com/mcpgen-dev/mcpgen/bench/unevaluated/unevalmcp"
)

// input is valid for both tools: a pickup with its store.
const input = `{"id":"A1001","amount":250,"currency":"EUR","note":"leave at the door","method":"pickup","store":"Main Street"}`

func BenchmarkDecode(b *testing.B) {
	data := []byte(input)
	b.Run("schema=declared", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v unevalmcp.DeclaredInput
			if err := v.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("schema=unevaluated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v unevalmcp.TrackedInput
			if err := v.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestVerdicts holds both tools to the same verdicts, so that the
// benchmark compares equal work.
func TestVerdicts(t *testing.T) {
	for _, c := range []struct {
		in    string
		valid bool
	}{
		{input, true},
		{`{"id":"A","amount":1,"currency":"USD","method":"post","address":"1 Road"}`, true},
		{`{"id":"A","amount":1,"currency":"USD","method":"post","store":"S"}`, false},
		{`{"id":"A","amount":1,"currency":"USD","method":"pickup"}`, false},
	} {
		var d unevalmcp.DeclaredInput
		var u unevalmcp.TrackedInput
		derr, uerr := d.UnmarshalJSON([]byte(c.in)), u.UnmarshalJSON([]byte(c.in))
		if (uerr == nil) != c.valid {
			t.Errorf("%s: unevaluated: %v, want valid=%v", c.in, uerr, c.valid)
		}
		if (derr == nil) != c.valid && c.valid {
			t.Errorf("%s: declared: %v, want valid=%v", c.in, derr, c.valid)
		}
	}
}
