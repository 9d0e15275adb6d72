package runtime

import (
	"crypto/hmac"
	"encoding/base64"
	"strconv"
	"strings"
)

// Cursors are opaque to clients but must not be forgeable into arbitrary
// offsets of another list: a cursor is base64url("kind:offset") "."
// base64url(truncated HMAC), signed with the requestState keys under their
// own domain.

const cursorDomain = "mcpgen/cursor\x00"

func (s *Server) makeCursor(kind string, offset int) string {
	payload := base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strconv.Itoa(offset)))
	sig := s.mac(s.stateKeys[0], cursorDomain, payload)[:12]
	return payload + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// parseCursor returns the offset a cursor of the given list kind points
// to; n is the current length of the list.
func (s *Server) parseCursor(kind, cursor string, n int) (int, *Error) {
	bad := InvalidParams("invalid cursor")
	// base64 decoding skips \r and \n, so without this a cursor with a line
	// break inside would pass as the one the server signed.
	payload, sigText, ok := strings.Cut(cursor, ".")
	if !ok || strings.ContainsAny(cursor, "\r\n") {
		return 0, bad
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigText)
	if err != nil || len(sig) != 12 {
		return 0, bad
	}
	valid := false
	for _, k := range s.stateKeys {
		if hmac.Equal(sig, s.mac(k, cursorDomain, payload)[:12]) {
			valid = true
		}
	}
	if !valid {
		return 0, bad
	}
	data, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return 0, bad
	}
	k, offText, ok := strings.Cut(string(data), ":")
	if !ok || k != kind {
		return 0, bad
	}
	off, err := strconv.Atoi(offText)
	// The list may have shrunk since the cursor was made: an offset at the
	// end is an empty last page, beyond it the cursor is stale.
	if err != nil || off < 0 || off > n {
		return 0, bad
	}
	return off, nil
}
