package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// outputFiles are the schema files of a wrapped "get_repo" tool: the
// document's response schema and its tolerant form, as mcpgen writes them.
var outputFiles = fstest.MapFS{
	"schemas/get_repo.response.schema.json": {Data: []byte(`{"type":"object","properties":{
		"id":{"type":"integer"},"name":{"type":"string","maxLength":3},
		"visibility":{"enum":["public","private"]},
		"owner":{"type":"object","properties":{"login":{"type":"string"}},"required":["login"],"additionalProperties":false}},
		"required":["id","name","owner"],"additionalProperties":false}`)},
	"schemas/get_repo.output.schema.json": {Data: []byte(`{"type":"object","properties":{
		"id":{"type":["integer","null"]},"name":{"type":["string","null"],"description":"Documented: maxLength 3."},
		"visibility":{"description":"Documented: enum [\"public\",\"private\"]."},
		"owner":{"type":["object","null"],"properties":{"login":{"type":["string","null"]}}}}}`)},
}

var repoOutput = Output{Tool: "get_repo", Schemas: outputFiles,
	Published: "schemas/get_repo.output.schema.json", Document: "schemas/get_repo.response.schema.json"}

func jsonResponse(body string) *Response {
	return &Response{Status: 200, ContentType: "application/json; charset=utf-8", Body: []byte(body)}
}

func TestStructuredResult(t *testing.T) {
	for _, c := range []struct {
		name, body string
		// structured is the structuredContent; "" for an isError result
		// whose text contains text.
		structured, text string
		logs             []string
	}{
		{name: "as documented", body: `{"id":1,"name":"abc","owner":{"login":"o"}}`, structured: `{"id":1,"name":"abc","owner":{"login":"o"}}`},
		{name: "deviations", body: "{\n \"name\": \"toolong\", \"visibility\": \"internal\", \"owner\": {\"login\": null, \"x\": 1}, \"extra\": [1]}",
			structured: `{"name":"toolong","visibility":"internal","owner":{"login":null,"x":1},"extra":[1]}`,
			logs: []string{"pointer=/id problem=\"is required\"", "pointer=/extra problem=\"is not a documented property\"",
				"pointer=/name problem=\"is 7 characters long, longer than 3\"", "pointer=/owner/login problem=\"expected string, got null\"",
				"pointer=/owner/x", `pointer=/visibility problem="\"internal\" is not one of the documented values"`}},
		{name: "wrong type", body: `{"id":"one","owner":{"login":"o"}}`, text: `upstream API answered outside its documented shape (/id: expected integer or null, got string), so its response is not structured content; its text: {"id":"one","owner":{"login":"o"}}`,
			logs: []string{"outside its documented shape", "pointer=/id"}},
		{name: "not an object", body: `"busy"`, text: "(root): expected object, got string"},
		{name: "null", body: `null`, text: "answered 200 with null"},
		{name: "malformed", body: `{"id":`, text: "malformed JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var logs bytes.Buffer
			client := NewClient("http://x", nil, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			res, err := client.StructuredResult(context.Background(), jsonResponse(c.body), repoOutput)
			if err != nil {
				t.Fatal(err)
			}
			if c.structured != "" {
				if res.IsError || string(res.Structured) != c.structured {
					t.Errorf("result %+v, want structuredContent %s", res, c.structured)
				}
			} else if !res.IsError || res.Structured != nil || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, c.text) {
				t.Errorf("result %+v, want an isError result with %q", res, c.text)
			}
			if strings.Contains(fmt.Sprint(res.Content), "invalid arguments") {
				t.Errorf("an upstream problem is worded as the caller's: %+v", res)
			}
			for _, l := range c.logs {
				if !strings.Contains(logs.String(), "tool=get_repo "+l) && !strings.Contains(logs.String(), l) {
					t.Errorf("no log with %s:\n%s", l, logs.String())
				}
			}
			if len(c.logs) == 0 && c.structured != "" && logs.Len() > 0 {
				t.Errorf("a response as documented was logged:\n%s", logs.String())
			}
		})
	}
}

func TestStructuredResultNotJSON(t *testing.T) {
	client := NewClient("http://x", nil)
	for _, resp := range []*Response{
		{Status: 200, ContentType: "text/html", Body: []byte("<p>maintenance</p>")},
		{Status: 204},
		{Status: 200, ContentType: "application/json", Body: []byte(`{"id":1`), Truncated: 10},
	} {
		res, err := client.StructuredResult(context.Background(), resp, repoOutput)
		if err != nil || !res.IsError || res.Structured != nil {
			t.Errorf("%+v: %+v, %v", resp, res, err)
		}
	}
}

