package search

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestStem(t *testing.T) {
	// Porter's own examples (Porter 1980, and the reference vocabulary).
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed", "agreed": "agre",
		"plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat",
		"hopping": "hop", "filing": "file", "happy": "happi", "relational": "relat",
		"conditional": "condit", "generalization": "gener", "hopefulness": "hope",
		"repositories": "repositori", "repository": "repositori", "creating": "creat",
		"created": "creat", "creates": "creat", "adjustment": "adjust", "v2": "v2", "go": "go",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	got := words("repos/list-for-authenticatedUser HTMLURL v2_id")
	want := []string{"repos", "list", "for", "authenticated", "user", "htmlurl", "v2", "id"}
	if len(got) != len(want) {
		t.Fatalf("words = %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("words = %q, want %q", got, want)
		}
	}
}

func TestSearchRanks(t *testing.T) {
	docs := []Doc{
		{Name: "repos_delete", Title: "Delete a repository", Toolset: "repos"},
		{Name: "repos_create_for_authenticated_user", Title: "Create a repository for the authenticated user", Toolset: "repos"},
		{Name: "issues_create", Title: "Create an issue", Toolset: "issues", Params: []string{"owner", "repo", "title"}},
		{Name: "activity_list_stargazers_for_repo", Title: "List stargazers", Toolset: "activity"},
	}
	ix := New(docs)
	wantFirst(t, ix, docs, map[string]string{
		"create a new repository for me":   "repos_create_for_authenticated_user",
		"get rid of, i.e. remove the repo": "repos_delete",
		"file a bug":                       "issues_create",
		"who starred the project":          "activity_list_stargazers_for_repo",
	})
	if res := ix.Search("repository", 10, func(d int) bool { return d != 0 }); len(res) == 0 || res[0].Doc == 0 {
		t.Errorf("keep did not filter: %v", res)
	}
}

func TestRequestValues(t *testing.T) {
	for in, want := range map[string]string{
		// "look up" is read as one verb; the value between is no object.
		"look up evt_1, the one our webhook handler choked on": "get the one our webhook handler choked on",
		"show me the code diff between v1.2.0 and v1.3.0":      "show me the code diff between and",
		"credit $10 to the customer":                           "credit to the customer",
		"let the design team read the brand-assets repo":       "let the design team read the repo",
		"a one-time purchase":                                  "a one time purchase",
		"no values here":                                       "no values here",
		// A quotation is a text to write, a channel's name which channel.
		"post 'deploy finished' in #releases":    "post in",
		`set my status to "in a meeting" please`: "set my status to please",
		"what's on Jane's plate":                 "what s on jane s plate",
		"it's 'fine":                             "it s fine",
		// A piece whose form gives its kind names which one; a URL's
		// path and a variable's name may say what it is for.
		"pause the nightly workflow in acme/api":           "pause the nightly workflow in",
		"store our NPM_TOKEN for the workflows":            "store our npm token for the workflows",
		"fix the typo in docs/setup.md":                    "fix the typo in",
		"find the customer whose email is bob@example.com": "find the customer whose email is",
		"call https://ci.example.com/hook on every push":   "call https ci example com hook on every push",
		"": "",
	} {
		r := parseRequest(in)
		var kept []string
		for i, w := range r.words {
			if !r.values[i] {
				kept = append(kept, w)
			}
		}
		if got := strings.Join(kept, " "); got != want {
			t.Errorf("parseRequest(%q) keeps %q, want %q", in, got, want)
		}
	}
}

