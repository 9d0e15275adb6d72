package runtime

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Fuzz targets for the parsers that see client bytes before any handler:
// the _meta envelope, HTTP header values and targets, URI templates,
// cursors and requestState. scripts/fuzz.sh runs each for a bounded time.

func quietServer() *Server {
	return NewServer(Options{StateKeys: [][]byte{[]byte("fuzz-key-0123456789abcdef0123456")}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// FuzzParseEnvelope: any params object yields request metadata or a
// JSON-RPC error, never a panic.
func FuzzParseEnvelope(f *testing.F) {
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`))
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"progressToken":7,"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}`))
	f.Add([]byte(`{"_meta":null}`))
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, params []byte) {
		meta, err := parseEnvelope(params)
		if (meta == nil) == (err == nil) {
			t.Fatalf("parseEnvelope(%q) = %v, %v: want exactly one of them", params, meta, err)
		}
	})
}

// FuzzDecodeHeaderValue: a =?base64?…?= sentinel decodes to the text it
// encodes and nothing else; any accepted value is valid UTF-8, and plain
// values are accepted only as printable ASCII.
func FuzzDecodeHeaderValue(f *testing.F) {
	f.Add("A1001", "")
	f.Add("=?base64?w6lsw6hl?=", "élève")
	f.Add("=?base64?w6lsw6hl?", "\x00")
	f.Add("=?BASE64?QQ==?=", "日本")
	f.Add("=?base64?QQ?=", "a\r\nb")
	f.Fuzz(func(t *testing.T, header, text string) {
		if v, ok := decodeHeaderValue(header); ok && !utf8.ValidString(v) {
			t.Fatalf("decodeHeaderValue(%q) accepted invalid UTF-8 %q", header, v)
		}
		if !utf8.ValidString(text) {
			return
		}
		enc := "=?base64?" + base64.StdEncoding.EncodeToString([]byte(text)) + "?="
		if v, ok := decodeHeaderValue(enc); !ok || v != text {
			t.Fatalf("decodeHeaderValue(%q) = %q, %v; want %q", enc, v, ok, text)
		}
	})
}

// FuzzDecodeHeaderTarget: any tools/call params are read or rejected with
// an HTTP error, never a panic, and the scan that feeds the dispatcher
// finds what decodeTargetParams finds.
func FuzzDecodeHeaderTarget(f *testing.F) {
	f.Add([]byte(`{"name":"get_order_status","arguments":{"order_id":"A1001"}}`))
	f.Add([]byte(`{"uri":"order://A1/summary"}`))
	f.Add([]byte(`{"name":1,"arguments":[]}`))
	f.Add([]byte(`{"name":"n","inputResponses":{"a":1},"inputResponses":{"b":2},"requestState":7}`))
	f.Fuzz(func(t *testing.T, params []byte) {
		var ht headerTarget
		decodeHeaderTarget(params, &ht)
		checkScanCallTarget(t, params)
	})
}

// FuzzURITemplate: matching any URI against any template ends quickly, and
// a match binds only the template's variables.
func FuzzURITemplate(f *testing.F) {
	f.Add("order://{order_id}/summary", "order://A1001/summary")
	f.Add("file:///{path}", "file:///a/b/c")
	f.Add("x://{a}{b}{c}{d}", "x://"+strings.Repeat("a", 200))
	f.Add("x://{a}-{b}-{c}-{d}-{e}", "x://"+strings.Repeat("-", 300)+"!")
	f.Add("{a}", "%zz")
	f.Fuzz(func(t *testing.T, tpl, uri string) {
		tp, err := parseURITemplate(tpl)
		if err != nil {
			return
		}
		start := time.Now()
		vars, ok := tp.match(uri)
		if took := time.Since(start); took > time.Second {
			t.Fatalf("matching %q against %q took %v", uri, tpl, took)
		}
		if !ok {
			return
		}
		for name := range vars {
			if !strings.Contains(tpl, "{"+name+"}") {
				t.Fatalf("match(%q) against %q bound %q, not a variable of it", uri, tpl, name)
			}
		}
	})
}

// FuzzParseCursor: a cursor the server did not sign is rejected, one it
// signed gives back its offset, and no input panics.
func FuzzParseCursor(f *testing.F) {
	s := quietServer()
	f.Add(s.makeCursor("tools", 3), 5)
	f.Add(s.makeCursor("prompts", 0), 0)
	f.Add("dG9vbHM6Mw.AAAAAAAAAAAAAAAA", 5)
	f.Add("", 1)
	f.Fuzz(func(t *testing.T, cursor string, n int) {
		if n < 0 || n > 1<<20 {
			return
		}
		off, err := s.parseCursor("tools", cursor, n)
		if err != nil {
			return
		}
		if off < 0 || off > n {
			t.Fatalf("parseCursor(%q, %d) = %d, outside the list", cursor, n, off)
		}
		if again := s.makeCursor("tools", off); again != cursor {
			t.Fatalf("parseCursor accepted %q, which the server did not sign (it signs %q)", cursor, again)
		}
	})
}

// FuzzVerifyState: a requestState the server did not sign never verifies,
// whatever its bytes, and decoding it never panics.
func FuzzVerifyState(f *testing.F) {
	s := quietServer()
	payload := base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"t":"get","a":"x","e":9999999999}`))
	f.Add(payload + "." + base64.RawURLEncoding.EncodeToString(s.mac(s.stateKeys[0], stateDomain, payload)))
	f.Add(payload + ".AAAA")
	f.Add("..")
	f.Add("")
	f.Fuzz(func(t *testing.T, token string) {
		p, err := s.verifyState(token)
		if err != nil {
			return
		}
		enc, sigText, _ := strings.Cut(token, ".")
		sig, _ := base64.RawURLEncoding.DecodeString(sigText)
		if !s.verifyMAC(stateDomain, enc, sig) {
			t.Fatalf("verifyState accepted %q without a valid signature", token)
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatal(err)
		}
	})
}

// parseEnvelope and decodeHeaderTarget are the scan's answers for one
// params value, the entry points the tests and fuzz targets call.
func parseEnvelope(params json.RawMessage) (*RequestMeta, *Error) {
	s := scanParams(params)
	return s.envelope()
}

func decodeHeaderTarget(params json.RawMessage, t *headerTarget) *httpError {
	s := scanParams(params)
	var e *httpError
	*t, e = s.headerTarget()
	return e
}
