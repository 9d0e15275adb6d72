package openapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sample makes a value that satisfies schema (a JSON Schema 2020-12
// document as tools/list gives it), preferring the document's own examples
// and defaults, so that calls exercise every property with plausible data.
// Optional properties are filled too, to depth 3, so that their encoding
// into the request is checked as well.
func sample(schema json.RawMessage) any {
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil
	}
	return sampleOf(root, root, 0)
}

// maxSampleDepth stops a schema whose required properties recurse without
// end (readme-oas-examples 3.0/circular-request-bodies.json): no finite
// value satisfies it, and the sample is cut off there.
const maxSampleDepth = 24

// optionalDepth is the depth to which optional properties are filled; past
// it an object gets its required members only and an array one item,
// unless the sample has entered a recursive type (see sampler.cyclic).
const optionalDepth = 3

// A sampler makes one sample of root; onPath counts the "$defs" entries
// being sampled on the way from root to the current schema.
type sampler struct {
	root    map[string]any
	onPath  map[string]int
	repeats int // entries on the path more than once
	// minimal makes objects of their required members only (one more
	// when there would be none): a union's variant sampled a second way,
	// when its full sample matches another variant too.
	minimal bool
	check   *schemaCheck
}

func sampleOf(s, root map[string]any, depth int) any {
	sm := &sampler{root: root, onPath: map[string]int{}, check: newSchemaCheck(root)}
	return sm.of(s, depth)
}

// cyclic reports whether the sample is inside a recursive type (a "$defs"
// entry within itself). There the sampler makes the smallest value it can:
// required members only, and no array items beyond minItems, so that a
// recursive type ends.
func (sm *sampler) cyclic() bool { return sm.repeats > 0 }

func (sm *sampler) of(s map[string]any, depth int) any {
	root := sm.root
	if depth > maxSampleDepth {
		return smallest(resolveRef(s, root))
	}
	if ref, ok := s["$ref"].(string); ok {
		if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
			if defs, ok := root["$defs"].(map[string]any); ok {
				if d, ok := defs[name].(map[string]any); ok {
					if sm.onPath[name]++; sm.onPath[name] > 1 {
						sm.repeats++
					}
					defer func() {
						if sm.onPath[name]--; sm.onPath[name] > 0 {
							sm.repeats--
						}
					}()
					return sm.of(d, depth+1)
				}
			}
		}
		return nil
	}
	// The document's own values, each only when it satisfies s (the
	// reference validator decides): documents carry examples outside
	// their enum, defaults of the wrong type and enums that mix types
	// (readme-oas-examples' schema-enums).
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 && sm.valid(s, ex[0]) {
		return ex[0]
	}
	if d, ok := s["default"]; ok && sm.valid(s, d) {
		return d
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		for _, m := range e {
			if sm.valid(s, m) {
				return m
			}
		}
		return e[0]
	}
	_, hasProps := s["properties"].(map[string]any)
	for _, k := range []string{"oneOf", "anyOf"} {
		if hasProps {
			break // constraint subschemas over the properties: objectSample
		}
		if vs, ok := s[k].([]any); ok && len(vs) > 0 {
			return sm.union(s, vs, depth)
		}
	}
	if all, ok := s["allOf"].([]any); ok && len(all) > 0 {
		// A discriminated variant is published as allOf: [{$ref: X},
		// {properties: {type: {const: tag}}}]: every member's sample,
		// merged.
		merged := map[string]any{}
		for _, m := range all {
			mm, _ := m.(map[string]any)
			obj, ok := sm.of(mm, depth+1).(map[string]any)
			if ok {
				maps.Copy(merged, obj)
			}
		}
		return merged
	}
	typ, _ := s["type"].(string)
	if ts, ok := s["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	if _, ok := s["properties"].(map[string]any); ok && typ == "" {
		typ = "object" // a constraint schema's properties
	}
	switch typ {
	case "object":
		return sm.object(s, depth)
	case "array":
		items, _ := s["items"].(map[string]any)
		minItems, _ := s["minItems"].(float64)
		if items == nil || (depth > optionalDepth && minItems == 0 && sm.cyclic()) {
			return []any{}
		}
		// One item, or as many as minItems wants (Discord's
		// bulk_delete_messages: 2 to 100), each distinct when
		// uniqueItems says so. Past optionalDepth too: a form
		// (deepObject) has no way to send an empty array, and the server
		// refuses one there (Stripe's options: []).
		out := []any{sm.of(items, depth+1)}
		for len(out) < int(minItems) {
			out = append(out, distinct(items, root, out))
		}
		return out
	case "integer":
		return int64(sampleNumber(s, true))
	case "number":
		return sampleNumber(s, false)
	case "boolean":
		return true
	case "string":
		return sampleString(s)
	case "null":
		return nil
	}
	return "x"
}

// valid reports whether v, one of the document's own values, has the
// type s states and satisfies s as a whole (or the reference validator
// cannot tell).
func (sm *sampler) valid(s map[string]any, v any) bool {
	return fits(s, v) && sm.check.check(s, v) == nil
}

