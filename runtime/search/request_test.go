package search

import (
	"slices"
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
		"show what's on the list":        "item", // the question inside a request
		"the list shows what's on it":    "",
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

func TestAsksForPeriod(t *testing.T) {
	for q, want := range map[string]bool{
		"what got committed to main this past week?":                        true,
		"what happened on our account in the last hour?":                    true,
		"show me the last four weeks of Copilot adoption stats for our org": true,
		"which of our cardholders spent money yesterday?":                   true,
		"what changed since Monday":                                         true,
		// A release, a rate and a time to come are no span that passed.
		"write up what changed since v4.2":          false,
		"charge $99 a year for the Pro product":     false,
		"charge him when his order ships next week": false,
		"show the last message in #general":         false,
		"":                                          false,
	} {
		if got := parseRequest(q).period; got != want {
			t.Errorf("parseRequest(%q).period = %v, want %v", q, got, want)
		}
	}
}

func TestSearchPeriod(t *testing.T) {
	// Two listings alike in words; one can be limited to a span of time.
	docs := []Doc{
		{Name: "list_payouts", Title: "List payouts", Description: "Returns the payouts sent to your bank.",
			Params: []string{"destination", "limit"}, ReadOnly: true, Route: "GET /v1/payouts"},
		{Name: "list_recent_payouts", Title: "List payouts", Description: "Returns the payouts sent to your bank.",
			Params: []string{"created", "limit"}, ReadOnly: true, Route: "GET /v1/payouts"},
	}
	ix := New(docs)
	for q, want := range map[string]string{
		"which payouts were sent to our bank this week?": "list_recent_payouts",
		"which payouts were sent to our bank?":           "list_payouts",
	} {
		if res := ix.Search(q, 2, nil); len(res) == 0 || docs[res[0].Doc].Name != want {
			t.Errorf("Search(%q) = %v, want %s first", q, res, want)
		}
	}
}

// TestAdverbsAreNotSearched: the adverbs a person adds to say when or how
// surely are stop words; the words around them are searched.
func TestAdverbsAreNotSearched(t *testing.T) {
	r := parseRequest("how much money do we actually have in Stripe right now, yet?")
	if got, want := searchedWords(r), "much money stripe right"; got != want {
		t.Errorf("searched words %q, want %q", got, want)
	}
}

func TestReadPerson(t *testing.T) {
	ix := New([]Doc{
		{Name: "repos_remove-collaborator", Title: "Remove a repository collaborator", Route: "DELETE /repos/{owner}/{repo}/collaborators/{username}"},
		{Name: "search_repos", Title: "Search repositories", Description: "Find repositories by topic.", Route: "GET /search/repositories", ReadOnly: true},
	})
	for _, c := range []struct {
		query  string
		person bool
	}{
		{"kick bob off the repo, he left the project", true},
		{"take her out of the org", true},
		{"give @jdoe push access to the backend repo", true},
		{"make priya an owner of the acme org", true},
		// A word the API uses, a read verb, a verb's -ing form: no one.
		{"remove collaborator access", false},
		{"find rust frameworks", false},
		{"stop selling the Starter plan", false},
		// Only the word after the verb: "bob" here says where.
		{"delete the repo of bob", false},
		// A name after the verb is someone even before a possessive.
		{"end jane's membership when her period runs out", true},
		// "her" not right after the verb is no object.
		{"cancel the plan when her period runs out", false},
	} {
		r := parseRequest(c.query)
		ix.readPerson(&r)
		if r.person != c.person {
			t.Errorf("%q: person %v, want %v", c.query, r.person, c.person)
		}
	}
}

// TestSearchPersonAsObject checks that a request to act on someone named
// by a word the API does not use finds the operation on the people of
// what it names, not on that thing itself.
func TestSearchPersonAsObject(t *testing.T) {
	docs := []Doc{
		{Name: "repos_delete", Title: "Delete a repository", Description: "Deleting a repository requires admin access.", Route: "DELETE /repos/{owner}/{repo}", Destructive: true},
		{Name: "repos_remove-collaborator", Title: "Remove a repository collaborator", Route: "DELETE /repos/{owner}/{repo}/collaborators/{username}", Destructive: true},
		{Name: "orgs_delete", Title: "Delete an organization", Route: "DELETE /orgs/{org}", Destructive: true},
		{Name: "orgs_remove-member", Title: "Remove an organization member", Description: "Removing a user from this list will remove them from all teams.", Route: "DELETE /orgs/{org}/members/{username}", Destructive: true},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"kick bob off the repo":            "repos_remove-collaborator",
		"take her out of the org":          "orgs_remove-member",
		"remove mallory from the org":      "orgs_remove-member",
		"delete the repo, nobody uses it":  "repos_delete",
		"delete the old org, it is unused": "orgs_delete",
	})
}

func TestInstructionFirst(t *testing.T) {
	for q, want := range map[string]string{
		// The story first, then what to do: what to do is read first.
		"mallory left the company, take her out of the org":           "delete her of the org mallory left the company",
		"a customer filed a chargeback; send our receipt as evidence": "send our receipt as evidence a customer filed a chargeback",
		"why is the deposit smaller? just show what went into it":     "show what went into it why is the deposit smaller",
		// Already first, or nothing to move.
		"close issue #42 in acme/web, it's fixed now": "close issue 42 in acme web it s fixed now",
		"the deploy failed yesterday":                 "the deploy failed yesterday",
		// "It" is what the story told: the nouns stay first.
		"the old prototype repo is dead, archive it": "the old prototype repo is dead archive it",
		"": "",
	} {
		if got := strings.Join(parseRequest(q).words, " "); got != want {
			t.Errorf("parseRequest(%q).words = %q, want %q", q, got, want)
		}
	}
	if !parseRequest("mallory left the company, take her out of the org").person {
		t.Error("the person the instruction acts on is not read")
	}
}

