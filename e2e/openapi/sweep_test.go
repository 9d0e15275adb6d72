package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen-dev/mcpgen/runtime/upstream"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// The sweep: for each OpenAPI document it generates the server, runs it
// against Prism (--errors, so that every request is validated against the
// document) and calls every tool twice, with arguments synthesised from
// its input schema: once with the required arguments only, once with every
// optional argument too. The arguments are sampled from the tool's exact
// input schema: a schema over the schema budget is published shallower
// (exact.go), and the server validates against the exact one.
//
// Whether the mock accepted the request is decided from Prism's log alone
// (parsePrismLog): a request reached Prism, Prism logged "The request
// passed the validation rules" and no request violation (error or
// warning), and the call got no JSON-RPC error. That is the acceptance
// measure. Each call is also classified by what came back:
//
//	answered      a result that is not isError
//	mock refused  Prism logged a request violation (every one is kept)
//	proxy refused the server answered isError without calling the API
//	response      the request was accepted; isError because the mock's
//	              answer is not the documented shape
//	upstream      the request was accepted but the mock answered an error
//	              status (an operation documenting only errors, an answer
//	              Prism could not make or that fails the document itself)
//	protocol      a JSON-RPC error
//
// Before each call the arguments are checked against the input schema they
// were sampled from (checkSample): a sample that fails it is the sweep's
// defect, counted in its own column ("sample invalid") and not as a
// refusal by the server when the server then refuses it. A call on which
// the mock dies is counted as "mock exited", and the mock is started again
// on its address for the next call.
//
// MCPGEN_SWEEP names the documents: "ci" (both petstores), "all" (every
// document under ../shared/openapi) or a comma-separated list of paths;
// MCPGEN_SWEEP_CHUNK=N calls N tools at a time against pruned documents
// (sweep_chunks_test.go).
// scripts/openapi-sweep.sh runs it and prints the table.

type sweepCount struct {
	doc   string
	tools int
	// requestAccepted counts the calls whose request the mock accepted
	// (per pass); the others count the calls by what came back.
	requestAccepted                                            [2]int
	answered, mockRefused, proxy, response, protocol, upstream [2]int
	// sampleInvalid counts the calls whose sampled arguments fail the
	// input schema they were sampled from: the sweep's own defect.
	sampleInvalid [2]int
	// mockExited counts the calls on which the mock died (it is started
	// again for the next call): the mock's failure, not a verdict.
	mockExited [2]int
	exceptions []string
	// ajv counts schemas that do not compile in Ajv 2020 (unicode
	// patterns, as the TypeScript SDK compiles them); noItems counts
	// array schemas without items; gosdk counts schemas that the official
	// Go SDK cannot resolve (e2e/gosdk/schemacheck).
	ajv, noItems, gosdk int
}

// minus is r's per-pass counts less those of o (a chunk's own figures).
func (r sweepCount) minus(o sweepCount) sweepCount {
	for pass := range 2 {
		r.requestAccepted[pass] -= o.requestAccepted[pass]
		r.answered[pass] -= o.answered[pass]
		r.mockRefused[pass] -= o.mockRefused[pass]
		r.proxy[pass] -= o.proxy[pass]
		r.response[pass] -= o.response[pass]
		r.upstream[pass] -= o.upstream[pass]
		r.protocol[pass] -= o.protocol[pass]
		r.sampleInvalid[pass] -= o.sampleInvalid[pass]
		r.mockExited[pass] -= o.mockExited[pass]
	}
	return r
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
			m, _ := filepath.Glob(filepath.Join(sharedOpenAPI(), pat))
			docs = append(docs, m...)
		}
		slices.Sort(docs)
		return docs
	case readmeExamples:
		docs, _ := filepath.Glob(filepath.Join(sharedOpenAPI(), readmeExamples, "*", "*.json"))
		return docs
	default:
		return strings.Split(v, ",")
	}
	return nil
}

// sharedOpenAPI is the shared corpus of documents: $MCPGEN_SHARED_OPENAPI,
// or ../shared/openapi beside the repository (a git worktree elsewhere
// names it).
func sharedOpenAPI() string {
	if dir := os.Getenv("MCPGEN_SHARED_OPENAPI"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "openapi")
}

// readmeExamples names the set of small feature documents
// (../shared/openapi/readme-oas-examples/{2.0,3.0,3.1}), swept in
// parallel (go test -parallel) and reported as a row per document and a
// row of their total.
const readmeExamples = "readme-oas-examples"

