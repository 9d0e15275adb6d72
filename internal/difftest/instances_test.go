package difftest

import (
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
)

// instances builds test instances from a schema: valid ones, then
// variants that each break one constraint (or sit just inside it), at
// every property down to a few levels.
type instances struct {
	root map[string]any
	r    *rand.Rand
}

func newInstances(schema []byte, seed uint64) *instances {
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		panic(err)
	}
	return &instances{root: root, r: rand.New(rand.NewPCG(seed, 1))}
}

// resolve follows a "#/$defs/Name" reference.
func (g *instances) resolve(s map[string]any) map[string]any {
	for i := 0; i < 16; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		defs, _ := g.root["$defs"].(map[string]any)
		next, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

func num(s map[string]any, k string) (float64, bool) {
	v, ok := s[k].(float64)
	return v, ok
}

var samples = []string{"A1001", "ABC", "abc", "a", "AB", "x1", "hello", "2024-02-29", "A", "Z9", "a-b", "foo"}

var formatValid = map[string]string{
	"date": "2024-02-29", "date-time": "2024-01-02T03:04:05Z", "email": "a@example.com",
	"uri": "https://example.com/x?y=1", "uuid": "123e4567-e89b-12d3-a456-426614174000",
}

var formatInvalid = map[string][]string{
	"date":      {"2023-02-29", "2024-13-01", "2024-1-01", "20240101", "2024-02-29T00:00:00Z"},
	"date-time": {"2024-01-02 03:04:05Z", "2024-01-02T03:04:05", "2024-01-02T25:04:05Z", "2024-01-02T03:04:05.5+01:00", "2024-01-02t03:04:05z"},
	"email":     {"a", "a@", "@b.c", "a b@c.d", "a@b..c", "a..b@c.d", "\"quoted\"@example.com"},
	"uri":       {"relative/path", "//host/x", "http://[::1", "ht tp://x", "mailto:a@b.c", "urn:isbn:0451450523"},
	"uuid":      {"123e4567-e89b-12d3-a456-42661417400", "123e4567e89b12d3a456426614174000", "123E4567-E89B-12D3-A456-426614174000", "g23e4567-e89b-12d3-a456-426614174000"},
}

// maxValidDepth stops valid at a depth no finite instance needs: a
// required, non-nullable property of its own type (recursion's loop_back)
// has no valid instance at all, and the attempt would never end. What is
// cut off is null, which the two validators must then both reject.
const maxValidDepth = 24

// valid returns one instance meant to satisfy s.
func (g *instances) valid(s map[string]any, depth int) any {
	if depth > maxValidDepth {
		return nil
	}
	s = g.resolve(s)
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[g.r.IntN(len(e))]
	}
	if one, ok := s["oneOf"].([]any); ok && len(one) > 0 {
		v, _ := one[g.r.IntN(len(one))].(map[string]any)
		return g.valid(v, depth+1)
	}
	if ts, ok := s["type"].([]any); ok && len(ts) > 0 {
		// A list of types: a value of one of them, which the keywords
		// of that type constrain.
		one := maps.Clone(s)
		one["type"] = ts[g.r.IntN(len(ts))]
		return g.valid(one, depth)
	}
	switch s["type"] {
	case "string":
		if f, ok := s["format"].(string); ok {
			return formatValid[f]
		}
		minL, _ := num(s, "minLength")
		maxL, hasMax := num(s, "maxLength")
		if p, ok := s["pattern"].(string); ok {
			re, err := regexp.Compile(p)
			if err == nil {
				for _, c := range samples {
					n := float64(len([]rune(c)))
					if re.MatchString(c) && n >= minL && (!hasMax || n <= maxL) {
						return c
					}
				}
			}
		}
		n := int(minL)
		if hasMax && int(maxL) > n {
			n += g.r.IntN(int(maxL) - n + 1)
		}
		return strings.Repeat("é", n)
	case "integer", "number":
		lo, hasLo := num(s, "minimum")
		hi, hasHi := num(s, "maximum")
		if x, ok := num(s, "exclusiveMinimum"); ok {
			lo, hasLo = x+1e-3, true
		}
		if x, ok := num(s, "exclusiveMaximum"); ok {
			hi, hasHi = x-1e-3, true
		}
		if !hasLo {
			lo = -100
		}
		if !hasHi {
			hi = lo + 200
		}
		v := lo + (hi-lo)*g.r.Float64()
		if m, ok := num(s, "multipleOf"); ok && m > 0 {
			v = math.Ceil(lo/m) * m
		}
		if s["type"] == "integer" {
			v = math.Ceil(v)
		}
		return v
	case "boolean":
		return g.r.IntN(2) == 0
	case "null":
		return nil
	case "array":
		if ps := asList(s["prefixItems"]); len(ps) > 0 {
			return g.validTuple(s, ps, depth)
		}
		items, _ := s["items"].(map[string]any)
		n, _ := num(s, "minItems")
		k := int(n) + g.r.IntN(2)
		if m, ok := num(s, "maxItems"); ok && k > int(m) {
			k = int(m)
		}
		out := []any{}
		if depth > 4 {
			k = int(n)
		}
		if s["items"] == false {
			k = 0 // no item at all
		}
		for range k {
			out = append(out, g.valid(items, depth+1))
		}
		if c, ok := s["contains"].(map[string]any); ok && c["type"] != nil && len(out) > 0 {
			// One item that contains counts (minContains is 1 unless set).
			out[len(out)-1] = g.valid(c, depth+1)
		}
		return out
	case "object", nil:
		props, _ := s["properties"].(map[string]any)
		if s["type"] == nil && props == nil {
			return []any{"x", 1, true, nil}[g.r.IntN(4)]
		}
		obj := map[string]any{}
		req := map[string]bool{}
		for _, r := range asList(s["required"]) {
			req[r.(string)] = true
		}
		for _, name := range sortedKeys(props) {
			ps := props[name]
			if matchesNothing(ps) {
				continue // false: a member that must be absent
			}
			if req[name] || (depth < 3 && g.r.IntN(2) == 0) {
				obj[name] = g.valid(ps.(map[string]any), depth+1)
			}
		}
		sub := subschemaMembers(s)
		for _, name := range sortedKeys(sub) {
			// A member only subschemas name, valid for one of them: the
			// object's verdict then depends on which ones pass.
			if _, ok := obj[name]; !ok && depth < 3 && g.r.IntN(2) == 0 {
				obj[name] = g.valid(sub[name].(map[string]any), depth+1)
			}
		}
		return obj
	}
	return nil
}

