// Package oaprune cuts an OpenAPI 3.x or Swagger 2.0 document down to a
// chosen set of operations and everything they reach, so that a validating
// mock (Prism) can load a few operations of a document too large for it to
// load whole.
//
// The pruned document keeps, for each chosen operation, its path item's
// shared fields (parameters, servers, summary, …) and the operation object
// itself, byte for byte as decoded; every other operation is dropped. It
// keeps every top-level field but paths, webhooks and the component maps
// unchanged (openapi/swagger, info, servers, host, basePath, schemes,
// consumes, produces, global security, tags, extensions) and the security
// schemes whole (requirements name them, they are not $refs); webhooks
// (and GitHub's x-webhooks) are dropped. Of the
// reusable maps (components.* in 3.x; definitions, parameters and
// responses in 2.0) it keeps exactly the entries in the $ref closure of
// what it kept: every local $ref ("#/…") and every discriminator mapping
// target, followed transitively.
//
// Why a validating mock of the pruned document judges a request to a kept
// operation exactly as it would with the whole document: the request is
// routed among fewer path templates, but the kept operation's own template
// is still there and no template was added, so it is routed to the same
// operation; that operation's parameters, body schemas and security
// requirements are the same values, and every schema they refer to,
// directly or through other schemas, is in the closure with the same
// content. The mock's answers are built from the same response objects
// for the same reason.
package oaprune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Decode reads a JSON or YAML document into plain values: objects as
// map[string]any (YAML keys as their text, so that an unquoted 200 is the
// key "200"), arrays as []any, JSON numbers as json.Number.
func Decode(data []byte) (map[string]any, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			return nil, err
		}
		return doc, nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	v, err := fromYAML(&n)
	if err != nil {
		return nil, err
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the document is not an object")
	}
	return doc, nil
}

// fromYAML converts a YAML node to the values encoding/json would give for
// the same document written as JSON.
func fromYAML(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return fromYAML(n.Content[0])
	case yaml.AliasNode:
		return fromYAML(n.Alias)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := fromYAML(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := fromYAML(c)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		return s, nil
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool", "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
		return v, nil
	}
	// Strings, and timestamps, which JSON has only as strings.
	return n.Value, nil
}

// Prune returns the document cut down to the operations named in ops, each
// either an operationId or "METHOD /path" as the document writes the path
// (the method in any case). It fails when an operation is not found or a
// local $ref does not resolve.
func Prune(doc map[string]any, ops []string) (map[string]any, error) {
	return prune(doc, ops, false)
}

// PruneRequests is Prune for a mock that judges requests only: each kept
// operation answers one success status with any JSON object, so that the
// closure holds what its parameters and request body reach and nothing
// its responses do. A document whose error responses reach most of its
// schemas (Stripe's: its error object refers to payment intents, sources
// and the rest) then shrinks to what a request can carry, which a mock
// loads in seconds where the whole closure takes it many minutes.
// Requests are judged as the whole document judges them; answers are not
// the document's.
func PruneRequests(doc map[string]any, ops []string) (map[string]any, error) {
	return prune(doc, ops, true)
}

