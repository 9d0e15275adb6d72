package upstream

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

func jsonText(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

func TestArgCheckPath(t *testing.T) {
	tests := []struct {
		name  string
		multi bool
		value string // JSON
		want  string // appended text; "" when refused
		msg   string // part of the refusal
	}{
		{"plain", false, `"backup-1.tar"`, "backup-1.tar", ""},
		{"escaped", false, `"a b?c#d;e,f%"`, "a%20b%3Fc%23d%3Be%2Cf%25", ""},
		{"integer", false, `42`, "42", ""},
		{"dots inside", false, `"v1..2"`, "v1..2", ""},
		{"dot", false, `"."`, "", `"." or ".."`},
		{"dotdot", false, `".."`, "", `"." or ".."`},
		{"empty", false, `""`, "", "empty"},
		{"null", false, `null`, "", "empty"},
		{"slash", false, `"../../admin/users"`, "", `"/"`},
		{"backslash", false, `"..\\admin"`, "", `"\"`},
		{"NUL", false, `"a\u0000b"`, "", "control"},
		{"CR LF", false, `"a\r\nb"`, "", "control"},
		{"tab", false, `"a\tb"`, "", "control"},
		{"DEL", false, `"a\u007fb"`, "", "control"},
		{"array item slash", false, `["a","b/c"]`, "", `"/"`},
		{"array of dotdot", false, `[".."]`, "", `"." or ".."`},
		{"empty array", false, `[]`, "", "empty"},
		{"array", false, `["a","b"]`, "a,b", ""},
		{"object key slash", false, `{"a/b":"c"}`, "", `"/"`},
		{"multi path", true, `"docs/read me.md"`, "docs/read%20me.md", ""},
		{"multi single", true, `"README.md"`, "README.md", ""},
		{"multi dotdot", true, `"docs/../../admin"`, "", `"." or ".."`},
		{"multi leading slash", true, `"/etc/passwd"`, "", "empty segment"},
		{"multi trailing slash", true, `"docs/"`, "", "empty segment"},
		{"multi double slash", true, `"a//b"`, "", "empty segment"},
		{"multi backslash", true, `"a\\b"`, "", `"\"`},
		{"multi control", true, `"a/b\nc"`, "", "control"},
		{"multi escaped segment", true, `"a%2Fb/c"`, "a%252Fb/c", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c ArgCheck
			got := c.Path([]byte("/files/"), "file_name", "file", "simple", false, tt.multi, []byte(tt.value))
			err := c.Err()
			if tt.msg == "" {
				if err != nil || string(got) != "/files/"+tt.want {
					t.Fatalf("got %q, %v; want %q", got, err, "/files/"+tt.want)
				}
				return
			}
			var ve *wire.ValidationError
			if !errors.As(err, &ve) || len(ve.Errors) != 1 {
				t.Fatalf("err = %v, want one violation", err)
			}
			if fe := ve.Errors[0]; fe.Pointer != "/file_name" || !strings.Contains(fe.Message, tt.msg) {
				t.Errorf("violation %+v, want /file_name: …%s…", fe, tt.msg)
			}
			if string(got) != "/files/" {
				t.Errorf("a refused value was appended: %q", got)
			}
		})
	}
}

func TestArgCheckLabelAndMatrix(t *testing.T) {
	var c ArgCheck
	if got := c.Path(nil, "p", "p", "label", false, false, []byte(`"."`)); c.Err() == nil {
		t.Errorf("label %q accepted", got)
	}
	c = ArgCheck{}
	if got := string(c.Path(nil, "p", "id", "matrix", false, false, []byte(`"x"`))); got != ";id=x" || c.Err() != nil {
		t.Errorf("matrix = %q, %v", got, c.Err())
	}
}

