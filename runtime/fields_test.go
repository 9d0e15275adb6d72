package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fieldsOutput is an output schema with the shapes selection must handle:
// nested objects, a $ref, arrays of objects, allOf and oneOf branches,
// required members, and a property name with a dot.
const fieldsOutput = `{"type":"object","properties":{` +
	`"total":{"type":"integer"},` +
	`"items":{"type":"array","items":{"type":"object","properties":{` +
	`"number":{"type":"integer"},"title":{"type":"string"},"state":{"type":"string","enum":["open","closed"]},` +
	`"user":{"$ref":"#/$defs/user"},"labels":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"color":{"type":"string"}},"required":["name","color"]}},` +
	`"a.b":{"type":"string"}},` +
	`"required":["number","title","state","user"],"additionalProperties":false}},` +
	`"extra":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}],` +
	`"oneOf":[{"properties":{"kind":{"const":"a"},"y":{"type":"string"}},"required":["kind","y"]},{"properties":{"kind":{"const":"b"},"z":{"type":"string"}},"required":["kind","z"]}]}},` +
	`"required":["total","items"],` +
	`"$defs":{"user":{"type":["object","null"],"properties":{"login":{"type":"string"},"id":{"type":"integer"},"site_admin":{"type":"boolean"}},"required":["login","id"],"additionalProperties":false}}}`

const fieldsResult = `{"total":2,"items":[` +
	`{"number":1,"title":"Fix it","state":"open","user":{"login":"octocat","id":1,"site_admin":false},"labels":[{"name":"bug","color":"f00"}],"a.b":"x"},` +
	`{"number":2,"title":"Add \"it\"","state":"closed","user":null,"labels":[]}],` +
	`"extra":{"x":1,"kind":"a","y":"why"}}`

func TestFieldPaths(t *testing.T) {
	root, err := parseJNode([]byte(fieldsOutput))
	if err != nil {
		t.Fatal(err)
	}
	got := fieldPaths(root)
	want := []string{"total", "items", "extra",
		"items.number", "items.title", "items.state", "items.user", "items.labels", "extra.x", "extra.kind", "extra.y", "extra.z",
		"items.user.login", "items.user.id", "items.user.site_admin", "items.labels.name", "items.labels.color"}
	if !slices.Equal(got, want) {
		t.Errorf("paths:\n got %q\nwant %q", got, want)
	}
	// A result that is itself an array: its elements' fields.
	root, err = parseJNode([]byte(`{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"owner":{"type":["object","null"],"properties":{"login":{"type":"string"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fieldPaths(root), []string{"id", "owner", "owner.login"}; !slices.Equal(got, want) {
		t.Errorf("array paths: got %q, want %q", got, want)
	}
	// A recursive schema stops at the depth bound.
	root, err = parseJNode([]byte(`{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","properties":{"child":{"$ref":"#/$defs/node"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fieldPaths(root), []string{"child", "child.child", "child.child.child"}; !slices.Equal(got, want) {
		t.Errorf("recursive paths: got %q, want %q", got, want)
	}
}

func TestProjectJSON(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		paths    []string
		want     string
	}{
		{"top level", `{"a":1,"b":{"c":2},"d":[1]}`, []string{"a", "d"}, `{"a":1,"d":[1]}`},
		{"nested", `{"a":1,"b":{"c":2,"e":3}}`, []string{"b.e"}, `{"b":{"e":3}}`},
		{"array items", `{"items":[{"t":"x","u":{"l":"o","i":1}},{"t":"y","u":null}]}`, []string{"items.t", "items.u.l"},
			`{"items":[{"t":"x","u":{"l":"o"}},{"t":"y","u":null}]}`},
		{"top-level array", `[{"n":1,"t":"a"},{"n":2,"t":"b"},3]`, []string{"n"}, `[{"n":1},{"n":2},3]`},
		{"nested arrays", `{"m":[[{"a":1,"b":2}]]}`, []string{"m.a"}, `{"m":[[{"a":1}]]}`},
		{"parent wins", `{"u":{"l":"o","i":1}}`, []string{"u.l", "u"}, `{"u":{"l":"o","i":1}}`},
		{"escaped key and strings", `{"\u0074":"a\"}","x":"]}"}`, []string{"t"}, `{"\u0074":"a\"}"}`},
		{"missing field", `{"a":1}`, []string{"b"}, `{}`},
		{"whitespace", "{ \"a\" : [ 1 , 2 ] ,\n \"b\" : true }", []string{"b"}, `{"b":true}`},
		{"empty containers", `{"a":{},"b":[]}`, []string{"a", "b.c"}, `{"a":{},"b":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := projectJSON(nil, []byte(tc.in), newFieldSel(tc.paths))
			if err != nil || string(got) != tc.want {
				t.Errorf("got %s, %v; want %s", got, err, tc.want)
			}
		})
	}
	for _, bad := range []string{``, `{`, `{"a":}`, `{"a" 1}`, `[1,]x`, `{"a":1}}`, `"abc`} {
		if got, err := projectJSON(nil, []byte(bad), newFieldSel([]string{"a"})); err == nil {
			t.Errorf("%q: no error, got %s", bad, got)
		}
	}
}

// compileSchema compiles a schema with the reference validator.
func compileSchema(t testing.TB, schema []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatalf("schema: %v\n%s", err, schema)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, schema)
	}
	return s
}

