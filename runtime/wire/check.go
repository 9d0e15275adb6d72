package wire

import (
	"math"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// RuneCount is the length of s in Unicode code points, which is how JSON
// Schema's minLength and maxLength count.
func RuneCount(s string) int { return utf8.RuneCountInString(s) }

// KindName is the JSON Schema type name of a kind: "null", "boolean",
// "number", "string", "array" or "object" ("invalid" for KindInvalid).
func KindName(k JSONKind) string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	}
	return "invalid"
}

// digits parses s, which must be exactly n ASCII digits, as a number.
func digits(s string, n int) (int, bool) {
	if len(s) != n {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// IsDate reports whether s is an RFC 3339 full-date (2026-07-28) naming a
// day that exists.
func IsDate(s string) bool {
	_, _, _, ok := scanDate(s)
	return ok
}

// scanDate reads an RFC 3339 full-date naming a day that exists.
func scanDate(s string) (year, month, day int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := digits(s[0:4], 4)
	m, ok2 := digits(s[5:7], 2)
	d, ok3 := digits(s[8:10], 2)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(m, y) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// IsDateTime reports whether s is an RFC 3339 date-time:
// full-date "T" hh:mm:ss[.frac] ("Z" / ±hh:mm), with T and Z in either
// case. A leap second (ss = 60) is accepted only as 23:59:60 with a zero
// offset: RFC 3339 and the JSON Schema test suite also allow it at another
// offset that makes it 23:59:60 UTC ("15:59:60-08:00"), but the official
// TypeScript SDK's browser validator rejects that form.
func IsDateTime(s string) bool {
	_, ok := scanDateTime(s)
	return ok
}

// dateTime is the fields of an RFC 3339 date-time, as written.
type dateTime struct {
	year, month, day, hour, min, sec, nsec int
	offset                                 int // minutes east of UTC
	zulu                                   bool
}

// scanDateTime reads s as IsDateTime defines a date-time, in one pass:
// checking it and reading its fields are the same work, so ParseDateTime
// does not scan the string twice. Digits of a fraction beyond
// nanoseconds are checked and dropped.
func scanDateTime(s string) (dateTime, bool) {
	var v dateTime
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
		return v, false
	}
	var ok bool
	if v.year, v.month, v.day, ok = scanDate(s[:10]); !ok {
		return v, false
	}
	t := s[11:]
	if t[2] != ':' || t[5] != ':' {
		return v, false
	}
	hh, ok1 := digits(t[0:2], 2)
	mm, ok2 := digits(t[3:5], 2)
	ss, ok3 := digits(t[6:8], 2)
	if !ok1 || !ok2 || !ok3 || hh > 23 || mm > 59 || ss > 60 {
		return v, false
	}
	v.hour, v.min, v.sec = hh, mm, ss
	rest := t[8:]
	if len(rest) > 0 && rest[0] == '.' {
		i, scale := 1, 100000000
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			v.nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		if i == 1 {
			return v, false
		}
		rest = rest[i:]
	}
	switch {
	case rest == "Z" || rest == "z":
		v.zulu = true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3], 2)
		om, ok2 := digits(rest[4:6], 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return v, false
		}
		v.offset = oh*60 + om
		if rest[0] == '-' {
			v.offset = -v.offset
		}
	default:
		return v, false
	}
	if ss == 60 {
		// RFC 3339 puts a leap second at 23:59:60 UTC, whatever the
		// offset. The official TypeScript SDK's browser and edge
		// validator (@cfworker/json-schema) accepts one only at 23:59:60
		// local time, so the one form both accept is 23:59:60 with a
		// zero offset.
		return v, hh == 23 && mm == 59 && v.offset == 0
	}
	return v, true
}

// IsUUID reports whether s is a UUID in its 8-4-4-4-12 hexadecimal form
// (either case).
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if unhex(s[i]) < 0 {
				return false
			}
		}
	}
	return true
}

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isAtext reports whether c may appear in an RFC 5322 dot-atom.
func isAtext(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// IsEmail reports whether s is an email address that every main MCP client
// accepts too: an RFC 5321 Mailbox restricted to its common form, a
// dot-atom local part of at most 64 bytes, "@", and a host name of at
// least two labels.
//
// RFC 5321 (and the JSON Schema test suite) also allow a quoted local part
// ("joe bloggs"@example.com), an address literal (x@[127.0.0.1],
// x@[IPv6:::1]) and a single-label domain (ops@localhost). The official
// TypeScript SDK validates structured output with Ajv and ajv-formats,
// whose "email" format rejects all three: a server that accepted such an
// address and echoed it back would send a result the client refuses as
// not matching the tool's output schema. So they are refused as input
// instead, where the caller can see why.
func IsEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	return len(local) <= 64 && isDotAtom(local) && strings.IndexByte(domain, '.') > 0 && isHostname(domain)
}