// object samples an object schema: every required member, the optional
// ones to optionalDepth (and past it as many as minProperties wants:
// Discord's integration_types_config), and never an empty object when the
// schema has something to put in it, outside a recursive type: a form
// (deepObject) has no way to send an empty object and the server refuses
// one there (Stripe's shipping.address, whose members are all optional),
// and minProperties may want a member (Discord's map of
// additionalProperties).
func (sm *sampler) object(s map[string]any, depth int) map[string]any {
	obj := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if rs, ok := s["required"].([]any); ok {
		for _, r := range rs {
			required[r.(string)] = true
		}
	}
	leftOut := constrainedOut(s, required)
	minProps, _ := s["minProperties"].(float64)
	names := slices.Sorted(maps.Keys(props))
	for _, name := range names {
		ps, ok := props[name].(map[string]any)
		if !ok || leftOut[name] || (!required[name] && (depth >= optionalDepth || sm.minimal) && len(obj) >= int(minProps)) {
			continue
		}
		if v := sm.of(ps, depth+1); v != nil || required[name] {
			obj[name] = v
		}
	}
	if len(obj) > 0 || (sm.cyclic() && minProps == 0) {
		return obj
	}
	// One optional member: a scalar one when there is one, since it ends
	// the sample there.
	for _, scalarOnly := range []bool{true, false} {
		for _, name := range names {
			ps, ok := props[name].(map[string]any)
			if !ok || leftOut[name] || (scalarOnly && !scalar(resolveRef(ps, sm.root))) {
				continue
			}
			if v := sm.of(ps, depth+1); v != nil {
				obj[name] = v
				return obj
			}
		}
	}
	// An object of additionalProperties only (a map): one entry, named
	// to fit propertyNames. Not the arguments themselves (depth 0): a tool
	// without parameters is called without any.
	extra, ok := s["additionalProperties"].(map[string]any)
	if !ok && s["additionalProperties"] != false && len(props) == 0 {
		extra, ok = map[string]any{}, true // any value: a string
	}
	if ok && depth > 0 {
		key := "sample"
		if pn, ok := s["propertyNames"].(map[string]any); ok {
			pn = maps.Clone(pn)
			pn["type"] = "string" // a property name is one
			if k, ok := sm.of(pn, depth+1).(string); ok {
				key = k
			}
		}
		if len(extra) == 0 {
			obj[key] = "sample"
		} else {
			obj[key] = sm.of(extra, depth+1)
		}
	}
	return obj
}

// union samples a oneOf or anyOf s of variants vs by one of its variants,
// so that the value satisfies s as a whole: for a oneOf, one that matches
// exactly one variant (the reference validator decides; variants that are
// open objects, or strings that overlap, take the same values). Each
// variant is tried in turn: its sample, then its smallest sample (required
// members only), then the smallest with one more member of the full one,
// which may be what tells it from the others. When none satisfies s (or
// the validator cannot tell), the first variant's sample.
func (sm *sampler) union(s map[string]any, vs []any, depth int) any {
	var first any
	tried := false
	for _, x := range vs {
		v, ok := x.(map[string]any)
		if !ok {
			continue
		}
		full := sm.of(v, depth+1)
		if !tried {
			first, tried = full, true
		}
		if sm.check.check(s, full) == nil {
			return sm.untagged(s, v, vs, full)
		}
		was := sm.minimal
		sm.minimal = true
		least := sm.of(v, depth+1)
		sm.minimal = was
		if sm.check.check(s, least) == nil {
			return sm.untagged(s, v, vs, least)
		}
		fo, ok1 := full.(map[string]any)
		lo, ok2 := least.(map[string]any)
		if !ok1 || !ok2 {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(fo)) {
			if _, ok := lo[k]; ok {
				continue
			}
			c := maps.Clone(lo)
			c[k] = fo[k]
			if sm.check.check(s, c) == nil {
				return c
			}
		}
		if c := sm.unlike(v, vs, fo, false); sm.check.check(s, c) == nil {
			return sm.untagged(s, v, vs, c)
		}
	}
	return first
}

// untagged makes obj, a sample of variant v that satisfies the union s,
// unlike the other variants of vs without their discriminator tags too,
// when it still satisfies s that way: the server selects a discriminated
// variant by its tag (published as a const), but the document's variants
// may not carry one and a validator that ignores the discriminator, as
// Prism does, then finds several variants matching (readme-oas-examples'
// discriminators: a Cat that is also an open Dog).
func (sm *sampler) untagged(s, v map[string]any, vs []any, obj any) any {
	o, ok := obj.(map[string]any)
	if !ok {
		return obj
	}
	if c := sm.unlike(v, vs, o, true); sm.check.check(s, c) == nil {
		return c
	}
	return obj
}

// withoutTags is s with the const of every property dropped, at its top
// level and in its allOf members: the discriminator's tag, as the
// generator publishes it beside the variant's "$ref".
func withoutTags(s map[string]any) map[string]any {
	strip := func(m map[string]any) map[string]any {
		props, ok := m["properties"].(map[string]any)
		if !ok {
			return m
		}
		m, props = maps.Clone(m), maps.Clone(props)
		for k, p := range props {
			if pm, ok := p.(map[string]any); ok {
				if _, ok := pm["const"]; ok {
					pm = maps.Clone(pm)
					delete(pm, "const")
					props[k] = pm
				}
			}
		}
		m["properties"] = props
		return m
	}
	s = strip(s)
	if all, ok := s["allOf"].([]any); ok {
		s = maps.Clone(s)
		all = slices.Clone(all)
		for i, a := range all {
			if am, ok := a.(map[string]any); ok {
				all[i] = strip(am)
			}
		}
		s["allOf"] = all
	}
	return s
}

// unlike adds to obj, a sample of variant v, a member that each other
// variant of vs declares and v does not, with a value of another type than
// that variant's, so that obj no longer matches it: open objects that
// differ only in their optional members (a oneOf of {a, b} and {c, d})
// take the same values otherwise.
//
// With untagged, the other variants are read without their discriminator
// tags (withoutTags).
func (sm *sampler) unlike(v map[string]any, vs []any, obj map[string]any, untagged bool) map[string]any {
	obj = maps.Clone(obj)
	own := declared(v, sm.root)
	for _, x := range vs {
		w, ok := x.(map[string]any)
		if ok && untagged {
			w = withoutTags(w)
		}
		if !ok || mustJSON(x) == mustJSON(v) || sm.check.check(w, obj) != nil {
			continue // v itself, or not a variant obj matches
		}
		props := declared(w, sm.root)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			ps, _ := props[name].(map[string]any)
			if _, mine := own[name]; mine || ps == nil || ps["const"] != nil {
				continue
			}
			var other any = 1
			if typ, _ := resolveRef(ps, sm.root)["type"].(string); typ != "string" {
				other = "x"
			}
			c := maps.Clone(obj)
			c[name] = other
			if sm.check.check(w, c) != nil {
				obj = c
				break
			}
		}
	}
	return obj
}