func prune(doc map[string]any, ops []string, requestsOnly bool) (map[string]any, error) {
	want := map[string]bool{}
	for _, o := range ops {
		if m, p, ok := strings.Cut(o, " "); ok && strings.HasPrefix(p, "/") {
			o = strings.ToLower(m) + " " + p
		}
		want[o] = true
	}
	found := map[string]bool{}
	out := map[string]any{}
	for k, v := range doc {
		switch k {
		case "paths", "webhooks", "x-webhooks", "components", "definitions", "parameters", "responses":
			// Webhooks (x-webhooks in 3.0 documents such as GitHub's)
			// are requests the API makes, not ones a mock receives.
			continue
		}
		out[k] = v
	}
	paths := map[string]any{}
	docPaths, _ := doc["paths"].(map[string]any)
	// A path with a query string ("/responses?beta=true", which OpenAPI
	// does not allow but OpenAI writes) is matched by a mock against its
	// base path, as a request carries the query apart: the base path's
	// operation of the same method is kept too, so that the request is
	// judged as the whole document judges it instead of not found.
	withBase := map[string]bool{}
	for path, item := range docPaths {
		base, _, ok := strings.Cut(path, "?")
		item, isMap := item.(map[string]any)
		if !ok || !isMap {
			continue
		}
		for method, op := range item {
			if !isMethod(method) {
				continue
			}
			id, _ := op.(map[string]any)["operationId"].(string)
			if want[method+" "+path] || (id != "" && want[id]) {
				withBase[method+" "+base] = true
			}
		}
	}
	for path, item := range docPaths {
		item, ok := item.(map[string]any)
		if !ok {
			continue
		}
		kept := map[string]any{}
		for method, op := range item {
			if !isMethod(method) {
				continue
			}
			id, _ := op.(map[string]any)["operationId"].(string)
			key := method + " " + path
			if want[key] || (id != "" && want[id]) || withBase[key] {
				if requestsOnly {
					op = answerAnyObject(op.(map[string]any), doc["swagger"] != nil)
				}
				kept[method] = op
				found[key] = true
				if id != "" {
					found[id] = true
				}
			}
		}
		if len(kept) == 0 {
			continue
		}
		for k, v := range item {
			if !isMethod(k) {
				kept[k] = v
			}
		}
		paths[path] = kept
	}
	var missing []string
	for o := range want {
		if !found[o] {
			missing = append(missing, o)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("no such operation: %s", strings.Join(missing, ", "))
	}
	out["paths"] = paths
	if c, ok := doc["components"].(map[string]any); ok {
		comps := map[string]any{}
		if s, ok := c["securitySchemes"]; ok {
			comps["securitySchemes"] = s
		}
		out["components"] = comps
	}
	c := closure{doc: doc, out: out, seen: map[string]bool{}}
	// Everything kept refers only to kept entries, extensions included;
	// the component entries are walked as the closure adds them.
	for k, v := range out {
		if k != "components" {
			c.walk(v)
		}
	}
	if s, ok := out["components"].(map[string]any); ok {
		c.walk(s["securitySchemes"])
	}
	if c.err != nil {
		return nil, c.err
	}
	return out, nil
}

// answerAnyObject returns a copy of op whose responses are its first
// success status (200 when it lists none) answering any JSON object (204:
// nothing), in the 2.0 or the 3.x form.
func answerAnyObject(op map[string]any, swagger2 bool) map[string]any {
	status := "200"
	if rs, ok := op["responses"].(map[string]any); ok {
		var codes []string
		for code := range rs {
			if strings.HasPrefix(code, "2") {
				codes = append(codes, code)
			}
		}
		if len(codes) > 0 {
			status = slices.Min(codes)
		}
	}
	anyObject := map[string]any{"type": "object"}
	answer := map[string]any{"description": "any object: this mock judges requests only"}
	if status == "204" {
		// No Content has no body to describe.
	} else if swagger2 {
		answer["schema"] = anyObject
	} else {
		answer["content"] = map[string]any{"application/json": map[string]any{"schema": anyObject}}
	}
	out := make(map[string]any, len(op))
	for k, v := range op {
		out[k] = v
	}
	out["responses"] = map[string]any{status: answer}
	return out
}

func isMethod(k string) bool {
	switch k {
	case "get", "put", "post", "delete", "options", "head", "patch", "trace":
		return true
	}
	return false
}

// closure copies into out every reusable entry that the values it walks
// refer to, and what those refer to in turn.
type closure struct {
	doc, out map[string]any
	seen     map[string]bool
	err      error
}

func (c *closure) walk(v any) {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			c.ref(ref)
		}
		if d, ok := v["discriminator"].(map[string]any); ok {
			if m, ok := d["mapping"].(map[string]any); ok {
				for _, target := range m {
					if s, ok := target.(string); ok {
						if !strings.Contains(s, "/") && !strings.Contains(s, "#") {
							// A bare name is a schema of the same document.
							s = "#/components/schemas/" + s
						}
						c.ref(s)
					}
				}
			}
		}
		for _, x := range v {
			c.walk(x)
		}
	case []any:
		for _, x := range v {
			c.walk(x)
		}
	}
}

// ref adds the reusable entry that ref points into, once. References that
// are not local ("https://…", another file) are left as they are: the
// documents this is for hold such strings only inside examples.
func (c *closure) ref(ref string) {
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return
	}
	segs := strings.Split(ptr, "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	// The unit kept is the named entry: components/<kind>/<name> in 3.x,
	// <map>/<name> in 2.0; a pointer deeper into it (…/properties/x) keeps
	// the entry whole.
	n := 2
	switch segs[0] {
	case "components":
		n = 3
	case "definitions", "parameters", "responses":
	default:
		c.fail(fmt.Errorf("$ref %q: only references to components (3.x) or definitions, parameters and responses (2.0) are kept", ref))
		return
	}
	if len(segs) < n {
		c.fail(fmt.Errorf("$ref %q does not name an entry", ref))
		return
	}
	key := strings.Join(segs[:n], "/")
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	var v any = c.doc
	for _, s := range segs[:n] {
		m, ok := v.(map[string]any)
		if !ok {
			v = nil
			break
		}
		v, ok = m[s]
		if !ok {
			v = nil
			break
		}
	}
	if v == nil {
		c.fail(fmt.Errorf("$ref %q does not resolve", ref))
		return
	}
	// Place the entry at the same pointer in out.
	dst := c.out
	for _, s := range segs[:n-1] {
		next, ok := dst[s].(map[string]any)
		if !ok {
			next = map[string]any{}
			dst[s] = next
		}
		dst = next
	}
	dst[segs[n-1]] = v
	if !resolves(v, segs[n:]) {
		c.fail(fmt.Errorf("$ref %q does not resolve", ref))
		return
	}
	c.walk(v)
}

// resolves says whether the JSON pointer segments lead somewhere in v.
func resolves(v any, segs []string) bool {
	for _, s := range segs {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[s]; !ok {
				return false
			}
		case []any:
			i := 0
			if _, err := fmt.Sscanf(s, "%d", &i); err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	return true
}

func (c *closure) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}