func validates(t testing.TB, s *jsonschema.Schema, instance []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

func TestFieldSelection(t *testing.T) {
	s := NewServer(Options{FieldSelection: true, ResultBudgetTokens: 50})
	var gotArgs []string
	add := func(name, input, output, result string) {
		def := `{"name":"` + name + `","inputSchema":` + input
		if output != "" {
			def += `,"outputSchema":` + output
		}
		s.AddTool(ToolDef{Name: name, Definition: def + `}`, Call: func(_ context.Context, args []byte) (*ToolResult, error) {
			gotArgs = append(gotArgs, string(args))
			return StructuredResult([]byte(result)), nil
		}})
	}
	add("list_pulls", `{"type":"object","properties":{"page":{"type":"integer"}},"additionalProperties":false}`, fieldsOutput, fieldsResult)
	add("own_fields", `{"type":"object","properties":{"_fields":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}`, `{"a":1,"b":2}`)
	add("no_output", `{"type":"object"}`, "", `{"a":1}`)
	c := startClient(t, s, StdioOptions{})

	// tools/list: the argument is an enum of the paths; the output
	// schema requires nothing, and validates the whole result.
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(c.call(1, "tools/list", "").Result, &list); err != nil {
		t.Fatal(err)
	}
	advertised := map[string]json.RawMessage{}
	inputs := map[string]string{}
	for _, tl := range list.Tools {
		advertised[tl.Name] = tl.OutputSchema
		inputs[tl.Name] = string(tl.InputSchema)
	}
	if !strings.Contains(inputs["list_pulls"], `"_fields":{"type":"array"`) || !strings.Contains(inputs["list_pulls"], `"items.user.login"`) {
		t.Errorf("list_pulls input: %s", inputs["list_pulls"])
	}
	if strings.Contains(string(advertised["list_pulls"]), `"required"`) || strings.Contains(string(advertised["list_pulls"]), `"oneOf"`) {
		t.Errorf("advertised output schema still requires members: %s", advertised["list_pulls"])
	}
	// The operation's own _fields is not shadowed: the selection takes __fields.
	if !strings.Contains(inputs["own_fields"], `"_fields":{"type":"string"}`) || !strings.Contains(inputs["own_fields"], `"__fields":{"type":"array"`) {
		t.Errorf("own_fields input: %s", inputs["own_fields"])
	}
	if strings.Contains(inputs["no_output"], "_fields") {
		t.Errorf("a tool without output schema offers a selection: %s", inputs["no_output"])
	}
	whole := compileSchema(t, advertised["list_pulls"])
	if err := validates(t, whole, []byte(fieldsResult)); err != nil {
		t.Errorf("the whole result does not validate against the advertised schema: %v", err)
	}

	type result struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage            `json:"structuredContent"`
		IsError           bool                       `json:"isError"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	call := func(name, args string) result {
		t.Helper()
		m := c.call(name, "tools/call", `"name":"`+name+`","arguments":`+args)
		var r result
		if err := json.Unmarshal(m.Result, &r); err != nil {
			t.Fatalf("%s: %s", name, m.raw)
		}
		return r
	}

	for _, tc := range []struct {
		fields []string
		want   string
	}{
		{[]string{"items.number", "items.title", "items.user.login"},
			`{"items":[{"number":1,"title":"Fix it","user":{"login":"octocat"}},{"number":2,"title":"Add \"it\"","user":null}]}`},
		{[]string{"total", "extra.kind"}, `{"total":2,"extra":{"kind":"a"}}`},
		{[]string{"items.labels.name"}, `{"items":[{"labels":[{"name":"bug"}]},{"labels":[]}]}`},
	} {
		sel, _ := json.Marshal(tc.fields)
		gotArgs = nil
		r := call("list_pulls", `{"page":2,"_fields":`+string(sel)+`}`)
		if string(r.StructuredContent) != tc.want || r.IsError {
			t.Errorf("%q: got %s", tc.fields, r.StructuredContent)
			continue
		}
		if len(gotArgs) != 1 || gotArgs[0] != `{"page":2}` {
			t.Errorf("the tool got %q, want the arguments without the selection", gotArgs)
		}
		if len(r.Content) != 1 || r.Content[0].Text != tc.want {
			t.Errorf("%q: text %q does not match", tc.fields, r.Content)
		}
		var meta struct {
			Fields       []string        `json:"fields"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if err := json.Unmarshal(r.Meta[metaFields], &meta); err != nil || !slices.Equal(meta.Fields, tc.fields) {
			t.Fatalf("%q: meta %s", tc.fields, r.Meta[metaFields])
		}
		if err := validates(t, compileSchema(t, meta.OutputSchema), r.StructuredContent); err != nil {
			t.Errorf("%q: the result does not validate against the projected schema: %v\n%s", tc.fields, err, meta.OutputSchema)
		}
		if err := validates(t, whole, r.StructuredContent); err != nil {
			t.Errorf("%q: the result does not validate against the advertised schema: %v", tc.fields, err)
		}
	}
	if r := call("list_pulls", `{"_fields":["items.title"]}`); !strings.Contains(string(r.Meta[metaFields]), `"title":{"type":"string"}`) ||
		strings.Contains(string(r.Meta[metaFields]), `"number"`) {
		t.Errorf("projected schema keeps fields not selected: %s", r.Meta[metaFields])
	}

	// Select first, then cut: the budget (200 bytes) cuts the selection.
	r := call("list_pulls", `{"_fields":["items"]}`)
	if r.Meta[metaTruncated] == nil || r.Meta[metaFields] == nil {
		t.Errorf("selection over the budget was not cut, or lost its meta: %v", r.Meta)
	}

	// Bad selections are tool errors naming the argument.
	for args, want := range map[string]string{
		`{"_fields":["items.nope"]}`:         `/_fields/0: "items.nope" is not a field`,
		`{"_fields":"title"}`:                `/_fields: must be an array`,
		`{"_fields":[]}`:                     `/_fields: must have at least 1 item`,
		`{"_fields":["total","total"]}`:      `/_fields/1: "total" is selected twice`,
		`{"_fields":["items.user.login.x"]}`: `is not a field`,
	} {
		r := call("list_pulls", args)
		if !r.IsError || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, want) {
			t.Errorf("%s: got %+v, want an error with %q", args, r, want)
		}
	}

	// The colliding tool: its own _fields reaches it, __fields selects.
	gotArgs = nil
	r = call("own_fields", `{"_fields":"mine","__fields":["b"]}`)
	if string(r.StructuredContent) != `{"b":2}` || len(gotArgs) != 1 || gotArgs[0] != `{"_fields":"mine"}` {
		t.Errorf("collision: got %s, the tool got %q", r.StructuredContent, gotArgs)
	}
}