// declared is the properties s declares, "$ref"s followed, its allOf
// members' too.
func declared(s, root map[string]any) map[string]any {
	s = resolveRef(s, root)
	out := map[string]any{}
	if all, ok := s["allOf"].([]any); ok {
		for _, a := range all {
			if am, ok := a.(map[string]any); ok {
				maps.Copy(out, declared(am, root))
			}
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		maps.Copy(out, props)
	}
	return out
}

// smallest is the value the sampler gives s at its depth limit, where a
// schema whose required members recurse without end is cut off: null
// only where s takes null, else the smallest value of its type (an object
// without members, an empty array), which the sweep then reports as its
// own invalid sample when s wanted more.
func smallest(s map[string]any) any {
	types := []any{s["type"]}
	if ts, ok := s["type"].([]any); ok {
		types = ts
	}
	if slices.Contains(types, any("null")) || s["nullable"] == true {
		return nil
	}
	switch types[0] {
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	case "string":
		return sampleString(s)
	case "integer", "number":
		return 1
	case "boolean":
		return true
	}
	if _, ok := s["properties"]; ok {
		return map[string]any{}
	}
	return nil
}

// scalar reports whether s (a "$ref" already followed) is sampled as a
// string, number, boolean or one of its enum values.
func scalar(s map[string]any) bool {
	if _, ok := s["enum"]; ok {
		return true
	}
	if _, ok := s["const"]; ok {
		return true
	}
	typ, _ := s["type"].(string)
	if ts, ok := s["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	switch typ {
	case "string", "integer", "number", "boolean":
		return true
	}
	return false
}

// constrainedOut reads the constraint subschemas beside an object's
// properties (docs/openapi.md, "JSON Schema keywords"): the first branch
// of a oneOf or anyOf of required lists is taken (its properties are added
// to required), the properties only other oneOf branches require are left
// out (exactly one branch may match), and of the properties a not's
// required list names together, an optional one is left out.
func constrainedOut(s map[string]any, required map[string]bool) map[string]bool {
	out := map[string]bool{}
	names := func(c any) []string {
		m, _ := c.(map[string]any)
		rs, _ := m["required"].([]any)
		var ns []string
		for _, r := range rs {
			if n, ok := r.(string); ok {
				ns = append(ns, n)
			}
		}
		return ns
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		vs, _ := s[k].([]any)
		if len(vs) == 0 {
			continue
		}
		first := names(vs[0])
		for _, n := range first {
			required[n] = true
		}
		if k == "oneOf" {
			for _, v := range vs[1:] {
				for _, n := range names(v) {
					if !slices.Contains(first, n) && !required[n] {
						out[n] = true
					}
				}
			}
		}
	}
	if not := names(s["not"]); len(not) > 0 {
		for _, n := range slices.Backward(not) {
			if !required[n] {
				out[n] = true
				break
			}
		}
	}
	return out
}

// distinct is one more item of schema items for the array sample have:
// the first item's sample varied until it differs from every item in have
// and still fits items' pattern (a digit added before or after, or a
// larger number); the first item's sample again when no variation fits.
func distinct(items, root map[string]any, have []any) any {
	first := have[0]
	unique := func(v any) bool {
		for _, h := range have {
			if mustJSON(h) == mustJSON(v) {
				return false
			}
		}
		return true
	}
	switch v := first.(type) {
	case string:
		p, _ := resolveRef(items, root)["pattern"].(string)
		for i := 1; i < 100; i++ {
			for _, c := range []string{fmt.Sprint(i) + v, v + fmt.Sprint(i)} {
				if unique(c) && (p == "" || matches(p, c)) {
					return c
				}
			}
		}
	case float64:
		for i := 1.0; i < 100; i++ {
			if unique(v + i) {
				return v + i
			}
		}
	case int64:
		return v + int64(len(have))
	case int:
		return v + len(have)
	}
	return first
}

// resolveRef follows s's "$ref"s into root's "$defs".
func resolveRef(s, root map[string]any) map[string]any {
	for range maxSampleDepth {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name, _ := strings.CutPrefix(ref, "#/$defs/")
		defs, _ := root["$defs"].(map[string]any)
		d, ok := defs[name].(map[string]any)
		if !ok {
			return s
		}
		s = d
	}
	return s
}

// formatSamples is a value for each string format the reference
// validator, Prism's Ajv (ajv-formats) or the generated validator asserts:
// a value in the format, short, that every one of them takes. Formats that
// assert nothing on a string (binary, password, int32 as a string) take
// any string and are not listed.
var formatSamples = map[string]string{
	"date":                  "2026-07-28",
	"date-time":             "2026-07-28T10:00:00Z",
	"time":                  "10:00:00Z",
	"duration":              "P1D",
	"email":                 "alice@example.com",
	"idn-email":             "alice@example.com",
	"hostname":              "example.com",
	"idn-hostname":          "example.com",
	"ipv4":                  "192.0.2.1",
	"ipv6":                  "2001:db8::1",
	"uri":                   "https://example.com/x",
	"url":                   "https://example.com/x",
	"uri-reference":         "https://example.com/x",
	"iri":                   "https://example.com/x",
	"iri-reference":         "https://example.com/x",
	"uri-template":          "https://example.com/{id}",
	"uuid":                  "0b7e6b1c-58a4-4b0e-9d1c-5f0f4b9f5f4e",
	"json-pointer":          "/foo",
	"relative-json-pointer": "0/foo",
	"regex":                 "^x$",
	"byte":                  "aGVsbG8sIHVwc3RyZWFtIQ==", // "hello, upstream!"
}

// sampleString samples a string schema: a value in its format or its
// encoding, else one its pattern takes, then fitted to minLength and
// maxLength (a base64 value by its decoded length, so that it stays
// base64).
func sampleString(s map[string]any) string {
	f, _ := s["format"].(string)
	if enc, _ := s["contentEncoding"].(string); enc == "base64" || f == "byte" {
		n := len("hello, upstream!")
		if m, ok := s["minLength"].(float64); ok && base64.StdEncoding.EncodedLen(n) < int(m) {
			n = base64.StdEncoding.DecodedLen(int(m) + 3)
		}
		if m, ok := s["maxLength"].(float64); ok {
			for n > 0 && base64.StdEncoding.EncodedLen(n) > int(m) {
				n--
			}
		}
		return base64.StdEncoding.EncodeToString([]byte(strings.Repeat("hello, upstream!", n/16+1)[:n]))
	}
	v, formatted := formatSamples[f]
	if !formatted {
		v = "sample"
	}
	if p, ok := s["pattern"].(string); ok && !matches(p, v) {
		// Twilio's SIDs (^AC[0-9a-fA-F]{32}$): a value the pattern takes.
		if m, ok := fromPattern(p); ok {
			// Padded to minLength with its last character while it still
			// matches (GitHub's commit_sha: ^[0-9a-fA-F]+$, 40 long).
			if n, ok := s["minLength"].(float64); ok && len(m) > 0 && len(m) < int(n) {
				padded := m + strings.Repeat(m[len(m)-1:], int(n)-len(m))
				if matches(p, padded) {
					m = padded
				}
			}
			return m
		}
	}
	if n, ok := s["minLength"].(float64); ok && len(v) < int(n) {
		v = lengthen(f, formatted, v, int(n))
	}
	if n, ok := s["maxLength"].(float64); ok && len(v) > int(n) && !formatted {
		v = v[:int(n)]
	}
	return v
}

// lengthen pads v, a sample of format f (formatted when it has one the
// sampler knows), to n bytes where the format has room for more: the
// local part of an address, a URI's or pointer's path, a host name's
// first label (to 63 bytes). A value in another format is left as it is:
// the format wins over minLength.
func lengthen(f string, formatted bool, v string, n int) string {
	more := func(v string) string { return v + strings.Repeat("x", max(n-len(v), 0)) }
	switch {
	case !formatted:
		return more(v)
	case f == "email" || f == "idn-email":
		local, domain, _ := strings.Cut(v, "@")
		return more(local)[:min(64, max(len(local), n-len(domain)-1))] + "@" + domain
	case f == "hostname" || f == "idn-hostname":
		label, rest, _ := strings.Cut(v, ".")
		return more(label)[:min(63, max(len(label), n-len(rest)-1))] + "." + rest
	case strings.Contains(f, "ur") || strings.Contains(f, "iri") || strings.HasSuffix(f, "json-pointer"):
		return more(v)
	}
	return v
}

// sampleNumber samples a number (or an integer, when integer) that every
// numeric keyword of s takes: minimum and maximum, exclusive either way
// (2020-12's numbers or OpenAPI 3.0's booleans beside minimum and
// maximum), multipleOf, and the range of an int32 or int64 format. 1 (1.5
// for a number) when s bounds nothing; the lower bound (or 1) when no
// value in the bounds was found, which the sweep reports as its own
// invalid sample.
func sampleNumber(s map[string]any, integer bool) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	loEx, hiEx := false, false
	if m, ok := s["minimum"].(float64); ok {
		lo, loEx = m, s["exclusiveMinimum"] == true
	}
	if m, ok := s["exclusiveMinimum"].(float64); ok && m >= lo {
		lo, loEx = m, true
	}
	if m, ok := s["maximum"].(float64); ok {
		hi, hiEx = m, s["exclusiveMaximum"] == true
	}
	if m, ok := s["exclusiveMaximum"].(float64); ok && m <= hi {
		hi, hiEx = m, true
	}
	switch f, _ := s["format"].(string); f {
	case "int32":
		lo, hi = math.Max(lo, math.MinInt32), math.Min(hi, math.MaxInt32)
	case "int64":
		lo, hi = math.Max(lo, -(1<<53)), math.Min(hi, 1<<53)
	}
	in := func(v float64) bool {
		return (v > lo || !loEx && v == lo) && (v < hi || !hiEx && v == hi) &&
			(!integer || v == math.Trunc(v))
	}
	step, _ := s["multipleOf"].(float64)
	if step > 0 {
		// The multiple nearest to the lower bound (or to 1 when there is
		// none) that is in the bounds; tried a few steps on, for an
		// exclusive bound or a fractional step on an integer.
		start := 1.0
		if !math.IsInf(lo, -1) {
			start = lo
		} else if !math.IsInf(hi, 1) && hi < 1 {
			start = hi - 100*step
		}
		k := math.Ceil(start / step)
		for i := range 1000 {
			// The multiple as written in decimal (0.1 * 3 is
			// 0.30000000000000004), and one whose quotient by step is
			// whole in floating point too, as Ajv (Prism) divides: 0.3 /
			// 0.1 is 2.9999999999999996 there, 0.5 / 0.1 is 5.
			v, _ := strconv.ParseFloat(strconv.FormatFloat((k+float64(i))*step, 'g', 12, 64), 64)
			if q := v / step; in(v) && q == math.Trunc(q) {
				return v
			}
		}
		return start
	}
	want := 1.0
	if !integer {
		want = 1.5
	}
	for _, v := range []float64{want, lo, lo + 1, hi, hi - 1, (lo + hi) / 2,
		math.Ceil(lo), math.Floor(hi), math.Ceil((lo + hi) / 2)} {
		if !math.IsInf(v, 0) && !math.IsNaN(v) && in(v) {
			return v
		}
	}
	if !math.IsInf(lo, -1) {
		return lo
	}
	return want
}

