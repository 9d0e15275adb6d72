package search

import (
	"slices"
	"strings"
	"testing"
)

func TestIDPrefix(t *testing.T) {
	for field, want := range map[string]string{
		"seti_123":    "seti",
		"mandate_1Nx": "mandate",
		"cus_8's":     "cus",
		"fca_1?":      "fca",
		"c_1":         "", // too short to say anything
		"abcdefghi_1": "", // too long for an abbreviation
		"my_repo":     "", // no digit: a name, not an id
		"Cus_1":       "", // not a lowercase prefix
		"v1.2.0":      "", // a version
		"node_20":     "node",
		"gid_2x_y":    "gid",
		// A type of several words, each spelled; modes left out.
		"sub_sched_3":       "sub_sched",
		"cs_test_a1":        "cs",
		"sk_live_51":        "sk",
		"ba_bank_acct_9":    "ba_bank_acct",
		"ab_cdefghij_klm_1": "ab_cdefghij", // at most idTypeMax letters
		// Capitals before a hyphen: advisories, vulnerabilities.
		"GHSA-4xqg-mq8r-7j2q": "ghsa",
		"CVE-2021-44228":      "cve",
		"ACME-KEY-":           "", // no digit
		"Node-20":             "", // not capitals: a name
		"e2e-tests":           "",
	} {
		if got := idPrefix(valueText(field)); got != want {
			t.Errorf("idPrefix(%q) = %q, want %q", field, got, want)
		}
	}
}

func TestAbbreviates(t *testing.T) {
	coll := func(before, own string) collection {
		b, o := strings.Fields(before), strings.Fields(own)
		return collection{words: append(b, o...), own: len(b)}
	}
	for _, c := range []struct {
		prefix  string
		c       collection
		words   string // "" when it does not abbreviate c
		skipped int
	}{
		{"cus", coll("", "customers"), "customers", 0},
		{"seti", coll("", "setup intents"), "setup intents", 0},
		{"fca", coll("financial connections", "accounts"), "financial connections accounts", 0},
		{"acct", coll("", "accounts"), "accounts", 3},
		{"fee", coll("", "application fees"), "fees", 0},
		{"mandate", coll("", "mandates"), "mandates", 0},
		// The last piece must come from the collection's own name.
		{"po", coll("billing portal", "configurations"), "", 0},
		// Every piece starts its word.
		{"us", coll("", "customers"), "", 0},
		{"cus", coll("", "charges"), "", 0},
	} {
		r, ok := abbreviates(c.prefix, c.c)
		if got := strings.Join(r.words, " "); ok != (c.words != "") || got != c.words || ok && r.skipped != c.skipped {
			t.Errorf("abbreviates(%q, %v) = %q skipping %d (%v), want %q skipping %d", c.prefix, c.c.words, got, r.skipped, ok, c.words, c.skipped)
		}
	}
}

func TestIDKinds(t *testing.T) {
	var docs []Doc
	for _, route := range []string{
		"GET /v1/customers/{customer}", "GET /v1/customers/{customer}/sources/{id}",
		"GET /v1/setup_intents/{intent}", "GET /v1/settings/{id}",
		"GET /v1/refunds/{refund}", "GET /v1/reviews/{review}", "GET /v1/terminal/readers/{reader}",
		"GET /v1/charges/{charge}", "GET /v1/chats/{chat}", "GET /v1/checkout/sessions/{session}",
		"GET /v1/financial_connections/accounts/{account}",
		"POST /v1/quotes/{quote}/accept",
		"GET /advisories/{ghsa_id}", "GET /gists/{gist_id}",
		"GET /v1/subscriptions/{subscription}", "GET /v1/subscription_schedules/{schedule}",
	} {
		docs = append(docs, Doc{Name: route, Route: route})
	}
	ix := New(docs)
	for prefix, want := range map[string][][]string{
		"cus":  {{Stem("customers")}},              // not cu·stomers s·ources
		"seti": {{Stem("setup"), Stem("intents")}}, // not s·e·t·tings, which skips a letter
		"fca":  {{Stem("financial"), Stem("connections"), Stem("accounts")}},
		"ch":   {{Stem("charges")}, {Stem("chats")}}, // two kinds, each counting half; not checkout/sessions
		"re":   nil,                                  // refunds, reviews, readers: says nothing
		"acc":  {{Stem("accounts")}},                 // accept is an action, not a collection
		"zz":   nil,
		// The id parameter's name says the kind.
		"ghsa": {{Stem("advisories")}},
		"gi":   {{Stem("gists")}},
		// A type of several pieces reads as a whole, else by its first.
		"sub":       {{Stem("subscriptions")}},
		"sub_sched": {{Stem("subscription"), Stem("schedules")}},
		"cus_zz":    {{Stem("customers")}},
	} {
		got := ix.idKinds(prefix)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("idKinds(%q) = %q, want %q", prefix, got, want)
		}
	}
}

