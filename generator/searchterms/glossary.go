package searchterms

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// glossaryTable holds the everyday words for API jargon, one term per line:
// "term<TAB>phrase, phrase…[<TAB>context, context…]". WordNet knows
// English, not products: a person asks for "the sites that send people to
// our repo" or "a cloud dev environment", the API says "referrers" and
// "codespaces". 966 terms are the words and multi-word segments of the
// URL paths of the documents in the repository's corpus; 1,204 more are
// the jargon of about a hundred popular APIs it lacks (GitLab, Jira,
// Kubernetes, Shopify, Salesforce, Microsoft Graph, FHIR…), for the
// documents users bring. The phrases were written from general
// knowledge, without looking at any evaluation task
// (bench/search/glossary). A term that is an everyday word in a product's
// sense ("statuses": a commit's CI result; "confirm": a payment) has
// context words: its phrases hold only for an API that uses two of them
// (or the only one) in its tools' names, headlines or paths. One was not
// enough: "message" and "code" alone made "short" an SMS short code in
// the conformance fixture's audio tool.
//
//go:embed glossary.tsv
var glossaryTable string

// maxTermWords is the longest term of the glossary, in words.
const maxTermWords = spec.MaxGlossaryTermWords

// A gloss is one term's entry: its phrases, and the words of which an API
// must use two for them to hold (none: they hold in any API).
type gloss struct {
	phrases []string
	context []string
}

// glossary parses glossaryTable once, keyed by each term's canonical form;
// it is read-only afterwards.
var glossary = sync.OnceValue(func() map[string]gloss { return parseGlossary(glossaryTable) })

func parseGlossary(table string) map[string]gloss {
	m := map[string]gloss{}
	for _, line := range strings.Split(table, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 {
			continue
		}
		var g gloss
		g.phrases = list(cols[1])
		if len(cols) > 2 {
			for _, w := range list(cols[2]) {
				// "assignment, assignments" is one word of context, not two.
				if w = singular(w); !slices.Contains(g.context, w) {
					g.context = append(g.context, w)
				}
			}
		}
		m[canonical(words(cols[0]))] = g
	}
	return m
}

// list splits a comma-separated column, trimmed, without empty items.
func list(col string) []string {
	var out []string
	for _, p := range strings.Split(col, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// A Glossary gives the everyday words for the jargon of one API's tools.
type Glossary struct {
	table map[string][]string
}

// NewGlossary returns the glossary for api's tools: the API's own terms
// (spec.Surface.Glossary) over the embedded table's, less the table's
// terms whose context api does not use. A table term that more than a
// fifth of the tools use (and more than commonTerm) keeps only the words
// of its phrases that the API's own tools do not use: "repos" in
// GitHub's API, in 540 of 1,223 operations, says nothing about which of
// them a person wants, and its whole phrases ("repository", "project")
// would only lengthen every tool's text alike (glossed whole, GitHub's
// dev top-5 fell from 90 to 88%, dropped entirely Discord's "server" for
// its guilds was lost).
func NewGlossary(api *spec.API) *Glossary {
	uses := map[string]int{}
	vocabulary := map[string]bool{}
	for _, t := range api.Tools {
		seen := map[string]bool{}
		ws := toolWords(t)
		for i := range ws {
			for n := 1; n <= maxTermWords && i+n <= len(ws); n++ {
				if k := canonical(ws[i : i+n]); !seen[k] {
					seen[k] = true
					uses[k]++
				}
			}
		}
		for _, w := range ws {
			vocabulary[singular(w)] = true
		}
	}
	g := &Glossary{table: map[string][]string{}}
	for term, e := range glossary() {
		n := uses[term]
		if n == 0 || !inContext(e.context, vocabulary) {
			continue
		}
		if n > commonTerm && 5*n > len(api.Tools) {
			// "server" for Discord's guilds tells a guild's emoji from
			// an application's.
			if ps := newWords(e.phrases, vocabulary); len(ps) > 0 {
				g.table[term] = ps
			}
			continue
		}
		g.table[term] = e.phrases
	}
	// The API's own terms hold whatever their use: whoever wrote them
	// knows the API.
	for _, e := range api.Surface.Glossary {
		g.table[canonical(words(e.Term))] = e.Phrases
	}
	return g
}

// inContext reports whether an API whose tools use the words of
// vocabulary is one where a term of the given context words has its
// product sense: it uses two of them, or the only one.
func inContext(context []string, vocabulary map[string]bool) bool {
	used := 0
	for _, w := range context {
		if vocabulary[w] {
			used++
		}
	}
	return used >= min(2, len(context))
}

// commonTerm is how many tools a term may be used by whatever the size of
// the API: in a small API, a term of two tools out of five still tells
// them from the rest.
const commonTerm = 20

// Phrases returns the everyday words for the terms of t's name, title (or
// first sentence) and upstream path, each phrase once, in the order found;
// "" when it uses none.
func (g *Glossary) Phrases(t *spec.Tool) string {
	var out []string
	seen := map[string]bool{}
	for _, p := range glosses(g.table, toolWords(t)) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// toolWords are the words of t where its jargon is: its name, its
// headline and the literal segments of the path it calls.
func toolWords(t *spec.Tool) []string {
	ws := words(t.Name + " " + headline(t))
	if t.Upstream != nil {
		ws = append(ws, words(literalPath(t.Upstream.Path))...)
	}
	return ws
}

// literalPath is path without its {parameters}: a parameter's name says
// which value goes there, not what the operation is about.
func literalPath(path string) string {
	var b strings.Builder
	for _, seg := range strings.Split(path, "/") {
		if !strings.HasPrefix(seg, "{") {
			b.WriteString(seg)
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// glosses returns the phrases of table for the terms found in ws, a tool's
// words in order: every run of up to maxTermWords consecutive words is
// looked up, so "value lists" is found in GetRadarValueListItems as well
// as "radar".
func glosses(table map[string][]string, ws []string) []string {
	var out []string
	for i := range ws {
		for n := 1; n <= maxTermWords && i+n <= len(ws); n++ {
			out = append(out, table[canonical(ws[i:i+n])]...)
		}
	}
	return out
}

// canonical joins words after reducing each plural to its singular, so
// that a term and a tool's words meet whatever their number.
func canonical(ws []string) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(singular(w))
	}
	return b.String()
}

// singular undoes the regular English plural endings; a word that does
// not look plural is returned as it is.
func singular(w string) string {
	switch {
	case len(w) <= 3:
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "uses"), strings.HasSuffix(w, "xes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// newWords returns the words of phrases that vocabulary lacks, as one
// phrase each.
func newWords(phrases []string, vocabulary map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range phrases {
		for _, w := range words(p) {
			if !vocabulary[singular(w)] && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}