// fits reports whether v has the JSON type s states: documents do carry
// examples and defaults of the wrong type (a string default on an array).
func fits(s map[string]any, v any) bool {
	if ts, ok := s["type"].([]any); ok {
		// type: [T, "null"]: v fits when it fits one of them.
		for _, t := range ts {
			if name, ok := t.(string); ok && fits(map[string]any{"type": name}, v) {
				return true
			}
		}
		return false
	}
	typ, _ := s["type"].(string)
	switch v.(type) {
	case string:
		return typ == "" || typ == "string"
	case float64:
		return typ == "" || typ == "number" || typ == "integer"
	case bool:
		return typ == "" || typ == "boolean"
	case []any:
		return typ == "" || typ == "array"
	case map[string]any:
		return typ == "" || typ == "object"
	}
	return typ == "" || typ == "null"
}

func matches(pattern, v string) bool {
	re, err := regexp.Compile(pattern)
	return err == nil && re.MatchString(v)
}

// fromPattern makes the shortest plain string pattern matches (the first
// alternative, the first rune of each class, each repetition at its
// minimum), when it can and the result does match.
func fromPattern(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	var gen func(re *syntax.Regexp) bool
	gen = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpLiteral:
			b.WriteString(string(re.Rune))
		case syntax.OpCharClass:
			if len(re.Rune) == 0 {
				return false
			}
			b.WriteRune(re.Rune[0])
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('x')
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		case syntax.OpCapture:
			return gen(re.Sub[0])
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				if !gen(sub) {
					return false
				}
			}
		case syntax.OpAlternate:
			return gen(re.Sub[0])
		case syntax.OpStar, syntax.OpQuest:
		case syntax.OpPlus:
			return gen(re.Sub[0])
		case syntax.OpRepeat:
			for range re.Min {
				if !gen(re.Sub[0]) {
					return false
				}
			}
		default:
			return false
		}
		return true
	}
	if !gen(re) || !matches(pattern, b.String()) {
		return "", false
	}
	return b.String(), true
}