func TestSearchTypedID(t *testing.T) {
	docs := []Doc{
		{Name: "GetMandatesMandate", Description: "Retrieves a Mandate object.", Route: "GET /v1/mandates/{mandate}", ReadOnly: true},
		{Name: "GetCustomersCustomer", Description: "Retrieves a Customer object.", Route: "GET /v1/customers/{customer}", ReadOnly: true},
		{Name: "GetSetupIntentsIntent", Description: "Retrieves the details of a SetupIntent that has previously been created.", Route: "GET /v1/setup_intents/{intent}", ReadOnly: true},
		{Name: "GetCustomersCustomerCards", Description: "You can see a list of the cards belonging to a customer.", Route: "GET /v1/customers/{customer}/cards", ReadOnly: true},
	}
	ix := New(docs)
	wantFirst(t, ix, docs, map[string]string{
		// The id is the only word that says what the request is about.
		"what is in mandate_1Nx?":  "GetMandatesMandate",
		"did seti_123 go through?": "GetSetupIntentsIntent",
		"cus_8 please":             "GetCustomersCustomer",
	})
}

func TestIDName(t *testing.T) {
	for _, c := range []struct {
		param, segment, want string
	}{
		{"{ghsa_id}", "advisories", "ghsa"},
		{"{cve_id}", "cves", ""}, // the collection's own word
		{"{gist_id}", "gists", ""},
		{"{owner}", "repos", ""},
		{"{customer}", "customers", ""},
		{"{comment_id}", "replies", "comment"},
		{"{installation_id_x}", "installations", ""},
		{"{org_user_id}", "members", ""}, // two words: not a kind's name
	} {
		if got := idName(c.param, words(c.segment)); got != c.want {
			t.Errorf("idName(%q, %q) = %q, want %q", c.param, c.segment, got, c.want)
		}
	}
}

func TestSearchIDOfParameter(t *testing.T) {
	docs := []Doc{
		{Name: "security-advisories_get-global-advisory", Title: "Get a global security advisory", Route: "GET /advisories/{ghsa_id}", ReadOnly: true},
		{Name: "security-advisories_get-by-cve", Title: "Get a global security advisory by CVE", Route: "GET /advisories/cve/{cve_id}", ReadOnly: true},
		{Name: "code-quality_get-finding", Title: "Get a code quality finding", Route: "GET /repos/{owner}/{repo}/code-quality/findings/{finding_id}", ReadOnly: true},
		{Name: "codespaces_get-export", Title: "Get a codespace export", Route: "GET /user/codespaces/{codespace_name}/exports/{export_id}", ReadOnly: true},
	}
	// Only the id's prefix, the name of the route's id parameter, says
	// which kind of object is asked about.
	wantFirst(t, New(docs), docs, map[string]string{
		"what does GHSA-4xqg-mq8r-7j2q say?": "security-advisories_get-global-advisory",
		"show CVE-2021-44228":                "security-advisories_get-by-cve",
	})
}
