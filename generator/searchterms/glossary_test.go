package searchterms

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func TestSingular(t *testing.T) {
	for in, want := range map[string]string{
		"repositories": "repository",
		"addresses":    "address",
		"statuses":     "status",
		"boxes":        "box",
		"branches":     "branch",
		"referrers":    "referrer",
		"status":       "status",
		"access":       "access",
		"analysis":     "analysis",
		"gas":          "gas",
		"payout":       "payout",
	} {
		if got := singular(in); got != want {
			t.Errorf("singular(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGlosses(t *testing.T) {
	parsed := parseGlossary("# comment\nreferrers\tsites that send visitors, traffic sources\n" +
		"value lists\tblock list, allow list\t\nradar\tfraud screening\tpayment, charges\nnot a line\n")
	table := map[string][]string{}
	for term, g := range parsed {
		table[term] = g.phrases
	}
	if got := strings.Join(parsed["radar"].context, " "); got != "payment charge" {
		t.Errorf("radar's context = %q, want the singulars %q", got, "payment charge")
	}
	for in, want := range map[string]string{
		"repos get top referrers":    "sites that send visitors|traffic sources",
		"get radar value list items": "fraud screening|block list|allow list",
		"post radar value lists":     "fraud screening|block list|allow list",
		"list values":                "",
		"referrer":                   "sites that send visitors|traffic sources",
		"lists value":                "",
	} {
		if got := strings.Join(glosses(table, words(in)), "|"); got != want {
			t.Errorf("glosses(%q) = %q, want %q", in, got, want)
		}
	}
}

// someTerm returns a one-word term of the embedded glossary that holds in
// any API (scoped: false) or only in some (scoped: true), and its first
// phrase.
func someTerm(t *testing.T, scoped bool) (string, gloss) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(glossary())) {
		if g := glossary()[k]; !strings.Contains(k, " ") && (len(g.context) > 0) == scoped && !slices.Contains(g.context, k) {
			return k, g
		}
	}
	t.Fatalf("no term with scoped = %v in the glossary", scoped)
	return "", gloss{}
}

// TestPhrasesReadThePath checks that a term of the upstream path is
// glossed though the tool's name does not hold it, and that a path
// parameter's name is not read as a term.
func TestPhrasesReadThePath(t *testing.T) {
	term, e := someTerm(t, false)
	phrase := e.phrases[0]
	inPath := &spec.Tool{Name: "getThing", Upstream: &spec.Upstream{Method: "GET", Path: "/things/" + term + "/{id}"}}
	param := &spec.Tool{Name: "getOther", Upstream: &spec.Upstream{Method: "GET", Path: "/things/{" + term + "}"}}
	g := NewGlossary(&spec.API{Tools: []*spec.Tool{inPath, param}})
	if got := g.Phrases(inPath); !strings.Contains(got, phrase) {
		t.Errorf("Phrases(path with %q) = %q, want it to hold %q", term, got, phrase)
	}
	if got := g.Phrases(param); got != "" {
		t.Errorf("Phrases(path parameter {%s}) = %q, want none", term, got)
	}
}

// TestGlossaryCommonTerms checks that a term more than a fifth of a large
// API's tools use keeps only the words its phrases add to the API's own,
// and that a small API keeps its terms whole.
func TestGlossaryCommonTerms(t *testing.T) {
	term, e := someTerm(t, false)
	// used is a word of the term's phrases that the API's own tools use
	// too; the others are words only the glossary brings.
	all := words(strings.Join(e.phrases, " "))
	used := all[0]
	api := func(size, using int) *spec.API {
		a := &spec.API{}
		for i := range size {
			name := fmt.Sprintf("op%d", i)
			if i < using {
				name += " " + term
			} else if i == size-1 {
				name += " " + used
			}
			a.Tools = append(a.Tools, &spec.Tool{Name: name})
		}
		return a
	}
	for _, c := range []struct {
		size, using int
		all         bool // all its phrases, or only the words the API lacks
	}{
		{size: 5, using: 3, all: true},      // a small API: few tools, all glossed
		{size: 200, using: 40, all: true},   // a fifth of the tools
		{size: 200, using: 41, all: false},  // more than a fifth
		{size: 1000, using: 120, all: true}, // an eighth
	} {
		a := api(c.size, c.using)
		got := NewGlossary(a).Phrases(a.Tools[0])
		if c.all {
			if !strings.Contains(got, e.phrases[0]) {
				t.Errorf("%d tools, %d of them using %q: phrases %q, want all of %q", c.size, c.using, term, got, e.phrases)
			}
			continue
		}
		gotWords := words(got)
		if slices.Contains(gotWords, used) || len(gotWords) == 0 {
			t.Errorf("%d tools, %d of them using %q: phrases %q, want the words of %q but %q", c.size, c.using, term, got, e.phrases, used)
		}
	}
}

// TestGlossaryScopedTerms checks that a term of an everyday word in a
// product's sense is glossed only in an API that uses one of its context
// words.
func TestGlossaryScopedTerms(t *testing.T) {
	term, g := someTerm(t, true)
	for _, c := range []struct {
		description string
		glossed     bool
	}{
		{description: "Returns the " + term + ".", glossed: false},
		{description: "Returns the " + term + " of the " + g.context[0] + ".", glossed: len(g.context) == 1},
		{description: "Returns the " + term + " of the " + strings.Join(g.context[:min(2, len(g.context))], " and ") + ".", glossed: true},
	} {
		tool := &spec.Tool{Name: "get " + term, Description: c.description}
		got := NewGlossary(&spec.API{Tools: []*spec.Tool{tool}}).Phrases(tool) != ""
		if got != c.glossed {
			t.Errorf("%q with context %q, described %q: glossed = %v, want %v", term, g.context, c.description, got, c.glossed)
		}
	}
}

// TestGlossaryTable checks the embedded table's shape: a term, a tab,
// phrases and optionally a tab and context words, each term once.
func TestGlossaryTable(t *testing.T) {
	seen := map[string]bool{}
	for i, line := range strings.Split(glossaryTable, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		cols := strings.Split(line, "\t")
		term := cols[0]
		if len(cols) < 2 || len(cols) > 3 || term == "" || len(list(cols[1])) == 0 || term != strings.ToLower(term) {
			t.Errorf("line %d: %q is not term<TAB>phrases[<TAB>context]", i+1, line)
			continue
		}
		if len(cols) == 3 {
			for _, w := range list(cols[2]) {
				if len(words(w)) != 1 {
					t.Errorf("line %d: context %q is not one word", i+1, w)
				}
			}
		}
		key := canonical(words(term))
		if seen[key] {
			t.Errorf("line %d: term %q twice", i+1, term)
		}
		seen[key] = true
	}
}

// TestGlossaryOfTheAPI checks that the API's own terms are glossed, in
// any form its names spell them and however many tools use them, and
// that one replaces the built-in entry of the same term.
func TestGlossaryOfTheAPI(t *testing.T) {
	builtin, _ := someTerm(t, false)
	api := &spec.API{Surface: spec.Surface{Glossary: []spec.GlossaryTerm{
		{Term: "rma", Phrases: []string{"return authorization", "send an item back"}},
		{Term: "Fulfilment Orders", Phrases: []string{"shipping", "delivery"}},
		{Term: builtin, Phrases: []string{"our own words"}},
	}}}
	rma := &spec.Tool{Name: "create_rma"}
	fulfil := &spec.Tool{Name: "listFulfilmentOrders"}
	other := &spec.Tool{Name: "get " + builtin}
	api.Tools = []*spec.Tool{rma, fulfil, other}
	for range 100 { // "rma" in most tools: still glossed
		api.Tools = append(api.Tools, &spec.Tool{Name: "get_rma"})
	}
	g := NewGlossary(api)
	for tool, want := range map[*spec.Tool]string{
		rma:    "return authorization, send an item back",
		fulfil: "shipping, delivery",
		other:  "our own words",
	} {
		if got := g.Phrases(tool); got != want {
			t.Errorf("Phrases(%s) = %q, want %q", tool.Name, got, want)
		}
	}
}
