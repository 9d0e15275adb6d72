package main

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		dump   string
		failed int
		want   string
	}{
		{"valid", `[{"name":"a","inputSchema":{"type":"object","properties":{"id":{"type":"string","pattern":"^[a-z]+$"}}},
			"outputSchema":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/$defs/x"}}},"$defs":{"x":{"type":"integer"}}}}]`, 0, "resolved 1 tools, 0 failures"},
		{"pattern Go cannot compile", `[{"name":"a","inputSchema":{"type":"object","properties":{"id":{"type":"string","pattern":"^(?!x)"}}}}]`, 1, "a inputSchema: resolve:"},
		{"dangling ref", `[{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"$ref":"#/$defs/missing"}}]`, 1, "a outputSchema: resolve:"},
		{"default of the wrong type", `[{"name":"a","inputSchema":{"type":"object","properties":{"n":{"type":"integer","default":"x"}}}}]`, 1, "a inputSchema: resolve:"},
		{"input not an object", `[{"name":"a","inputSchema":{"type":"string"}}]`, 1, `must have type "object"`},
		{"missing input", `[{"name":"a"}]`, 1, "a inputSchema: missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			failed, err := check([]byte(tt.dump), &out)
			if err != nil {
				t.Fatal(err)
			}
			if failed != tt.failed || !strings.Contains(out.String(), tt.want) {
				t.Errorf("check = %d failures, output:\n%s\nwant %d and %q", failed, out.String(), tt.failed, tt.want)
			}
		})
	}
}