func TestSweep(t *testing.T) {
	needE2E(t)
	docs := sweepDocs(t)
	examples := os.Getenv("MCPGEN_SWEEP") == readmeExamples
	var (
		mu     sync.Mutex
		rows   []sweepCount
		failed []string
	)
	t.Run("docs", func(t *testing.T) {
		for _, doc := range docs {
			name := filepath.Base(doc)
			if examples {
				name = filepath.Base(filepath.Dir(doc)) + "/" + name
			}
			t.Run(name, func(t *testing.T) {
				if examples {
					t.Parallel()
				}
				defer func() {
					if t.Failed() {
						mu.Lock()
						failed = append(failed, name)
						mu.Unlock()
					}
				}()
				row := sweepDoc(t, doc, func(partial sweepCount) {
					if examples {
						return
					}
					partial.doc = name + " (partial)"
					mu.Lock()
					defer mu.Unlock()
					writeSweepOut(sweepTable(append(slices.Clip(rows), partial)))
				})
				row.doc = name
				// Each document's figures as soon as they are known, for a
				// long sweep cut short.
				t.Logf("%s: %d tools; request accepted %d / %d; answered %d / %d\n%s", name, row.tools,
					row.requestAccepted[0], row.requestAccepted[1], row.answered[0], row.answered[1], strings.Join(row.exceptions, "\n"))
				mu.Lock()
				rows = append(rows, row)
				mu.Unlock()
			})
		}
	})
	if examples {
		// A row per document (sumRows sorts them) and their total, whose
		// only exceptions are the documents not swept: the others are
		// listed under their own rows.
		sum := sumRows(fmt.Sprintf("%s (%d documents)", readmeExamples, len(docs)), rows, nil)
		sum.exceptions = sumRows("", nil, failed).exceptions
		rows = append(rows, sum)
	}
	table := sweepTable(rows)
	t.Log("\n" + table)
	// The bounded CI sweep holds every document to the acceptance bar;
	// wider sweeps report.
	if os.Getenv("MCPGEN_SWEEP") == "ci" {
		for _, r := range rows {
			if r.requestAccepted[0] < r.tools || r.requestAccepted[1] < r.tools ||
				r.ajv+r.gosdk+r.noItems+r.mockRefused[0]+r.mockRefused[1]+r.proxy[0]+r.proxy[1]+r.response[0]+r.response[1]+r.protocol[0]+r.protocol[1]+r.sampleInvalid[0]+r.sampleInvalid[1]+r.mockExited[0]+r.mockExited[1] > 0 {
				t.Errorf("%s: calls or schemas failed (table above)", r.doc)
			}
		}
	}
	writeSweepOut(table)
}

// sweepTable is the Markdown table of rows followed by their exceptions.
func sweepTable(rows []sweepCount) string {
	var b strings.Builder
	b.WriteString("| document | tools | request accepted by the mock (required / all) | answered | mock refused | proxy refused | response shape | upstream error | protocol | sample invalid (the sweep's) | mock exited | schemas failing Ajv | schemas failing the Go SDK | arrays without items |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %d | %d | %d |\n", r.doc, r.tools,
			r.requestAccepted[0], r.requestAccepted[1], r.answered[0], r.answered[1], r.mockRefused[0], r.mockRefused[1], r.proxy[0], r.proxy[1],
			r.response[0], r.response[1], r.upstream[0], r.upstream[1], r.protocol[0], r.protocol[1], r.sampleInvalid[0], r.sampleInvalid[1], r.mockExited[0], r.mockExited[1], r.ajv, r.gosdk, r.noItems)
	}
	for _, r := range rows {
		for _, e := range r.exceptions {
			fmt.Fprintf(&b, "- %s: %s\n", r.doc, e)
		}
	}
	return b.String()
}

// writeSweepOut keeps table in $MCPGEN_SWEEP_OUT when set: the final
// table, or the table so far (a "(partial)" row) after each chunk.
func writeSweepOut(table string) {
	if out := os.Getenv("MCPGEN_SWEEP_OUT"); out != "" {
		os.WriteFile(out, []byte(table), 0o644)
	}
}

