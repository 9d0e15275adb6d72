package openapi

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen-dev/mcpgen/runtime/upstream"
)

// The sweep: for each OpenAPI document it generates the server, runs it
// against Prism (--errors, so that every request is validated against the
// document) and calls every tool twice, with arguments synthesised from
// its input schema: once with the required arguments only, once with every
// optional argument too. Each call is classified:
//
//	accepted      Prism logged no violation for the request
//	mock refused  Prism logged a violation (the first is kept as the reason)
//	proxy refused the server answered isError without calling the API
//	response      isError because the mock's answer is not the documented shape
//	upstream      the request was valid but the mock answered an error
//	              status (an operation documenting only errors, a 401)
//	protocol      a JSON-RPC error
//
// MCPGEN_SWEEP names the documents: "ci" (both petstores), "all" (every
// document under ../shared/openapi) or a comma-separated list of paths;
// MCPGEN_SWEEP_CHUNK=N calls N tools at a time against pruned documents
// (sweep_chunks_test.go).
// scripts/openapi-sweep.sh runs it and prints the table.

type sweepCount struct {
	doc                                                        string
	tools                                                      int
	accepted, mockRefused, proxy, response, protocol, upstream [2]int
	exceptions                                                 []string
	// ajv counts schemas that do not compile in Ajv 2020 (unicode
	// patterns, as the TypeScript SDK compiles them); noItems counts
	// array schemas without items; gosdk counts schemas that the official
	// Go SDK cannot resolve (e2e/gosdk/schemacheck).
	ajv, noItems, gosdk int
}

func sweepDocs(t *testing.T) []string {
	switch v := os.Getenv("MCPGEN_SWEEP"); v {
	case "":
		t.Skip("set MCPGEN_SWEEP=ci, all or a list of documents (scripts/openapi-sweep.sh)")
	case "ci":
		return []string{"testdata/swagger-petstore-openapi-3.0.yaml", "testdata/petstore-swagger-2.0.json"}
	case "all":
		var docs []string
		for _, pat := range []string{"*/*.json", "*/*.yaml", "*/*.yml"} {
			m, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "openapi", pat))
			docs = append(docs, m...)
		}
		slices.Sort(docs)
		return docs
	default:
		return strings.Split(v, ",")
	}
	return nil
}

func TestSweep(t *testing.T) {
	needE2E(t)
	docs := sweepDocs(t)
	var rows []sweepCount
	for _, doc := range docs {
		t.Run(filepath.Base(doc), func(t *testing.T) {
			if strings.HasSuffix(doc, ".json") && strings.Contains(doc, "petstore-swagger-2.0") {
				doc = withDefaultConsumes(t, doc)
			}
			rows = append(rows, sweepDoc(t, doc))
		})
	}
	var b strings.Builder
	b.WriteString("| document | tools | accepted (required / all) | mock refused | proxy refused | response shape | upstream error | protocol | schemas failing Ajv | schemas failing the Go SDK | arrays without items |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %d | %d | %d |\n", r.doc, r.tools,
			r.accepted[0], r.accepted[1], r.mockRefused[0], r.mockRefused[1], r.proxy[0], r.proxy[1],
			r.response[0], r.response[1], r.upstream[0], r.upstream[1], r.protocol[0], r.protocol[1], r.ajv, r.gosdk, r.noItems)
	}
	for _, r := range rows {
		for _, e := range r.exceptions {
			fmt.Fprintf(&b, "- %s: %s\n", r.doc, e)
		}
	}
	t.Log("\n" + b.String())
	// The bounded CI sweep holds every document to the acceptance bar;
	// wider sweeps report.
	if os.Getenv("MCPGEN_SWEEP") == "ci" {
		for _, r := range rows {
			if r.ajv+r.gosdk+r.noItems+r.mockRefused[0]+r.mockRefused[1]+r.proxy[0]+r.proxy[1]+r.response[0]+r.response[1]+r.protocol[0]+r.protocol[1] > 0 {
				t.Errorf("%s: calls or schemas failed (table above)", r.doc)
			}
		}
	}
	if out := os.Getenv("MCPGEN_SWEEP_OUT"); out != "" {
		os.WriteFile(out, []byte(b.String()), 0o644)
	}
}

func sweepDoc(t *testing.T, doc string) sweepCount {
	bin := buildServer(t, doc)
	creds := sweepCredentials(t, doc)
	row := sweepCount{doc: filepath.Base(doc)}
	tools := listTools(t, bin, creds)
	row.tools = len(tools)
	row.ajv, row.gosdk, row.noItems = checkSchemas(t, tools, &row.exceptions)
	for pass, ch := range sweepPasses(t, sweepChunks(t, doc, tools), bin, creds) {
		p, c := ch.prism, ch.client
		for _, tl := range ch.tools {
			args := sampleArgs(tl.InputSchema, pass == 1)
			p.settle()
			before, received := len(p.violations()), strings.Count(p.log.String(), "Request received")
			resp := c.call("tools/call", map[string]any{"name": tl.Name, "arguments": args})
			p.settle()
			reached := strings.Count(p.log.String(), "Request received") > received
			var res toolResult
			json.Unmarshal(resp.Result, &res)
			what := []string{"required", "all"}[pass]
			switch v := p.violations(); {
			case resp.Error != nil:
				row.protocol[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): protocol error %d %s", tl.Name, what, resp.Error.Code, resp.Error.Message))
			case len(v) > before:
				row.mockRefused[pass]++
				reason := v[before]
				for _, l := range v[before:] {
					if strings.Contains(l, "Violation:") {
						reason = l[strings.Index(l, "Violation:"):]
						break
					}
				}
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): mock refused %s: %s", tl.Name, what, mustJSON(args), reason))
			case res.IsError && strings.Contains(res.text(), "output schema"):
				row.response[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): response shape: %s", tl.Name, what, firstLine(res.text())))
			case res.IsError && !reached:
				row.proxy[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): proxy refused %s: %s", tl.Name, what, mustJSON(args), firstLine(res.text())))
			case res.IsError:
				row.upstream[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): upstream error: %s", tl.Name, what, firstLine(res.text())))
			default:
				row.accepted[pass]++
			}
		}
	}
	return row
}

