package spec

// refusedKeywords are JSON Schema 2020-12 keywords mcpgen.yaml does not
// accept, with the reason given at the keyword. Any other unknown key is
// "unknown keyword" (with a suggestion when a known one is close).
var refusedKeywords = map[string]string{
	"$defs":          "it belongs in a named type or a tool's input or output, whose $defs entries become named types (or declare the type under types)",
	"$dynamicRef":    "it belongs in a named type or a tool's input or output, whose dynamic scope the loader follows (docs/spec.md)",
	"$dynamicAnchor": "it belongs in a named type or a tool's input or output, whose dynamic scope the loader follows (docs/spec.md)",
	"$vocabulary":    "it has effect only in a meta-schema (a schema that $schema names), and mcpgen.yaml holds schemas, read and published in the 2020-12 dialect with all of its vocabularies: remove it",
	"dependencies":   "it was split in draft 2019-09: use dependentRequired (a list of names) or dependentSchemas (a schema)",
}