func TestSampleRequiredRecursion(t *testing.T) {
	// A node that requires a node: sampling must end.
	schema := `{"type":"object","required":["node"],"properties":{"node":{"$ref":"#/$defs/Node"}},
		"$defs":{"Node":{"type":"object","required":["next"],"properties":{"next":{"$ref":"#/$defs/Node"}}}}}`
	for _, all := range []bool{false, true} {
		if v, ok := sampleArgs([]byte(schema), all).(map[string]any); !ok || v["node"] == nil {
			t.Errorf("all=%v: %v", all, v)
		}
	}
}

// TestSampleBounds: the sampler makes as many array items as minItems
// wants, distinct ones that still fit a referenced pattern, also past the
// depth where it otherwise stops, and as many properties as minProperties
// wants (Discord's bulk_delete_messages and integration_types_config).
func TestSampleBounds(t *testing.T) {
	schema := `{"type":"object","required":["messages","deep"],"properties":{
		"messages":{"type":"array","minItems":2,"uniqueItems":true,"items":{"$ref":"#/$defs/Snowflake"}},
		"config":{"type":"object","minProperties":1,"properties":{"a":{"type":"object","minProperties":1,"properties":{"b":{"type":"object","minProperties":1,"properties":{"c":{"type":"integer"}}}}}}},
		"deep":{"$ref":"#/$defs/Row"}},
		"$defs":{"Snowflake":{"type":"string","pattern":"^(0|[1-9][0-9]*)$"},
		"Row":{"type":"object","required":["components"],"properties":{"components":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/Row2"}}}},
		"Row2":{"type":"object","required":["components"],"properties":{"components":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/Row3"}}}},
		"Row3":{"type":"object","required":["components"],"properties":{"components":{"type":"array","minItems":1,"items":{"type":"integer"}}}}}}`
	got := mustJSON(sample([]byte(schema)))
	want := `{"config":{"a":{"b":{"c":1}}},"deep":{"components":[{"components":[{"components":[1]}]}]},"messages":["0","10"]}`
	if got != want {
		t.Errorf("sample = %s\nwant     %s", got, want)
	}
}

func TestFromPattern(t *testing.T) {
	for _, p := range []string{`^AC[0-9a-fA-F]{32}$`, `^[a-z]+(-[a-z]+)*$`, `^\d{3}-\d{4}$`, `(?i)^ab|cd$`} {
		v, ok := fromPattern(p)
		if !ok || !matches(p, v) {
			t.Errorf("fromPattern(%q) = %q, %v", p, v, ok)
		}
	}
}

// TestSampleAllOf: a discriminated variant, published as allOf of the
// variant's $ref and its tag, is sampled as one object (OpenAI's
// conversation items, once sampled as "x").
func TestSampleAllOf(t *testing.T) {
	schema := `{"type":"object","required":["items"],"properties":{"items":{"type":"array","items":{"oneOf":[
		{"allOf":[{"$ref":"#/$defs/Msg"},{"properties":{"type":{"const":"message"}},"required":["type"]}]}]}}},
		"$defs":{"Msg":{"type":"object","required":["role"],"properties":{"role":{"type":"string","enum":["user"]},"type":{"type":"string"}}}}}`
	got, _ := json.Marshal(sample(json.RawMessage(schema)))
	if want := `{"items":[{"role":"user","type":"message"}]}`; string(got) != want {
		t.Errorf("sample = %s, want %s", got, want)
	}
}

