package upstream

import (
	"net/url"
	"strings"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// Argument safety. A model chooses every argument, and the server calls
// the API with its own credentials, so no argument may change which
// endpoint is called or the structure of the request:
//
//   - a path parameter is exactly one path segment: its value is not
//     empty, not "." or "..", and holds no "/", "\" or control character
//     (C0 and DEL). A parameter marked multi-segment (x-multi-segment or
//     x-mcp-multi-segment) may hold "/" between segments that each obey
//     the same rule; every segment is escaped on its own;
//   - a header value holds no control character but HTAB (CR and LF would
//     start a new header);
//   - a cookie value holds no control character;
//   - a query value or form body field holds no NUL (everything structural
//     is percent-encoded), and a deepObject one holds no empty object or
//     array (deepObject writes scalars only: the member would vanish).
//
// ArgCheck serialises the parameters with these checks and collects every
// refusal, so that one call reports all of them.

// ArgCheck serialises path, query, header and cookie arguments and
// collects the values it refuses. The zero value is ready to use; generated
// wrappers declare one per call and return Err before sending anything.
type ArgCheck struct {
	errs wire.Errors
}

// Err returns a *wire.ValidationError naming every refused argument, or
// nil.
func (c *ArgCheck) Err() error { return c.errs.Err() }

// Missing records that a body field the body's schema requires was not
// given although other fields of the (optional) body were.
func (c *ArgCheck) Missing(property string) {
	c.errs.Add(&wire.Path{Key: property}, "is required when any field of the request body is given")
}

func (c *ArgCheck) refuse(property, msg string) {
	c.errs.Add(&wire.Path{Key: property}, msg)
}

// Path appends the path parameter value (JSON) to b like AppendPathParam,
// after checking that it stays one segment (or, when multiSegment, a
// sequence of proper segments). A refused value is recorded and nothing is
// appended.
func (c *ArgCheck) Path(b []byte, property, name, style string, explode, multiSegment bool, value []byte) []byte {
	v := parseParam(value)
	if multiSegment && v.kind == 's' && (style == "" || style == "simple") {
		if msg := segmentsProblem(v.text); msg != "" {
			c.refuse(property, msg)
			return b
		}
		for i, seg := range strings.Split(v.text, "/") {
			if i > 0 {
				b = append(b, '/')
			}
			b = append(b, url.PathEscape(seg)...)
		}
		return b
	}
	var texts []string
	switch v.kind {
	case 's':
		texts = []string{v.text}
	case 'a':
		texts = v.items
	case 'o':
		for _, p := range v.pairs {
			texts = append(texts, p[0], p[1])
		}
	}
	for _, t := range texts {
		if msg := segmentProblem(t, false); msg != "" {
			c.refuse(property, msg)
			return b
		}
	}
	out := appendPathValue(b, name, style, explode, v)
	switch string(out[len(b):]) {
	case "":
		c.refuse(property, "must not be empty: a path parameter is one path segment")
		return b
	case ".", "..":
		c.refuse(property, `must not be "." or "..": a path parameter is one path segment`)
		return b
	}
	return out
}

// segmentProblem says why t is not a proper path segment, or "".
// whole says t is the entire segment (so empty, "." and ".." are
// refused); items of arrays and objects are checked for separators and
// controls only, and the serialised segment as a whole afterwards.
func segmentProblem(t string, whole bool) string {
	if whole {
		switch t {
		case "":
			return "must not be empty: a path parameter is one path segment"
		case ".", "..":
			return `must not be "." or "..": a path parameter is one path segment`
		}
	}
	if strings.ContainsAny(t, `/\`) {
		return `must not contain "/" or "\": a path parameter is one path segment`
	}
	if hasControl(t, false) {
		return "must not contain control characters"
	}
	return ""
}

// segmentsProblem says why t is not a "/"-separated sequence of proper
// segments, or "".
func segmentsProblem(t string) string {
	if t == "" {
		return "must not be empty"
	}
	if strings.Contains(t, `\`) {
		return `must not contain "\"`
	}
	if hasControl(t, false) {
		return "must not contain control characters"
	}
	for _, seg := range strings.Split(t, "/") {
		switch seg {
		case "":
			return `must not have an empty segment (a leading, trailing or doubled "/")`
		case ".", "..":
			return `must not have a "." or ".." segment`
		}
	}
	return ""
}

// hasControl reports a C0 control character or DEL in s; tab is allowed
// when allowTab.
func hasControl(s string, allowTab bool) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch < 0x20 && !(allowTab && ch == '\t') || ch == 0x7f {
			return true
		}
	}
	return false
}

// Query appends a query parameter (or a form-urlencoded body field) like
// AppendQueryParam after checking that it holds no NUL and, with style
// deepObject, no empty object or array inside it: deepObject writes only
// scalars (shipping[address][line1]=…), so an empty member would reach
// the API as nothing at all, and a member the API requires would go
// missing without a word.
func (c *ArgCheck) Query(q []byte, property, name, style string, explode bool, value []byte) []byte {
	if jsonHasNUL(value) {
		c.refuse(property, "must not contain NUL characters")
		return q
	}
	if style == "deepObject" {
		// One pass serialises the value and finds an empty member.
		out, at, empty := appendDeepObject(q, name, value)
		if empty {
			c.errs.Add(pathOf(property, at), "must not be an empty object or array: a form-encoded value has no way to send one (leave it out instead)")
			return q
		}
		return out
	}
	return AppendQueryParam(q, name, style, explode, value)
}

// jsonHasNUL reports whether a string in the JSON text value holds a NUL,
// which JSON can only write as the escape \u0000 (an escaped backslash
// followed by "u0000" is not one).
func jsonHasNUL(value []byte) bool {
	s := string(value)
	for {
		i := strings.Index(s, `\u0000`)
		if i < 0 {
			return strings.IndexByte(string(value), 0) >= 0
		}
		n := 0
		for j := i; j >= 0 && s[j] == '\\'; j-- {
			n++
		}
		if n%2 == 1 {
			return true
		}
		s = s[i+1:]
	}
}

// Header returns the header parameter value like HeaderParam after
// checking that it holds no control character but HTAB; ok is false when
// it was refused (and nothing must be set).
func (c *ArgCheck) Header(property string, explode bool, value []byte) (string, bool) {
	h := HeaderParam(explode, value)
	if hasControl(h, true) {
		c.refuse(property, "must not contain control characters (CR, LF, NUL, …): it is sent as an HTTP header")
		return "", false
	}
	return h, true
}

// Cookie returns "name=value" like CookieParam after checking that the
// value holds no control character; ok is false when it was refused.
func (c *ArgCheck) Cookie(property, name string, explode bool, value []byte) (string, bool) {
	v := parseParam(value)
	texts := append([]string{v.text}, v.items...)
	for _, p := range v.pairs {
		texts = append(texts, p[0], p[1])
	}
	for _, t := range texts {
		if hasControl(t, false) {
			c.refuse(property, "must not contain control characters: it is sent as a cookie")
			return "", false
		}
	}
	return CookieParam(name, explode, value), true
}