// TestDeviationLogsOnce: the same kind of deviation (the same pointer but
// for array indices, the same problem) is logged once, however many
// responses and items have it.
func TestDeviationLogsOnce(t *testing.T) {
	files := fstest.MapFS{
		"p.json": {Data: []byte(`{"type":"array","items":{"type":["object","null"]}}`)},
		"d.json": {Data: []byte(`{"type":"array","items":{"type":"object","required":["id"]}}`)},
	}
	out := Output{Tool: "list", Schemas: files, Published: "p.json", Document: "d.json"}
	var logs bytes.Buffer
	client := NewClient("http://x", nil, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	for range 3 {
		res, err := client.StructuredResult(context.Background(), jsonResponse(`[{},{},{}]`), out)
		if err != nil || res.IsError {
			t.Fatal(res, err)
		}
	}
	if n := strings.Count(logs.String(), "\n"); n != 1 {
		t.Errorf("%d log lines, want 1:\n%s", n, logs.String())
	}
	// A client built without NewClient works too.
	var bare Client
	if res, err := bare.StructuredResult(context.Background(), jsonResponse(`[{}]`), out); err != nil || res.IsError {
		t.Errorf("zero Client: %+v, %v", res, err)
	}
	if _, err := client.StructuredResult(context.Background(), jsonResponse(`[]`), Output{Tool: "x", Schemas: files, Published: "missing.json"}); err == nil {
		t.Error("a missing schema file is no error")
	}
}

// largeRepos is a response like GitHub's list of an organisation's
// repositories: n repositories of about 40 members each, with an owner.
func largeRepos(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"node_id":"MDEwOlJlcG9zaXRvcnkx%d","name":"repo-%d","full_name":"org/repo-%d","private":false,`+
			`"owner":{"login":"org","id":1,"node_id":"MDQ6VXNlcjE=","avatar_url":"https://avatars.example.com/u/1","type":"Organization","site_admin":false},`+
			`"html_url":"https://example.com/org/repo-%d","description":"A repository with a description of some length, as real ones have.","fork":false,`+
			`"url":"https://api.example.com/repos/org/repo-%d","created_at":"2020-01-02T03:04:05Z","updated_at":"2024-05-06T07:08:09Z","pushed_at":null,`+
			`"homepage":null,"size":%d,"stargazers_count":%d,"watchers_count":12,"language":"Go","has_issues":true,"has_projects":true,`+
			`"has_wiki":false,"has_pages":false,"forks_count":3,"archived":false,"disabled":false,"open_issues_count":4,"license":{"key":"mit","name":"MIT License","spdx_id":"MIT"},`+
			`"topics":["mcp","go","codegen"],"visibility":"public","forks":3,"open_issues":4,"watchers":12,"default_branch":"main",`+
			`"permissions":{"admin":false,"maintain":false,"push":true,"triage":true,"pull":true}}`, i, i, i, i, i, i, i*7, i*3)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// reposSchema is the exact response schema of largeRepos, and tolerant
// its published form.
func reposSchemas() fstest.MapFS {
	str := `{"type":"string"}`
	strN := `{"type":["string","null"]}`
	i := `{"type":"integer"}`
	bo := `{"type":"boolean"}`
	props := func(s, n, in, b string, required bool) string {
		owner := fmt.Sprintf(`{"type":"object","properties":{"login":%s,"id":%s,"node_id":%s,"avatar_url":{"type":"string","format":"uri"},"type":%s,"site_admin":%s}%s}`,
			s, in, s, s, b, map[bool]string{true: `,"required":["login","id"]`}[required])
		p := fmt.Sprintf(`"id":%s,"node_id":%s,"name":%s,"full_name":%s,"private":%s,"owner":%s,"html_url":{"type":"string","format":"uri"},"description":%s,"fork":%s,`+
			`"url":%s,"created_at":{"type":"string","format":"date-time"},"updated_at":{"type":"string","format":"date-time"},"pushed_at":{"type":["string","null"],"format":"date-time"},`+
			`"homepage":%s,"size":%s,"stargazers_count":%s,"watchers_count":%s,"language":%s,"has_issues":%s,"has_projects":%s,"has_wiki":%s,"has_pages":%s,"forks_count":%s,`+
			`"archived":%s,"disabled":%s,"open_issues_count":%s,"license":{"type":["object","null"],"properties":{"key":%s,"name":%s,"spdx_id":%s}},"topics":{"type":"array","items":%s},`+
			`"visibility":{"enum":["public","private","internal"]},"forks":%s,"open_issues":%s,"watchers":%s,"default_branch":%s,"permissions":{"type":"object","properties":{"admin":%s,"maintain":%s,"push":%s,"triage":%s,"pull":%s}}`,
			in, s, s, s, b, owner, n, b, s, n, in, in, in, n, b, b, b, b, in, b, b, in, s, s, n, s, in, in, in, s, b, b, b, b, b)
		if required {
			return `{"type":"array","items":{"type":"object","properties":{` + p + `},"required":["id","node_id","name","full_name","owner","private","html_url","url"]}}`
		}
		return `{"type":"array","items":{"type":["object","null"],"properties":{` + p + `}}}`
	}
	return fstest.MapFS{
		"response.json": {Data: []byte(props(str, strN, i, bo, true))},
		"output.json":   {Data: []byte(props(strN, strN, `{"type":["integer","null"]}`, `{"type":["boolean","null"]}`, false))},
	}
}

// BenchmarkStructuredResult measures the two checks of a large response
// (100 repositories, about 200 KB) beside what passing the same bytes
// through costs without them (Compact: json.Compact alone) and what
// decoding them with encoding/json into maps costs.
func BenchmarkStructuredResult(b *testing.B) {
	body := largeRepos(100)
	out := Output{Tool: "list_repos", Schemas: reposSchemas(), Published: "output.json", Document: "response.json"}
	client := NewClient("http://x", nil, WithLogger(slog.New(slog.DiscardHandler)))
	resp := jsonResponse(string(body))
	b.Run("Checked", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			res, err := client.StructuredResult(context.Background(), resp, out)
			if err != nil || res.IsError {
				b.Fatal(res, err)
			}
		}
	})
	b.Run("Compact", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var buf bytes.Buffer
			if err := json.Compact(&buf, body); err != nil {
				b.Fatal(err)
			}
			_ = runtime.StructuredResult(buf.Bytes())
		}
	})
	b.Run("UnmarshalAny", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