// isDotAtom reports whether s is an RFC 5322 dot-atom: runs of atext
// joined by single dots, none leading or trailing.
func isDotAtom(s string) bool {
	prevDot := true // no leading dot
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if prevDot {
				return false
			}
			prevDot = true
			continue
		}
		if !isAtext(c) {
			return false
		}
		prevDot = false
	}
	return !prevDot // no trailing dot
}

// isHostname reports whether s is a DNS host name: dot-separated labels of
// letters, digits and inner hyphens, 1 to 63 bytes each, 253 in all.
func isHostname(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlpha(c) && !isDigit(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

// URI character classes of RFC 3986.
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}
func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }

// validChars reports whether s consists of unreserved characters,
// sub-delims, percent-encodings and the bytes in extra.
func validChars(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c) || isSubDelim(c) || strings.IndexByte(extra, c) >= 0:
		case c == '%':
			if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

// IsURI reports whether s is an absolute URI (RFC 3986 "URI": a scheme,
// then a hierarchical part, optional query and fragment). Relative
// references, characters that must be percent-encoded and, as the main
// clients' validators ask, an empty hierarchical part ("about:") are
// rejected.
func IsURI(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < colon; i++ {
		if c := s[i]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	rest := s[colon+1:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		if !validChars(rest[i+1:], ":@/?") {
			return false
		}
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		if !validChars(rest[i+1:], ":@/?") {
			return false
		}
		rest = rest[:i]
	}
	if auth, ok := strings.CutPrefix(rest, "//"); ok {
		path := ""
		if i := strings.IndexByte(auth, '/'); i >= 0 {
			auth, path = auth[:i], auth[i:]
		}
		if !isAuthority(auth) {
			return false
		}
		rest = path
	} else if rest == "" {
		// RFC 3986 allows an empty path ("about:", "x:?q"), but Ajv's
		// "uri" format, which the official TypeScript SDK checks
		// structured output with, does not: refuse it as input rather
		// than echo back a value the client rejects.
		return false
	}
	return validChars(rest, ":@/")
}

// isAuthority checks [ userinfo "@" ] host [ ":" port ].
func isAuthority(auth string) bool {
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		if !validChars(auth[:i], ":") {
			return false
		}
		auth = auth[i+1:]
	}
	host, port := auth, ""
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return false
		}
		host, port = auth[:end+1], auth[end+1:]
		if port != "" && port[0] != ':' {
			return false
		}
		if !isIPLiteral(host[1 : len(host)-1]) {
			return false
		}
	} else {
		if i := strings.LastIndexByte(auth, ':'); i >= 0 {
			host, port = auth[:i], auth[i:]
		}
		if !validChars(host, "") {
			return false
		}
	}
	if port != "" {
		for i := 1; i < len(port); i++ {
			if !isDigit(port[i]) {
				return false
			}
		}
	}
	return true
}

