package search

import (
	"slices"
	"strings"
	"testing"
)

func TestRouteSubject(t *testing.T) {
	for _, c := range []struct {
		route, head, parent string
		acts                []string
	}{
		{"GET /repos/{owner}/{repo}/pulls", "pull", "repo", []string{"list"}},
		{"GET /repos/{owner}/{repo}/pulls/{pull_number}", "pull", "repo", []string{"get"}},
		{"POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", "comment", "pull", []string{"create"}},
		{"PATCH /repos/{owner}/{repo}/pulls/{pull_number}", "pull", "repo", []string{"update"}},
		{"DELETE /repos/{owner}/{repo}/git/refs/{ref}", "ref", "git", []string{"delete"}},
		// A singular noun is one object: GET reads it.
		{"GET /repos/{owner}/{repo}/readme", "readm", "repo", []string{"get"}},
		// Stripe's versions are not resources; POST to an item changes it.
		{"POST /v1/customers/{customer}", "custom", "", []string{"update"}},
		{"POST /v1/promotion_codes", "code", "", []string{"create"}},
		{"GET /v1/terminal/readers", "reader", "termin", []string{"list"}},
		// A verb after an item's id is the action; the resource is before.
		{"POST /user/packages/{package_type}/{package_name}/restore", "packag", "user", []string{"restore"}},
		{"PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge", "pull", "repo", []string{"merge"}},
		// A sub-resource named by a singular noun is not a verb.
		{"PUT /repos/{owner}/{repo}/subscription", "subscript", "repo", []string{"update"}},
		// Twilio's format extensions and dated versions are neither.
		{"GET /2010-04-01/Accounts/{AccountSid}/Calls.json", "call", "account", []string{"list"}},
		{"POST /2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json", "call", "account", []string{"update"}},
		{"POST /2010-04-01/Accounts.json", "account", "", []string{"create"}},
		// A search segment says the action: what it is under or names is
		// the resource.
		{"GET /v1/customers/search", "custom", "", []string{"search"}},
		{"GET /search/code", "code", "search", []string{"search"}},
		{"GET /search/users", "user", "search", []string{"search"}},
		{"GET /", "", "", nil},
		{"", "", "", nil},
	} {
		got := routeSubject(c.route)
		if got.head != c.head || got.parent != c.parent || !slices.Equal(got.acts, c.acts) {
			t.Errorf("routeSubject(%q) = head %q parent %q acts %q, want %q %q %q", c.route, got.head, got.parent, got.acts, c.head, c.parent, c.acts)
		}
	}
}

func TestRouteScopes(t *testing.T) {
	for route, want := range map[string][]string{
		"GET /repos/{owner}/{repo}/security-advisories/{ghsa_id}": {"repo"},
		"GET /advisories/{ghsa_id}":                               nil,
		"POST /repos/{owner}/{repo}/pulls/{pull_number}/comments": {"repo", "pull"},
		// A literal segment before another says where, not which.
		"GET /orgs/{org}/settings/billing/usage": {"org"},
		"GET /user/repos":                        nil,
		// The resource's own id is not a scope.
		"GET /v1/customers/{customer}":                      nil,
		"GET /v1/customers/{customer}/balance_transactions": {"custom"},
	} {
		if got := routeSubject(route).scopes; !slices.Equal(got, want) {
			t.Errorf("routeSubject(%q).scopes = %q, want %q", route, got, want)
		}
	}
}

