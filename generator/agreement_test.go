package generator

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen-dev/mcpgen/generator/golang"
	"github.com/mcpgen-dev/mcpgen/generator/naming"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// The agreement test: the Go types and the JSON Schemas of a tool are
// emitted by two separate code paths (golang.Lower and schema.Builder), so
// they could drift apart. Inside the temporary module of the golden cases
// (TestGoldenBuilds), a test in each generated package reflects every
// tool's input and output type with github.com/invopop/jsonschema and
// writes the reflected schemas out (reflectTest); agree then compares
// them, decoded into invopop's own Schema type, with the emitted
// schemas/*.schema.json: property names, the required set, JSON types
// (through $refs, items, map values and nested objects),
// "additionalProperties": false, and enum values.
//
// invopop only sees what Go says: field names and json tags, Go kinds,
// and, through the reflector's Mapper, the constants of each enum type
// (constants cannot be reflected, so the test lists them) and that a
// runtime.Date is a string. The generated
// types carry no `jsonschema:"…"` tags on purpose: go-sdk's schema
// inference (google/jsonschema-go) rejects `jsonschema:"WORD=…"` tags and
// mcp.AddTool panics on them, and users pass these types around. So
// constraints (lengths, patterns, bounds, formats, item counts) are not
// compared here; the behaviour tests check that the validators enforce
// them. Two mappings are by construction, not disagreements:
//   - a property with a default is a value field that is always encoded,
//     which invopop calls required: such properties count as required;
//   - a oneOf is a sealed Go interface implemented by the variant types,
//     which invopop cannot express as a oneOf: unions are not compared
//     (a tool output that is a union compares nothing).
//
// Where the emitted schema allows more properties (a struct with an
// AdditionalProperties map, or additionalProperties: true), only maps
// (no properties) are compared, by their value schema.

// reflectTest returns the source of the test that reflects the tool types
// of a golden case's generated package and writes them, as a JSON object
// from schema file path to reflected schema, to out; and of a test that
// starts the generated server.
func reflectTest(t *testing.T, api *spec.API, files []File, out string) string {
	t.Helper()
	var typesSrc string
	schemas := map[string]bool{}
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.Path, "mcpgen_types_gen.go"):
			typesSrc = string(f.Data)
		case strings.Contains(f.Path, "schemas/"):
			schemas[f.Path[strings.Index(f.Path, "schemas/"):]] = true
		}
	}
	file, err := parser.ParseFile(token.NewFileSet(), "mcpgen_types_gen.go", typesSrc, 0)
	if err != nil {
		t.Fatal(err)
	}

	var b strings.Builder
	b.WriteString("// schemaTypes maps each emitted schema file to the Go type of its values.\n")
	b.WriteString("func schemaTypes() map[string]reflect.Type {\n\treturn map[string]reflect.Type{\n")
	n := 0
	for _, tool := range api.Tools {
		base := naming.Exported(tool.Name)
		if golang.WrappedOutput(tool) {
			// The response of a wrapped operation has no Go type: it passes
			// through, checked against its two schema files at run time.
			for _, f := range []string{".output.schema.json", golang.ResponseSchemaSuffix} {
				if schemas["schemas/"+tool.Name+f] {
					n++
				}
			}
		}
		for _, kind := range []string{"input", "output"} {
			path := "schemas/" + tool.Name + "." + kind + ".schema.json"
			if !schemas[path] || kind == "output" && golang.WrappedOutput(tool) {
				continue
			}
			goType := base + strings.ToUpper(kind[:1]) + kind[1:]
			fmt.Fprintf(&b, "\t\t%q: reflect.TypeFor[%s](),\n", path, goType)
			n++
		}
	}
	b.WriteString("\t}\n}\n\n")
	if n != len(schemas) {
		t.Fatalf("%d schema files, %d of them matched to a tool", len(schemas), n)
	}

	// Enum types: the constants declared with the type's name.
	var enumTypes []string
	enums := map[string][]string{}
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			id, ok := vs.Type.(*ast.Ident)
			if !ok {
				continue
			}
			if enums[id.Name] == nil {
				enumTypes = append(enumTypes, id.Name)
			}
			for _, name := range vs.Names {
				enums[id.Name] = append(enums[id.Name], name.Name)
			}
		}
	}
	b.WriteString("// enumValues lists the constants of each enum type, which reflection\n// cannot see.\n")
	b.WriteString("func enumValues() map[reflect.Type][]any {\n\treturn map[reflect.Type][]any{\n")
	for _, e := range enumTypes {
		fmt.Fprintf(&b, "\t\treflect.TypeFor[%s](): {%s},\n", e, strings.Join(enums[e], ", "))
	}
	b.WriteString("\t}\n}\n")

	return "package " + file.Name.Name + "\n" + reflectImports + b.String() +
		strings.Replace(reflectBody, "OUT", fmt.Sprintf("%q", out), 1)
}