// isIPLiteral checks the inside of "[...]": an IPv6 address or IPvFuture.
func isIPLiteral(s string) bool {
	if len(s) > 0 && (s[0] == 'v' || s[0] == 'V') {
		dot := strings.IndexByte(s, '.')
		if dot < 2 || dot == len(s)-1 {
			return false
		}
		for i := 1; i < dot; i++ {
			if unhex(s[i]) < 0 {
				return false
			}
		}
		return validChars(s[dot+1:], ":") && !strings.Contains(s[dot+1:], "%")
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == ""
}

// IsMultipleOf reports whether v is an integer multiple of m (m > 0). It
// reasons on the shortest decimal forms of v and m, which are the numbers
// as written in JSON for up to 15 significant digits, so 0.3 is a multiple
// of 0.1 although float division says otherwise. It does not allocate.
func IsMultipleOf(v, m float64) bool {
	if !(m > 0) || math.IsInf(m, 0) || math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	if v == 0 {
		return true
	}
	v = math.Abs(v)
	if v < 1<<53 && m < 1<<53 && v == math.Trunc(v) && m == math.Trunc(m) {
		return math.Mod(v, m) == 0
	}
	a, ea := shortestDecimal(v)
	b, eb := shortestDecimal(m)
	// v = a × 10^ea and m = b × 10^eb with a, b < 10^17.
	if ea >= eb {
		// a × 10^(ea-eb) mod b, one decimal shift at a time: every
		// intermediate stays below 10 × b < 2^64.
		r := a % b
		for k := ea - eb; k > 0 && r != 0; k-- {
			r = r * 10 % b
		}
		return r == 0
	}
	// a must be a multiple of b × 10^(eb-ea), so first of 10^(eb-ea).
	for k := eb - ea; k > 0; k-- {
		if a%10 != 0 {
			return false
		}
		a /= 10
	}
	return a%b == 0
}

// shortestDecimal returns the shortest decimal form of a positive finite
// x as mantissa × 10^exp, with at most 17 mantissa digits.
func shortestDecimal(x float64) (mant uint64, exp int) {
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], x, 'e', -1, 64)
	// s is d[.ddd]e±xx.
	e := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.':
		case c == 'e':
			n, neg := 0, s[i+1] == '-'
			for _, c := range s[i+2:] {
				n = n*10 + int(c-'0')
			}
			if neg {
				n = -n
			}
			return mant, n - e
		default:
			mant = mant*10 + uint64(c-'0')
			if i > 1 {
				e++ // digits after the point
			}
		}
	}
	return mant, -e
}

// EqualJSON reports whether a and b are the same JSON value: numbers are
// compared by exact decimal value (1.0 equals 1 and 1e0), strings after
// unescaping, and object members regardless of order. Invalid JSON equals
// nothing. It serves enum, const and uniqueItems on non-scalar values.
func EqualJSON(a, b []byte) bool {
	var da, db Decoder
	da.Reset(a)
	db.Reset(b)
	va, err := da.ReadRaw()
	if err != nil || da.End() != nil {
		return false
	}
	vb, err := db.ReadRaw()
	if err != nil || db.End() != nil {
		return false
	}
	return equalValue(va, vb)
}

// equalValue compares two syntax-checked values without surrounding
// whitespace.
func equalValue(a, b []byte) bool {
	switch a[0] {
	case '"':
		if b[0] != '"' {
			return false
		}
		var da, db Decoder
		da.Reset(a)
		db.Reset(b)
		sa, _ := da.ReadStringBytes()
		sb, _ := db.ReadStringBytes()
		return string(sa) == string(sb)
	case '[':
		if b[0] != '[' {
			return false
		}
		var da, db Decoder
		da.Reset(a)
		db.Reset(b)
		_ = da.BeginArray()
		_ = db.BeginArray()
		for {
			oka, _ := da.NextElem()
			okb, _ := db.NextElem()
			if oka != okb {
				return false
			}
			if !oka {
				return true
			}
			ea, _ := da.ReadRaw()
			eb, _ := db.ReadRaw()
			if !equalValue(ea, eb) {
				return false
			}
		}
	case '{':
		if b[0] != '{' {
			return false
		}
		na, nb := countMembers(a), countMembers(b)
		if na != nb {
			return false
		}
		var da Decoder
		da.Reset(a)
		_ = da.BeginObject()
		for {
			ka, ok, _ := da.NextKey()
			if !ok {
				return true
			}
			// ka stays valid: only da's own string reads reuse its buffer.
			va, _ := da.ReadRaw()
			if !hasMember(b, ka, va) {
				return false
			}
		}
	case 't', 'f', 'n':
		return string(a) == string(b)
	default:
		if b[0] != '-' && !isDigit(b[0]) {
			return false
		}
		x, y := parseDecimal(a), parseDecimal(b)
		return x.equal(&y)
	}
}

func countMembers(obj []byte) int {
	var d Decoder
	d.Reset(obj)
	_ = d.BeginObject()
	n := 0
	for {
		_, ok, _ := d.nextRawKey()
		if !ok {
			return n
		}
		_ = d.Skip()
		n++
	}
}

// hasMember reports whether obj has a member named key whose value equals
// v. With duplicate keys, any of them may match.
func hasMember(obj, key, v []byte) bool {
	var d Decoder
	d.Reset(obj)
	_ = d.BeginObject()
	for {
		k, ok, _ := d.NextKey()
		if !ok {
			return false
		}
		match := string(k) == string(key)
		w, _ := d.ReadRaw()
		if match && equalValue(v, w) {
			return true
		}
	}
}