// subschemaMembers maps the names the in-place subschemas of an object
// with unevaluatedProperties name in properties, and the object does
// not, to one of their schemas.
func subschemaMembers(s map[string]any) map[string]any {
	out := map[string]any{}
	if _, ok := s["unevaluatedProperties"]; !ok {
		return out
	}
	own, _ := s["properties"].(map[string]any)
	var walk func(c any)
	walk = func(c any) {
		m, ok := c.(map[string]any)
		if !ok {
			return
		}
		props, _ := m["properties"].(map[string]any)
		for name, ps := range props {
			if _, declared := own[name]; declared {
				continue
			}
			if p, ok := ps.(map[string]any); ok {
				out[name] = p
			} else {
				out[name] = map[string]any{}
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			for _, x := range asList(m[k]) {
				walk(x)
			}
		}
		for _, k := range []string{"not", "if", "then", "else"} {
			walk(m[k])
		}
		deps, _ := m["dependentSchemas"].(map[string]any)
		for _, d := range deps {
			walk(d)
		}
	}
	sub := map[string]any{}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"} {
		if v, ok := s[k]; ok {
			sub[k] = v
		}
	}
	walk(sub)
	return out
}

// sortedKeys keeps the random stream, and so the instances, the same
// from run to run.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// patternNames are member names tried against patternProperties: each
// is used with the patterns it matches.
var patternNames = []string{"a", "abc", "Upper", "x-", "x-a", "x-trace-1", "x-trace-0123456789abcdef", "temp_a", "temp_max", "a_max", "n_1", "a31b", "vroom"}

// wrongKinds are values of every JSON type.
var wrongKinds = []any{nil, true, 7.0, 1.5, "s", []any{}, map[string]any{}}

