package runtime

import "testing"

// TestLegacyProgressToken: a 2025 request's progress token is taken from
// params._meta.progressToken when params is well-formed and the token a
// string or an integer, as json.Unmarshal into a struct took it before.
func TestLegacyProgressToken(t *testing.T) {
	ls := &legacySession{version: "2025-11-25"}
	for _, c := range []struct {
		params string
		want   string // "" for no token
	}{
		{`{"name":"t","_meta":{"progressToken":"p1"}}`, `"p1"`},
		{`{"_meta":{"progressToken":7}}`, `7`},
		{`{"_meta":{"progressToken":7.5}}`, ``},
		{`{"_meta":{"progressToken":null}}`, ``},
		{`{"_meta":{"progressToken":{}}}`, ``},
		{`{"_meta":5}`, ``},
		{`{"_meta":{"progressToken":"p1"}`, ``},    // unclosed
		{`{"_meta":{"progressToken":"p1"}} x`, ``}, // trailing data
		{`{"_meta":{"progressToken":"p1"},"name":}`, ``},
		{`{"_meta":{"progressToken":"a"},"_meta":{"progressToken":"b"}}`, `"b"`},
		{`[]`, ``},
		{`{}`, ``},
	} {
		scan := scanParams([]byte(c.params))
		got := string(ls.requestMeta(&scan).ProgressToken)
		if got != c.want {
			t.Errorf("%s: progress token %q, want %q", c.params, got, c.want)
		}
		if ls.requestMeta(&scan).ProtocolVersion != "2025-11-25" {
			t.Errorf("%s: the session's version is lost", c.params)
		}
	}
}
