package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// headerTarget holds the members of params that HTTP headers mirror. A
// member absent or of the wrong type has its Has field false: the
// dispatcher reports it. Value and presence, not a *string: no allocation
// per member.
type headerTarget struct {
	Name      string
	HasName   bool
	URI       string
	HasURI    bool
	Arguments json.RawMessage
}

// headerTarget is the members the HTTP headers mirror, from the scan; a
// walk that failed rejects the request as params that are not an object.
func (s *paramScan) headerTarget() (headerTarget, *httpError) {
	if s.err != nil || s.trailing {
		return headerTarget{}, reject(http.StatusBadRequest, CodeInvalidParams, "params must be an object")
	}
	return s.target, nil
}

// checkNameHeader checks Mcp-Name against the body's name or URI.
// body is ignored unless has.
func checkNameHeader(h http.Header, body string, has bool) *httpError {
	vals, ok := h["Mcp-Name"]
	if !ok {
		return reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: missing Mcp-Name header")
	}
	if len(vals) != 1 {
		return reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: more than one Mcp-Name header")
	}
	v, ok := decodeHeaderValue(vals[0])
	if !ok {
		return reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: invalid Mcp-Name header value")
	}
	if !has {
		body = ""
	}
	if !has || v != body {
		return mismatch("Mcp-Name", v, body)
	}
	return nil
}

// decodeHeaderValue returns the value a client put in an Mcp-Name or
// Mcp-Param-* header: plain printable ASCII as is, or the UTF-8 text of a
// =?base64?…?= sentinel (exact lowercase markers, canonical padded
// base64). ok is false for characters a client must have encoded and for
// a malformed sentinel.
func decodeHeaderValue(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if len(v) >= len(prefix)+len(suffix) && strings.HasPrefix(v, prefix) && strings.HasSuffix(v, suffix) {
		enc := v[len(prefix) : len(v)-len(suffix)]
		dec, err := base64.StdEncoding.Strict().DecodeString(enc)
		if err != nil || base64.StdEncoding.EncodeToString(dec) != enc || !utf8.Valid(dec) {
			return "", false
		}
		return string(dec), true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c > 0x7e {
			return "", false
		}
	}
	return v, true
}

// checkParamHeaders checks the Mcp-Param-{Name} headers of a tool call
// against the arguments: a value absent or null in the body must have no
// header; a present one needs a header with the same value (integers
// compared as numbers, booleans as true/false, strings exactly).
//
// A body value whose JSON type is not the declared one is not compared:
// such a call is invalid whatever the headers say, and argument validation
// answers it with an isError result naming the field, which tells the
// caller (often a model) what to fix; a -32020 would only say that a
// header disagrees, and a client that derived the header from that value
// could not have sent a matching one.
func checkParamHeaders(h http.Header, params []ParamHeader, args json.RawMessage) *httpError {
	for _, p := range params {
		header := "Mcp-Param-" + p.Name
		vals, present := h[http.CanonicalHeaderKey(header)]
		body, found := lookupPath(args, p.Path)
		if found && !hasHeaderType(p.Type, body) {
			continue
		}
		if !found {
			if present {
				return reject(http.StatusBadRequest, CodeHeaderMismatch,
					"Header mismatch: %s header sent but the argument is absent", header)
			}
			continue
		}
		if !present {
			return reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: missing %s header", header)
		}
		if len(vals) != 1 {
			return reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: more than one %s header", header)
		}
		v, ok := decodeHeaderValue(vals[0])
		if !ok {
			return reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: invalid %s header value", header)
		}
		if !headerMatches(p.Type, v, body) {
			return mismatch(header, v, string(body))
		}
	}
	return nil
}

// lookupPath returns the JSON value at the chain of property names; found
// is false when a member is missing, null, or a parent is not an object.
func lookupPath(args json.RawMessage, path []string) (json.RawMessage, bool) {
	cur := args
	for _, name := range path {
		if len(cur) == 0 || cur[0] != '{' {
			return nil, false
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return nil, false
		}
		cur = obj[name]
	}
	cur = bytes.TrimSpace(cur)
	if len(cur) == 0 || string(cur) == "null" {
		return nil, false
	}
	return cur, true
}

// hasHeaderType reports whether the body's JSON value (non-empty, not
// null) has the JSON type of the declared header type: a number for
// "integer" (whether it is integral is argument validation's business),
// true or false for "boolean", a string otherwise.
func hasHeaderType(typ string, body json.RawMessage) bool {
	switch typ {
	case "integer":
		return body[0] == '-' || (body[0] >= '0' && body[0] <= '9')
	case "boolean":
		return string(body) == "true" || string(body) == "false"
	default:
		return body[0] == '"'
	}
}

// headerMatches compares a decoded header value with the body's JSON value
// of the declared type (hasHeaderType holds).
func headerMatches(typ, header string, body json.RawMessage) bool {
	switch typ {
	case "integer":
		hv, err1 := strconv.ParseFloat(header, 64)
		bv, err2 := strconv.ParseFloat(string(body), 64)
		// Integers are within ±(2^53−1), so float64 compares them exactly,
		// and 42.0 equals 42.
		return err1 == nil && err2 == nil && hv == bv
	case "boolean":
		return header == string(body)
	default:
		var s string
		if json.Unmarshal(body, &s) != nil {
			return false
		}
		return s == header
	}
}

// legacyRequestedVersion is params.protocolVersion of a 2025 initialize.
func legacyRequestedVersion(params json.RawMessage) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(params, &p)
	return p.ProtocolVersion
}
