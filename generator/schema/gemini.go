package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// geminiKeys are the keywords of the Schema object of Gemini function
// declarations (ai.google.dev/api/caching#Schema), an OpenAPI 3.0
// subset; x-mcp-header is kept besides, because the MCP client, not the
// model, reads it and the server requires the headers it names.
var geminiKeys = map[string]bool{"type": true, "format": true, "title": true, "description": true,
	"nullable": true, "enum": true, "maxItems": true, "minItems": true, "properties": true,
	"required": true, "minProperties": true, "maxProperties": true, "minLength": true,
	"maxLength": true, "pattern": true, "example": true, "anyOf": true, "default": true,
	"items": true, "minimum": true, "maximum": true, "x-mcp-header": true}

// geminiFormats are the formats the Schema object accepts, by type.
var geminiFormats = map[string]map[string]bool{
	"string":  {"enum": true, "date-time": true},
	"number":  {"float": true, "double": true},
	"integer": {"int32": true, "int64": true},
}

// geminiNotes say in the description what a dropped keyword required.
var geminiNotes = map[string]string{
	"exclusiveMinimum": "Greater than %s.",
	"exclusiveMaximum": "Less than %s.",
	"multipleOf":       "A multiple of %s.",
	"uniqueItems":      "Items are unique (uniqueItems %s).",
	"contentEncoding":  "Encoded as %s.",
	"contentMediaType": "Media type %s.",
}

// Gemini returns the input schema document doc (without "$ref": see
// InlineRefs) in the OpenAPI 3.0 subset that Gemini function
// declarations accept:
//
//   - "type": [T, "null"] becomes "type": T with "nullable": true, and
//     "anyOf" of one schema and {"type": "null"} becomes that schema,
//     nullable (lossless);
//   - "const" becomes a one-value "enum", and "examples" the first
//     "example" (lossless);
//   - "oneOf" becomes "anyOf" (lossy: a value matching several variants
//     is no longer refused);
//   - "exclusiveMinimum"/"exclusiveMaximum" of an integer become
//     "minimum"/"maximum" one step in (lossless), of a number they move
//     into the description;
//   - "enum" of anything but strings, formats the Schema object does not
//     know, "multipleOf", "uniqueItems", "contentEncoding",
//     "contentMediaType" and "additionalProperties" (false or a schema)
//     are dropped, noted in the description where they say something a
//     model can use (lossy);
//   - "deprecated" moves into the description.
//
// Every lossy rewrite is returned as a Loss. doc is not changed.
func Gemini(doc Object) (Object, []Loss) {
	var g gemini
	return g.schema(doc, ""), g.losses
}

type gemini struct {
	losses []Loss
}

func (g *gemini) lose(ptr, format string, args ...any) {
	g.losses = append(g.losses, Loss{ptr, fmt.Sprintf(format, args...)})
}

