// Package difftest checks the decoders and validators mcpgen generates
// against an independent JSON Schema 2020-12 validator
// (github.com/santhosh-tekuri/jsonschema/v6) and the JSON-Schema-Test-Suite:
// for every instance, both must reach the same verdict. It holds tests
// only.
package difftest