// TestSampleConstraints: beside properties, a oneOf of required lists
// gets its first branch only and a not of a required list gets all but
// one, so that the sample satisfies them (OpenAI's file_search and
// ImageRefParam).
func TestSampleConstraints(t *testing.T) {
	schema := `{"type":"object","properties":{
		"file_search":{"type":"object","properties":{"vector_store_ids":{"type":"array","items":{"type":"string"}},"vector_stores":{"type":"array","items":{"type":"object"}}},
			"oneOf":[{"required":["vector_store_ids"]},{"required":["vector_stores"]}]},
		"image":{"type":"object","properties":{"image_url":{"type":"string"},"file_id":{"type":"string"}},
			"anyOf":[{"required":["image_url"]},{"required":["file_id"]}],"not":{"required":["image_url","file_id"]}}}}`
	got, _ := json.Marshal(sample(json.RawMessage(schema)))
	if want := `{"file_search":{"vector_store_ids":["sample"]},"image":{"image_url":"sample"}}`; string(got) != want {
		t.Errorf("sample = %s, want %s", got, want)
	}
}

// A pattern value shorter than minLength is padded while it still matches
// (GitHub's commit_sha: 40 hexadecimal digits).
func TestSamplePatternMinLength(t *testing.T) {
	schema := `{"type":"object","required":["sha"],"properties":{"sha":{"type":"string","minLength":40,"maxLength":40,"pattern":"^[0-9a-fA-F]+$"}}}`
	got := sample([]byte(schema)).(map[string]any)["sha"].(string)
	if len(got) != 40 || !matches(`^[0-9a-fA-F]+$`, got) {
		t.Errorf("sha = %q", got)
	}
}

// TestSamplePastDepthNotEmpty: past the depth where optional members stop,
// an object whose members are all optional still gets one (a scalar one
// first), an array still gets an item, and a map of additionalProperties
// gets an entry named to fit propertyNames, since a form (deepObject)
// cannot carry an empty object or array and the server refuses one
// (Stripe's shipping.address, options and phases[].items; Discord's
// integration_types_config).
func TestSamplePastDepthNotEmpty(t *testing.T) {
	schema := `{"type":"object","required":["features"],"properties":{
		"features":{"$ref":"#/$defs/Features"},
		"config":{"type":["object","null"],"minProperties":1,"additionalProperties":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/Enabled"}]}},
		"labels":{"type":"object","propertyNames":{"pattern":"^[a-z]+-[0-9]$"},"additionalProperties":{"type":"integer"}},
		"closed":{"type":"object","additionalProperties":false}},
		"$defs":{
		"Features":{"type":"object","properties":{"cancel":{"$ref":"#/$defs/Cancel"},"shipping":{"$ref":"#/$defs/Shipping"},"phases":{"type":"array","items":{"$ref":"#/$defs/Phase"}}}},
		"Cancel":{"type":"object","required":["reason"],"properties":{"reason":{"$ref":"#/$defs/Reason"}}},
		"Reason":{"type":"object","required":["enabled","options"],"properties":{"enabled":{"type":"boolean"},
			"options":{"anyOf":[{"type":"array","items":{"type":"string","enum":["other","unused"]}},{"type":"string","enum":[""]}]}}},
		"Shipping":{"type":"object","required":["address","name"],"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/Address"}}},
		"Address":{"type":"object","properties":{"nested":{"type":"object","properties":{"x":{"type":"string"}}},"city":{"type":"string"},"line1":{"type":"string"}}},
		"Phase":{"type":"object","required":["items"],"properties":{"items":{"type":"array","items":{"$ref":"#/$defs/Item"}}}},
		"Item":{"type":"object","properties":{"metadata":{"type":"object","additionalProperties":{"type":"string"}},"price":{"type":"string"}}},
		"Enabled":{"type":"object","properties":{"enabled":{"type":"boolean"}}}}}`
	got := mustJSON(sample([]byte(schema)))
	want := `{"closed":{},"config":{"sample":null},"features":{"cancel":{"reason":{"enabled":true,"options":["other"]}},` +
		`"phases":[{"items":[{"price":"sample"}]}],"shipping":{"address":{"city":"sample"},"name":"sample"}},"labels":{"a-0":1}}`
	if got != want {
		t.Errorf("sample = %s\nwant     %s", got, want)
	}
}

// TestSampleRecursionSmallest: inside a recursive type the sampler stops
// at the smallest value the type takes: no optional member, no array item
// beyond minItems, so a tree ends; a required cycle is cut at its depth
// limit (TestSampleRequiredRecursion).
func TestSampleRecursionSmallest(t *testing.T) {
	schema := `{"type":"object","required":["root"],"properties":{"root":{"$ref":"#/$defs/Node"}},
		"$defs":{"Node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/Node"}},"parent":{"$ref":"#/$defs/Node"}}}}}`
	got := mustJSON(sample([]byte(schema)))
	// Depth counts "$ref" steps too: root (1, 2), children (3, 4); there
	// the recursive Node has entered itself, so it is left empty.
	want := `{"root":{"children":[{}],"parent":{}}}`
	if got != want {
		t.Errorf("sample = %s\nwant     %s", got, want)
	}
}

// TestSampleArgsDeprecated: the all-arguments pass gives every optional
// argument but the deprecated ones (GitHub's search_code: sort and order);
// a required deprecated argument is still given.
func TestSampleArgsDeprecated(t *testing.T) {
	schema := []byte(`{"type": "object", "required": ["q", "status"], "properties": {
		"q": {"type": "string"},
		"status": {"type": "string", "deprecated": true},
		"order": {"type": "string", "enum": ["desc", "asc"], "default": "desc", "deprecated": true},
		"per_page": {"type": "integer"}}}`)
	for all, want := range map[bool][]string{false: {"q", "status"}, true: {"per_page", "q", "status"}} {
		v, _ := sampleArgs(schema, all).(map[string]any)
		if got := slices.Sorted(maps.Keys(v)); !slices.Equal(got, want) {
			t.Errorf("all=%v: arguments %q, want %q", all, got, want)
		}
	}
}

