package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// This file is a small JSON Schema (draft 2020-12) interpreter for the
// documents mcpgen writes to schemas/*.schema.json: it checks the JSON an
// upstream API answered against a tool's output schemas. Responses are not
// decoded into generated Go types (for large APIs those types and their
// decoders were most of the generated code and of its compile time); they
// pass through as structuredContent once checked here.
//
// Supported: boolean schemas, $ref (to "#" and JSON pointers within the
// document, such as "#/$defs/Name"), type (a name or a list), enum, const,
// properties, required, additionalProperties, patternProperties,
// propertyNames, minProperties, maxProperties, items, prefixItems,
// minItems, maxItems, uniqueItems, contains (with minContains and
// maxContains), minLength, maxLength, pattern, format (date, date-time,
// email, uri, uuid; others are annotations), minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf, allOf, anyOf, oneOf,
// not, if/then/else and dependentRequired. Other keywords are annotations.
// A pattern that Go's regexp cannot compile is left unchecked.

// compiledSchema is one compiled schema of a document.
type compiledSchema struct {
	// always is set for the boolean schemas true (accept) and false (reject).
	always, never bool
	ref           *compiledSchema
	types         typeSet
	enum          []any
	hasConst      bool
	constant      any

	properties    map[string]*compiledSchema
	required      []string
	additional    *compiledSchema // nil: any further property is accepted
	patternProps  []patternSchema
	propertyNames *compiledSchema
	minProps      int
	maxProps      int // < 0: no bound
	depRequired   map[string][]string

	items                    *compiledSchema
	prefixItems              []*compiledSchema
	contains                 *compiledSchema
	minContains              int
	maxContains              int // < 0: no bound
	minItems, maxItems       int // maxItems < 0: no bound
	uniqueItems              bool
	minLength, maxLength     int // maxLength < 0: no bound
	pattern                  *regexp.Regexp
	format                   string
	minimum, maximum         *float64
	exclMinimum, exclMaximum *float64
	multipleOf               float64

	allOf, anyOf, oneOf []*compiledSchema
	not                 *compiledSchema
	ifS, thenS, elseS   *compiledSchema
}

type patternSchema struct {
	re *regexp.Regexp
	s  *compiledSchema
}

// typeSet is a set of JSON Schema type names; 0 allows every type.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeObject
	typeArray
	typeNumber
	typeString
	typeInteger
)

var typeNames = map[string]typeSet{
	"null": typeNull, "boolean": typeBoolean, "object": typeObject, "array": typeArray,
	"number": typeNumber, "string": typeString, "integer": typeInteger,
}

func (t typeSet) String() string {
	var names []string
	for _, n := range []string{"boolean", "object", "array", "number", "integer", "string", "null"} {
		if t&typeNames[n] != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, " or ")
}

// schemaCompiler compiles one document, each JSON pointer once, so that
// references (recursive ones included) share their compiled schema.
type schemaCompiler struct {
	root any
	done map[string]*compiledSchema
}

// compileSchema compiles the JSON Schema document doc.
func compileSchema(doc []byte) (*compiledSchema, error) {
	root, err := decodeJSONValue(doc)
	if err != nil {
		return nil, fmt.Errorf("schema document: %w", err)
	}
	c := &schemaCompiler{root: root, done: map[string]*compiledSchema{}}
	return c.at("")
}