func TestAsksToRead(t *testing.T) {
	for q, want := range map[string]bool{
		"who can get into our private repo?": true,
		"which branches exist in acme/api":   true,
		"show me the README":                 true,
		"please list my gists":               true,
		"is the release branch protected":    true,
		"make a new private repo":            false,
		"delete the old feature/x branch":    false,
		"kick bob off the repo, what a mess": false,
		"give me a link I can post":          false,
		"store our npm token, is that ok?":   true,
		"tell me who starred the repo":       true,
		"tell the bank it was delivered":     false, // told to someone else: a write
		"tell":                               false,
		"close issue 212?":                   false, // an instruction with a question mark
		"archive the old repo?":              false,
		"is PR 5 merged?":                    true,
		"refunds for ch_1?":                  true,
		"show me the invoices?":              true,
		"anything new for me in acme/api":    true,
		"":                                   false,
	} {
		if got := asksToRead(parseRequest(q)); got != want {
			t.Errorf("asksToRead(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestParamDocTerms(t *testing.T) {
	got := stemmer{}.paramDocTerms([]string{"The customer's shipping address. Used for tax.", "", "Only runs of this branch",
		"Filter members. `2fa_disabled` means without two-factor. See the docs."})
	// The first sentence, and those that say what a value selects.
	want := []string{"custom", "ship", "address", "onli", "run", "branch", "filter", "member", "2fa", "disabl", "mean", "without", "two", "factor"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paramDocTerms = %q, want %q", got, want)
	}
}

func TestSearchSignals(t *testing.T) {
	docs := []Doc{
		{Name: "add_collaborator", Title: "Add a repository collaborator"},
		{Name: "list_collaborators", Title: "List repository collaborators", ReadOnly: true},
		{Name: "update_customer", Title: "Update a customer", ParamDocs: []string{"The customer's shipping address."}},
		{Name: "create_file", Title: "Create a file"},
		{Name: "get_event", Title: "Retrieve an event", ReadOnly: true, Keywords: "case consequence effect result"},
	}
	ix := New(docs)
	wantFirst(t, ix, docs, map[string]string{
		// A question prefers the operation that reads.
		"who are the collaborators of the repository?": "list_collaborators",
		"add bob as a collaborator":                    "add_collaborator",
		// Argument descriptions say what an operation can change.
		"change the shipping address of cus_123": "update_customer",
		// Generated keywords find an operation by its synonyms.
		"show the consequence evt_1 had": "get_event",
	})
}

func FuzzSearch(f *testing.F) {
	ix := New([]Doc{
		{Name: "repos_delete", Title: "Delete a repository", Toolset: "repos", Destructive: true, Route: "DELETE /repos/{owner}/{repo}"},
		{Name: "issues_list", Title: "List issues", ReadOnly: true, Params: []string{"state"}, ParamDocs: []string{"Open or closed."},
			Route: "GET /repos/{owner}/{repo}/issues"},
		{Name: "PostCustomersCustomer", Description: "<p>Updates a customer.</p>", Keywords: "client", Route: "POST /v1/customers/{customer}"},
		{Name: "get-advisory", Title: "Get an advisory", ReadOnly: true, Route: "GET /advisories/{ghsa_id}"},
	})
	for _, q := range []string{"", "?", "who follows me?", "cus_123 $10 v1.2.0", "ÄÖÜ straße", "a a a a", "HTMLURL listRepoIssues", "please delete the repo", "which issues are open?",
		"post 'deploy finished' in #releases", "'unclosed quote", `"" ''`, "#88 #a-b #", "remind me at 5pm",
		"kick bob off the repo, he left", "take her out", "GHSA-4xqg-mq8r-7j2q", "CVE-", "X-1 x_1", "ab cd",
		"mallory left, take her out; so, archive it", "a, b; c? d!", ", , ;", "x, 42 it", "why? just show it",
		"can you close it?", "hey, ok so,", "how do I know", "I need you to", "can you tell me who", "is there a way to"} {
		f.Add(q, 5)
	}
	f.Fuzz(func(t *testing.T, q string, limit int) {
		res := ix.Search(q, limit, nil)
		if limit > 0 && len(res) > limit {
			t.Fatalf("Search(%q, %d) returned %d results", q, limit, len(res))
		}
		for i, r := range res {
			if r.Doc < 0 || r.Doc >= 4 || math.IsNaN(r.Score) || r.Score <= 0 {
				t.Fatalf("Search(%q): bad result %+v", q, r)
			}
			if i > 0 && r.Score > res[i-1].Score {
				t.Fatalf("Search(%q): results out of order: %v", q, res)
			}
		}
	})
}

// wantFirst checks that ix, built from docs, ranks first the document
// named by each query's value.
func wantFirst(t *testing.T, ix *Index, docs []Doc, queries map[string]string) {
	t.Helper()
	for q, want := range queries {
		res := ix.Search(q, 1, nil)
		if len(res) == 0 || docs[res[0].Doc].Name != want {
			got := "nothing"
			if len(res) > 0 {
				got = docs[res[0].Doc].Name
			}
			t.Errorf("Search(%q) ranks %s first, want %s", q, got, want)
		}
	}
}

// TestTimeWordsHaveNoSynonyms: the words that say when a span of time
// was are no API nouns; a group word that stems as one does ("paste" as
// "past") would make "this past week" search for what that group names.
func TestTimeWordsHaveNoSynonyms(t *testing.T) {
	for _, w := range []string{"past", "last", "previous", "week", "month", "year", "today", "yesterday", "ago", "since", "until"} {
		if got := synonymTerms[Stem(w)]; len(got) > 0 {
			t.Errorf("%q expands to %q", w, got)
		}
	}
}

// TestLevelsAreNotSynonyms: the levels of an API's hierarchy are
// different things, whose scoped variants of one operation a request
// tells apart by naming one ("our org's repos" is not an enterprise's);
// so are a bill and the payment of it.
func TestLevelsAreNotSynonyms(t *testing.T) {
	levels := []string{"enterprise", "organization", "team", "repository", "user", "invoice", "payment"}
	for _, a := range levels {
		for _, b := range levels {
			if a != b && slices.Contains(synonymTerms[Stem(a)], Stem(b)) {
				t.Errorf("%q expands to %q", a, b)
			}
		}
	}
}

// TestSearchParamValues checks that a request naming one of the few
// values an argument takes finds the operation that takes it, and that
// a long list of values is not indexed.
func TestSearchParamValues(t *testing.T) {
	docs := []Doc{
		{Name: "GetSubscriptions", Title: "List subscriptions", Description: "Lists your subscriptions.", ReadOnly: true,
			Route: "GET /v1/subscriptions", Params: []string{"status"},
			ParamValues: [][]string{{"active", "canceled", "past_due", "trialing", "unpaid"}}},
		{Name: "GetSubscriptionItems", Title: "List subscription items", Description: "Returns a list of your subscription items, the prices due.",
			ReadOnly: true, Route: "GET /v1/subscription_items"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"which subscriptions are past due?": "GetSubscriptions",
		"who is still on a free trial?":     "GetSubscriptions",
	})
}

func TestParamValueTerms(t *testing.T) {
	long := make([]string, maxParamValues+1)
	for i := range long {
		long[i] = fmt.Sprintf("event_%c", 'a'+i)
	}
	got := stemmer{}.paramValueTerms([][]string{{"past_due", "trialing"}, long})
	if want := []string{"past", "due", "trial"}; !slices.Equal(got, want) {
		t.Errorf("paramValueTerms = %q, want %q (a list of more than %d values left out)", got, want, maxParamValues)
	}
}

// TestOnTheirOwnIsSelf checks that doing something oneself ("update
// their own card", "cancel themselves") asks for what APIs call
// self-service (Stripe's billing portal is glossed "customer
// self-service page").
func TestOnTheirOwnIsSelf(t *testing.T) {
	ix := New(nil)
	for _, q := range []string{"give cus_4Rt a link where they can update their own card", "send cus_44 a page where they can cancel themselves"} {
		found := false
		for _, c := range ix.concepts(parseRequest(q)) {
			found = found || c[Stem("self")] > 0
		}
		if !found {
			t.Errorf("%q: no concept holds self", q)
		}
	}
}

// TestSearchTestHelpers checks that an operation for testing an
// integration (under Stripe's /v1/test_helpers) scores lower unless the
// request speaks of testing.
func TestSearchTestHelpers(t *testing.T) {
	docs := []Doc{
		{Name: "PostTestHelpersRefundsRefundExpire", Title: "Expire a pending refund", Route: "POST /v1/test_helpers/refunds/{refund}/expire"},
		{Name: "PostRefundsRefundCancel", Title: "Cancel a pending refund", Route: "POST /v1/refunds/{refund}/cancel"},
	}
	score := func(ix *Index, q string) float64 {
		for _, r := range ix.Search(q, 5, nil) {
			if r.Doc == 0 {
				return r.Score
			}
		}
		return 0
	}
	lowered, unmarked := New(docs), New(docs)
	unmarked.forTests[0] = false
	for q, testing := range map[string]bool{
		"expire the pending refund re_5":               false,
		"in test mode, expire the pending refund re_5": true,
		"simulate the pending refund re_5 expiring":    true,
	} {
		got, full := score(lowered, q), score(unmarked, q)
		if testing && got != full || !testing && got >= full {
			t.Errorf("%q: the test helper scores %.3f, %.3f unmarked; want it lowered %v", q, got, full, !testing)
		}
	}
	for route, want := range map[string]bool{
		"POST /v1/test_helpers/refunds/{refund}/expire": true, "POST /sandbox/payments": true,
		"POST /v1/refunds/{refund}/cancel": false, "GET /contests/{contest_id}": false, "": false,
	} {
		if got := routeForTests(route); got != want {
			t.Errorf("routeForTests(%q) = %v, want %v", route, got, want)
		}
	}
}

// TestComputesIsRead checks that what an operation computes without
// changing anything, though it is a POST (Stripe's tax calculation), is
// read as a question wants, as what an operation reads is.
func TestComputesIsRead(t *testing.T) {
	docs := []Doc{
		{Name: "PostTaxCalculations", Title: "Create a Tax Calculation", Description: "Calculates tax based on input and returns a Tax Calculation object.",
			Route: "POST /v1/tax/calculations"},
		{Name: "GetTaxCodes", Title: "List all tax codes", Description: "A list of all tax codes.",
			ReadOnly: true, Route: "GET /v1/tax_codes"},
	}
	if ix := New(docs); !ix.readOnly[0] || !ix.readOnly[1] {
		t.Errorf("read: calculation %v, codes %v; want both", ix.readOnly[0], ix.readOnly[1])
	}
	for route, want := range map[string]bool{
		"POST /v1/tax/calculations": true, "POST /v1/customers/search": true, "POST /markdown": true,
		"POST /v1/customers": false, "DELETE /v1/tax/calculations/{id}": false,
	} {
		if got := computes(routeSubject(route)); got != want {
			t.Errorf("computes(%q) = %v, want %v", route, got, want)
		}
	}
}