// variants returns values near the edges of s: most break exactly one
// constraint, some sit exactly on a bound.
func (g *instances) variants(s map[string]any, depth int) []any {
	s = g.resolve(s)
	out := append([]any{g.valid(s, depth)}, wrongKinds...)
	if e, ok := s["enum"].([]any); ok {
		out = append(out, "zzz", 999.0)
		out = append(out, e...)
	}
	if c, ok := s["const"]; ok {
		out = append(out, c, "not-the-const")
	}
	for _, o := range asList(s["oneOf"]) {
		out = append(out, g.variants(o.(map[string]any), depth+1)...)
	}
	switch s["type"] {
	case "string":
		for _, k := range []string{"minLength", "maxLength"} {
			if n, ok := num(s, k); ok {
				for _, d := range []int{-1, 0, 1} {
					if int(n)+d >= 0 {
						out = append(out, strings.Repeat("a", int(n)+d), strings.Repeat("😀", int(n)+d))
					}
				}
			}
		}
		if f, ok := s["format"].(string); ok {
			for _, bad := range formatInvalid[f] {
				out = append(out, bad)
			}
		}
		if _, ok := s["pattern"]; ok {
			out = append(out, "", "A1001\n", "a1001", "A", "A1", "ABC", "AB1", "A١٢")
		}
	case "integer", "number":
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
			if n, ok := num(s, k); ok {
				out = append(out, n-1, n-0.5, n, n+0.5, n+1, math.Nextafter(n, math.Inf(1)))
			}
		}
		if m, ok := num(s, "multipleOf"); ok {
			out = append(out, m*3, m*3+m/2, m*7, -m, 0.0, m*1e6)
		}
		out = append(out, 0.0, -1.0, 1e300, -1e300, 9007199254740993.0, 2.0e1)
	case "array":
		if ps := asList(s["prefixItems"]); len(ps) > 0 {
			out = append(out, g.tupleVariants(s, ps, depth)...)
			break
		}
		items, _ := s["items"].(map[string]any)
		base, _ := g.valid(s, depth).([]any)
		for _, k := range []string{"minItems", "maxItems"} {
			if n, ok := num(s, k); ok {
				for _, d := range []int{-1, 1} {
					if int(n)+d >= 0 {
						a := []any{}
						for range int(n) + d {
							a = append(a, g.valid(items, depth+1))
						}
						out = append(out, a)
					}
				}
			}
		}
		if len(base) > 0 {
			out = append(out, append(append([]any{}, base...), base[0]))
		}
		if c, ok := s["contains"].(map[string]any); ok && c["type"] != nil {
			// 0 to 3 items matching contains, around minContains and
			// maxContains.
			a := append([]any{}, base...)
			for range 4 {
				out = append(out, append([]any{}, a...))
				a = append(a, g.valid(c, depth+1))
			}
		}
		if depth < 3 && items != nil {
			for _, v := range g.variants(items, depth+1) {
				out = append(out, append(append([]any{}, base...), v))
			}
		}
	case "object", nil:
		props, _ := s["properties"].(map[string]any)
		base, ok := g.valid(s, depth).(map[string]any)
		if !ok {
			break
		}
		clone := func() map[string]any {
			m := make(map[string]any, len(base))
			for k, v := range base {
				m[k] = v
			}
			return m
		}
		for _, r := range asList(s["required"]) {
			m := clone()
			delete(m, r.(string))
			out = append(out, m)
		}
		m := clone()
		m["unknown_property"] = 1.0
		out = append(out, m)
		if _, ok := s["propertyNames"]; ok {
			// Names of other shapes than the declared ones.
			for _, name := range []string{"Upper", "x-trace", "a", "toolongname_1234567"} {
				m := clone()
				m[name] = 1.0
				out = append(out, m)
			}
		}
		if pats, ok := s["patternProperties"].(map[string]any); ok {
			// Members some pattern names (one, two or none of them),
			// with values around each matching pattern's schema.
			for _, name := range patternNames {
				for _, p := range sortedKeys(pats) {
					if !regexp.MustCompile(p).MatchString(name) {
						continue
					}
					for _, v := range g.variants(pats[p].(map[string]any), depth+1) {
						m := clone()
						m[name] = v
						out = append(out, m)
					}
				}
			}
		}
		if depth < 3 {
			for _, name := range sortedKeys(props) {
				for _, v := range g.variants(props[name].(map[string]any), depth+1) {
					m := clone()
					m[name] = v
					out = append(out, m)
				}
			}
			sub := subschemaMembers(s)
			for _, name := range sortedKeys(sub) {
				// Present or absent, valid for a subschema naming it or not.
				m := clone()
				if _, ok := m[name]; ok {
					delete(m, name)
				} else {
					m[name] = g.valid(sub[name].(map[string]any), depth+1)
				}
				out = append(out, m)
				for _, v := range g.variants(sub[name].(map[string]any), depth+1) {
					m := clone()
					m[name] = v
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// generate returns the JSON of up to max instances for a tool input schema.
func (g *instances) generate(max int) [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil || seen[string(b)] || len(out) >= max {
			return
		}
		seen[string(b)] = true
		out = append(out, b)
	}
	for range 20 {
		add(g.valid(g.root, 0))
	}
	for _, v := range g.variants(g.root, 0) {
		if _, ok := v.(map[string]any); ok {
			add(v)
		}
	}
	return out
}

// matchesNothing reports whether schema s is false, or {not: {}} as
// mcpgen publishes false.
func matchesNothing(s any) bool {
	if s == false {
		return true
	}
	m, _ := s.(map[string]any)
	not, ok := m["not"].(map[string]any)
	return ok && len(m) == 1 && len(not) == 0
}