// FuzzProjectJSON checks the projection's properties on any JSON value
// and selection: the output is JSON, every value in it is where the input
// has it, and it validates against the schema projected alike.
func FuzzProjectJSON(f *testing.F) {
	f.Add(fieldsResult, "items.title,items.user.login,total")
	f.Add(`[{"a":{"b":[1,{"c":2}]}},null]`, "a.b.c")
	f.Add(`{"extra":{"x":1,"kind":"b","z":"q"}}`, "extra.z")
	root, err := parseJNode([]byte(fieldsOutput))
	if err != nil {
		f.Fatal(err)
	}
	exact := compileSchema(f, []byte(fieldsOutput))
	relaxSchema(root, true)
	fs := &fieldSelector{outputJSON: root.appendInternal(nil)}
	whole := compileSchema(f, root.appendJSON(nil))
	f.Fuzz(func(t *testing.T, in, paths string) {
		if !json.Valid([]byte(in)) {
			return
		}
		list := strings.Split(paths, ",")
		sel := newFieldSel(list)
		out, err := projectJSON(nil, []byte(in), sel)
		if err != nil {
			t.Fatalf("valid JSON %q: %v", in, err)
		}
		var got, src any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output is not JSON: %s", out)
		}
		_ = json.Unmarshal([]byte(in), &src)
		if msg := subDocument(got, src); msg != "" {
			t.Fatalf("%s -> %s: %s", in, out, msg)
		}
		// Instances of the exact output schema (what the server checks
		// results against) stay valid, projected, against the projected
		// schema, which requires the selected members the exact one does;
		// so do instances of the listed schema, but for those members.
		if validates(t, exact, []byte(in)) == nil {
			projected := compileSchema(t, fs.projectedSchema(sel))
			if err := validates(t, projected, out); err != nil {
				t.Fatalf("%s -> %s does not validate against the projected schema: %v", in, out, err)
			}
		}
		if validates(t, whole, []byte(in)) == nil {
			if err := validates(t, whole, out); err != nil {
				t.Fatalf("%s -> %s does not validate against the listed schema: %v", in, out, err)
			}
		}
	})
}