// TestSampleOneOfExactlyOne: a oneOf's sample matches exactly one of its
// variants, as the tool's input schema wants (readme-oas-examples'
// polymorphism and discriminators): open objects that differ only in
// optional members get a member of the other variant's with another type;
// variants with a tag property that is not a const (an embedded
// discriminator) are told apart the same way; overlapping strings and
// arrays take the next variant whose sample matches only it.
func TestSampleOneOfExactlyOne(t *testing.T) {
	schema := `{"type":"object","required":["open","pet","text","list"],"properties":{
		"open":{"oneOf":[{"$ref":"#/$defs/AB"},{"$ref":"#/$defs/CD"}]},
		"pet":{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}]},
		"text":{"oneOf":[{"type":"string","enum":["a"]},{"type":"string"}]},
		"list":{"oneOf":[{"type":"array","items":{"type":"string"}},{"type":"array","items":{"$ref":"#/$defs/AB"}}]},
		"nested":{"type":"object","additionalProperties":false,"properties":{"config":{"oneOf":[{"$ref":"#/$defs/AB"},{"$ref":"#/$defs/CD"},
			{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}]}]}}}},
		"$defs":{
		"AB":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}},
		"CD":{"type":"object","properties":{"c":{"type":"string"},"d":{"type":"string"}}},
		"Cat":{"type":"object","required":["pet_type"],"properties":{"pet_type":{"type":"string"},"hunts":{"type":"boolean"},"age":{"type":"integer"}}},
		"Dog":{"type":"object","required":["pet_type"],"properties":{"pet_type":{"type":"string"},"bark":{"type":"boolean"},"breed":{"type":"string"}}}}}`
	for _, all := range []bool{false, true} {
		args := sampleArgs([]byte(schema), all)
		if err := checkSample([]byte(schema), args); err != nil {
			t.Errorf("all=%v: %s: %v", all, mustJSON(args), err)
		}
	}
	got := mustJSON(sampleArgs([]byte(schema), false))
	want := `{"list":["sample"],"open":{"a":"sample","c":1},"pet":{"bark":"x","pet_type":"sample"},"text":"sample"}`
	if got != want {
		t.Errorf("sample = %s\nwant     %s", got, want)
	}
}

// TestSampleDepthLimitNotNull: where required members recurse without end
// (readme-oas-examples' circular-request-bodies TreeNode), the sample is
// cut off with an empty object, never null for a value that is not
// nullable; no finite value satisfies such a schema, and checkSample says
// so, which the sweep reports as its own invalid sample.
func TestSampleDepthLimitNotNull(t *testing.T) {
	schema := `{"type":"object","required":["node"],"properties":{"node":{"$ref":"#/$defs/Node"}},
		"$defs":{"Node":{"type":"object","required":["id","parent"],"properties":{"id":{"type":"string"},"parent":{"$ref":"#/$defs/Node"}}}}}`
	args := sampleArgs([]byte(schema), false)
	if s := mustJSON(args); strings.Contains(s, "null") || !strings.Contains(s, `"parent":{}`) {
		t.Errorf("sample = %s", s)
	}
	if err := checkSample([]byte(schema), args); err == nil {
		t.Errorf("checkSample accepts %s, which lacks a required parent", mustJSON(args))
	}
	// A oneOf of two identical variants matches both for every value (a
	// document error): the sample is reported, not sent as valid.
	same := `{"type":"object","required":["s"],"properties":{"s":{"oneOf":[{"type":"string"},{"type":"string"}]}}}`
	if err := checkSample([]byte(same), sampleArgs([]byte(same), false)); err == nil || !strings.Contains(err.Error(), "oneOf") {
		t.Errorf("checkSample: %v", err)
	}
}

// TestSampleDiscriminatedUntagged: a discriminated union, published with
// each variant's tag as a const, is sampled by a value that matches one
// variant also when the tags are ignored, as Prism validates the
// document's oneOf (readme-oas-examples' discriminators: patch_pets).
func TestSampleDiscriminatedUntagged(t *testing.T) {
	const defs = `"$defs":{
		"Cat":{"type":"object","required":["pet_type"],"properties":{"pet_type":{"type":"string"},"hunts":{"type":"boolean"},"age":{"type":"integer"}}},
		"Dog":{"type":"object","required":["pet_type"],"properties":{"pet_type":{"type":"string"},"bark":{"type":"boolean"},"breed":{"type":"string"}}}}`
	tagged := `{"type":"object","required":["body"],"properties":{"body":{"oneOf":[
		{"allOf":[{"$ref":"#/$defs/Cat"},{"properties":{"pet_type":{"const":"Cat"}},"required":["pet_type"]}]},
		{"allOf":[{"$ref":"#/$defs/Dog"},{"properties":{"pet_type":{"const":"Dog"}},"required":["pet_type"]}]}]}},` + defs + `}`
	document := `{"type":"object","required":["body"],"properties":{"body":{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}]}},` + defs + `}`
	for _, all := range []bool{false, true} {
		args := sampleArgs([]byte(tagged), all)
		for _, s := range []string{tagged, document} {
			if err := checkSample([]byte(s), args); err != nil {
				t.Errorf("all=%v: %s: %v", all, mustJSON(args), err)
			}
		}
	}
}

