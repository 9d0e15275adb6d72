package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxDepth bounds the nesting of the YAML document, so that hostile input
// cannot make the recursive walks below use unbounded stack or time.
const maxDepth = 64

// pair is one key/value entry of a YAML mapping.
type pair struct {
	key, val *yaml.Node
}

// pos is the position of n in the spec file.
func (l *loader) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: l.file}
	}
	return Pos{File: l.file, Line: n.Line, Col: n.Column}
}

// errorf records a diagnostic at n. ctx names where in the spec the problem
// is ("tool \"x\": property \"y\""); it prefixes the message when not empty.
func (l *loader) errorf(n *yaml.Node, ctx, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if ctx != "" {
		msg = ctx + ": " + msg
	}
	l.diags = append(l.diags, Diagnostic{Pos: l.pos(n), Message: msg})
}

// describe names the YAML type of n for "expected X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch n.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	case "!!timestamp":
		return "a timestamp"
	}
	return fmt.Sprintf("a value tagged %s", n.Tag)
}

func (l *loader) expected(n *yaml.Node, ctx, what string) {
	l.errorf(n, ctx, "expected %s, got %s", what, describe(n))
}

// checkDepth reports every alias and the first node nested deeper than
// maxDepth, and says whether the document is too deep to walk. Aliases are
// refused because expanding them lets a small document describe an
// exponentially large one.
func (l *loader) checkDepth(n *yaml.Node, depth int) (tooDeep bool) {
	if depth > maxDepth {
		l.errorf(n, "", "nesting deeper than %d levels", maxDepth)
		return true
	}
	if n.Kind == yaml.AliasNode {
		l.errorf(n, "", "yaml aliases are not supported")
		return false
	}
	for _, c := range n.Content {
		if l.checkDepth(c, depth+1) {
			return true
		}
	}
	return false
}

// isNull reports whether n is an empty or explicit YAML null.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// mapping returns the entries of a mapping node in order, reporting a node
// that is not a mapping, keys that are not strings and duplicate keys.
// A null node is an empty mapping.
func (l *loader) mapping(n *yaml.Node, ctx string) ([]pair, bool) {
	if isNull(n) {
		return nil, true
	}
	if n.Kind != yaml.MappingNode {
		l.expected(n, ctx, "a mapping")
		return nil, false
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	ps := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" {
			l.errorf(k, ctx, "keys must be strings, got %s", describe(k))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			l.errorf(k, ctx, "duplicate key %q (first at line %d)", k.Value, first.Line)
			continue
		}
		seen[k.Value] = k
		ps = append(ps, pair{k, v})
	}
	return ps, true
}

// fields is mapping plus a check that every key is one of allowed. It
// returns the known entries by key.
func (l *loader) fields(n *yaml.Node, ctx string, allowed ...string) (map[string]pair, bool) {
	ps, ok := l.mapping(n, ctx)
	if !ok {
		return nil, false
	}
	m := make(map[string]pair, len(ps))
	for _, p := range ps {
		known := false
		for _, a := range allowed {
			if a == p.key.Value {
				known = true
				break
			}
		}
		if !known {
			if m := suggest(p.key.Value, allowed); m != "" {
				l.errorf(p.key, ctx, "unknown key %q (did you mean %q?)", p.key.Value, m)
			} else if len(allowed) <= 12 {
				l.errorf(p.key, ctx, "unknown key %q (allowed: %s)", p.key.Value, strings.Join(allowed, ", "))
			} else {
				l.errorf(p.key, ctx, "unknown key %q", p.key.Value)
			}
			continue
		}
		m[p.key.Value] = p
	}
	return m, true
}

// str decodes a string scalar. Unquoted dates are YAML timestamps; they are
// accepted as the string they spell.
func (l *loader) str(n *yaml.Node, ctx string) (string, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!str" || n.ShortTag() == "!!timestamp") {
		return n.Value, true
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null" {
		l.errorf(n, ctx, "expected a string, got %s (quote it)", describe(n))
	} else {
		l.expected(n, ctx, "a string")
	}
	return "", false
}