func TestSearchPrefersNamedScope(t *testing.T) {
	// One advisory, got for the whole ecosystem or for a repository:
	// a request that names no repository wants the first.
	docs := []Doc{
		{Name: "security-advisories_get-repository-advisory", Title: "Get a repository security advisory",
			Description: "Get a repository security advisory using its GitHub Security Advisory (GHSA) identifier.", ReadOnly: true,
			Route: "GET /repos/{owner}/{repo}/security-advisories/{ghsa_id}"},
		{Name: "security-advisories_get-global-advisory", Title: "Get a global security advisory",
			Description: "Gets a global security advisory using its GitHub Security Advisory (GHSA) identifier.", ReadOnly: true,
			Route: "GET /advisories/{ghsa_id}"},
	}
	ix := New(docs)
	for q, want := range map[string]string{
		"look up the security advisory GHSA-4xqg-mq8r-7j2q":              "security-advisories_get-global-advisory",
		"look up the security advisory GHSA-4xqg-mq8r-7j2q in acme/api":  "security-advisories_get-repository-advisory",
		"look up the security advisory GHSA-4xqg-mq8r-7j2q for our repo": "security-advisories_get-repository-advisory",
	} {
		res := ix.Search(q, 2, nil)
		if len(res) == 0 || docs[res[0].Doc].Name != want {
			t.Errorf("Search(%q): first %v, want %s", q, res, want)
		}
	}
}

func TestSearchPrefersNamedScopeOverWording(t *testing.T) {
	// The organization's webhook is described in the request's words;
	// the request names a repository, whose webhook it wants.
	docs := []Doc{
		{Name: "orgs_create-webhook", Title: "Create an organization webhook",
			Description: "Posts payloads in JSON format to a URL for every push.",
			Route:       "POST /orgs/{org}/hooks"},
		{Name: "repos_create-webhook", Title: "Create a repository webhook",
			Description: "Delivers payloads in JSON format to a URL for every event.",
			Route:       "POST /repos/{owner}/{repo}/hooks"},
		{Name: "repos_list-webhooks", Title: "List repository webhooks", ReadOnly: true, Route: "GET /repos/{owner}/{repo}/hooks"},
		{Name: "issues_create", Title: "Create an issue", Route: "POST /repos/{owner}/{repo}/issues"},
	}
	res := New(docs).Search("post payloads to https://hooks.example.com for every push to acme/web", 2, nil)
	if len(res) == 0 || docs[res[0].Doc].Name != "repos_create-webhook" {
		t.Errorf("first %v, want the repository's webhook", res)
	}
}

func TestMainNouns(t *testing.T) {
	for _, c := range []struct {
		query    string
		has, not []string
	}{
		// The words after a preposition say where, not what.
		{"show me the README of facebook/react", []string{"readm"}, []string{"facebook", "react"}},
		{"create a code SUMMER23 that shoppers can type in for that discount", []string{"code"}, []string{"shopper", "type"}},
		// "who" asks for people.
		{"who can get into our private repo acme/payments?", []string{"member", "collabor"}, []string{"repo"}},
		// A person acted on: people, wherever.
		{"take her out of the org", []string{"member", "collabor", "user"}, []string{"org"}},
		// ...unless the request says what the person is to be.
		{"add @jane as a new customer", []string{"custom"}, []string{"member", "collabor"}},
		// Synonyms count at half weight.
		{"delete the old feature/x branch", []string{"branch", "ref"}, nil},
	} {
		got := mainNouns(parseRequest(c.query))
		for _, w := range c.has {
			if got[w] == 0 {
				t.Errorf("mainNouns(%q) lacks %q: %v", c.query, w, got)
			}
		}
		for _, w := range c.not {
			if got[w] != 0 {
				t.Errorf("mainNouns(%q) has %q: %v", c.query, w, got)
			}
		}
	}
	if w := mainNouns(parseRequest("delete the old feature/x branch"))["ref"]; w != synonymWeight {
		t.Errorf("synonym weight %v, want %v", w, synonymWeight)
	}
}

