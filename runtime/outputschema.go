package runtime

import (
	"bytes"
	"encoding/json"
)

// This file implements Options.OmitOutputSchemas: tools/list sends tool
// definitions without their outputSchema. An output schema is often most
// of a wrapped operation's definition (a GitHub pull request is ~20 KB of
// schema), and MCP makes it optional: a client that has none still gets
// structuredContent, and describe_operation still shows the whole
// definition when a model wants it.

// withoutOutputSchema returns the compact tool definition def without its
// top-level "outputSchema" member; def itself when it has none.
func withoutOutputSchema(def string) string {
	dec := json.NewDecoder(bytes.NewReader([]byte(def)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return def
	}
	for dec.More() {
		start := dec.InputOffset() // before the member (and its leading comma)
		key, err := dec.Token()
		if err != nil {
			return def
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return def
		}
		if key != "outputSchema" {
			continue
		}
		end := int(dec.InputOffset())
		// Drop the member with one of the commas around it.
		lo, hi := int(start), end
		switch {
		case def[lo] == ',':
		case hi < len(def) && def[hi] == ',':
			hi++
		}
		// A duplicate member (invalid in a definition, but JSON) goes too.
		return withoutOutputSchema(def[:lo] + def[hi:])
	}
	return def
}
