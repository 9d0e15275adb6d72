package openapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// requestLog records every request a fake upstream receives.
type requestLog struct {
	mu   sync.Mutex
	reqs []recorded
	hdrs []http.Header
}

func (l *requestLog) all() ([]recorded, []http.Header) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]recorded(nil), l.reqs...), append([]http.Header(nil), l.hdrs...)
}

// TestArgumentsStayOnOperation generates a server from a small document,
// runs it against a recording upstream and checks, call by call, that
// values that would change the endpoint or the request's structure are
// refused with the argument named and never reach the API, that
// multi-segment parameters keep their "/", and that an optional body is
// sent only when one of its fields is given.
func TestArgumentsStayOnOperation(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/files-api.yaml")
	log := &requestLog{}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		log.mu.Lock()
		log.reqs = append(log.reqs, recorded{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Get("Content-Type"), b})
		log.hdrs = append(log.hdrs, r.Header.Clone())
		log.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"name":"ok"}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL+"/api")

	refused := []struct {
		tool    string
		args    map[string]any
		pointer string
	}{
		{"getBackup", map[string]any{"filename": ".."}, "/filename"},
		{"getBackup", map[string]any{"filename": "."}, "/filename"},
		{"getBackup", map[string]any{"filename": ""}, "/filename"},
		{"getBackup", map[string]any{"filename": "../../admin/users"}, "/filename"},
		{"getBackup", map[string]any{"filename": `..\admin`}, "/filename"},
		{"getBackup", map[string]any{"filename": "a\x00b"}, "/filename"},
		{"getBackup", map[string]any{"filename": "ok", "X-Trace": "x\r\nX-Admin: 1"}, "/X-Trace"},
		{"getBackup", map[string]any{"filename": "ok", "q": "a\x00"}, "/q"},
		{"getContent", map[string]any{"owner": "o", "path": "docs/../../admin"}, "/path"},
		{"getContent", map[string]any{"owner": "o", "path": "/etc/passwd"}, "/path"},
		{"getContent", map[string]any{"owner": "a/b", "path": "x"}, "/owner"},
		{"createNote", map[string]any{"tags": []any{"a"}}, "/title"},
	}
	for _, tt := range refused {
		res := c.callTool(tt.tool, tt.args)
		if !res.IsError || !strings.Contains(res.text(), tt.pointer) {
			t.Errorf("%s %s: want an isError naming %s, got %v %s", tt.tool, mustJSON(tt.args), tt.pointer, res.IsError, res.text())
		}
	}
	if reqs, _ := log.all(); len(reqs) != 0 {
		t.Fatalf("refused calls reached the upstream: %+v", reqs)
	}

	accepted := []struct {
		tool     string
		args     map[string]any
		path     string
		body, ct string
	}{
		{"getBackup", map[string]any{"filename": "v1..2 ?#;", "X-Trace": "a\tb", "q": "a&b=c"}, "/api/backups/v1..2%20%3F%23%3B", "", ""},
		{"getContent", map[string]any{"owner": "o", "path": "docs/read me.md"}, "/api/repos/o/contents/docs/read%20me.md", "", ""},
		{"createNote", map[string]any{}, "/api/notes", "", ""},
		{"createNote", map[string]any{"title": "a:b"}, "/api/notes", `{"title":"a:b"}`, "application/json"},
	}
	for i, tt := range accepted {
		res := c.callTool(tt.tool, tt.args)
		if res.IsError {
			t.Errorf("%s %s: %s", tt.tool, mustJSON(tt.args), res.text())
			continue
		}
		reqs, hdrs := log.all()
		if len(reqs) != i+1 {
			t.Fatalf("%s: %d requests recorded, want %d", tt.tool, len(reqs), i+1)
		}
		r := reqs[i]
		if r.path != tt.path || string(r.body) != tt.body || r.contentType != tt.ct {
			t.Errorf("%s %s: sent %s %q body %q (%q), want %q body %q (%q)", tt.tool, mustJSON(tt.args), r.method, r.path, r.body, r.contentType, tt.path, tt.body, tt.ct)
		}
		if i == 0 {
			if got := hdrs[i].Get("X-Trace"); got != "a\tb" {
				t.Errorf("X-Trace = %q", got)
			}
			if r.query != "q=a%26b%3Dc" {
				t.Errorf("query %q", r.query)
			}
		}
	}
}
