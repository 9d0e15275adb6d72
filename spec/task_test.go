package spec_test

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func TestToolTask(t *testing.T) {
	src := `version: 1
server: {name: s, version: 1.0.0}
tools:
  a: {task: optional}
  b: {task: required}
  c: {}
  d: {task: sometimes}
  e: {task: true}
`
	_, err := spec.Load(fstest.MapFS{"m.yaml": {Data: []byte(src)}}, "m.yaml")
	var ds spec.Diagnostics
	if !errors.As(err, &ds) {
		t.Fatalf("err = %v, want diagnostics", err)
	}
	want := []string{
		`m.yaml:7:13: tool "d": task "sometimes" must be optional or required (omit it for a tool that never runs as a task)`,
		`m.yaml:8:13: tool "e": task: expected a string, got a boolean (quote it)`,
	}
	if len(ds) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%v", len(ds), len(want), err)
	}
	for i := range want {
		if got := ds[i].String(); got != want[i] {
			t.Errorf("diagnostic %d = %s\nwant %s", i, got, want[i])
		}
	}

	api, err := spec.Load(fstest.MapFS{"m.yaml": {Data: []byte(src[:len(src)-len("  d: {task: sometimes}\n  e: {task: true}\n")])}}, "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tool := range api.Tools {
		got[tool.Name] = tool.Task
	}
	if got["a"] != spec.TaskOptional || got["b"] != spec.TaskRequired || got["c"] != "" {
		t.Errorf("task support = %v", got)
	}
}
