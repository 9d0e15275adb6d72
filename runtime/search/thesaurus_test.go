package search

import (
	"fmt"
	"testing"
)

// TestThesaurus: a word that the prose of several operations uses for
// what their names call something else ("development environment" for a
// codespace) finds an operation whose own text never uses it.
func TestThesaurus(t *testing.T) {
	var docs []Doc
	for i := range thesaurusMinPair {
		docs = append(docs, Doc{Name: fmt.Sprintf("codespaces_secret_%d", i), Toolset: "codespaces",
			Description: "Manage a development environment secret."})
	}
	docs = append(docs,
		Doc{Name: "codespaces_create", Title: "Create a codespace", Toolset: "codespaces", Description: "Creates a codespace."},
		Doc{Name: "repos_create_environment", Title: "Create a deployment target", Toolset: "repos", Description: "Creates a target."})
	for i := range 20 {
		docs = append(docs, Doc{Name: fmt.Sprintf("misc_%d", i), Toolset: "misc", Description: "Something else entirely."})
	}
	ix := New(docs)
	got := ix.thesaurus[Stem("development")]
	if len(got) == 0 || got[0].term != Stem("codespaces") {
		t.Fatalf("thesaurus[develop] = %v, want codespac first", got)
	}
	if len(ix.thesaurus[Stem("else")]) != 0 {
		t.Errorf("thesaurus[else] = %v: a word of every misc operation relates to nothing more than any word does", ix.thesaurus[Stem("else")])
	}
	res := ix.Search("spin up a development box", 3, func(d int) bool { return d >= thesaurusMinPair })
	if len(res) == 0 || docs[res[0].Doc].Name != "codespaces_create" {
		t.Errorf("Search = %v, want codespaces_create first", res)
	}
}

// TestThesaurusSupport: a pair seen in fewer than thesaurusMinPair
// operations relates nothing: one description's wording is not the API's
// vocabulary.
func TestThesaurusSupport(t *testing.T) {
	var docs []Doc
	for i := range thesaurusMinPair - 1 {
		docs = append(docs, Doc{Name: fmt.Sprintf("widgets_get_%d", i), Description: "Returns a gadget."})
	}
	if th := New(docs).thesaurus; len(th) != 0 {
		t.Errorf("thesaurus = %v, want none", th)
	}
}