const reflectImports = `
import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

`

const reflectBody = `
// TestNewServer starts the generated server, which builds every tool
// definition from the embedded schema files.
func TestNewServer(t *testing.T) {
	NewServer(UnimplementedHandler{}, runtime.Options{})
}

// TestReflect reflects every tool's input and output type, for the
// generator's agreement test to compare with the emitted schema files.
func TestReflect(t *testing.T) {
	enums := enumValues()
	r := &jsonschema.Reflector{Mapper: func(rt reflect.Type) *jsonschema.Schema {
		if rt == reflect.TypeFor[runtime.Date]() {
			// A Date is a struct in Go and a full-date string in JSON
			// (its MarshalJSON), which reflection cannot see.
			return &jsonschema.Schema{Type: "string", Format: "date"}
		}
		vs, ok := enums[rt]
		if !ok {
			return nil
		}
		s := &jsonschema.Schema{Type: "string"}
		if rt.Kind() != reflect.String {
			s.Type = "integer"
		}
		for _, v := range vs {
			if x := reflect.ValueOf(v); x.Kind() == reflect.String {
				s.Enum = append(s.Enum, x.String())
			} else {
				s.Enum = append(s.Enum, x.Int())
			}
		}
		return s
	}}
	reflected := map[string]*jsonschema.Schema{}
	for file, typ := range schemaTypes() {
		reflected[file] = r.ReflectFromType(typ)
	}
	data, err := json.Marshal(reflected)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(OUT, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
`

// agree compares the reflected schemas of a case (reflectTest's output,
// from schema file path to schema) with the emitted schema files, read
// from files, and returns the disagreements.
func agree(t *testing.T, reflectedJSON []byte, files []File) []string {
	t.Helper()
	var reflected map[string]*jsonschema.Schema
	if err := json.Unmarshal(reflectedJSON, &reflected); err != nil {
		t.Fatalf("reflected schemas: %v", err)
	}
	emitted := map[string][]byte{}
	for _, f := range files {
		if i := strings.Index(f.Path, "schemas/"); i >= 0 {
			emitted[f.Path[i:]] = f.Data
		}
	}
	var problems []string
	for _, file := range slices.Sorted(func(yield func(string) bool) {
		for f := range reflected {
			if !yield(f) {
				return
			}
		}
	}) {
		var ours map[string]any
		if err := json.Unmarshal(emitted[file], &ours); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		theirs := reflected[file]
		c := &comparer{oursRoot: ours, theirsRoot: theirs, seen: map[string]bool{}}
		c.compare(file+"#", ours, theirs)
		problems = append(problems, c.problems...)
		if c.compared == 0 && c.unions == 0 {
			problems = append(problems, file+": nothing compared")
		}
	}
	return problems
}

// comparer compares an emitted schema (ours, decoded as generic JSON)
// with a reflected one (theirs, as invopop's Schema).
type comparer struct {
	oursRoot   map[string]any
	theirsRoot *jsonschema.Schema
	// seen holds the pairs of $refs compared, so recursion ends.
	seen     map[string]bool
	problems []string
	compared int
	// unions counts the unions met, which are not compared.
	unions int
}

func (c *comparer) failf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// derefOurs follows "$ref"s to "#/$defs/…" and unwraps a nullable
// reference (anyOf of a schema and {"type":"null"}). It returns the schema
// and the last reference followed.
func derefOurs(root, s map[string]any) (map[string]any, string) {
	last := ""
	for range 64 {
		if alts, ok := s["anyOf"].([]any); ok && len(alts) == 2 {
			if n, _ := alts[1].(map[string]any); n["type"] == "null" {
				s, _ = alts[0].(map[string]any)
				continue
			}
		}
		ref, ok := s["$ref"].(string)
		if !ok {
			return s, last
		}
		defs, _ := root["$defs"].(map[string]any)
		s, _ = defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if s == nil {
			return nil, ref
		}
		last = ref
	}
	return nil, last
}