// decodeJSONValue decodes one JSON value, keeping numbers as json.Number.
func decodeJSONValue(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// at compiles the schema at the JSON pointer ptr of the document.
func (c *schemaCompiler) at(ptr string) (*compiledSchema, error) {
	if s, ok := c.done[ptr]; ok {
		return s, nil
	}
	v := c.root
	if ptr != "" {
		for _, tok := range strings.Split(ptr[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch x := v.(type) {
			case map[string]any:
				v = x[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(x) {
					return nil, fmt.Errorf("no schema at %q", ptr)
				}
				v = x[i]
			default:
				return nil, fmt.Errorf("no schema at %q", ptr)
			}
		}
	}
	s := &compiledSchema{}
	c.done[ptr] = s
	return s, c.fill(s, v, ptr)
}

func (c *schemaCompiler) fill(s *compiledSchema, v any, ptr string) error {
	switch x := v.(type) {
	case bool:
		s.always, s.never = x, !x
		return nil
	case map[string]any:
	default:
		return fmt.Errorf("schema at %q is not an object or a boolean", ptr)
	}
	o := v.(map[string]any)
	s.maxProps, s.maxItems, s.maxLength, s.maxContains, s.minContains = -1, -1, -1, -1, 1
	sub := func(key string) (*compiledSchema, error) {
		if _, ok := o[key]; !ok {
			return nil, nil
		}
		return c.at(ptr + "/" + escapePointer(key))
	}
	list := func(key string) ([]*compiledSchema, error) {
		a, _ := o[key].([]any)
		var out []*compiledSchema
		for i := range a {
			cs, err := c.at(ptr + "/" + escapePointer(key) + "/" + strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out = append(out, cs)
		}
		return out, nil
	}
	var err error
	if r, ok := o["$ref"].(string); ok {
		if !strings.HasPrefix(r, "#") {
			return fmt.Errorf("schema at %q: $ref %q is not within the document", ptr, r)
		}
		if s.ref, err = c.at(unescapeFragment(r[1:])); err != nil {
			return err
		}
	}
	switch t := o["type"].(type) {
	case string:
		s.types = typeNames[t]
	case []any:
		for _, n := range t {
			if n, ok := n.(string); ok {
				s.types |= typeNames[n]
			}
		}
	}
	if e, ok := o["enum"].([]any); ok {
		s.enum = e
		if s.enum == nil {
			s.enum = []any{}
		}
	}
	if cv, ok := o["const"]; ok {
		s.hasConst, s.constant = true, cv
	}
	if props, ok := o["properties"].(map[string]any); ok {
		s.properties = make(map[string]*compiledSchema, len(props))
		for name := range props {
			if s.properties[name], err = c.at(ptr + "/properties/" + escapePointer(name)); err != nil {
				return err
			}
		}
	}
	if req, ok := o["required"].([]any); ok {
		for _, r := range req {
			if r, ok := r.(string); ok {
				s.required = append(s.required, r)
			}
		}
	}
	if s.additional, err = sub("additionalProperties"); err != nil {
		return err
	}
	if pp, ok := o["patternProperties"].(map[string]any); ok {
		keys := make([]string, 0, len(pp))
		for k := range pp {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			re, rerr := regexp.Compile(k)
			cs, err := c.at(ptr + "/patternProperties/" + escapePointer(k))
			if err != nil {
				return err
			}
			if rerr == nil {
				s.patternProps = append(s.patternProps, patternSchema{re, cs})
			}
		}
	}
	if s.propertyNames, err = sub("propertyNames"); err != nil {
		return err
	}
	if dr, ok := o["dependentRequired"].(map[string]any); ok {
		s.depRequired = map[string][]string{}
		for k, v := range dr {
			a, _ := v.([]any)
			for _, n := range a {
				if n, ok := n.(string); ok {
					s.depRequired[k] = append(s.depRequired[k], n)
				}
			}
		}
	}
	if s.items, err = sub("items"); err != nil {
		return err
	}
	if s.prefixItems, err = list("prefixItems"); err != nil {
		return err
	}
	if s.contains, err = sub("contains"); err != nil {
		return err
	}
	if s.not, err = sub("not"); err != nil {
		return err
	}
	if s.ifS, err = sub("if"); err != nil {
		return err
	}
	if s.thenS, err = sub("then"); err != nil {
		return err
	}
	if s.elseS, err = sub("else"); err != nil {
		return err
	}
	if s.allOf, err = list("allOf"); err != nil {
		return err
	}
	if s.anyOf, err = list("anyOf"); err != nil {
		return err
	}
	if s.oneOf, err = list("oneOf"); err != nil {
		return err
	}
	intKw := func(key string, dst *int) {
		if n, ok := o[key].(json.Number); ok {
			if f, err := n.Float64(); err == nil && f >= 0 {
				*dst = int(math.Min(f, math.MaxInt32))
			}
		}
	}
	intKw("minProperties", &s.minProps)
	intKw("maxProperties", &s.maxProps)
	intKw("minItems", &s.minItems)
	intKw("maxItems", &s.maxItems)
	intKw("minLength", &s.minLength)
	intKw("maxLength", &s.maxLength)
	intKw("minContains", &s.minContains)
	intKw("maxContains", &s.maxContains)
	s.uniqueItems, _ = o["uniqueItems"].(bool)
	if p, ok := o["pattern"].(string); ok {
		s.pattern, _ = regexp.Compile(p) // what Go cannot compile is left unchecked
	}
	s.format, _ = o["format"].(string)
	numKw := func(key string) *float64 {
		if n, ok := o[key].(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				return &f
			}
		}
		return nil
	}
	s.minimum, s.maximum = numKw("minimum"), numKw("maximum")
	s.exclMinimum, s.exclMaximum = numKw("exclusiveMinimum"), numKw("exclusiveMaximum")
	if m := numKw("multipleOf"); m != nil && *m > 0 {
		s.multipleOf = *m
	}
	return nil
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapeFragment undoes the percent-encoding of a URI fragment; a
// malformed escape leaves the fragment as written.
func unescapeFragment(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// Deviation is one place where a JSON value breaks a schema.
type Deviation struct {
	// Pointer is the JSON pointer of the value ("" for the root).
	Pointer string
	// Problem says what the schema expected.
	Problem string
}

func (d Deviation) String() string {
	p := d.Pointer
	if p == "" {
		p = "(root)"
	}
	return p + ": " + d.Problem
}

// validator collects the deviations of one value, up to max; with
// collect false it only finds out whether there is one, without building
// JSON pointers or sorting keys (the common case of a valid response).
type validator struct {
	collect bool
	out     []Deviation
	max     int
	// more counts the deviations past max.
	more int
}

// at is the path of a member or item of the value at ptr, when collecting.
func (v *validator) at(ptr []string, tok string) []string {
	if !v.collect {
		return nil
	}
	return child(ptr, tok)
}

func (v *validator) add(ptr []string, format string, args ...any) {
	if !v.collect || len(v.out) >= v.max {
		v.more++
		return
	}
	v.out = append(v.out, Deviation{Pointer: pointerString(ptr), Problem: fmt.Sprintf(format, args...)})
}

// child is the path of a member or item of the value at ptr; ptr is
// shared by siblings, so it is never appended to in place.
func child(ptr []string, tok string) []string {
	return append(ptr[:len(ptr):len(ptr)], tok)
}

func pointerString(ptr []string) string {
	var b strings.Builder
	for _, p := range ptr {
		b.WriteByte('/')
		b.WriteString(escapePointer(p))
	}
	return b.String()
}

// valid reports whether x satisfies s, without collecting deviations.
func (s *compiledSchema) valid(x any) bool {
	var v validator
	return s.check(&v, nil, x)
}

// validate returns up to max deviations of x from s, and how many more
// there are. A valid x is walked once, without collecting.
func (s *compiledSchema) validate(x any, max int) ([]Deviation, int) {
	if s.valid(x) {
		return nil, 0
	}
	v := validator{collect: true, max: max}
	s.check(&v, nil, x)
	return v.out, v.more
}

// check reports whether x satisfies s, adding each deviation to v.
func (s *compiledSchema) check(v *validator, ptr []string, x any) bool {
	if s.always {
		return true
	}
	if s.never {
		v.add(ptr, "no value is allowed here")
		return false
	}
	ok := true
	if s.ref != nil {
		ok = s.ref.check(v, ptr, x) && ok
	}
	t := typeOf(x)
	if s.types != 0 && s.types&t == 0 && !(t == typeInteger && s.types&typeNumber != 0) {
		v.add(ptr, "expected %s, got %s", s.types, t)
		return false // the keywords of the other types say nothing more
	}
	if s.enum != nil {
		found := false
		for _, e := range s.enum {
			if equalJSONValue(e, x) {
				found = true
				break
			}
		}
		if !found {
			v.add(ptr, "%s is not one of the documented values", shortJSON(x))
			ok = false
		}
	}
	if s.hasConst && !equalJSONValue(s.constant, x) {
		v.add(ptr, "expected %s, got %s", shortJSON(s.constant), shortJSON(x))
		ok = false
	}
	switch x := x.(type) {
	case map[string]any:
		ok = s.checkObject(v, ptr, x) && ok
	case []any:
		ok = s.checkArray(v, ptr, x) && ok
	case string:
		ok = s.checkString(v, ptr, x) && ok
	case json.Number:
		ok = s.checkNumber(v, ptr, x) && ok
	}
	for _, a := range s.allOf {
		ok = a.check(v, ptr, x) && ok
	}
	if len(s.anyOf) > 0 {
		any := false
		for _, a := range s.anyOf {
			if a.valid(x) {
				any = true
				break
			}
		}
		if !any {
			v.add(ptr, "matches none of the %d anyOf alternatives", len(s.anyOf))
			ok = false
		}
	}
	if len(s.oneOf) > 0 {
		n := 0
		for _, a := range s.oneOf {
			if a.valid(x) {
				n++
			}
		}
		if n != 1 {
			v.add(ptr, "matches %d of the %d oneOf alternatives, not exactly one", n, len(s.oneOf))
			ok = false
		}
	}
	if s.not != nil && s.not.valid(x) {
		v.add(ptr, "matches a schema it must not match (not)")
		ok = false
	}
	if s.ifS != nil {
		if s.ifS.valid(x) {
			if s.thenS != nil {
				ok = s.thenS.check(v, ptr, x) && ok
			}
		} else if s.elseS != nil {
			ok = s.elseS.check(v, ptr, x) && ok
		}
	}
	return ok
}

func (s *compiledSchema) checkObject(v *validator, ptr []string, x map[string]any) bool {
	ok := true
	for _, r := range s.required {
		if _, has := x[r]; !has {
			v.add(v.at(ptr, r), "is required")
			ok = false
		}
	}
	for k, deps := range s.depRequired {
		if _, has := x[k]; has {
			for _, d := range deps {
				if _, has := x[d]; !has {
					v.add(v.at(ptr, d), "is required when %q is present", k)
					ok = false
				}
			}
		}
	}
	if len(x) < s.minProps {
		v.add(ptr, "has %d properties, fewer than %d", len(x), s.minProps)
		ok = false
	}
	if s.maxProps >= 0 && len(x) > s.maxProps {
		v.add(ptr, "has %d properties, more than %d", len(x), s.maxProps)
		ok = false
	}
	if len(x) == 0 {
		return ok
	}
	if !v.collect {
		for k, val := range x {
			if !s.checkMember(v, nil, k, val) {
				return false
			}
		}
		return ok
	}
	// Sorted keys: the same response gives the same deviations.
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ok = s.checkMember(v, child(ptr, k), k, x[k]) && ok
	}
	return ok
}

// checkMember checks the member k of an object, at p.
func (s *compiledSchema) checkMember(v *validator, p []string, k string, val any) bool {
	ok := true
	if s.propertyNames != nil && !s.propertyNames.valid(k) {
		v.add(p, "the property name is not allowed")
		ok = false
	}
	matched := false
	if ps, has := s.properties[k]; has {
		matched = true
		ok = ps.check(v, p, val) && ok
	}
	for _, pp := range s.patternProps {
		if pp.re.MatchString(k) {
			matched = true
			ok = pp.s.check(v, p, val) && ok
		}
	}
	if !matched && s.additional != nil {
		if s.additional.never {
			v.add(p, "is not a documented property")
			ok = false
		} else {
			ok = s.additional.check(v, p, val) && ok
		}
	}
	return ok
}

func (s *compiledSchema) checkArray(v *validator, ptr []string, x []any) bool {
	ok := true
	if len(x) < s.minItems {
		v.add(ptr, "has %d items, fewer than %d", len(x), s.minItems)
		ok = false
	}
	if s.maxItems >= 0 && len(x) > s.maxItems {
		v.add(ptr, "has %d items, more than %d", len(x), s.maxItems)
		ok = false
	}
	for i, e := range x {
		var p []string
		if v.collect {
			p = child(ptr, strconv.Itoa(i))
		}
		switch {
		case i < len(s.prefixItems):
			ok = s.prefixItems[i].check(v, p, e) && ok
		case s.items != nil:
			ok = s.items.check(v, p, e) && ok
		}
		if !ok && !v.collect {
			return false
		}
	}
	if s.uniqueItems {
	dup:
		for i := range x {
			for j := i + 1; j < len(x); j++ {
				if equalJSONValue(x[i], x[j]) {
					v.add(ptr, "items %d and %d are equal; the items must be unique", i, j)
					ok = false
					break dup
				}
			}
		}
	}
	if s.contains != nil {
		n := 0
		for _, e := range x {
			if s.contains.valid(e) {
				n++
			}
		}
		if n < s.minContains || s.maxContains >= 0 && n > s.maxContains {
			v.add(ptr, "has %d items matching contains", n)
			ok = false
		}
	}
	return ok
}

func (s *compiledSchema) checkString(v *validator, ptr []string, x string) bool {
	ok := true
	if s.minLength > 0 || s.maxLength >= 0 {
		n := utf8.RuneCountInString(x)
		if n < s.minLength {
			v.add(ptr, "is %d characters long, shorter than %d", n, s.minLength)
			ok = false
		}
		if s.maxLength >= 0 && n > s.maxLength {
			v.add(ptr, "is %d characters long, longer than %d", n, s.maxLength)
			ok = false
		}
	}
	if s.pattern != nil && !s.pattern.MatchString(x) {
		v.add(ptr, "does not match the pattern %s", s.pattern)
		ok = false
	}
	var fmtOK bool
	switch s.format {
	case "date":
		fmtOK = wire.IsDate(x)
	case "date-time":
		fmtOK = wire.IsDateTime(x)
	case "email":
		fmtOK = wire.IsEmail(x)
	case "uri":
		fmtOK = wire.IsURI(x)
	case "uuid":
		fmtOK = wire.IsUUID(x)
	default:
		fmtOK = true
	}
	if !fmtOK {
		v.add(ptr, "is not a valid %s", s.format)
		ok = false
	}
	return ok
}

func (s *compiledSchema) checkNumber(v *validator, ptr []string, x json.Number) bool {
	if s.minimum == nil && s.maximum == nil && s.exclMinimum == nil && s.exclMaximum == nil && s.multipleOf == 0 {
		return true
	}
	// Out of float64's range, f is ±Inf, which compares right with every
	// bound; multipleOf is then decided exactly.
	f, _ := strconv.ParseFloat(string(x), 64)
	ok := true
	if s.minimum != nil && f < *s.minimum {
		v.add(ptr, "%s is less than the minimum %v", x, *s.minimum)
		ok = false
	}
	if s.maximum != nil && f > *s.maximum {
		v.add(ptr, "%s is greater than the maximum %v", x, *s.maximum)
		ok = false
	}
	if s.exclMinimum != nil && f <= *s.exclMinimum {
		v.add(ptr, "%s is not greater than %v", x, *s.exclMinimum)
		ok = false
	}
	if s.exclMaximum != nil && f >= *s.exclMaximum {
		v.add(ptr, "%s is not less than %v", x, *s.exclMaximum)
		ok = false
	}
	if s.multipleOf != 0 && !isMultipleOf(string(x), f, s.multipleOf) {
		v.add(ptr, "%s is not a multiple of %v", x, s.multipleOf)
		ok = false
	}
	return ok
}

// isMultipleOf reports whether the JSON number n (f as a float64) is a
// multiple of m, exactly when n is beyond float64's range.
func isMultipleOf(n string, f, m float64) bool {
	if !math.IsInf(f, 0) {
		return wire.IsMultipleOf(f, m)
	}
	r, ok := new(big.Rat).SetString(n)
	mr := new(big.Rat)
	if !ok || mr.SetFloat64(m) == nil {
		return false
	}
	return r.Quo(r, mr).IsInt()
}

// typeOf is the most specific type of a decoded JSON value: integer for
// a number with no fractional part.
func typeOf(x any) typeSet {
	switch x := x.(type) {
	case nil:
		return typeNull
	case bool:
		return typeBoolean
	case map[string]any:
		return typeObject
	case []any:
		return typeArray
	case string:
		return typeString
	case json.Number:
		if isIntegerNumber(string(x)) {
			return typeInteger
		}
		return typeNumber
	}
	return 0
}

// isIntegerNumber reports whether the JSON number text n is an integer
// (1, 1.0 and 1e3 are; 1.5 is not), exactly, whatever its size.
func isIntegerNumber(n string) bool {
	if !strings.ContainsAny(n, ".eE") {
		return true
	}
	r, ok := new(big.Rat).SetString(n)
	return ok && r.IsInt()
}

// equalJSONValue compares decoded JSON values, numbers by their value.
func equalJSONValue(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == bn {
			return true
		}
		ra, oka := new(big.Rat).SetString(string(a))
		rb, okb := new(big.Rat).SetString(string(bn))
		return oka && okb && ra.Cmp(rb) == 0
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !equalJSONValue(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, has := bm[k]
			if !has || !equalJSONValue(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// shortJSON is x as JSON, cut to 60 bytes, for messages.
func shortJSON(x any) string {
	b, _ := json.Marshal(x)
	if len(b) > 60 {
		return string(b[:57]) + "…"
	}
	return string(b)
}
