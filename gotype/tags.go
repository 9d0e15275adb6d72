package gotype

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// keywordName is what a jsonschema tag keyword looks like.
var keywordName = regexp.MustCompile(`^[A-Za-z]+$`)

// arrayKeys apply to an array itself; the other keywords of an array
// field's tag apply to its items, as in invopop/jsonschema.
var arrayKeys = map[string]bool{"minItems": true, "maxItems": true, "uniqueItems": true}

// applyTag applies a jsonschema struct tag (invopop/jsonschema syntax:
// "minLength=1,enum=a,enum=b,required") to the schema of a field.
func (r *resolver) applyTag(s *spec.Schema, tag, what string) {
	var itemParts []string
	parts := splitTag(tag)
	for i, part := range parts {
		key, val, hasVal := strings.Cut(part, "=")
		if i > 0 && key != "" && !keywordName.MatchString(key) {
			// Most likely a comma inside the previous value (a pattern's
			// {4,} or a description), which ended it early.
			prev := parts[i-1]
			r.errorf("go %s: %s: jsonschema tag: %q is not a keyword: a comma ends a value, so %q stopped before it; escape a comma inside a value with a backslash, written \\\\, inside the tag's quotes in Go source (%s)",
				r.ref, what, part, prev, prev+`\\,`+part)
			continue
		}
		switch key {
		case "", "required":
			continue
		case "title":
			s.Title = val
			continue
		case "description":
			s.Description = val
			continue
		case "deprecated":
			s.Deprecated = !hasVal || val == "true"
			continue
		}
		if s.Type == spec.KindArray && !arrayKeys[key] {
			itemParts = append(itemParts, part)
			continue
		}
		if s.Ref != "" {
			r.errorf("go %s: %s: jsonschema keyword %q does not apply to a struct type", r.ref, what, key)
			continue
		}
		r.keyword(s, key, val, what)
	}
	if len(itemParts) > 0 {
		items := s.Items
		if items.Ref != "" || items.Type == spec.KindArray {
			r.errorf("go %s: %s: jsonschema keywords %s do not apply to the array's items", r.ref, what, strings.Join(itemParts, ","))
			return
		}
		for _, part := range itemParts {
			key, val, _ := strings.Cut(part, "=")
			r.keyword(items, key, val, what)
		}
	}
}

// keyword applies one constraint keyword to a scalar, array or map schema.
func (r *resolver) keyword(s *spec.Schema, key, val, what string) {
	bad := func(why string) {
		r.errorf("go %s: %s: jsonschema %s=%s: %s", r.ref, what, key, val, why)
	}
	kinds := map[string][]spec.Kind{
		"minLength": {spec.KindString}, "maxLength": {spec.KindString}, "pattern": {spec.KindString}, "format": {spec.KindString},
		"minimum": {spec.KindInteger, spec.KindNumber}, "maximum": {spec.KindInteger, spec.KindNumber},
		"exclusiveMinimum": {spec.KindInteger, spec.KindNumber}, "exclusiveMaximum": {spec.KindInteger, spec.KindNumber},
		"multipleOf": {spec.KindInteger, spec.KindNumber},
		"minItems":   {spec.KindArray}, "maxItems": {spec.KindArray}, "uniqueItems": {spec.KindArray},
		"minProperties": {spec.KindObject}, "maxProperties": {spec.KindObject},
		"enum":    {spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean},
		"const":   {spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean},
		"default": {spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean},
		"example": {spec.KindString, spec.KindInteger, spec.KindNumber, spec.KindBoolean},
	}
	ks, known := kinds[key]
	if !known {
		r.errorf("go %s: %s: unknown jsonschema keyword %q", r.ref, what, key)
		return
	}
	ok := false
	for _, k := range ks {
		ok = ok || k == s.Type
	}
	// A time.Time, runtime.Date or []byte is always a valid date-time,
	// date or base64 string: no constraint on the string applies.
	if g := strings.TrimPrefix(s.GoType, "*"); !ok || (g == "time.Time" || g == runtimeDate || g == "[]byte") && key != "example" {
		bad("does not apply to a value of Go type " + strings.TrimPrefix(s.GoType, "*"))
		return
	}
	count := func() *int64 {
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n < 0 {
			bad("needs a non-negative integer")
			return nil
		}
		return &n
	}
	num := func() *float64 {
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			bad("needs a number")
			return nil
		}
		return &x
	}
	// tighter keeps the stricter of a type's own range and the tag's bound.
	tighter := func(old, x *float64, lower bool) *float64 {
		if x == nil || old == nil {
			return x
		}
		if lower == (*x > *old) {
			return x
		}
		return old
	}
	switch key {
	case "minLength":
		s.MinLength = count()
	case "maxLength":
		s.MaxLength = count()
	case "minItems":
		s.MinItems = count()
	case "maxItems":
		s.MaxItems = count()
	case "minProperties":
		s.MinProperties = count()
	case "maxProperties":
		s.MaxProperties = count()
	case "uniqueItems":
		s.UniqueItems = val == "" || val == "true"
	case "pattern":
		if _, err := regexp.Compile(val); err != nil {
			bad("not a Go regular expression: " + err.Error())
			return
		}
		s.Pattern = val
	case "format":
		switch val {
		case "date", "date-time", "email", "uri", "uuid":
			s.Format = val
		default:
			bad("use one of date, date-time, email, uri, uuid")
		}
	case "minimum":
		s.Minimum = tighter(s.Minimum, num(), true)
	case "maximum":
		s.Maximum = tighter(s.Maximum, num(), false)
	case "exclusiveMinimum":
		s.ExclusiveMinimum = num()
	case "exclusiveMaximum":
		s.ExclusiveMaximum = num()
	case "multipleOf":
		if x := num(); x != nil && *x > 0 {
			s.MultipleOf = x
		} else if x != nil {
			bad("must be greater than 0")
		}
	case "enum", "const", "default", "example":
		v := r.value(s.Type, val, bad)
		if v == nil {
			return
		}
		switch key {
		case "enum":
			s.Enum = append(s.Enum, v)
		case "const":
			s.Const = v
		case "default":
			s.Default = v
		case "example":
			s.Examples = append(s.Examples, v)
		}
	}
}

// value is the JSON value of a tag's text for a schema of type k.
func (r *resolver) value(k spec.Kind, text string, bad func(string)) json.RawMessage {
	switch k {
	case spec.KindString:
		b, _ := json.Marshal(text)
		return b
	case spec.KindInteger:
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			bad("needs an integer")
			return nil
		}
		return json.RawMessage(text)
	case spec.KindNumber:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			bad("needs a number")
			return nil
		}
		return json.RawMessage(strconv.FormatFloat(x, 'g', -1, 64))
	case spec.KindBoolean:
		if text != "true" && text != "false" {
			bad("needs true or false")
			return nil
		}
		return json.RawMessage(text)
	}
	return nil
}