func TestSearchSubjectBoost(t *testing.T) {
	// Both operations mention webhooks and deliveries as often; the
	// request asks for the webhooks of a repository, which one lists.
	docs := []Doc{
		{Name: "repos_list-webhook-deliveries", Title: "List deliveries for a repository webhook", ReadOnly: true,
			Route: "GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries"},
		{Name: "repos_list-webhooks", Title: "List repository webhooks", Description: "Lists webhook deliveries' targets.", ReadOnly: true,
			Route: "GET /repos/{owner}/{repo}/hooks"},
	}
	ix := New(docs)
	res := ix.Search("which webhooks does the repo have", 2, nil)
	if len(res) == 0 || docs[res[0].Doc].Name != "repos_list-webhooks" {
		t.Fatalf("got %v", res)
	}
	// Without routes, as a hand-written server's tools are, their
	// headlines say the same.
	for i := range docs {
		docs[i].Route = ""
	}
	plain := New(docs).Search("which webhooks does the repo have", 2, nil)
	if len(plain) == 0 || docs[plain[0].Doc].Name != "repos_list-webhooks" {
		t.Fatalf("without routes got %v", plain)
	}
	ix = New(docs)
	if s := ix.subjects[1]; s.head != Stem("webhooks") || !slices.Equal(s.acts, listAction) {
		t.Errorf("the subject of a tool without a route is %+v, want its headline's", s)
	}
}

func FuzzRouteSubject(f *testing.F) {
	for _, r := range []string{"GET /repos/{owner}/{repo}/pulls", "POST /v1/invoices/{invoice}/void", "PUT /a/{b}/merge", "GET /",
		"", " ", "GET", "DELETE {x}", "get /v12/x-y_z/{id}/{id2}", "POST /ÄÖ/{ü}/straße",
		"GET /2010-04-01/Accounts/{Sid}/Calls.json", "GET /.json", "POST /a/{b}.xml"} {
		f.Add(r)
	}
	f.Fuzz(func(t *testing.T, route string) {
		s := routeSubject(route)
		if s.head == "" && (s.parent != "" || s.acts != nil || s.scopes != nil) {
			t.Fatalf("routeSubject(%q) = %+v: a subject without a resource", route, s)
		}
		if s.head != "" && len(s.acts) == 0 && methodKnown(route) {
			t.Fatalf("routeSubject(%q) = %+v", route, s)
		}
	})
}

// methodKnown says whether route starts with a method methodAction knows.
func methodKnown(route string) bool {
	m, _, _ := strings.Cut(strings.TrimSpace(route), " ")
	return methodAction(strings.ToUpper(m), false, false) != nil
}

func TestPluralNouns(t *testing.T) {
	for q, want := range map[string][]string{
		"show me all unpaid invoices for cus_2": {"invoic"},
		"which branches are protected":          {"branch"},
		// The words after a preposition say where, not what.
		"show the invoice of these customers": nil,
		"show the status":                     nil,
	} {
		got := pluralNouns(parseRequest(q))
		if len(got) != len(want) {
			t.Errorf("pluralNouns(%q) = %v, want %q", q, got, want)
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("pluralNouns(%q) = %v, want %q", q, got, want)
			}
		}
	}
}

func TestSearchPluralWantsList(t *testing.T) {
	docs := []Doc{
		// The item's description names invoices once more.
		{Name: "invoices_get", Title: "Get an invoice", Description: "One of your invoices.",
			ReadOnly: true, Route: "GET /v1/invoices/{invoice}"},
		{Name: "invoices_list", Title: "List invoices", ReadOnly: true, Route: "GET /v1/invoices"},
	}
	ix := New(docs)
	if res := ix.Search("show me all invoices", 2, nil); len(res) == 0 || res[0].Doc != 1 {
		t.Errorf("Search(plural) = %v, want the listing first", res)
	}
	if res := ix.Search("show me the invoice in_123", 2, nil); len(res) == 0 || res[0].Doc != 0 {
		t.Errorf("Search(singular) = %v, want the item first", res)
	}
}

func TestSearchItemNeedsItsValue(t *testing.T) {
	// Both read balance transactions; the request names a customer, not
	// the one transaction the first reads.
	docs := []Doc{
		{Name: "GetCustomersCustomerBalanceTransactionsTransaction", Title: "Retrieve a customer balance transaction",
			Description: "Retrieves a specific customer balance transaction that updated the customer's balances.",
			ReadOnly:    true, Route: "GET /v1/customers/{customer}/balance_transactions/{transaction}"},
		{Name: "GetCustomersCustomerBalanceTransactions", Title: "List customer balance transactions",
			Description: "Returns a list of transactions that updated the customer's balances.",
			ReadOnly:    true, Route: "GET /v1/customers/{customer}/balance_transactions"},
		{Name: "GetCustomersCustomer", Title: "Retrieve a customer", ReadOnly: true, Route: "GET /v1/customers/{customer}"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"show the history of balance transactions on cus_3's account": "GetCustomersCustomerBalanceTransactions",
		// A number may be the transaction's.
		"show balance transaction 42 of cus_3": "GetCustomersCustomerBalanceTransactionsTransaction",
	})
}