func TestArgCheckHeaderCookieQuery(t *testing.T) {
	tests := []struct {
		name  string
		where string
		value string
		ok    bool
	}{
		{"header plain", "header", `"abc-123"`, true},
		{"header tab", "header", `"a\tb"`, true},
		{"header unicode", "header", `"é"`, true},
		{"header CRLF", "header", `"x\r\nX-Admin: 1"`, false},
		{"header LF", "header", `"x\nb"`, false},
		{"header NUL", "header", `"x\u0000"`, false},
		{"header array item CR", "header", `["a","b\rc"]`, false},
		{"cookie plain", "cookie", `"abc"`, true},
		{"cookie semicolon", "cookie", `"a; admin=1"`, true},
		{"cookie CR", "cookie", `"a\rb"`, false},
		{"cookie tab", "cookie", `"a\tb"`, false},
		{"query plain", "query", `"a&b=c#d"`, true},
		{"query escaped backslash u0000", "query", `"a\\u0000"`, true},
		{"query NUL", "query", `"a\u0000b"`, false},
		{"query NUL in array", "query", `["a","\u0000"]`, false},
		{"query NUL in deepObject", "query", `{"a":{"b":"\u0000"}}`, false},
		{"query CR LF", "query", `"a\r\nb"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c ArgCheck
			var out string
			switch tt.where {
			case "header":
				h, ok := c.Header("h", false, []byte(tt.value))
				if ok != (c.Err() == nil) {
					t.Fatalf("ok = %v but Err = %v", ok, c.Err())
				}
				out = h
			case "cookie":
				ck, ok := c.Cookie("h", "h", false, []byte(tt.value))
				if ok != (c.Err() == nil) {
					t.Fatalf("ok = %v but Err = %v", ok, c.Err())
				}
				out = ck
				if ok && strings.ContainsAny(strings.TrimPrefix(ck, "h="), "; \r\n") {
					t.Errorf("cookie %q is not one pair", ck)
				}
			case "query":
				style := "form"
				if strings.HasPrefix(tt.value, "{") {
					style = "deepObject"
				}
				q := c.Query(nil, "h", "h", style, true, []byte(tt.value))
				out = string(q)
				if c.Err() == nil {
					if _, err := url.ParseQuery(out); err != nil {
						t.Errorf("query %q: %v", out, err)
					}
				}
			}
			if got := c.Err() == nil; got != tt.ok {
				t.Fatalf("accepted = %v (%q, %v), want %v", got, out, c.Err(), tt.ok)
			}
		})
	}
}

// TestArgCheckDeepObjectEmptyMembers: deepObject writes scalars only, so
// an empty object or array inside a value would reach the API as nothing
// (Stripe's shipping[address] went missing, and the API refused the call
// for a member it requires). Such a value is refused at its path; an empty
// value as a whole is left out like an absent one.
func TestArgCheckDeepObjectEmptyMembers(t *testing.T) {
	tests := []struct {
		name, value, want, refusedAt string
	}{
		{"scalars", `{"name":"a","address":{"line1":"x"}}`, "shipping%5Bname%5D=a&shipping%5Baddress%5D%5Bline1%5D=x", ""},
		{"empty whole", `{}`, "", ""},
		{"empty object member", `{"name":"a","address":{}}`, "", "/shipping/address"},
		{"empty array member", `{"items":[]}`, "", "/shipping/items"},
		{"empty object in an array", `{"items":[{"price":"p"},{}]}`, "", "/shipping/items/1"},
		{"deeper", `{"a":{"b":{"c":[]}}}`, "", "/shipping/a/b/c"},
		{"escaped name", `{"a/b":{}}`, "", "/shipping/a~1b"},
		{"array of scalars", `{"tags":["x","y"]}`, "shipping%5Btags%5D%5B0%5D=x&shipping%5Btags%5D%5B1%5D=y", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c ArgCheck
			q := c.Query(nil, "shipping", "shipping", "deepObject", true, []byte(tt.value))
			err := c.Err()
			if tt.refusedAt == "" {
				if err != nil || string(q) != tt.want {
					t.Fatalf("got %q, %v; want %q", q, err, tt.want)
				}
				return
			}
			if err == nil || len(q) != 0 || !strings.Contains(err.Error(), tt.refusedAt+": must not be an empty object or array") {
				t.Fatalf("got %q, %v; want a refusal at %s", q, err, tt.refusedAt)
			}
		})
	}
	// Other styles write an object member as one value: nothing is lost.
	var c ArgCheck
	if q := c.Query(nil, "f", "f", "form", true, []byte(`{"a":{}}`)); c.Err() != nil || len(q) == 0 {
		t.Errorf("form style: %q, %v", q, c.Err())
	}
}

func TestArgCheckReportsEveryRefusal(t *testing.T) {
	var c ArgCheck
	c.Path(nil, "a", "a", "simple", false, false, jsonText(".."))
	c.Header("b", false, jsonText("x\ny"))
	c.Missing("c")
	var ve *wire.ValidationError
	if !errors.As(c.Err(), &ve) || len(ve.Errors) != 3 {
		t.Fatalf("err = %v, want three violations", c.Err())
	}
	for i, p := range []string{"/a", "/b", "/c"} {
		if ve.Errors[i].Pointer != p {
			t.Errorf("violation %d at %q, want %q", i, ve.Errors[i].Pointer, p)
		}
	}
}

// FuzzRequestStaysOnOperation checks the property the argument checks
// exist for: whatever the arguments, the request that is sent calls the
// operation's method on the configured host, on a path that matches the
// operation's template with one segment per single-segment variable, and
// carries no header or query structure the arguments did not declare.
func FuzzRequestStaysOnOperation(f *testing.F) {
	for _, seed := range [][4]string{
		{"backup.tar", "docs/README.md", "x", "q"},
		{"..", "../../admin/users", "a\r\nX-Admin: 1", "a&admin=1"},
		{".", "/etc/passwd", "\x00", "\x00"},
		{"a/b", "a//b", "\t", "#frag"},
		{"%2e%2e", "a%2Fb", "é", "?x=1"},
		{"", "", "", ""},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	// Template: GET /admin/backups/{file}/tree/{path} (path multi-segment),
	// query "q", header "X-Trace", cookie "session".
	f.Fuzz(func(t *testing.T, file, multi, header, query string) {
		// Arguments arrive as JSON, whose strings are UTF-8: compare
		// with what the JSON text holds.
		file, multi, header, query = asJSON(file), asJSON(multi), asJSON(header), asJSON(query)
		var c ArgCheck
		path := []byte("/v1/backups/")
		path = c.Path(path, "file", "file", "simple", false, false, jsonText(file))
		path = append(path, "/tree/"...)
		path = c.Path(path, "path", "path", "simple", false, true, jsonText(multi))
		q := c.Query(nil, "q", "q", "form", true, jsonText(query))
		h, hok := c.Header("X-Trace", false, jsonText(header))
		ck, cok := c.Cookie("session", "session", false, jsonText(header))
		if c.Err() != nil {
			return // refused before anything is sent
		}
		if !hok || !cok {
			t.Fatal("a refused header or cookie without an error")
		}
		u, err := url.Parse("https://api.example.com/base" + string(path) + "?" + string(q))
		if err != nil {
			t.Fatalf("built URL does not parse: %v", err)
		}
		if u.Host != "api.example.com" || u.Scheme != "https" || u.User != nil || u.Fragment != "" {
			t.Fatalf("URL %q leaves the host", u)
		}
		segs := strings.Split(u.EscapedPath(), "/")
		// "", "base", "v1", "backups", file, "tree", path segments...
		if len(segs) < 7 || segs[1] != "base" || segs[2] != "v1" || segs[3] != "backups" || segs[5] != "tree" {
			t.Fatalf("path %q does not match /base/v1/backups/{file}/tree/{path}", u.EscapedPath())
		}
		for i, s := range segs[4:] {
			if i == 1 {
				continue // "tree"
			}
			dec, err := url.PathUnescape(s)
			if err != nil || dec == "" || dec == "." || dec == ".." || strings.ContainsAny(dec, "/\\") {
				t.Fatalf("segment %q of %q is not a proper segment (decoded %q, %v)", s, u.EscapedPath(), dec, err)
			}
		}
		if got := strings.Join(segs[6:], "/"); multi != "" {
			dec := make([]string, 0, len(segs)-6)
			for _, s := range segs[6:] {
				d, _ := url.PathUnescape(s)
				dec = append(dec, d)
			}
			if strings.Join(dec, "/") != multi {
				t.Fatalf("multi-segment %q sent as %q", multi, got)
			}
		}
		if file != "" {
			if dec, _ := url.PathUnescape(segs[4]); dec != file {
				t.Fatalf("file %q sent as %q", file, segs[4])
			}
		}
		vals, err := url.ParseQuery(u.RawQuery)
		if err != nil || len(vals) != 1 || len(vals["q"]) != 1 || vals["q"][0] != query {
			t.Fatalf("query %q: %v, %v; want only q=%q", u.RawQuery, vals, err, query)
		}
		hr, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			t.Fatal(err)
		}
		hr.Header.Set("X-Trace", h)
		hr.Header.Set("Cookie", ck)
		for k, vs := range hr.Header {
			for _, v := range vs {
				if strings.ContainsAny(v, "\r\n\x00") {
					t.Fatalf("header %s: %q carries a line break or NUL", k, v)
				}
			}
		}
		if hr.Method != http.MethodGet || hr.URL.Host != "api.example.com" {
			t.Fatalf("request %s %s", hr.Method, hr.URL)
		}
	})
}

// asJSON is s as it reads back from its JSON encoding (invalid UTF-8
// replaced).
func asJSON(s string) string {
	var out string
	json.Unmarshal(jsonText(s), &out)
	return out
}