// subDocument says how got is not a part of src ("" when it is): objects
// keep some of their members, arrays all their elements, scalars equal.
func subDocument(got, src any) string {
	switch g := got.(type) {
	case map[string]any:
		s, ok := src.(map[string]any)
		if !ok {
			return "an object where the input has none"
		}
		for k, v := range g {
			sv, ok := s[k]
			if !ok {
				return fmt.Sprintf("member %q is not in the input", k)
			}
			if msg := subDocument(v, sv); msg != "" {
				return k + ": " + msg
			}
		}
	case []any:
		s, ok := src.([]any)
		if !ok || len(s) != len(g) {
			return "an array that is not the input's"
		}
		for i := range g {
			if msg := subDocument(g[i], s[i]); msg != "" {
				return fmt.Sprint(i, ": ", msg)
			}
		}
	default:
		if fmt.Sprint(got) != fmt.Sprint(src) {
			return fmt.Sprintf("%v is not %v", got, src)
		}
	}
	return ""
}

func TestFieldSelectionDiscovery(t *testing.T) {
	s := NewServer(Options{FieldSelection: true, Discovery: true})
	s.AddTool(ToolDef{Name: "list_pulls", Definition: `{"name":"list_pulls","inputSchema":{"type":"object"},"outputSchema":` + fieldsOutput + `}`,
		Call: func(context.Context, []byte) (*ToolResult, error) { return StructuredResult([]byte(fieldsResult)), nil }})
	s.AddTool(ToolDef{Name: "plain", Definition: `{"name":"plain","inputSchema":{"type":"object"}}`,
		Call: func(context.Context, []byte) (*ToolResult, error) { return StructuredResult([]byte(`{}`)), nil }})
	c := startClient(t, s, StdioOptions{})
	if list := string(c.call(1, "tools/list", "").Result); !strings.Contains(list, `"fields":{"type":"array"`) {
		t.Errorf("describe_operation does not take fields: %s", list)
	}
	type result struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	}
	call := func(name, args string) result {
		t.Helper()
		var r result
		if err := json.Unmarshal(c.call(2, "tools/call", `"name":"`+name+`","arguments":`+args).Result, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	var desc struct {
		Tool struct {
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tool"`
	}
	r := call("describe_operation", `{"name":"list_pulls","fields":["items.title","items.user.login"]}`)
	if err := json.Unmarshal(r.StructuredContent, &desc); err != nil || r.IsError {
		t.Fatalf("describe_operation: %s %+v", r.StructuredContent, r.Content)
	}
	projected := compileSchema(t, desc.Tool.OutputSchema)
	if strings.Contains(string(desc.Tool.OutputSchema), `"number"`) || !strings.Contains(string(desc.Tool.OutputSchema), `"login"`) {
		t.Errorf("described schema is not projected: %s", desc.Tool.OutputSchema)
	}
	r = call("call_operation", `{"name":"list_pulls","arguments":{"_fields":["items.title","items.user.login"]}}`)
	if want := `{"items":[{"title":"Fix it","user":{"login":"octocat"}},{"title":"Add \"it\"","user":null}]}`; string(r.StructuredContent) != want {
		t.Errorf("call_operation: got %s, want %s", r.StructuredContent, want)
	}
	if err := validates(t, projected, r.StructuredContent); err != nil {
		t.Errorf("call_operation's result does not validate against the described schema: %v", err)
	}
	for args, want := range map[string]string{
		`{"name":"list_pulls","fields":["nope"]}`: `/fields/0: "nope" is not a field`,
		`{"name":"plain","fields":["a"]}`:         `offers no field selection`,
	} {
		if r := call("describe_operation", args); !r.IsError || !strings.Contains(r.Content[0].Text, want) {
			t.Errorf("%s: got %+v, want %q", args, r, want)
		}
	}
}