// TestSubjectFloor checks that an operation on the thing a request asks
// about, doing what it asks, is raised to half the best score: in an API
// whose every route mentions calls, "which calls failed yesterday?"
// matches the word "call" weakly and a usage report of "yesterday"
// strongly.
func TestSubjectFloor(t *testing.T) {
	docs := []Doc{
		{Name: "ListUsageRecordYesterday", Route: "GET /Accounts/{Sid}/Usage/Records/Yesterday.json", ReadOnly: true},
		{Name: "ListCall", Route: "GET /Accounts/{Sid}/Calls.json", ReadOnly: true},
		{Name: "CreateCall", Route: "POST /Accounts/{Sid}/Calls.json"},
	}
	ix := New(docs)
	r := parseRequest("which calls failed yesterday?")
	res := []Result{{Doc: 0, Score: 10}, {Doc: 1, Score: 0.5}, {Doc: 2, Score: 0.5}}
	ix.boostSubjects(r, ix.concepts(r), res)
	if res[1].Score < subjectFloor*10 {
		t.Errorf("ListCall scores %.2f, want at least %.2f", res[1].Score, subjectFloor*10)
	}
	if res[2].Score >= subjectFloor*10 {
		t.Errorf("CreateCall scores %.2f: raised, though it does not list", res[2].Score)
	}
}

