package runtime

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// FuzzVerifySession feeds arbitrary Mcp-Session-Id values to the verifier
// of signed session ids: it never panics, accepts only what a key signed,
// and a signed id verifies to what was signed.
func FuzzVerifySession(f *testing.F) {
	s := NewServer(Options{StateKeys: [][]byte{[]byte("0123456789abcdef0123456789abcdef")}})
	ls := &legacySession{version: "2025-11-25", capsRaw: json.RawMessage(`{"elicitation":{}}`), clientInfo: &Implementation{Name: "c", Version: "1"}}
	good := s.signSession(ls, "alice")
	f.Add(good)
	f.Add("")
	f.Add(".")
	f.Add("0123456789abcdef0123456789abcdef")
	f.Add(good[:len(good)-1])
	f.Fuzz(func(t *testing.T, id string) {
		p, ok := s.verifySession(id)
		if !ok {
			return
		}
		// Only the one spelling of a signed payload is accepted: another
		// would slip past the revocation of the first.
		enc, _, _ := strings.Cut(id, ".")
		if want := enc + "." + base64.RawURLEncoding.EncodeToString(s.mac(s.stateKeys[0], sessionDomain, enc)); id != want {
			t.Fatalf("accepted %q, the signed spelling is %q", id, want)
		}
		if p.Version == "" {
			t.Fatalf("payload %+v", p)
		}
	})
}

func TestSessionIDRoundTrip(t *testing.T) {
	keyA := []byte("0123456789abcdef0123456789abcdef")
	a := NewServer(Options{StateKeys: [][]byte{keyA}})
	b := NewServer(Options{StateKeys: [][]byte{[]byte("another key of thirty-two bytes!"), keyA}}) // rotated: A's key still verifies
	c := NewServer(Options{StateKeys: [][]byte{[]byte("another key of thirty-two bytes!")}})
	ls := &legacySession{version: "2025-06-18", capsRaw: json.RawMessage(`{"sampling":{}}`), clientInfo: &Implementation{Name: "host", Version: "2"}}
	id := a.signSession(ls, "bob")
	p, ok := b.verifySession(id)
	if !ok {
		t.Fatal("a replica with the key in its list refused the id")
	}
	if p.Version != "2025-06-18" || string(p.Caps) != `{"sampling":{}}` || p.ClientInfo.Name != "host" || p.Subject != "bob" {
		t.Errorf("payload = %+v", p)
	}
	if time.Since(time.UnixMilli(p.Created)) > time.Minute {
		t.Errorf("created = %d", p.Created)
	}
	// The signature's last character carries two unused bits: another
	// spelling of the same bytes is refused.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, id[len(id)-1])
	respelled := id[:len(id)-1] + string(alphabet[last^1])
	if _, ok := b.verifySession(respelled); ok {
		t.Error("another spelling of the signed id was accepted")
	}
	if _, ok := c.verifySession(id); ok {
		t.Error("a replica without the key accepted the id")
	}
	restored := b.restoreLegacySession(t.Context(), p)
	if restored.version != "2025-06-18" || !restored.caps.sampling || restored.caps.elicitURL {
		t.Errorf("restored session: version %s caps %+v", restored.version, restored.caps)
	}
}
