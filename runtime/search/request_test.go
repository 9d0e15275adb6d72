package search

import (
	"strings"
	"testing"
)

// BenchmarkReadRequest measures reading requests as Search does: their
// concepts, question form, verb and main nouns, the question form and
// verb twice (for the verb boost and for the subject boost).
func BenchmarkReadRequest(b *testing.B) {
	ix := New(nil)
	qs := []string{"who can get into our private repo acme/payments?", "kick bob off the repo, he left the project",
		"show me the code diff between v1.2.0 and v1.3.0", "create a code SUMMER23 that shoppers can type in for that discount"}
	for b.Loop() {
		for _, q := range qs {
			r := parseRequest(q)
			ix.concepts(r)
			mainNouns(r)
			asksToRead(r)
			asksForSet(r)
			leadingAction(r.words, r.stems)
			asksForSet(r)
			asksToRead(r)
			leadingAction(r.words, r.stems)
		}
	}
}

func TestAsksForContents(t *testing.T) {
	for q, want := range map[string]string{
		"what's on my planning board?":   "item",
		"what is in the cart of cus_1":   "item",
		"What are on our block lists?":   "item",
		"who is in our organization?":    "member",
		"who's on the team":              "member",
		"what labels are on this issue?": "",
		"what's the newest release":      "",
		"show what's on the list":        "",
		"what":                           "",
	} {
		if got := parseRequest(q).contents; got != Stem(want) && !(want == "" && got == "") {
			t.Errorf("parseRequest(%q).contents = %q, want the stem of %q", q, got, want)
		}
	}
}

func TestSearchContents(t *testing.T) {
	docs := []Doc{
		{Name: "projects_get-for-user", Title: "Get a project for a user", ReadOnly: true},
		{Name: "projects_list-items-for-user", Title: "List items for a user owned project", ReadOnly: true},
	}
	ix := New(docs)
	if res := ix.Search("what's on my project?", 1, nil); len(res) == 0 || res[0].Doc != 1 {
		t.Errorf("Search(what's on) = %v, want the items first", res)
	}
	docs = []Doc{
		// The organization's own operation names it more.
		{Name: "orgs_get", Title: "Get an organization", Description: "The organization's profile and settings.", ReadOnly: true},
		{Name: "orgs_members", Title: "Organization members", ReadOnly: true},
	}
	ix = New(docs)
	if res := ix.Search("who is in our organization?", 1, nil); len(res) == 0 || res[0].Doc != 1 {
		t.Errorf("Search(who is in) = %v, want the members first", res)
	}
}

func TestAsksForCount(t *testing.T) {
	for q, want := range map[string]bool{
		"how many stars does vercel/next.js have?": true,
		"the number of open issues in acme/api":    true,
		"How many API calls do I have left":        true,
		"how much money do we have":                false,
		"list many things":                         false,
		"number the issues":                        false,
	} {
		if got := parseRequest(q).count; got != want {
			t.Errorf("parseRequest(%q).count = %v, want %v", q, got, want)
		}
	}
}

func TestSearchCount(t *testing.T) {
	docs := []Doc{
		{Name: "activity_list_stargazers_for_repo", Title: "List stargazers", Route: "GET /repos/{owner}/{repo}/stargazers", ReadOnly: true},
		{Name: "activity_get_stargazer_count_for_repo", Title: "Get the stargazer count for a repository", Route: "GET /repos/{owner}/{repo}/stargazers/count", ReadOnly: true},
	}
	ix := New(docs)
	if res := ix.Search("how many stargazers does vercel/next.js have?", 1, nil); len(res) == 0 || res[0].Doc != 1 {
		t.Errorf("Search = %v, want the count first", res)
	}
}

// TestAdverbsAreNotSearched: the adverbs a person adds to say when or how
// surely are stop words; the words around them are searched.
func TestAdverbsAreNotSearched(t *testing.T) {
	r := parseRequest("how much money do we actually have in Stripe right now, yet?")
	var searched []string
	for i, w := range r.words {
		if r.stems[i] != "" {
			searched = append(searched, w)
		}
	}
	if got, want := strings.Join(searched, " "), "much money stripe right"; got != want {
		t.Errorf("searched words %q, want %q", got, want)
	}
}
