package openapi

import (
	"bytes"
	"encoding/json"
	"maps"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A schemaCheck judges values against subschemas of one root schema (a
// tool's input schema) with the reference validator the tests use
// (santhosh-tekuri/jsonschema, formats asserted as the server does), so
// that the sampler can tell a value that matches exactly one variant of a
// oneOf from one that matches several, and the sweep can tell its own
// invalid sample from a server refusal. Compiled subschemas are kept by
// their JSON.
type schemaCheck struct {
	defs     any
	compiled map[string]*jsonschema.Schema
}

func newSchemaCheck(root map[string]any) *schemaCheck {
	return &schemaCheck{defs: root["$defs"], compiled: map[string]*jsonschema.Schema{}}
}

// compile compiles s with root's "$defs" beside it, so that its "$ref"s
// resolve; nil when the validator cannot compile it (a pattern it does not
// take), which the callers read as "cannot tell".
func (c *schemaCheck) compile(s map[string]any) *jsonschema.Schema {
	s = maps.Clone(s)
	if c.defs != nil {
		s["$defs"] = c.defs
	}
	key := mustJSON(s)
	if sch, ok := c.compiled[key]; ok {
		return sch
	}
	var sch *jsonschema.Schema
	if doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(key))); err == nil {
		comp := jsonschema.NewCompiler()
		comp.AssertFormat()
		if comp.AddResource("mem:///sample.json", doc) == nil {
			sch, _ = comp.Compile("mem:///sample.json")
		}
	}
	c.compiled[key] = sch
	return sch
}

// check reports why v does not satisfy s, or nil when it does or the
// validator cannot tell.
func (c *schemaCheck) check(s map[string]any, v any) error {
	sch := c.compile(s)
	if sch == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// checkSample reports why args do not satisfy the input schema they were
// sampled from (nil when they do): a sweep defect, counted apart from the
// server's refusals.
func checkSample(schema json.RawMessage, args any) error {
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return err
	}
	return newSchemaCheck(root).check(root, args)
}

// TestSweepSamples checks, without a mock, that the sweep's samples for
// every tool of the MCPGEN_SWEEP documents (both passes) satisfy the input
// schema they are sampled from, and lists those that do not: the sweep's
// own defects, found before a long sweep.
func TestSweepSamples(t *testing.T) {
	needE2E(t)
	for _, doc := range sweepDocs(t) {
		t.Run(filepath.Base(filepath.Dir(doc))+"/"+filepath.Base(doc), func(t *testing.T) {
			bin := buildServer(t, doc)
			tools := listTools(t, bin, sweepCredentials(t, doc))
			exact := exactInputSchemas(t, filepath.Dir(bin), doc, tools)
			bad := 0
			for _, tl := range tools {
				for _, all := range []bool{false, true} {
					args := sampleArgs(exact.input(tl), all)
					if err := checkSample(exact.input(tl), args); err != nil {
						bad++
						t.Logf("%s (all=%v): %s: %s", tl.Name, all, mustJSON(args), oneLine(err.Error()))
					}
				}
			}
			t.Logf("%d tools, %d invalid samples", len(tools), bad)
		})
	}
}
