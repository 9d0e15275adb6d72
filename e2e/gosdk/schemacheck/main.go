// Command schemacheck resolves every inputSchema and outputSchema of a
// tools/list dump (a JSON file: [{name, inputSchema, outputSchema}]) the
// way the official Go SDK does when a server registers a tool or a client
// checks one: the schema is decoded into a jsonschema.Schema
// (github.com/google/jsonschema-go) and resolved with default values
// validated, which compiles every pattern with Go's regexp package and
// follows every $ref. The input schema must also say type "object", as the
// SDK's AddTool requires. It prints one line per failure and exits 1 if any.
//
//	go run ./schemacheck tools.json
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/google/jsonschema-go/jsonschema"
)

// tool is one entry of the dump.
type tool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: schemacheck tools.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	failed, err := check(data, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// check resolves every schema in the dump, writes a line per failure and a
// summary line to w, and returns the number of failures.
func check(data []byte, w io.Writer) (int, error) {
	var tools []tool
	if err := json.Unmarshal(data, &tools); err != nil {
		return 0, fmt.Errorf("tools dump: %v", err)
	}
	failed := 0
	for _, t := range tools {
		for _, s := range []struct {
			key    string
			schema json.RawMessage
		}{{"inputSchema", t.InputSchema}, {"outputSchema", t.OutputSchema}} {
			if len(s.schema) == 0 || string(s.schema) == "null" {
				if s.key == "inputSchema" {
					failed++
					fmt.Fprintf(w, "%s %s: missing\n", t.Name, s.key)
				}
				continue
			}
			if err := resolve(s.schema, s.key == "inputSchema"); err != nil {
				failed++
				fmt.Fprintf(w, "%s %s: %v\n", t.Name, s.key, err)
			}
		}
	}
	fmt.Fprintf(w, "resolved %d tools, %d failures\n", len(tools), failed)
	return failed, nil
}

// resolve does what the SDK does with a tool's schema: decode it into a
// jsonschema.Schema and Resolve it with ValidateDefaults.
func resolve(raw json.RawMessage, input bool) error {
	var s *jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("decode: %v", err)
	}
	if s == nil {
		return fmt.Errorf("schema is null")
	}
	if input && s.Type != "object" {
		return fmt.Errorf(`input schema must have type "object" (got %q)`, s.Type)
	}
	if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
		return fmt.Errorf("resolve: %v", err)
	}
	return nil
}