// derefTheirs is derefOurs for a reflected schema.
func derefTheirs(root, s *jsonschema.Schema) (*jsonschema.Schema, string) {
	last := ""
	for range 64 {
		if len(s.AnyOf) == 2 && s.AnyOf[1].Type == "null" {
			s = s.AnyOf[0]
			continue
		}
		if s.Ref == "" {
			return s, last
		}
		last = s.Ref
		if s = root.Definitions[strings.TrimPrefix(s.Ref, "#/$defs/")]; s == nil {
			return nil, last
		}
	}
	return nil, last
}

// baseType is the JSON type of a schema, without "null".
func baseType(v any) string {
	switch t := v.(type) {
	case string:
		if t == "null" {
			return ""
		}
		return t
	case []any:
		// One type and null is that type; several are any value in Go
		// (a json.RawMessage).
		var types []string
		for _, x := range t {
			if s, _ := x.(string); s != "null" {
				types = append(types, s)
			}
		}
		if len(types) == 1 {
			return types[0]
		}
	}
	return ""
}

// jsonSet is a sorted list of the JSON texts of vs, without null.
func jsonSet(vs []any) []string {
	var out []string
	for _, v := range vs {
		if v == nil {
			continue
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

// isFalse reports whether s is the schema false.
func isFalse(s *jsonschema.Schema) bool {
	b, err := json.Marshal(s)
	return err == nil && string(b) == "false"
}

func (c *comparer) compare(path string, o map[string]any, th *jsonschema.Schema) {
	o, oref := derefOurs(c.oursRoot, o)
	th, tref := derefTheirs(c.theirsRoot, th)
	if o == nil || th == nil {
		c.failf("%s: unresolved $ref (schema %q, Go %q)", path, oref, tref)
		return
	}
	if oref != "" || tref != "" {
		key := oref + "|" + tref
		if c.seen[key] {
			return
		}
		c.seen[key] = true
	}
	if _, ok := o["oneOf"]; ok {
		c.unions++
		return // a union is a sealed interface in Go
	}
	if d, _ := o["description"].(string); len(o) == 1 && strings.Contains(d, " left out to keep this tool's schema under ") {
		return // cut to the schema budget: any value, listed shallower on purpose
	}
	if _, ok := o["prefixItems"]; ok {
		c.compareTuple(path, o, th)
		return
	}
	c.compared++
	ot, tt := baseType(o["type"]), baseType(th.Type)
	if ot != tt {
		c.failf("%s: type: schema %q, Go %q", path, ot, tt)
		return
	}
	oenum, _ := o["enum"].([]any)
	if _, ok := o["enum"]; ok && (ot == "string" || ot == "integer") || th.Enum != nil {
		if oe, te := jsonSet(oenum), jsonSet(th.Enum); !slices.Equal(oe, te) {
			c.failf("%s: enum: schema %v, Go %v", path, oe, te)
		}
	}
	switch ot {
	case "array":
		if o["items"] == false {
			break // no item at all: the Go slice (of any value) stays empty
		}
		oi, _ := o["items"].(map[string]any)
		if u, ok := o["unevaluatedItems"].(map[string]any); ok {
			oi = u // the items nothing else evaluates: all of them
		}
		if oi != nil && th.Items != nil {
			c.compare(path+"/items", oi, th.Items)
		} else if (oi == nil) != (th.Items == nil) {
			c.failf("%s: items: schema %v, Go %v", path, oi, th.Items)
		}
	case "object":
		op, _ := o["properties"].(map[string]any)
		tp := map[string]*jsonschema.Schema{}
		if th.Properties != nil {
			for p := th.Properties.Oldest(); p != nil; p = p.Next() {
				tp[p.Key] = p.Value
			}
		}
		names := maps.Clone(op)
		if _, ok := o["unevaluatedProperties"]; ok {
			// The properties only subschemas declare are fields too
			// (any JSON value, optional).
			for _, name := range subschemaNames(o) {
				if _, declared := names[name]; !declared {
					if names == nil {
						names = map[string]any{}
					}
					names[name] = map[string]any{}
				}
			}
		}
		if on, tn := slices.Sorted(mapKeys(names)), slices.Sorted(mapKeys(tp)); !slices.Equal(on, tn) {
			c.failf("%s: properties: schema %q, Go %q", path, on, tn)
		}
		// A property with a default is a value field, always encoded.
		oreq, _ := o["required"].([]any)
		var oreqs []string
		for _, r := range oreq {
			oreqs = append(oreqs, r.(string))
		}
		for name, p := range op {
			ps, _ := p.(map[string]any)
			rs, _ := derefOurs(c.oursRoot, ps)
			if _, ok := ps["default"]; ok || rs != nil && rs["default"] != nil {
				if !slices.Contains(oreqs, name) {
					oreqs = append(oreqs, name)
				}
			}
		}
		sort.Strings(oreqs)
		treq := slices.Sorted(slices.Values(th.Required))
		if !slices.Equal(oreqs, treq) {
			c.failf("%s: required (with defaulted properties): schema %q, Go %q", path, oreqs, treq)
		}
		ap := o["additionalProperties"]
		if u, ok := o["unevaluatedProperties"]; ok {
			ap = u // the members no property or pattern evaluates
		}
		switch ap := ap.(type) {
		case bool:
			if !ap && !isFalse(th.AdditionalProperties) {
				c.failf("%s: additionalProperties: schema false, Go %v", path, th.AdditionalProperties)
			}
		case map[string]any:
			if len(op) == 0 {
				if tap := th.AdditionalProperties; tap == nil || isFalse(tap) {
					c.failf("%s: additionalProperties: schema %v, Go %v", path, ap, tap)
				} else {
					c.compare(path+"/additionalProperties", ap, tap)
				}
			}
		}
		for _, name := range slices.Sorted(mapKeys(op)) {
			ps, _ := op[name].(map[string]any)
			if ts := tp[name]; ps != nil && ts != nil {
				c.compare(path+"/properties/"+name, ps, ts)
			}
		}
	}
}

// mapKeys yields the keys of m.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// testAgreementCatchesDrift: a schema that disagrees with the Go types
// (a property's type changed, a required property dropped, an enum value
// added, a property renamed) fails the agreement test.
func testAgreementCatchesDrift(t *testing.T, reflectedJSON []byte, files []File) {
	drifted := slices.Clone(files)
	for i, f := range drifted {
		switch {
		case strings.HasSuffix(f.Path, "get_order_status.input.schema.json"):
			f.Data = []byte(strings.Replace(string(f.Data), `"type": "boolean"`, `"type": "string"`, 1))
		case strings.HasSuffix(f.Path, "get_order_status.output.schema.json"):
			f.Data = []byte(strings.Replace(string(f.Data), `"CANCELLED"`, `"CANCELLED", "LOST"`, 1))
			f.Data = []byte(strings.Replace(string(f.Data), `"sku",`, ``, 1))
		case strings.HasSuffix(f.Path, "notify.input.schema.json"):
			f.Data = []byte(strings.Replace(string(f.Data), `"note": {`, `"remark": {`, 1))
		default:
			continue
		}
		drifted[i] = f
	}
	problems := strings.Join(agree(t, reflectedJSON, drifted), "\n")
	for _, want := range []string{
		`/properties/verbose: type: schema "string", Go "boolean"`,
		`/properties/status: enum: schema`,
		`/items/items: required (with defaulted properties): schema ["quantity"], Go ["quantity" "sku"]`,
		`notify.input.schema.json#: properties: schema ["order_id" "remark"], Go ["note" "order_id"]`,
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("the drifted schemas' problems lack %q:\n%s", want, problems)
		}
	}
}

// readReflected reads the reflected schemas a case's TestReflect wrote.
func readReflected(t *testing.T, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		t.Fatalf("the reflected schemas of %s: %v", name, err)
	}
	return data
}

// subschemaNames lists the names the in-place subschemas of the object
// schema o name in properties and required, and as dependentSchemas keys,
// at any depth.
func subschemaNames(o map[string]any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		props, _ := m["properties"].(map[string]any)
		out = append(out, slices.Collect(maps.Keys(props))...)
		req, _ := m["required"].([]any)
		for _, r := range req {
			if name, ok := r.(string); ok {
				out = append(out, name)
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			list, _ := m[k].([]any)
			for _, x := range list {
				walk(x)
			}
		}
		for _, k := range []string{"not", "if", "then", "else"} {
			walk(m[k])
		}
		deps, _ := m["dependentSchemas"].(map[string]any)
		for name, d := range deps {
			out = append(out, name)
			walk(d)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"} {
		walk(map[string]any{k: o[k]})
	}
	return out
}