// TestSampleKeywords: for each validation keyword and format the sampler
// meets, alone and in the combinations documents use, its sample satisfies
// the schema by the reference validator TestSweepSamples uses
// (readme-oas-examples' schema-types, schema-enums and schema-validation:
// issue #16).
func TestSampleKeywords(t *testing.T) {
	cases := map[string]string{
		"integer multipleOf":                `{"type":"integer","multipleOf":2}`,
		"integer multipleOf int32":          `{"type":"integer","format":"int32","multipleOf":2}`,
		"integer multipleOf minimum":        `{"type":"integer","multipleOf":5,"minimum":7}`,
		"integer multipleOf exclusive":      `{"type":"integer","multipleOf":5,"exclusiveMinimum":5,"exclusiveMaximum":15}`,
		"integer multipleOf maximum":        `{"type":"integer","multipleOf":3,"maximum":-4}`,
		"integer fractional multipleOf":     `{"type":"integer","multipleOf":0.5,"minimum":3}`,
		"integer minimum":                   `{"type":"integer","minimum":10}`,
		"integer maximum":                   `{"type":"integer","maximum":-3}`,
		"integer exclusiveMinimum":          `{"type":"integer","exclusiveMinimum":1}`,
		"integer exclusiveMaximum":          `{"type":"integer","exclusiveMaximum":1}`,
		"integer exclusive both":            `{"type":"integer","exclusiveMinimum":1,"exclusiveMaximum":3}`,
		"integer int32 wide bounds":         `{"type":"integer","format":"int32","minimum":-1e12,"maximum":5e12}`,
		"integer int64":                     `{"type":"integer","format":"int64","minimum":9e15}`,
		"number multipleOf":                 `{"type":"number","multipleOf":0.1,"minimum":0.25}`,
		"number multipleOf tenths":          `{"type":"number","multipleOf":0.01,"minimum":1.005,"maximum":2}`,
		"number multipleOf big":             `{"type":"number","multipleOf":2.5}`,
		"number exclusive":                  `{"type":"number","exclusiveMinimum":1.5,"exclusiveMaximum":1.75}`,
		"number minimum":                    `{"type":"number","minimum":100}`,
		"number maximum":                    `{"type":"number","maximum":0}`,
		"nullable number multipleOf":        `{"type":["number","null"],"multipleOf":4}`,
		"example outside enum":              `{"type":"string","enum":["a","b"],"examples":["c"]}`,
		"default outside enum":              `{"type":"string","enum":["a","b"],"default":"c"}`,
		"example outside bounds":            `{"type":"integer","minimum":5,"examples":[1]}`,
		"default off multipleOf":            `{"type":"integer","multipleOf":2,"default":3}`,
		"example not in format":             `{"type":"string","format":"email","examples":["nobody"]}`,
		"number enum that lists a string":   `{"type":"number","enum":["",0,1,2]}`,
		"integer enum that lists a string":  `{"type":"integer","enum":["x",2.5,3]}`,
		"string enum pattern":               `{"type":"string","enum":["A","b"],"pattern":"^[a-z]$"}`,
		"format date":                       `{"type":"string","format":"date"}`,
		"format date-time":                  `{"type":"string","format":"date-time"}`,
		"format time":                       `{"type":"string","format":"time"}`,
		"format duration":                   `{"type":"string","format":"duration"}`,
		"format email":                      `{"type":"string","format":"email"}`,
		"format email minLength":            `{"type":"string","format":"email","minLength":40}`,
		"format idn-email":                  `{"type":"string","format":"idn-email"}`,
		"format hostname":                   `{"type":"string","format":"hostname"}`,
		"format hostname minLength":         `{"type":"string","format":"hostname","minLength":30}`,
		"format idn-hostname":               `{"type":"string","format":"idn-hostname"}`,
		"format ipv4":                       `{"type":"string","format":"ipv4"}`,
		"format ipv6":                       `{"type":"string","format":"ipv6"}`,
		"format uri":                        `{"type":"string","format":"uri"}`,
		"format uri minLength":              `{"type":"string","format":"uri","minLength":50}`,
		"format uri-reference":              `{"type":"string","format":"uri-reference"}`,
		"format uri-template":               `{"type":"string","format":"uri-template"}`,
		"format iri":                        `{"type":"string","format":"iri"}`,
		"format iri-reference":              `{"type":"string","format":"iri-reference"}`,
		"format uuid":                       `{"type":"string","format":"uuid"}`,
		"format json-pointer":               `{"type":"string","format":"json-pointer"}`,
		"format relative-json-pointer":      `{"type":"string","format":"relative-json-pointer"}`,
		"format regex":                      `{"type":"string","format":"regex"}`,
		"format byte":                       `{"type":"string","format":"byte"}`,
		"format byte minLength":             `{"type":"string","format":"byte","minLength":50}`,
		"format byte maxLength":             `{"type":"string","format":"byte","maxLength":10}`,
		"contentEncoding base64":            `{"type":"string","contentEncoding":"base64"}`,
		"format binary":                     `{"type":"string","format":"binary"}`,
		"format password":                   `{"type":"string","format":"password","minLength":12}`,
		"string minLength maxLength":        `{"type":"string","minLength":3,"maxLength":4}`,
		"string pattern":                    `{"type":"string","pattern":"^AC[0-9a-f]{32}$"}`,
		"object property formats and enums": `{"type":"object","required":["a","b"],"properties":{"a":{"type":"string","format":"byte"},"b":{"type":"number","enum":["",2],"examples":[""]}}}`,
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		schema := json.RawMessage(`{"type":"object","required":["v"],"properties":{"v":` + cases[name] + `}}`)
		args := sampleArgs(schema, false)
		if err := checkSample(schema, args); err != nil {
			t.Errorf("%s: sample %s: %s", name, mustJSON(args), oneLine(err.Error()))
		}
	}
}

// TestSampleByte: OpenAPI's format byte, which the reference validator
// does not assert (Prism's Ajv does), is sampled as standard base64 within
// minLength and maxLength (readme-oas-examples' oas-formats sent "sample").
func TestSampleByte(t *testing.T) {
	for _, schema := range []string{
		`{"type":"string","format":"byte"}`,
		`{"type":"string","format":"byte","minLength":50}`,
		`{"type":"string","format":"byte","maxLength":10}`,
	} {
		var s map[string]any
		if err := json.Unmarshal([]byte(schema), &s); err != nil {
			t.Fatal(err)
		}
		v := sampleString(s)
		_, err := base64.StdEncoding.DecodeString(v)
		lo, _ := s["minLength"].(float64)
		hi, bounded := s["maxLength"].(float64)
		if err != nil || v == "" || len(v) < int(lo) || bounded && len(v) > int(hi) {
			t.Errorf("%s: sample %q (%v)", schema, v, err)
		}
	}
}