// checkSchemas compiles every tool's schemas with Ajv as the TypeScript
// SDK does (e2e/ts/ajv-check.mjs), resolves them with jsonschema-go as the
// Go SDK does (e2e/gosdk/schemacheck) and counts array schemas without
// items.
func checkSchemas(t *testing.T, tools []tool, exceptions *[]string) (ajv, gosdk, noItems int) {
	t.Helper()
	var list []map[string]any
	for _, tl := range tools {
		m := map[string]any{"name": tl.Name, "inputSchema": tl.InputSchema}
		if tl.OutputSchema != nil {
			m["outputSchema"] = tl.OutputSchema
		}
		list = append(list, m)
		for _, s := range []json.RawMessage{tl.InputSchema, tl.OutputSchema} {
			var v any
			json.Unmarshal(s, &v)
			if n := arraysWithoutItems(v); n > 0 {
				noItems += n
				*exceptions = append(*exceptions, fmt.Sprintf("%s: %d array schemas without items", tl.Name, n))
			}
		}
	}
	f := filepath.Join(t.TempDir(), "tools.json")
	data, _ := json.Marshal(list)
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("MCPGEN_SWEEP_TOOLS") != "" {
		// Keep the dump for a look at the published schemas.
		os.WriteFile(os.Getenv("MCPGEN_SWEEP_TOOLS"), data, 0o644)
	}
	ajv = schemaChecker(t, "Ajv", exceptions, filepath.Join("..", "ts"), "node", "ajv-check.mjs", f)
	gosdk = schemaChecker(t, "Go SDK", exceptions, filepath.Join("..", "gosdk"), "go", "run", "./schemacheck", f)
	return ajv, gosdk, noItems
}

// schemaChecker runs a checker that prints one line per failing schema
// and a summary line, exiting non-zero when a schema fails; it returns the
// number of failures, each added to exceptions.
func schemaChecker(t *testing.T, what string, exceptions *[]string, dir, name string, args ...string) int {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err == nil {
		return 0
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	n := 0
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		for _, l := range lines[:len(lines)-1] {
			n++
			*exceptions = append(*exceptions, what+": "+l)
		}
	}
	if n == 0 {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s schema check: %v\n%s%s", what, err, out, stderr)
	}
	return n
}

// arraysWithoutItems counts the schemas in v that say type array (alone
// or with null) and have no items.
func arraysWithoutItems(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		isArray := v["type"] == "array"
		if ts, ok := v["type"].([]any); ok {
			isArray = slices.Contains(ts, any("array"))
		}
		if _, ok := v["items"]; isArray && !ok {
			n++
		}
		for k, x := range v {
			if k == "enum" || k == "const" || k == "default" || k == "examples" {
				continue
			}
			n += arraysWithoutItems(x)
		}
	case []any:
		for _, x := range v {
			n += arraysWithoutItems(x)
		}
	}
	return n
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// sweepCredentials are placeholder credentials (Prism checks that one is
// present, not its value) for every security scheme of doc, in the
// variables the generated server reads (MCPGEN_<SCHEME>_<FIELD>).
func sweepCredentials(t *testing.T, doc string) []string {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Components struct {
			SecuritySchemes map[string]any `yaml:"securitySchemes" json:"securitySchemes"`
		} `yaml:"components" json:"components"`
		SecurityDefinitions map[string]any `yaml:"securityDefinitions" json:"securityDefinitions"`
	}
	// yaml.v3 refuses JSON's escaped surrogate pairs (Twilio's emoji), so
	// JSON documents are read as JSON.
	unmarshal := yaml.Unmarshal
	if strings.HasSuffix(doc, ".json") {
		unmarshal = json.Unmarshal
	}
	if err := unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	var env []string
	for _, m := range []map[string]any{d.Components.SecuritySchemes, d.SecurityDefinitions} {
		for name := range m {
			p := "MCPGEN_" + upstream.EnvName(name) + "_"
			env = append(env, p+"API_KEY=k", p+"TOKEN=t", p+"USERNAME=u", p+"PASSWORD=p")
		}
	}
	slices.Sort(env)
	return env
}

// allTools lists every tool, following tools/list pages.
func allTools(c *mcpClient) []tool {
	var all []tool
	params := map[string]any(nil)
	for {
		resp := c.call("tools/list", params)
		if resp.Error != nil {
			c.t.Fatalf("tools/list: %+v", resp.Error)
		}
		var r struct {
			Tools      []tool `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Result, &r); err != nil {
			c.t.Fatal(err)
		}
		all = append(all, r.Tools...)
		if r.NextCursor == "" {
			return all
		}
		params = map[string]any{"cursor": r.NextCursor}
	}
}

// sampleArgs makes arguments for schema: the required properties only,
// or every property (to depth 3) when all.
func sampleArgs(schema json.RawMessage, all bool) any {
	if all {
		return sample(schema)
	}
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil
	}
	full, _ := sampleOf(root, root, 0).(map[string]any)
	req := map[string]bool{}
	if rs, ok := root["required"].([]any); ok {
		for _, r := range rs {
			req[r.(string)] = true
		}
	}
	out := map[string]any{}
	for k, v := range full {
		if req[k] {
			out[k] = v
		}
	}
	return out
}
