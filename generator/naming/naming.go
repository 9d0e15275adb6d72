// Package naming turns spec names (snake_case, kebab-case, dotted, spaced or
// camelCase) into exported Go identifiers.
//
// Every rule lives here so that the generator names a thing the same way
// wherever it refers to it. Exported names cannot collide with Go keywords
// or predeclared identifiers, which is why Go only ever asks for exported
// names; names that would start with a digit get an "X" prefix.
package naming

import (
	"strings"
	"unicode"
)

// initialisms are written in upper case when they form a whole word, as
// Go's style guide asks (OrderID, not OrderId).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "CSV": true,
	"DNS": true, "EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true,
	"ID": true, "IP": true, "JSON": true, "JWT": true, "LHS": true, "MCP": true,
	"OS": true, "QPS": true, "RAM": true, "RHS": true, "RPC": true, "SKU": true,
	"SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true,
	"TTL": true, "UDP": true, "UI": true, "UID": true, "URI": true, "URL": true,
	"UTF8": true, "UUID": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true,
	"XSS": true,
}

// Exported returns the exported Go identifier for name: words are split at
// every character that is not a letter or digit and at lower→upper case
// changes, then capitalised, with initialisms upper-cased ("order_id" →
// "OrderID", "get-order.status" → "GetOrderStatus", "httpURL" → "HTTPURL").
// It returns "" when name holds no letter or digit.
func Exported(name string) string {
	var b strings.Builder
	for _, w := range Words(name) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		rest := string(r[1:])
		if w == strings.ToUpper(w) {
			// An all-caps word that is no initialism is a shouted word
			// (enum values like PENDING): write it as one.
			rest = strings.ToLower(rest)
		}
		b.WriteString(strings.ToUpper(string(r[0])))
		b.WriteString(rest)
	}
	s := b.String()
	if s != "" && unicode.IsDigit([]rune(s)[0]) {
		s = "X" + s
	}
	return s
}

// Words splits name into its words, as Exported sees them.
func Words(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !isWordRune(r) {
			flush()
			continue
		}
		if len(cur) > 0 && unicode.IsUpper(r) {
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// "orderId" splits before I; "HTTPServer" splits before the S
			// that starts a lower-case word.
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// isWordRune reports whether r can be part of a Go identifier word. Only
// ASCII letters and digits are kept so that identifiers stay portable.
func isWordRune(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
