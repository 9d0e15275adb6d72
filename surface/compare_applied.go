package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// appliedOf returns the JSON Schema 2020-12 keywords of s that the field's
// other members do not hold (allOf, anyOf, not, if/then/else,
// dependentRequired and those canonApplied adds later), each as canonical
// JSON, or nil when s has none. $anchor and $schema are left out: they
// change no value's validity.
func appliedOf(s *spec.Schema) map[string]json.RawMessage {
	m := map[string]any{}
	canonApplied(m, s, func(string) {})
	delete(m, "$anchor")
	delete(m, "$schema")
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		b, err := json.Marshal(v) // maps marshal with sorted keys: canonical
		if err != nil {
			continue
		}
		out[k] = b
	}
	return out
}

// appliedDiffs compares the applicator keywords of a field. Each change is
// tighter (accepts fewer values), looser (more), or undecided: a changed
// not or if, or a keyword this comparison does not know, which may do
// either, and is reported as such rather than left out.
func appliedDiffs(p, n map[string]json.RawMessage) []constraintDiff {
	keys := map[string]bool{}
	for k := range p {
		keys[k] = true
	}
	for k := range n {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var ds []constraintDiff
	for _, k := range sorted {
		// A lock file holds the values indented: compare canonical forms.
		a, b := canonicalOrNil(p[k]), canonicalOrNil(n[k])
		if string(a) == string(b) {
			continue
		}
		switch k {
		case "allOf":
			// Every subschema must hold: one more refuses more.
			ds = appendMembers(ds, "allOf subschema", a, b, true)
		case "anyOf":
			switch {
			case a == nil:
				ds = append(ds, constraintDiff{tighter: true, msg: fmt.Sprintf("anyOf %s was added", snippet(b))})
			case b == nil:
				ds = append(ds, constraintDiff{looser: true, msg: fmt.Sprintf("anyOf %s was removed", snippet(a))})
			default:
				// One subschema must hold: one more accepts more.
				ds = appendMembers(ds, "anyOf subschema", a, b, false)
			}
		case "required", "then", "else":
			if k == "required" {
				ds = appendMembers(ds, "required property", a, b, true)
				continue
			}
			ds = appendPresence(ds, k, a, b)
		case "not":
			ds = appendPresence(ds, k, a, b)
		case "dependentRequired":
			ds = appendDependent(ds, a, b)
		default:
			// "if" (which decides whether then or else applies) and any
			// keyword not compared here: the change may go either way.
			ds = append(ds, constraintDiff{undecided: true, msg: changedMsg(k, a, b)})
		}
	}
	return ds
}

// appendPresence compares a keyword whose subschema narrows the value when
// present (not, then, else): adding it tightens, removing it loosens, and
// a change in between cannot be ordered.
func appendPresence(ds []constraintDiff, k string, a, b json.RawMessage) []constraintDiff {
	switch {
	case a == nil:
		return append(ds, constraintDiff{tighter: true, msg: fmt.Sprintf("%s %s was added", k, snippet(b))})
	case b == nil:
		return append(ds, constraintDiff{looser: true, msg: fmt.Sprintf("%s %s was removed", k, snippet(a))})
	}
	return append(ds, constraintDiff{undecided: true, msg: changedMsg(k, a, b)})
}

// appendMembers compares two JSON arrays as sets: with conjunctive set, a
// member added tightens and one removed loosens (allOf, required); else
// the reverse (anyOf).
func appendMembers(ds []constraintDiff, what string, a, b json.RawMessage, conjunctive bool) []constraintDiff {
	pa, pb := members(a), members(b)
	for _, m := range pb {
		if !containsRaw(pa, m) {
			ds = append(ds, constraintDiff{tighter: conjunctive, looser: !conjunctive, msg: fmt.Sprintf("%s %s was added", what, snippet(m))})
		}
	}
	for _, m := range pa {
		if !containsRaw(pb, m) {
			ds = append(ds, constraintDiff{tighter: !conjunctive, looser: conjunctive, msg: fmt.Sprintf("%s %s was removed", what, snippet(m))})
		}
	}
	return ds
}

// appendDependent compares dependentRequired: a property that now needs
// another tightens; one that no longer does loosens.
func appendDependent(ds []constraintDiff, a, b json.RawMessage) []constraintDiff {
	var pa, pb map[string][]string
	json.Unmarshal(a, &pa)
	json.Unmarshal(b, &pb)
	names := map[string]bool{}
	for k := range pa {
		names[k] = true
	}
	for k := range pb {
		names[k] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		for _, r := range pb[k] {
			if !contains(pa[k], r) {
				ds = append(ds, constraintDiff{tighter: true, msg: fmt.Sprintf("dependentRequired: %q now requires %q", k, r)})
			}
		}
		for _, r := range pa[k] {
			if !contains(pb[k], r) {
				ds = append(ds, constraintDiff{looser: true, msg: fmt.Sprintf("dependentRequired: %q no longer requires %q", k, r)})
			}
		}
	}
	return ds
}

func members(a json.RawMessage) []json.RawMessage {
	var ms []json.RawMessage
	json.Unmarshal(a, &ms)
	return ms
}

func containsRaw(list []json.RawMessage, m json.RawMessage) bool {
	for _, x := range list {
		if string(x) == string(m) {
			return true
		}
	}
	return false
}

func changedMsg(k string, a, b json.RawMessage) string {
	switch {
	case a == nil:
		return fmt.Sprintf("%s %s was added", k, snippet(b))
	case b == nil:
		return fmt.Sprintf("%s %s was removed", k, snippet(a))
	}
	return fmt.Sprintf("%s changed from %s to %s", k, snippet(a), snippet(b))
}

func canonicalOrNil(v json.RawMessage) json.RawMessage {
	if v == nil {
		return nil
	}
	return canonical(v)
}

// snippet is v for a message, cut to a readable length.
func snippet(v json.RawMessage) string {
	const max = 120
	if len(v) <= max {
		return string(v)
	}
	return string(v[:max-3]) + "..."
}

// canonical returns v with object members sorted by name, so that two
// spellings of one structured const, enum value or default compare equal;
// numbers keep their text.
func canonical(v json.RawMessage) json.RawMessage {
	var x any
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return compact(v)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return compact(v)
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}
