package spec

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// valueChecker checks JSON values (defaults, examples, enum and const
// values) against the schemas they sit on, the way the generated
// validators will: both loaders use it, the mcpgen.yaml loader to refuse a
// value that breaks its own schema, the OpenAPI loader to drop one.
type valueChecker struct {
	// types are the named types a $ref names.
	types map[string]*NamedType
	// regexps caches compiled patterns for the value checks.
	regexps map[string]*regexp.Regexp
	// steps counts the work of the current value check (see checkValue).
	steps int
	// documentedFormats also holds strings to the formats the generated
	// validators leave as annotations (documentedFormatOK): set for a
	// vendor's defaults, which the server would send in the caller's name.
	documentedFormats bool
}

func newValueChecker(types map[string]*NamedType) valueChecker {
	return valueChecker{types: types, regexps: map[string]*regexp.Regexp{}}
}

// decodeJSON decodes one JSON text with numbers kept as json.Number.
func decodeJSON(raw json.RawMessage) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}
