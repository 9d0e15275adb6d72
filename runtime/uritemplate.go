package runtime

import (
	"fmt"
	"net/url"
	"strings"
)

// uriTemplate matches URIs against an RFC 6570 level-1 template: literals
// and simple {var} expressions. Matching is the inverse of expansion: a
// variable's value is percent-decoded. Because simple expansion encodes
// "/", "?" and "#", a variable other than the last part never spans them;
// a variable that ends the template takes the rest of the URI, so
// "file:///{path}" matches nested paths.
type uriTemplate struct {
	parts []tplPart
}

type tplPart struct {
	literal string
	name    string // set for a variable
}

func parseURITemplate(t string) (*uriTemplate, error) {
	var parts []tplPart
	rest := t
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			parts = append(parts, tplPart{literal: rest})
			break
		}
		if open > 0 {
			parts = append(parts, tplPart{literal: rest[:open]})
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("unclosed expression")
		}
		name := rest[open+1 : open+end]
		if !validVarName(name) {
			return nil, fmt.Errorf("expression {%s}: only level-1 {name} expressions are supported", name)
		}
		if len(parts) > 0 && parts[len(parts)-1].name != "" {
			return nil, fmt.Errorf("adjacent expressions cannot be matched")
		}
		parts = append(parts, tplPart{name: name})
		rest = rest[open+end+1:]
	}
	return &uriTemplate{parts: parts}, nil
}

func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// match returns the variables of uri, or false when it does not match.
func (t *uriTemplate) match(uri string) (map[string]string, bool) {
	vars := map[string]string{}
	// failed remembers the (part, remaining length) states that cannot
	// match: without it, templates like {a}-{b}-{c}-{d} backtrack
	// exponentially on a long run of "-" (found by FuzzURITemplate).
	failed := map[[2]int]bool{}
	if !t.matchFrom(0, uri, vars, failed) {
		return nil, false
	}
	return vars, true
}

func (t *uriTemplate) matchFrom(i int, s string, vars map[string]string, failed map[[2]int]bool) bool {
	key := [2]int{i, len(s)}
	if failed[key] {
		return false
	}
	if t.matchPart(i, s, vars, failed) {
		return true
	}
	failed[key] = true
	return false
}

func (t *uriTemplate) matchPart(i int, s string, vars map[string]string, failed map[[2]int]bool) bool {
	if i == len(t.parts) {
		return s == ""
	}
	p := t.parts[i]
	if p.name == "" {
		return strings.HasPrefix(s, p.literal) && t.matchFrom(i+1, s[len(p.literal):], vars, failed)
	}
	if i == len(t.parts)-1 {
		return setVar(vars, p.name, s)
	}
	// The next part is a literal: try each place it occurs, shortest value
	// first, stopping where a value would span a delimiter.
	next := t.parts[i+1].literal
	for end := 1; end <= len(s); end++ {
		if strings.ContainsRune("/?#", rune(s[end-1])) {
			return false
		}
		if strings.HasPrefix(s[end:], next) && setVar(vars, p.name, s[:end]) && t.matchFrom(i+1, s[end:], vars, failed) {
			return true
		}
	}
	return false
}

func setVar(vars map[string]string, name, raw string) bool {
	if raw == "" {
		return false
	}
	v, err := url.PathUnescape(raw)
	if err != nil {
		return false
	}
	vars[name] = v
	return true
}
