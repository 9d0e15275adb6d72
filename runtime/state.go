package runtime

// requestState protects the multi round-trip (MRTR) flow. A token is
//
//	base64url(JSON payload) "." base64url(HMAC-SHA256(key, domain || payload))
//
// The payload binds the token to the method, the tool/prompt name or
// resource URI, a SHA-256 digest of the canonical arguments, the caller's
// Identity.Subject and an expiry, and carries the answers of earlier rounds.
// It is signed, not encrypted: the client already knows those answers, and
// secrets must be asked for in URL mode anyway.
//
// Replaying a token is harmless by construction: within its lifetime it is
// only accepted for the very same method, target, arguments and caller, so
// a replay can only repeat the same call with the same answers, which is
// what the client could do by answering again.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

const stateDomain = "mcpgen/requestState\x00"

type statePayload struct {
	Method  string                     `json:"m"`
	Name    string                     `json:"n"`
	Args    string                     `json:"a,omitempty"`
	Subject string                     `json:"s,omitempty"`
	Expiry  int64                      `json:"e"` // Unix milliseconds
	Answers map[string]json.RawMessage `json:"r,omitempty"`
}

// inputRequest is one entry of inputRequests: an embedded server-to-client
// request (elicitation/create now; sampling/createMessage and roots/list
// fit the same shape).
type inputRequest struct {
	method string
	params []byte // encoded params object
}

// mrtrState is the MRTR part of a request that may answer input_required.
type mrtrState struct {
	name string
	// argsSource is the arguments JSON the digest is computed from, lazily:
	// most requests never need it.
	argsSource []byte
	// responses are this round's inputResponses; answers the verified
	// answers of earlier rounds. Both are read-only once set.
	responses map[string]json.RawMessage
	answers   map[string]json.RawMessage
	retry     bool

	mu      sync.Mutex
	used    map[string]json.RawMessage // answers the handler consumed
	pending []string                   // keys asked this round, in order
	asked   map[string]inputRequest
}

// beginMRTR prepares the MRTR state of rs and, on a retry, verifies its
// requestState.
func (s *Server) beginMRTR(ctx context.Context, rs *reqState, name string, argsSource []byte, p *mrtrParams) *Error {
	m := &rs.mrtrStore
	*m = mrtrState{
		name:       name,
		argsSource: argsSource,
		responses:  p.InputResponses,
		retry:      p.RequestState != nil || p.InputResponses != nil,
	}
	rs.mrtr = m
	if p.RequestState == nil {
		return nil
	}
	payload, e := s.verifyState(*p.RequestState)
	if e != nil {
		return e
	}
	id, _ := IdentityFrom(ctx)
	if payload.Method != rs.method || payload.Name != name || payload.Subject != id.Subject ||
		payload.Args != argsDigest(argsSource) || s.now().UnixMilli() > payload.Expiry {
		return errInvalidState()
	}
	m.answers = payload.Answers
	return nil
}

// argsDigest is the SHA-256 of the canonical form of the arguments JSON
// (object keys sorted, insignificant whitespace removed), so that a retry
// whose client re-encoded the same arguments still matches.
func argsDigest(src []byte) string {
	if len(src) == 0 || string(src) == "{}" {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	canonical := src
	if dec.Decode(&v) == nil {
		if out, err := json.Marshal(v); err == nil {
			canonical = out
		}
	}
	sum := sha256.Sum256(canonical)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func (s *Server) mac(key []byte, domain, payload string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(domain))
	h.Write([]byte(payload))
	return h.Sum(nil)
}

// signState returns a requestState for rs carrying answers.
func (s *Server) signState(ctx context.Context, rs *reqState, answers map[string]json.RawMessage) string {
	id, _ := IdentityFrom(ctx)
	p := statePayload{
		Method:  rs.method,
		Name:    rs.mrtr.name,
		Args:    argsDigest(rs.mrtr.argsSource),
		Subject: id.Subject,
		Expiry:  s.now().Add(s.opts.StateTTL).UnixMilli(),
		Answers: answers,
	}
	data, _ := json.Marshal(p) // strings and raw JSON already validated
	enc := base64.RawURLEncoding.EncodeToString(data)
	sig := s.mac(s.stateKeys[0], stateDomain, enc)
	return enc + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// verifyState checks the signature of a requestState and decodes it. Any
// failure is the same -32602 "invalid requestState", so a forger learns
// nothing about which part was wrong.
func (s *Server) verifyState(token string) (*statePayload, *Error) {
	// base64 decoding skips \r and \n: only the exact signed text passes.
	enc, sigText, ok := strings.Cut(token, ".")
	if !ok || strings.ContainsAny(token, "\r\n") {
		return nil, errInvalidState()
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigText)
	if err != nil || !s.verifyMAC(stateDomain, enc, sig) {
		return nil, errInvalidState()
	}
	data, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return nil, errInvalidState()
	}
	var p statePayload
	if json.Unmarshal(data, &p) != nil {
		return nil, errInvalidState()
	}
	return &p, nil
}

// verifyMAC accepts a signature made with any configured key, so keys can
// be rotated.
func (s *Server) verifyMAC(domain, payload string, sig []byte) bool {
	for _, k := range s.stateKeys {
		if hmac.Equal(sig, s.mac(k, domain, payload)) {
			return true
		}
	}
	return false
}

// inputRequired answers the input_required result for the requests the
// handler asked for this round, with a requestState carrying every answer
// the handler has consumed so far.
func (s *Server) inputRequired(ctx context.Context, rs *reqState) response {
	m := rs.mrtr
	m.mu.Lock()
	defer m.mu.Unlock()
	state := s.signState(ctx, rs, m.used)
	r := s.beginResult(make([]byte, 0, 256+len(state)), "input_required")
	if len(m.pending) > 0 {
		r.key("inputRequests")
		r.b = append(r.b, '{')
		for i, k := range m.pending {
			if i > 0 {
				r.b = append(r.b, ',')
			}
			ir := m.asked[k]
			r.b = wire.AppendString(r.b, k)
			r.b = append(r.b, `:{"method":`...)
			r.b = wire.AppendString(r.b, ir.method)
			r.b = append(r.b, `,"params":`...)
			r.b = append(r.b, ir.params...)
			r.b = append(r.b, '}')
		}
		r.b = append(r.b, '}')
	}
	r.key("requestState")
	r.b = wire.AppendString(r.b, state)
	return response{result: s.finishResult(r, nil, nil)}
}
