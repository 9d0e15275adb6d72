// Package searchterms finds, when a server is generated, the words that
// operation search (runtime/search) indexes for a tool beyond its
// definition: the synonyms of the words of its name and title, from
// WordNet. A person asks in their own words
// ("bill the customer", "take away his access"); the synonyms let those
// words find the API's ("invoice", "remove").
package searchterms

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// wordnetTable is bench/search/wordnet's output: one line per word of API
// documents, "word<TAB>synonym,synonym…".
//
//go:embed wordnet.tsv
var wordnetTable string

// synonyms parses wordnetTable once; it is read-only afterwards.
var synonyms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(wordnetTable, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(line, "\t"); ok {
			m[k] = strings.Split(v, ",")
		}
	}
	return m
})

// Keywords returns the search keywords of a tool: the WordNet synonyms of
// the words of its name and title (or first sentence), each once, in the
// order found.
func Keywords(t *spec.Tool) string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	syn := synonyms()
	for _, w := range words(t.Name + " " + headline(t)) {
		for _, s := range lookup(syn, w) {
			add(s)
		}
	}
	return strings.Join(out, " ")
}

// headline is what says in a few words what a tool does: its title, or
// when it has none (Stripe's operations have no summary) the first
// sentence of its description.
func headline(t *spec.Tool) string {
	if t.Title != "" {
		return t.Title
	}
	d := strings.TrimSpace(t.Description)
	if i := strings.IndexAny(d, "\n"); i >= 0 {
		d = d[:i]
	}
	if i := strings.Index(d, ". "); i >= 0 {
		d = d[:i]
	}
	return d
}

// lookup returns the synonyms of w, or of its base form when w is a plural
// or a past or present participle that the table does not hold.
func lookup(syn map[string][]string, w string) []string {
	if s, ok := syn[w]; ok {
		return s
	}
	for _, suf := range [...][2]string{{"ies", "y"}, {"es", ""}, {"s", ""}, {"ed", ""}, {"ed", "e"}, {"ing", ""}, {"ing", "e"}} {
		if base, ok := strings.CutSuffix(w, suf[0]); ok {
			if s, ok := syn[base+suf[1]]; ok {
				return s
			}
		}
	}
	return nil
}

// words splits s into lowercase ASCII words: at every character that is
// not a letter, and inside identifiers at lower-to-upper case changes.
func words(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		var c byte
		if i < len(s) {
			c = s[i]
		}
		lower, upper := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z'
		if start >= 0 && (!lower && !upper || upper && s[i-1] >= 'a' && s[i-1] <= 'z') {
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
		}
		if start < 0 && (lower || upper) {
			start = i
		}
	}
	return out
}