func TestAsksForBound(t *testing.T) {
	for q, want := range map[string]bool{
		"which card payments over $500 got declined?":        true,
		"find Rust web frameworks with more than 1000 stars": true,
		"repos with 1000+ stars":                             true,
		"customers who spent at least $100":                  true,
		"runs that took under 10 minutes":                    true,
		"what happened over the last week?":                  false, // a span of time
		"look over PR 88":                                    false,
		"more than enough":                                   false,
		"charge $500":                                        false,
		"a+ rating":                                          false,
	} {
		if got := parseRequest(q).bound; got != want {
			t.Errorf("parseRequest(%q).bound = %v, want %v", q, got, want)
		}
	}
}

func TestSearchBound(t *testing.T) {
	docs := []Doc{
		{Name: "GetCharges", Title: "List all charges", Description: "Returns a list of charges you've previously created. The charges are returned in sorted order, with the most recent charges appearing first.",
			ReadOnly: true, Route: "GET /v1/charges"},
		{Name: "GetChargesSearch", Title: "Search charges", Description: "Search for charges you've previously created using Stripe's Search Query Language. Don't use search in read-after-write flows where strict consistency is necessary.",
			ReadOnly: true, Route: "GET /v1/charges/search"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"show me the charges":                "GetCharges",
		"show me the charges over $500":      "GetChargesSearch",
		"find charges of more than 1000 USD": "GetChargesSearch",
	})
}

func TestMakeIsSet(t *testing.T) {
	for q, want := range map[string]string{
		"make acme/old-site private":                  "set",
		"make priya an owner of the acme org":         "set",
		"make the Mastercard ending 4444 the default": "set",
		"please make it private":                      "set",
		"make a new private repo":                     "make",
		"make me a coupon for 20% off":                "make",
		"make sure the build passes":                  "make",
		"make new labels":                             "make",
	} {
		r := parseRequest(q)
		if i := leadingActionAt(r.words, r.stems); i < 0 || r.words[i] != want {
			t.Errorf("parseRequest(%q): verb %v, want %q", q, r.words, want)
		}
	}
}

func TestIdiomsAreNotSearched(t *testing.T) {
	for q, want := range map[string]string{
		"what's the email we have on file for cus_8?":       "email",
		"freeze card ic_42 right away":                      "freeze card",
		"is the invoice file on the way?":                   "invoice file way",
		"nobody has paid so far, we sent it by mistake":     "nobody paid sent",
		"upload the file on record at the moment, for good": "upload file",
		// What an apostrophe leaves of a contraction.
		"I don't want notifications, we've seen them, haven't we": "notifications seen",
	} {
		if got := searchedWords(parseRequest(q)); got != want {
			t.Errorf("%q: searched words %q, want %q", q, got, want)
		}
	}
}

// searchedWords returns the words of r that are searched: neither stop
// words, nor cleared, nor values.
func searchedWords(r request) string {
	var searched []string
	for i, w := range r.words {
		if r.stems[i] != "" && !r.values[i] {
			searched = append(searched, w)
		}
	}
	return strings.Join(searched, " ")
}

// TestGiveMe checks that "give" is searched, as granting, unless it is
// given to the one who asks.
func TestGiveMe(t *testing.T) {
	for q, want := range map[string]string{
		"give me a gitignore for Node projects": "gitignore node projects",
		"give us the standard license text":     "standard license text",
		"give bob push access to the repo":      "give bob push access repo",
	} {
		if got := searchedWords(parseRequest(q)); got != want {
			t.Errorf("%q: searched words %q, want %q", q, got, want)
		}
	}
	if !slices.Contains(synonymTerms[Stem("give")], Stem("grant")) {
		t.Errorf("give does not stand for grant")
	}
}

// TestReadBranch checks that a default branch's conventional name is read
// as a branch where the routes have branches, and searched elsewhere.
func TestReadBranch(t *testing.T) {
	git := New([]Doc{{Name: "repos_get-branch", Route: "GET /repos/{owner}/{repo}/branches/{branch}"}})
	phone := New([]Doc{{Name: "FetchAccount", Route: "GET /2010-04-01/Accounts/{Sid}.json"}})
	for _, c := range []struct {
		ix     *Index
		q      string
		branch bool
	}{
		{git, "what got committed to main this past week?", true},
		{git, "protect master on acme/api", true},
		{phone, "list the subaccounts of our main account", false},
	} {
		r := parseRequest(c.q)
		c.ix.readBranch(&r)
		if got := slices.Contains(r.kinds, shapeBranch); got != c.branch {
			t.Errorf("%q: read as a branch %v, want %v", c.q, got, c.branch)
		}
		if got := strings.Contains(searchedWords(r), "main") || strings.Contains(searchedWords(r), "master"); got == c.branch {
			t.Errorf("%q: branch name searched %v, want %v", c.q, got, !c.branch)
		}
	}
}
