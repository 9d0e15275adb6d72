package wire

import "encoding/base64"

// MsgBase64 is reported at the pointer of a string that a schema says is
// base64 (contentEncoding: base64, OpenAPI's format: byte) and whose Go
// type is []byte, when the string is not base64: there are no bytes to
// hand to the handler.
const MsgBase64 = `must be base64 like "aGVsbG8=" (RFC 4648: standard alphabet, padded)`

// ParseBase64 decodes s, the standard padded base64 of RFC 4648 that
// contentEncoding: base64 names, as encoding/json decodes a []byte (line
// breaks are ignored). It reports false for anything else, the URL-safe
// alphabet and missing padding included. An empty s is an empty, non-nil
// slice.
func ParseBase64(s string) ([]byte, bool) {
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(b, []byte(s))
	if err != nil {
		return nil, false
	}
	return b[:n], true
}

// FormatBase64 is the standard padded base64 of data (without quotes):
// what a []byte field is encoded as, and what its string constraints
// (minLength, pattern) are checked against.
func FormatBase64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }
