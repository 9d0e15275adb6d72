// Command fieldsel measures field selection on GitHub's list responses:
// for six list operations of api.github.com.json it takes the
// operation's example response (what `prism mock` answers), repeats its
// items to a page of 30 (GitHub's default per_page), and serves the page
// as the structured result of a tool whose output schema is the
// operation's response schema, through a runtime.Server with
// Options.FieldSelection. It prints the bytes of structuredContent as
// sent: whole, with a typical selection, and both with a result budget;
// and the size of the selection argument the tool's input schema gains.
//
//	go run ./fieldsel -doc ../../shared/openapi/github/api.github.com.json
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// lists are the operations measured, with a selection a caller would
// typically make of each.
var lists = []struct {
	path   string
	fields []string
}{
	{"/repos/{owner}/{repo}/pulls", []string{"number", "title", "state", "user.login", "html_url"}},
	{"/repos/{owner}/{repo}/issues", []string{"number", "title", "state", "user.login", "html_url"}},
	{"/users/{username}/repos", []string{"name", "full_name", "description", "html_url", "stargazers_count"}},
	{"/notifications", []string{"id", "reason", "unread", "subject.title", "repository.full_name"}},
	{"/repos/{owner}/{repo}/commits", []string{"sha", "commit.message", "commit.author.name", "html_url"}},
	{"/orgs/{org}/members", []string{"login", "id", "html_url"}},
}

func main() {
	doc := flag.String("doc", "../../shared/openapi/github/api.github.com.json", "the GitHub OpenAPI `document`")
	tokens := flag.Int("tokens", 5000, "the result budget in `tokens`")
	pageSize := flag.Int("page", 30, "items per page")
	flag.Parse()
	raw, err := os.ReadFile(*doc)
	if err != nil {
		fail(err)
	}
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		fail(err)
	}
	fmt.Printf("| list operation (%d items) | whole | selected | budget %d tokens, whole | budget %d tokens, selected | `_fields` argument | projected schema in `_meta` |\n|---|---|---|---|---|---|---|\n",
		*pageSize, *tokens, *tokens)
	for _, l := range lists {
		op := get(d, "paths", l.path, "get", "responses", "200", "content", "application/json").(map[string]any)
		example := get(d, "components", "examples", refName(get(op, "examples", "default", "$ref")), "value").([]any)
		page := make([]any, *pageSize)
		for i := range page {
			page[i] = example[i%len(example)]
		}
		data, _ := json.Marshal(page)
		schema := bundle(d, op["schema"])
		whole, _, _, _ := measure(data, schema, nil, 0)
		sel, _, argBytes, metaBytes := measure(data, schema, l.fields, 0)
		wholeCut, wholeKept, _, _ := measure(data, schema, nil, *tokens)
		selCut, selKept, _, _ := measure(data, schema, l.fields, *tokens)
		fmt.Printf("| `GET %s` `%s` | %s B | %s B (%.1f%%) | %s B, %s | %s B, %s | %s B | %s B |\n", shortPath(l.path), strings.Join(l.fields, ","),
			num(whole), num(sel), 100*float64(sel)/float64(whole), num(wholeCut), wholeKept, num(selCut), selKept, num(argBytes), num(metaBytes))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func shortPath(p string) string {
	return strings.NewReplacer("{owner}", "{o}", "{repo}", "{r}", "{username}", "{u}", "{org}", "{o}").Replace(p)
}

// num prints n with thousands separators.
func num(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func get(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			fail(fmt.Errorf("no %q in %v", k, keys))
		}
		v = m[k]
	}
	return v
}

func refName(ref any) string {
	s, _ := ref.(string)
	return s[strings.LastIndex(s, "/")+1:]
}

// bundle returns schema as one document: the component schemas it
// references, transitively, under $defs.
func bundle(d map[string]any, schema any) string {
	defs := map[string]any{}
	var walk func(v any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, val := range t {
				if s, ok := val.(string); ok && k == "$ref" && strings.HasPrefix(s, "#/components/schemas/") {
					name := refName(s)
					out[k] = "#/$defs/" + name
					if _, seen := defs[name]; !seen {
						defs[name] = nil
						defs[name] = walk(get(d, "components", "schemas", name))
					}
					continue
				}
				out[k] = walk(val)
			}
			return out
		case []any:
			out := make([]any, len(t))
			for i := range t {
				out[i] = walk(t[i])
			}
			return out
		}
		return v
	}
	root := walk(schema).(map[string]any)
	root["$defs"] = defs
	b, _ := json.Marshal(root)
	return string(b)
}

// measure serves data as a tool's structured result and returns the size
// of structuredContent as the server sends it with the selection (nil:
// none) and the budget (0: none), how many items it kept, and the size
// of the selection argument in the tool's listed input schema and of the
// projected schema in _meta.
func measure(data []byte, schema string, fields []string, tokens int) (size int, kept string, argBytes, metaBytes int) {
	srv := runtime.NewServer(runtime.Options{ResultBudgetTokens: tokens, FieldSelection: true})
	srv.AddTool(runtime.ToolDef{
		Name:       "list",
		Definition: `{"name":"list","inputSchema":{"type":"object","properties":{"page":{"type":"integer"},"per_page":{"type":"integer"}}},"outputSchema":` + schema + `}`,
		Call: func(context.Context, []byte) (*runtime.ToolResult, error) {
			return runtime.StructuredResult(data), nil
		},
	})
	args := "{}"
	if fields != nil {
		b, _ := json.Marshal(map[string]any{"_fields": fields})
		args = string(b)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { srv.ServeStdio(context.Background(), inR, outW, runtime.StdioOptions{}); outW.Close() }()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	go func() {
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`)
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list","arguments":`+args+`,`+meta+`}}`)
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 64<<20)
	var list struct {
		Result struct {
			Tools []struct {
				InputSchema struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	// The server answers requests concurrently: tell the answers by id.
	answers := map[string][]byte{}
	for len(answers) < 2 && sc.Scan() {
		var id struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(sc.Bytes(), &id)
		answers[string(id.ID)] = append([]byte(nil), sc.Bytes()...)
	}
	inW.Close()
	if json.Unmarshal(answers["1"], &list) != nil || len(list.Result.Tools) != 1 {
		fail(fmt.Errorf("tools/list: %.300s", answers["1"]))
	}
	argBytes = len(list.Result.Tools[0].InputSchema.Properties["_fields"])
	var resp struct {
		Result struct {
			StructuredContent json.RawMessage            `json:"structuredContent"`
			IsError           bool                       `json:"isError"`
			Meta              map[string]json.RawMessage `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal(answers["2"], &resp); err != nil || resp.Result.IsError {
		fail(fmt.Errorf("tools/call: %v %.300s", err, answers["2"]))
	}
	metaBytes = len(resp.Result.Meta["io.mcpgen/fields"])
	kept = "whole"
	var t struct {
		KeptItems    *int `json:"keptItems"`
		OmittedItems *int `json:"omittedItems"`
	}
	if json.Unmarshal(resp.Result.Meta["io.mcpgen/truncated"], &t) == nil && t.KeptItems != nil {
		kept = fmt.Sprintf("%d of %d", *t.KeptItems, *t.KeptItems+*t.OmittedItems)
	}
	return len(resp.Result.StructuredContent), kept, argBytes, metaBytes
}