func (g *gemini) schema(o Object, ptr string) Object {
	// anyOf [S, {type: null}] is S, nullable.
	if vs, ok := get(o, "anyOf").([]Object); ok && len(vs) == 2 && isNullOnly(vs[1]) {
		inner := append(Object{}, vs[0]...)
		for _, m := range o {
			if m.Key != "anyOf" {
				inner = setMember(inner, m.Key, m.Value)
			}
		}
		inner = setMember(inner, "nullable", true)
		return g.schema(inner, ptr)
	}
	typ, _ := get(o, "type").(string)
	nullable := false
	if ts, ok := get(o, "type").([]string); ok {
		var rest []string
		for _, t := range ts {
			if t == "null" {
				nullable = true
			} else {
				rest = append(rest, t)
			}
		}
		if len(rest) == 1 {
			typ = rest[0]
		} else if len(rest) > 1 {
			g.lose(ptr+"/type", "type %s listed without a type (any value)", strings.Join(ts, "|"))
		}
	}
	var out Object
	var notes []string
	add := func(k string, v any) { out = append(out, Member{k, v}) }
	for _, m := range o {
		p := ptr + "/" + spec.PointerToken(m.Key)
		switch m.Key {
		case "type":
			if typ != "" {
				add("type", typ)
			}
			if nullable {
				add("nullable", true)
			}
		case "properties":
			props, _ := m.Value.(Object)
			np := make(Object, 0, len(props))
			for _, pm := range props {
				if s, ok := pm.Value.(Object); ok {
					np = append(np, Member{pm.Key, g.schema(s, p+"/"+spec.PointerToken(pm.Key))})
				}
			}
			add("properties", np)
		case "items":
			if s, ok := m.Value.(Object); ok {
				add("items", g.schema(s, p))
			}
		case "oneOf", "anyOf":
			vs, _ := m.Value.([]Object)
			nv := make([]Object, len(vs))
			for i, v := range vs {
				nv[i] = g.schema(v, fmt.Sprintf("%s/%d", ptr+"/anyOf", i))
			}
			if m.Key == "oneOf" {
				g.lose(ptr, "oneOf listed as anyOf (a value matching several variants is no longer refused)")
			}
			add("anyOf", nv)
		case "const":
			if s, ok := jsonString(m.Value); ok {
				add("enum", []string{s})
				if typ == "" {
					add("type", "string")
				}
			} else {
				notes = append(notes, "Must be "+jsonText(m.Value)+".")
				g.lose(p, "const %s (not a string) moved into the description", jsonText(m.Value))
			}
		case "enum":
			if ss, ok := stringEnum(m.Value); ok && (typ == "string" || typ == "") {
				if typ == "" {
					add("type", "string")
				}
				add("enum", ss)
			} else {
				notes = append(notes, "One of: "+jsonText(m.Value)+".")
				g.lose(p, "enum %s (Gemini takes string enums only) moved into the description", jsonText(m.Value))
			}
		case "examples":
			if ex, ok := m.Value.([]json.RawMessage); ok && len(ex) > 0 {
				add("example", ex[0])
			}
		case "format":
			f, _ := m.Value.(string)
			if geminiFormats[typ][f] {
				add("format", f)
			} else {
				notes = append(notes, "Format: "+f+".")
				g.lose(p, "format %q (not one Gemini knows for %s) moved into the description", f, orAny(typ))
			}
		case "exclusiveMinimum", "exclusiveMaximum":
			n, ok := m.Value.(float64)
			if typ == "integer" && ok && n == float64(int64(n)) {
				if m.Key == "exclusiveMinimum" {
					add("minimum", n+1)
				} else {
					add("maximum", n-1)
				}
				continue
			}
			notes = append(notes, fmt.Sprintf(geminiNotes[m.Key], jsonText(m.Value)))
			g.lose(p, "%s %s moved into the description", m.Key, jsonText(m.Value))
		case "multipleOf", "uniqueItems", "contentEncoding", "contentMediaType":
			notes = append(notes, fmt.Sprintf(geminiNotes[m.Key], jsonText(m.Value)))
			g.lose(p, "%s %s moved into the description", m.Key, jsonText(m.Value))
		case "additionalProperties":
			if b, ok := m.Value.(bool); ok && !b {
				g.lose(p, "additionalProperties false dropped (unknown properties are no longer refused by the listed schema; the server still refuses them)")
			} else {
				g.lose(p, "additionalProperties schema dropped (the values of other properties are no longer described)")
			}
		case "deprecated":
			if b, ok := m.Value.(bool); ok && b {
				notes = append(notes, "Deprecated.")
			}
		default:
			if geminiKeys[m.Key] {
				add(m.Key, m.Value)
			} else {
				g.lose(p, "%s dropped", m.Key)
			}
		}
	}
	if len(notes) > 0 {
		desc, _ := get(out, "description").(string)
		if desc != "" {
			desc += "\n\n"
		}
		desc += strings.Join(notes, " ")
		out = setMember(out, "description", desc)
	}
	return out
}

// get returns the value of key in o, nil when absent.
func get(o Object, key string) any {
	for _, m := range o {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// setMember returns o with key set to v: in place of an existing member,
// else appended. o's backing array is not written to.
func setMember(o Object, key string, v any) Object {
	out := make(Object, 0, len(o)+1)
	found := false
	for _, m := range o {
		if m.Key == key {
			m.Value = v
			found = true
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, Member{key, v})
	}
	return out
}

func isNullOnly(o Object) bool {
	return len(o) == 1 && o[0].Key == "type" && o[0].Value == "null"
}

// jsonString returns v as a Go string when it is a JSON string.
func jsonString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.RawMessage:
		var s string
		if json.Unmarshal(x, &s) == nil {
			return s, true
		}
	}
	return "", false
}

// stringEnum returns the values of an enum when all are strings (a null
// among them is left to "nullable").
func stringEnum(v any) ([]string, bool) {
	vs, ok := v.([]json.RawMessage)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(vs))
	for _, r := range vs {
		if string(r) == "null" {
			continue
		}
		s, ok := jsonString(r)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// jsonText is v as compact JSON.
func jsonText(v any) string {
	b, err := appendJSON(nil, v, noLimit)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func orAny(typ string) string {
	if typ == "" {
		return "an untyped value"
	}
	return typ
}
