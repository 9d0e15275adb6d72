package generator

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/generator/naming"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// The agreement test: the Go types and the JSON Schemas of a tool are
// emitted by two separate code paths (golang.Lower and schema.Builder), so
// they could drift apart. agreementTest writes a test, run inside the
// temporary module of a golden case, that reflects every tool's input and
// output type with github.com/invopop/jsonschema and compares the result
// with the emitted schemas/*.schema.json: property names, the required
// set, JSON types (through $refs, items, map values and nested objects),
// "additionalProperties": false, and enum values.
//
// invopop only sees what Go says: field names and json tags, Go kinds,
// and, through the reflector's Mapper, the constants of each enum type
// (constants cannot be reflected, so the test lists them). The generated
// types carry no `jsonschema:"…"` tags on purpose: go-sdk's schema
// inference (google/jsonschema-go) rejects `jsonschema:"WORD=…"` tags and
// mcp.AddTool panics on them, and users pass these types around. So
// constraints (lengths, patterns, bounds, formats, item counts) are not
// compared here; the behaviour tests check that the validators enforce
// them. Two mappings are by construction, not disagreements:
//   - a property with a default is a value field that is always encoded,
//     which invopop calls required: such properties count as required;
//   - a oneOf is a Go struct with one pointer per variant, which invopop
//     cannot express as a oneOf: unions are not compared.
//
// Where the emitted schema allows more properties (a struct with an
// AdditionalProperties map, or additionalProperties: true), only maps
// (no properties) are compared, by their value schema.

// moduleVersion is the version of module mod required by this checkout's
// go.mod, so that the temporary module builds with the same one.
func moduleVersion(t *testing.T, root, mod string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == mod {
			return f[1]
		}
	}
	t.Fatalf("go.mod does not require %s", mod)
	return ""
}