// sumRows adds rows up into one named name; each exception names its
// document, and each document whose sweep failed is an exception too.
func sumRows(name string, rows []sweepCount, failed []string) sweepCount {
	slices.SortFunc(rows, func(a, b sweepCount) int { return strings.Compare(a.doc, b.doc) })
	sum := sweepCount{doc: name}
	for _, r := range rows {
		sum.tools += r.tools
		for pass := range 2 {
			sum.requestAccepted[pass] += r.requestAccepted[pass]
			sum.answered[pass] += r.answered[pass]
			sum.mockRefused[pass] += r.mockRefused[pass]
			sum.proxy[pass] += r.proxy[pass]
			sum.response[pass] += r.response[pass]
			sum.upstream[pass] += r.upstream[pass]
			sum.protocol[pass] += r.protocol[pass]
			sum.sampleInvalid[pass] += r.sampleInvalid[pass]
			sum.mockExited[pass] += r.mockExited[pass]
		}
		sum.ajv += r.ajv
		sum.gosdk += r.gosdk
		sum.noItems += r.noItems
		for _, e := range r.exceptions {
			sum.exceptions = append(sum.exceptions, r.doc+": "+e)
		}
	}
	slices.Sort(failed)
	for _, f := range failed {
		sum.exceptions = append(sum.exceptions, f+": not swept (the test failed; see its log)")
	}
	return sum
}