// TestSearchNamedItem checks that a question about one item, named by its
// id, finds the operation that gets it, not the one that searches its
// kind: the orders example's tools, which call no route.
func TestSearchNamedItem(t *testing.T) {
	docs := []Doc{
		{Name: "get_order_status", Title: "Get order status", ReadOnly: true,
			Description: "Tells whether the customer has an order with this id and, if so, its status.", Params: []string{"order_id"}},
		{Name: "search_orders", Title: "Search orders", ReadOnly: true,
			Description: "Lists the customer's orders, optionally only those with one status, a page at a time.", Params: []string{"status", "limit", "cursor"}},
		{Name: "create_return", Title: "Create a return", Description: "Requests the return of an order.", Params: []string{"order_id", "reason"}},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"where is my order A1001?":   "get_order_status",
		"which orders have shipped?": "search_orders",
	})
	for q, want := range map[string]bool{
		"where is my order A1001?": true, "show issue 17": true, "get invoice in_55": true,
		"which orders have shipped?": false, "what cards does customer cus_9 have saved?": false, "list the comments on issue 17": false,
	} {
		if got := namesItem(parseRequest(q)); got != want {
			t.Errorf("namesItem(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestSearchActionByUpdate(t *testing.T) {
	// No operation closes an issue by name: updating it does.
	docs := []Doc{
		{Name: "issues_update", Title: "Update an issue", Description: "Issue owners and users with push access can edit an issue.",
			Params:    []string{"title", "body", "state", "state_reason"},
			ParamDocs: []string{"The title of the issue.", "The contents of the issue.", "The open or closed state of the issue.", "The reason for the state change: completed, not_planned or reopened."},
			Route:     "PATCH /repos/{owner}/{repo}/issues/{issue_number}"},
		{Name: "issues_remove-sub-issue", Title: "Remove sub-issue", Description: "You can use the REST API to remove a sub-issue from an issue.",
			Route: "DELETE /repos/{owner}/{repo}/issues/{issue_number}/sub_issue"},
		{Name: "issues_list-for-repo", Title: "List repository issues", Description: "List issues in a repository. Only open issues will be listed.",
			ReadOnly: true, Route: "GET /repos/{owner}/{repo}/issues"},
		{Name: "repos_get", Title: "Get a repository", ReadOnly: true, Route: "GET /repos/{owner}/{repo}"},
		{Name: "repos_update", Title: "Update a repository", Route: "PATCH /repos/{owner}/{repo}"},
		{Name: "pulls_list", Title: "List pull requests", ReadOnly: true, Route: "GET /repos/{owner}/{repo}/pulls"},
		{Name: "issues_create-label", Title: "Create a label", Route: "POST /repos/{owner}/{repo}/labels"},
	}
	const q = "close issue 88 in acme/web as not planned"
	wantFirst(t, New(docs), docs, map[string]string{q: "issues_update"})
	// An operation that does it by name is the one.
	docs = append(docs, Doc{Name: "issues_close", Title: "Close an issue", Route: "POST /repos/{owner}/{repo}/issues/{issue_number}/close"})
	wantFirst(t, New(docs), docs, map[string]string{q: "issues_close"})
}

// TestSearchQuestionAboutNamedItem checks that a question about one item,
// named by a typed id or by its kind's noun before a value, finds the
// operation that gets that item, whatever else the question says about
// it: here another operation matches as many of its words (Stripe's,
// shortened).
func TestSearchQuestionAboutNamedItem(t *testing.T) {
	docs := []Doc{
		{Name: "GetRefundsRefund", Title: "Retrieve a refund", Description: "Retrieves the details of an existing refund.",
			ReadOnly: true, Route: "GET /v1/refunds/{refund}"},
		{Name: "GetTransfersIdReversals", Title: "List all reversals",
			Description: "You can see a list of the reversals belonging to a specific transfer.",
			ReadOnly:    true, Route: "GET /v1/transfers/{id}/reversals"},
		{Name: "GetCustomersCustomerBankAccounts", Title: "List all bank accounts",
			Description: "You can see a list of the bank accounts belonging to a customer.",
			ReadOnly:    true, Route: "GET /v1/customers/{customer}/bank_accounts"},
		{Name: "GetCustomersCustomer", Title: "Retrieve a customer", Description: "Retrieves a Customer object.",
			ReadOnly: true, Route: "GET /v1/customers/{customer}"},
		{Name: "GetCustomers", Title: "List all customers", Description: "Returns a list of your customers.",
			ReadOnly: true, Route: "GET /v1/customers"},
		{Name: "GetPaymentMethods", Title: "List PaymentMethods",
			Description: "Returns a list of PaymentMethods, with their billing email address.",
			ReadOnly:    true, Route: "GET /v1/payment_methods"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"has the refund re_3Ok1Za reached the bank yet?": "GetRefundsRefund",
		"what's the email we have on file for cus_8?":    "GetCustomersCustomer",
		// Asking for a set, a listing still answers.
		"which customers signed up this week?": "GetCustomers",
	})
}

// TestBoostUpdateNamedItem checks that changing something about an item
// its typed id names raises the update of that item over an update of
// something else that matched as well (Stripe's routes).
func TestBoostUpdateNamedItem(t *testing.T) {
	docs := []Doc{
		{Name: "PostCustomersCustomer", Route: "POST /v1/customers/{customer}"},
		{Name: "PostShippingRatesShippingRateToken", Route: "POST /v1/shipping_rates/{shipping_rate_token}"},
	}
	ix := New(docs)
	for q, raised := range map[string]bool{
		"please update cus_88QaT's shipping address to 14 Elm St": true,
		// Before an update's value, a word is its verb, not its kind.
		"update customer 88's shipping address": false,
	} {
		r := parseRequest(q)
		ix.readIDs(&r)
		res := []Result{{Doc: 0, Score: 1}, {Doc: 1, Score: 1}}
		ix.boostNamedItem(r, res, "update")
		if got := res[0].Score > res[1].Score; got != raised {
			t.Errorf("%q: customer's update %.2f, shipping rate's %.2f; want raised %v", q, res[0].Score, res[1].Score, raised)
		}
	}
}
