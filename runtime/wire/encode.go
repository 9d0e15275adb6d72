package wire

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"
)

// The Append* encoders write JSON values to the end of b and return the
// extended slice, like strconv.Append*. They never allocate beyond growing b.

const jsonHex = "0123456789abcdef"

// jsonSafe reports whether a JSON string can hold the ASCII byte c
// unescaped. HTML-sensitive bytes (<, >, &) are kept: MCP messages are not
// embedded in HTML, and escaping them would only make them harder to read.
func jsonSafe(c byte) bool { return c >= 0x20 && c != '"' && c != '\\' }

// AppendString appends s as a JSON string. It escapes '"', '\\', control
// characters, U+2028 and U+2029 (which break JavaScript parsers), and
// replaces each byte of invalid UTF-8 with U+FFFD, byte for byte the same
// as encoding/json with HTML escaping off.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe(c) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendInt appends n as a JSON number.
func AppendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendFloat appends f as a JSON number, exactly as encoding/json writes a
// float64: the shortest representation that round-trips, in plain notation
// unless the magnitude is below 1e-6 or at least 1e21. NaN and ±Inf have no
// JSON form; they are written as null (as JavaScript does), so validate
// values that may hold them before encoding.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Write e-07 as e-7, like encoding/json.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// AppendRawOrNull appends raw, which must be a valid JSON value (for
// example one kept by ReadRaw), or null when raw is empty.
func AppendRawOrNull(b []byte, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// AppendBase64 appends data as a JSON string holding its standard, padded
// base64 encoding, as encoding/json writes a []byte.
func AppendBase64(b []byte, data []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, data)
	return append(b, '"')
}