// agreementTest returns the source of agreement_test.go for a golden case.
func agreementTest(t *testing.T, api *spec.API, files []File) string {
	t.Helper()
	var pkg, typesSrc string
	schemas := map[string]bool{}
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.Path, "mcpgen_types_gen.go"):
			typesSrc = string(f.Data)
		case strings.Contains(f.Path, "schemas/"):
			schemas[f.Path[strings.Index(f.Path, "schemas/"):]] = true
		}
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "mcpgen_types_gen.go", typesSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg = file.Name.Name

	var b strings.Builder
	b.WriteString("// schemaTypes maps each emitted schema file to the Go type of its values.\n")
	b.WriteString("func schemaTypes() map[string]reflect.Type {\n\treturn map[string]reflect.Type{\n")
	n := 0
	for _, tool := range api.Tools {
		base := naming.Exported(tool.Name)
		for _, kind := range []string{"input", "output"} {
			path := "schemas/" + tool.Name + "." + kind + ".schema.json"
			if !schemas[path] {
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

	return "package " + pkg + "\n" + agreementImports + b.String() + agreementBody
}

const agreementImports = `
import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
)

`

const agreementBody = `
// TestSchemasAgree reflects every tool's input and output type and compares
// the result with the emitted schema file.
func TestSchemasAgree(t *testing.T) {
	enums := enumValues()
	r := &jsonschema.Reflector{Mapper: func(rt reflect.Type) *jsonschema.Schema {
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
	types := schemaTypes()
	var files []string
	for f := range types {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var ours, theirs map[string]any
		if err := json.Unmarshal(data, &ours); err != nil {
			t.Fatal(err)
		}
		reflected, err := json.Marshal(r.ReflectFromType(types[file]))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(reflected, &theirs); err != nil {
			t.Fatal(err)
		}
		c := &comparer{oursRoot: ours, theirsRoot: theirs, seen: map[string]bool{}}
		c.compare(file+"#", ours, theirs)
		for _, p := range c.problems {
			t.Errorf("%s (Go type %v)", p, types[file])
		}
		if c.compared == 0 {
			t.Errorf("%s: nothing compared", file)
		}
	}
}

type comparer struct {
	oursRoot, theirsRoot map[string]any
	// seen holds the pairs of $refs compared, so recursion ends.
	seen     map[string]bool
	problems []string
	compared int
}

func (c *comparer) failf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// deref follows "$ref"s to "#/$defs/…" and unwraps a nullable reference
// (anyOf of a schema and {"type":"null"}). It returns the schema and the
// last reference followed.
func deref(root, s map[string]any) (map[string]any, string) {
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

// baseType is the JSON type of a schema, without "null".
func baseType(v any) string {
	switch t := v.(type) {
	case string:
		if t == "null" {
			return ""
		}
		return t
	case []any:
		for _, x := range t {
			if s, _ := x.(string); s != "null" {
				return s
			}
		}
	}
	return ""
}

// jsonSet is a sorted list of the JSON texts of vs, without null.
func jsonSet(vs any) []string {
	var out []string
	list, _ := vs.([]any)
	for _, v := range list {
		if v == nil {
			continue
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (c *comparer) compare(path string, o, th map[string]any) {
	o, oref := deref(c.oursRoot, o)
	th, tref := deref(c.theirsRoot, th)
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
		return // a union is a struct of variant pointers in Go
	}
	c.compared++
	ot, tt := baseType(o["type"]), baseType(th["type"])
	if ot != tt {
		c.failf("%s: type: schema %q, Go %q", path, ot, tt)
		return
	}
	if _, ok := o["enum"]; ok && (ot == "string" || ot == "integer") || th["enum"] != nil {
		if oe, te := jsonSet(o["enum"]), jsonSet(th["enum"]); !slices.Equal(oe, te) {
			c.failf("%s: enum: schema %v, Go %v", path, oe, te)
		}
	}
	switch ot {
	case "array":
		oi, _ := o["items"].(map[string]any)
		ti, _ := th["items"].(map[string]any)
		if oi != nil && ti != nil {
			c.compare(path+"/items", oi, ti)
		} else if (oi == nil) != (ti == nil) {
			c.failf("%s: items: schema %v, Go %v", path, oi, ti)
		}
	case "object":
		op, _ := o["properties"].(map[string]any)
		tp, _ := th["properties"].(map[string]any)
		if on, tn := keys(op), keys(tp); !slices.Equal(on, tn) {
			c.failf("%s: properties: schema %q, Go %q", path, on, tn)
		}
		// A property with a default is a value field, always encoded.
		var oreq []string
		for _, r := range jsonSet(o["required"]) {
			oreq = append(oreq, strings.Trim(r, "\""))
		}
		for name, p := range op {
			ps, _ := p.(map[string]any)
			rs, _ := deref(c.oursRoot, ps)
			if _, ok := ps["default"]; ok || rs != nil && rs["default"] != nil {
				if !slices.Contains(oreq, name) {
					oreq = append(oreq, name)
				}
			}
		}
		sort.Strings(oreq)
		var treq []string
		for _, r := range jsonSet(th["required"]) {
			treq = append(treq, strings.Trim(r, "\""))
		}
		if !slices.Equal(oreq, treq) {
			c.failf("%s: required (with defaulted properties): schema %q, Go %q", path, oreq, treq)
		}
		switch ap := o["additionalProperties"].(type) {
		case bool:
			if !ap && th["additionalProperties"] != false {
				c.failf("%s: additionalProperties: schema false, Go %v", path, th["additionalProperties"])
			}
		case map[string]any:
			if len(op) == 0 {
				tap, ok := th["additionalProperties"].(map[string]any)
				if !ok {
					c.failf("%s: additionalProperties: schema %v, Go %v", path, ap, th["additionalProperties"])
				} else {
					c.compare(path+"/additionalProperties", ap, tap)
				}
			}
		}
		for _, name := range keys(op) {
			ps, _ := op[name].(map[string]any)
			ts, _ := tp[name].(map[string]any)
			if ps != nil && ts != nil {
				c.compare(path+"/properties/"+name, ps, ts)
			}
		}
	}
}
`

// TestAgreementCatchesDrift: a schema that disagrees with the Go types
// (a property's type changed, a required property dropped, an enum value
// added) fails the agreement test.
func TestAgreementCatchesDrift(t *testing.T) {
	gobin := goTool(t)
	files := generateCase(t, "orders")
	src := agreementTest(t, loadCase(t, "orders"), files)
	for i, f := range files {
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
		files[i] = f
	}
	dir := writeModule(t, files, map[string]string{"agreement_test.go": src})
	cmd := exec.Command(gobin, "test", "-run", "TestSchemasAgree", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the agreement test passed on drifted schemas:\n%s", out)
	}
	for _, want := range []string{
		`/properties/verbose: type: schema "string", Go "boolean"`,
		`/properties/status: enum: schema`,
		`/items/items: required (with defaulted properties): schema ["quantity"], Go ["quantity" "sku"]`,
		`notify.input.schema.json#: properties: schema ["order_id" "remark"], Go ["note" "order_id"]`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