// sweepDoc sweeps doc; progress gets the row so far after each chunk.
func sweepDoc(t *testing.T, doc string, progress func(sweepCount)) sweepCount {
	// A document without operations (OpenAPI 3.1 allows one of webhooks
	// only) has nothing to call, and mcpgen init rightly refuses it: a
	// row that says so, not a failure.
	if api, err := spec.Load(os.DirFS(filepath.Dir(doc)), filepath.Base(doc)); err == nil && len(api.Tools) == 0 {
		return sweepCount{doc: filepath.Base(doc), exceptions: []string{"no operations to call (mcpgen init refuses the document): nothing to sweep"}}
	}
	bin := buildServer(t, doc)
	// Prism makes some answers slowly (Argo's recursive Workflow schemas
	// on a loaded machine): a longer upstream timeout than the default
	// 30 s keeps the figures about correctness, not load. callWait bounds
	// the whole call, retries included.
	creds := append(sweepCredentials(t, doc), "MCPGEN_UPSTREAM_TIMEOUT=90s")
	row := sweepCount{doc: filepath.Base(doc)}
	tools := listTools(t, bin, creds)
	row.tools = len(tools)
	row.ajv, row.gosdk, row.noItems = checkSchemas(t, tools, &row.exceptions)
	exact := exactInputSchemas(t, filepath.Dir(bin), doc, tools)
	upstreamReasons := map[string][]string{}
	var before sweepCount // the row before this chunk, for its own figures
	chunks := sweepChunks(t, doc, tools)
	if skipped := skippedTools(chunks); skipped > 0 {
		// MCPGEN_SWEEP_FROM: the row counts the chunks swept; the schema
		// columns still cover every tool.
		row.tools -= skipped
		row.exceptions = append(row.exceptions, fmt.Sprintf("chunks 1–%d (%d tools) not swept in this run (MCPGEN_SWEEP_FROM=%d); the schema columns cover all %d tools",
			sweepFrom(t)-1, skipped, sweepFrom(t), len(tools)))
		if row.tools == 0 {
			t.Fatalf("MCPGEN_SWEEP_FROM=%d: the document has only %d chunks", sweepFrom(t), len(chunks))
		}
	}
	for pass, ch := range sweepPasses(t, chunks, bin, creds) {
		if pass < 0 {
			t.Errorf("chunk %d/%d: %v", ch.index+1, ch.total, ch.err)
			row.exceptions = append(row.exceptions, fmt.Sprintf("chunk %d/%d (%d tools, %s … %s): not swept, the mock did not start: %s",
				ch.index+1, ch.total, len(ch.tools), ch.tools[0].Name, ch.tools[len(ch.tools)-1].Name, firstLine(ch.err.Error())))
			progress(row)
			continue
		}
		what := []string{"required", "all"}[pass]
		p, c := ch.prism, ch.client
		for _, tl := range ch.tools {
			args := sampleArgs(exact.input(tl), pass == 1)
			sampleErr := checkSample(exact.input(tl), args)
			if sampleErr != nil {
				row.sampleInvalid[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): the sweep's sample is invalid (a sweep defect, not the server's) %s: %s", tl.Name, what, firstLine(mustJSON(args)), firstLine(oneLine(sampleErr.Error()))))
			}
			p.settle()
			from := len(p.log.String())
			resp := c.call("tools/call", map[string]any{"name": tl.Name, "arguments": args})
			p.settle()
			verdict := p.verdict(from)
			var res toolResult
			json.Unmarshal(resp.Result, &res)
			crash, exited := p.crashed()
			if exited {
				// The call killed the mock (Prism 5.14.2 on a request
				// without an optional array header): the call is the
				// mock's failure, and the mock is started again on the
				// same address for the calls after it.
				row.mockExited[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): the mock exited on this call (%s); started again", tl.Name, what, firstLine(crash)))
				np, err := tryStartPrismAt(t, ch.doc, strings.TrimPrefix(p.URL, "http://"))
				if err != nil {
					t.Fatalf("the mock exited and did not start again: %v", err)
				}
				*p = *np
			}
			if resp.Error == nil && verdict.accepted() {
				row.requestAccepted[pass]++
			}
			switch {
			case resp.Error != nil:
				row.protocol[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): protocol error %d %s", tl.Name, what, resp.Error.Code, resp.Error.Message))
			case exited:
				// Counted above.
			case verdict.reached && !verdict.accepted():
				row.mockRefused[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): mock refused %s: %s", tl.Name, what, mustJSON(args), verdict.reason()))
			case res.IsError && !verdict.reached && sampleErr != nil:
				// The server rightly refused the sweep's invalid sample
				// (counted above).
			case res.IsError && !verdict.reached:
				row.proxy[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): proxy refused %s: %s", tl.Name, what, mustJSON(args), firstLine(res.text())))
			case res.IsError && strings.Contains(res.text(), "output schema"):
				row.response[pass]++
				row.exceptions = append(row.exceptions, fmt.Sprintf("%s (%s): request accepted; response shape: %s", tl.Name, what, firstLine(res.text())))
			case res.IsError:
				row.upstream[pass]++
				r := answerReason(res.text())
				upstreamReasons[r] = append(upstreamReasons[r], tl.Name+" ("+what+")")
			default:
				row.answered[pass]++
			}
		}
		if pass == 1 {
			// Each chunk's figures as soon as it is done, and the table so
			// far, so that a late failure keeps what was measured.
			if ch.total > 1 {
				d := row.minus(before)
				t.Logf("chunk %d/%d swept: %d tools; request accepted %d / %d; mock refused %d / %d; proxy refused %d / %d; upstream error %d / %d; protocol %d / %d",
					ch.index+1, ch.total, len(ch.tools), d.requestAccepted[0], d.requestAccepted[1], d.mockRefused[0], d.mockRefused[1],
					d.proxy[0], d.proxy[1], d.upstream[0], d.upstream[1], d.protocol[0], d.protocol[1])
				before = row
				before.exceptions = nil
			}
			progress(row)
		}
	}
	// The answer-side failures of accepted requests, one line per reason.
	reasons := slices.Sorted(maps.Keys(upstreamReasons))
	for _, r := range reasons {
		calls := upstreamReasons[r]
		list := strings.Join(calls, ", ")
		if len(calls) > 12 {
			list = strings.Join(calls[:12], ", ") + fmt.Sprintf(", … (%d more)", len(calls)-12)
		}
		row.exceptions = append(row.exceptions, fmt.Sprintf("request accepted; upstream answered %s: %d calls: %s", r, len(calls), list))
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

// oneLine joins the lines of a validator's error tree.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
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
//
// The all-arguments pass leaves out the optional arguments marked
// deprecated, as a caller that heeds the document does: the server sends
// one it is given like any other argument of its type, and Prism warns
// about each ("Query param order is deprecated"), which the sweep counts.
func sampleArgs(schema json.RawMessage, all bool) any {
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil
	}
	v := sampleOf(root, root, 0)
	full, ok := v.(map[string]any)
	if !ok {
		if all {
			return v
		}
		return map[string]any{}
	}
	req := map[string]bool{}
	if rs, ok := root["required"].([]any); ok {
		for _, r := range rs {
			req[r.(string)] = true
		}
	}
	props, _ := root["properties"].(map[string]any)
	out := map[string]any{}
	for k, v := range full {
		p, _ := props[k].(map[string]any)
		if req[k] || all && p["deprecated"] != true {
			out[k] = v
		}
	}
	return out
}

var (
	answerStatus = regexp.MustCompile(`\b([1-5][0-9][0-9])\b`)
	answerTitle  = regexp.MustCompile(`"title"\s*:\s*"([^"]*)"`)
)

// answerReason names an error answer by its status and, for Prism's own
// problem documents, their title ("Unable to generate body for response",
// "Request/Response not valid"), so that calls failing alike are listed
// together.
func answerReason(text string) string {
	line := firstLine(text)
	status := answerStatus.FindString(line)
	if m := answerTitle.FindStringSubmatch(text); m != nil && status != "" {
		return status + " “" + m[1] + "”"
	}
	return "“" + line + "”"
}