// strings decodes a list of strings.
func (l *loader) strs(n *yaml.Node, ctx string) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		l.expected(n, ctx, "a list of strings")
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	ok := true
	for _, c := range n.Content {
		s, good := l.str(c, ctx)
		if !good {
			ok = false
			continue
		}
		out = append(out, s)
	}
	return out, ok
}

func (l *loader) boolean(n *yaml.Node, ctx string) (bool, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		b, err := strconv.ParseBool(n.Value)
		if err == nil {
			return b, true
		}
	}
	l.expected(n, ctx, "true or false")
	return false, false
}

func (l *loader) integer(n *yaml.Node, ctx string) (int64, bool) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" {
		i, err := strconv.ParseInt(n.Value, 0, 64)
		if err == nil {
			return i, true
		}
		l.errorf(n, ctx, "integer %s is out of range", n.Value)
		return 0, false
	}
	l.expected(n, ctx, "an integer")
	return 0, false
}

func (l *loader) number(n *yaml.Node, ctx string) (float64, bool) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		f, ok := parseYAMLNumber(n)
		if ok {
			return f, true
		}
		l.errorf(n, ctx, "%s is not a finite number", n.Value)
		return 0, false
	}
	l.expected(n, ctx, "a number")
	return 0, false
}

func parseYAMLNumber(n *yaml.Node) (float64, bool) {
	if n.ShortTag() == "!!int" {
		b, ok := new(big.Int).SetString(n.Value, 0)
		if !ok {
			return 0, false
		}
		f, _ := new(big.Float).SetInt(b).Float64()
		return f, !math.IsInf(f, 0)
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// jsonValue converts a YAML node to a JSON value: nil, bool, string,
// json.Number (canonical: integers in decimal, other numbers as
// encoding/json prints a float64), []any or map[string]any.
func (l *loader) jsonValue(n *yaml.Node, ctx string) (any, bool) {
	switch n.Kind {
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		ok := true
		for _, c := range n.Content {
			v, good := l.jsonValue(c, ctx)
			ok = ok && good
			out = append(out, v)
		}
		return out, ok
	case yaml.MappingNode:
		ps, ok := l.mapping(n, ctx)
		out := make(map[string]any, len(ps))
		for _, p := range ps {
			v, good := l.jsonValue(p.val, ctx)
			ok = ok && good
			out[p.key.Value] = v
		}
		return out, ok
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, true
		case "!!bool":
			return l.boolean(n, ctx)
		case "!!str", "!!timestamp":
			return n.Value, true
		case "!!int":
			if b, ok := new(big.Int).SetString(n.Value, 0); ok {
				return json.Number(b.String()), true
			}
		case "!!float":
			if f, ok := parseYAMLNumber(n); ok {
				return floatNumber(f), true
			}
		}
		l.errorf(n, ctx, "%s is not representable in JSON", n.Value)
		return nil, false
	}
	l.expected(n, ctx, "a JSON value")
	return nil, false
}

// floatNumber is the canonical JSON spelling of f.
func floatNumber(f float64) json.Number {
	b, _ := json.Marshal(f)
	return json.Number(b)
}

// canonical is the JSON text of a value made by jsonValue: object keys
// sorted, no HTML escaping.
func canonical(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// fmtNum prints a constraint bound the way a user wrote it: 10, 1.5, 1e+21.
func fmtNum(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// suggest returns the entry of known closest to the misspelt word w (same
// letters ignoring case, or at most two edits away), or "".
func suggest(w string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if strings.EqualFold(k, w) {
			return k
		}
		if len(w) < 4 {
			continue
		}
		if d := editDistance(strings.ToLower(w), strings.ToLower(k), bestDist); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit (keys are short, so this stays cheap).
func editDistance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 {
		return limit
	}
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
