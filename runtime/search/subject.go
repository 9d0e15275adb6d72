package search

import "slices"

// boostSubjects raises the score of the operations on the thing a query
// asks about: those whose resource (by their route) is named among the
// query's main nouns, more when they also do what the query asks (its
// verb, or reading for a question), and more again when the resource they
// belong to is named anywhere in the query ("comments on the pull
// request": the resource comment, of a pull).
func (ix *Index) boostSubjects(r request, concepts []map[string]float64, res []Result) {
	nouns := mainNouns(r)
	all := map[string]float64{}
	for _, c := range concepts {
		for t, w := range c {
			all[t] = max(all[t], w)
		}
	}
	var act []string
	switch {
	case asksForSet(r):
		act = listAction
	case asksToRead(r):
		act = readActions
	default:
		act = leadingAction(r.words, r.stems)
	}
	act = ix.byUpdate(act, nouns, res)
	plural := pluralNouns(r)
	// "where is my order A1001?": one order, which a listing or a search
	// of orders is not about.
	item := act != nil && shareAny(act, readActions) && namesItem(r)
	reads := act == nil || shareAny(act, readActions)
	best := 0.0
	for _, x := range res {
		best = max(best, x.Score)
	}
	ix.weighScopes(all, res)
	ix.weighItems(r, res)
	switch {
	case asksToRead(r) && !asksForSet(r):
		ix.boostNamedItem(r, res, "get")
	case slices.Contains(act, "update"):
		ix.boostNamedItem(r, res, "update")
	}
	for i := range res {
		s := ix.subjects[res[i].Doc]
		w := nouns[s.head]
		if w == 0 || item && !slices.Contains(s.acts, "get") {
			continue
		}
		f := 1 + (resourceBoost-1)*w
		if act != nil && shareAny(act, s.acts) {
			f *= subjectActionBoost
		}
		if reads && plural[s.head] && shareAny(listAction, s.acts) {
			f *= pluralListBoost
		}
		if pw := all[s.parent]; s.parent != "" && pw > 0 {
			f *= 1 + (parentBoost-1)*pw
		}
		res[i].Score *= f
		if w == 1 && act != nil && shareAny(act, s.acts) {
			// The thing asked about, acted on as asked: in an API
			// whose every route mentions calls, "which calls failed
			// yesterday?" matches the word "call" weakly and a usage
			// report of "yesterday" strongly.
			res[i].Score = max(res[i].Score, subjectFloor*best)
		}
	}
}

// subjectFloor is the share of the best score that an operation on the
// thing a query names (by its own word), doing what the query asks, is
// raised to at least.
const subjectFloor = 0.5

// scopeMiss multiplies the score of an operation once per resource its
// route is under that the query does not name: "look up GHSA-4xqg-…"
// wants the global advisory, not a repository's, and "call this URL
// every time someone pushes to the repo" a repository's webhook, not an
// organization's. It is a nudge between the scoped variants of one
// operation, which otherwise match a request about equally.
const scopeMiss = 0.95

// scopeBesideNamed further multiplies it when another variant of the
// same operation (its group) is under only resources the request names:
// "send a POST to … every time someone pushes to acme/web" wants the
// repository's webhook, which an organization's may pass on wording.
const scopeBesideNamed = 0.8

// itemUngiven multiplies the score of an operation that gets one item
// when the request gives no value that could name it: "show the history
// of credits and debits on cus_3's account" gives a customer, not the
// one balance transaction that GET …/balance_transactions/{transaction}
// reads, and wants their listing.
const itemUngiven = 0.8

// weighItems lowers the scores of the operations that get one item the
// request gives no value for (itemUngiven): none of no kind (a number, a
// name), nor a typed id or a shaped value of the item's kind.
func (ix *Index) weighItems(r request, res []Result) {
	if r.untyped {
		return
	}
	given := map[string]bool{}
	for _, kinds := range r.idKinds {
		for _, k := range kinds {
			given[k[len(k)-1]] = true
		}
	}
	for _, k := range r.kinds {
		for _, t := range shapeTerms[k] {
			given[t] = true
		}
	}
	for i := range res {
		if s := ix.subjects[res[i].Doc]; s.one && slices.Contains(s.acts, "get") && !given[s.head] {
			res[i].Score *= itemUngiven
		}
	}
}

// namedItemBoost multiplies the score of the operation that gets one
// item of the kind a question names one of: "has the refund re_3Ok1Za
// reached the customer's bank yet?", "what's the email we have on file
// for cus_8?" ask about that refund, that customer, whatever the rest of
// the question says about it. An update of an item its typed id names
// is raised alike ("update cus_88QaT's shipping address").
const namedItemBoost = 1.5

// boostNamedItem raises the operations that do doing (get, update) to
// one item of a kind the request names an item of (namedItemBoost): by
// a typed id of one kind or, for a get, by the noun before a value
// ("refund re_3Ok1Za", "issue 77"); before an update's value the word is
// as often its verb ("make JIRA-123 link…").
func (ix *Index) boostNamedItem(r request, res []Result, doing string) {
	kinds := map[string]bool{}
	for _, ks := range r.idKinds {
		if len(ks) == 1 {
			kinds[ks[0][len(ks[0])-1]] = true
		}
	}
	for i := 1; i < len(r.words) && doing == "get"; i++ {
		if !r.values[i] || r.values[i-1] || r.stems[i-1] == "" || readWords[r.words[i-1]] {
			continue
		}
		kinds[r.stems[i-1]] = true
		for _, t := range synonymTerms[r.stems[i-1]] {
			kinds[t] = true
		}
	}
	if len(kinds) == 0 {
		return
	}
	for i := range res {
		if s := ix.subjects[res[i].Doc]; s.one && slices.Contains(s.acts, doing) && kinds[s.head] {
			res[i].Score *= namedItemBoost
		}
	}
}

// weighScopes lowers the scores of the operations under a resource the
// request does not name (scopeMiss, scopeBesideNamed); named holds the
// terms the request names, with their weights.
func (ix *Index) weighScopes(named map[string]float64, res []Result) {
	under := func(s subject) bool {
		for _, sc := range s.scopes {
			if named[sc] == 0 {
				return false
			}
		}
		return len(s.scopes) > 0
	}
	var namedGroups map[group]bool
	for _, x := range res {
		if under(ix.subjects[x.Doc]) {
			if namedGroups == nil {
				namedGroups = map[group]bool{}
			}
			namedGroups[ix.group(x.Doc)] = true
		}
	}
	for i := range res {
		for _, sc := range ix.subjects[res[i].Doc].scopes {
			if named[sc] > 0 {
				continue
			}
			res[i].Score *= scopeMiss
			if namedGroups[ix.group(res[i].Doc)] {
				res[i].Score *= scopeBesideNamed
			}
		}
	}
}

// resourceBoost multiplies the score of an operation on the thing the
// query names (by a synonym, 1 + half as much).
const resourceBoost = 1.3

// subjectActionBoost further multiplies it when the operation also does
// what the query asks.
const subjectActionBoost = 1.4

// parentBoost further multiplies it when the query also names the
// resource the operation's resource belongs to.
const parentBoost = 1.2

// pluralListBoost further multiplies it when the query names the
// resource in the plural and asks to read: "show me all unpaid invoices"
// wants the listing, not one invoice.
const pluralListBoost = 1.2

// pluralNouns are the stems of the main nouns that a query names in the
// plural ("invoices", "branches"), nil when there are none.
func pluralNouns(r request) map[string]bool {
	var out map[string]bool
	for i, w := range r.words[:objectEnd(r)] {
		if !r.values[i] && r.stems[i] != "" && r.stems[i] != w && isPlural(w) {
			if out == nil {
				out = map[string]bool{}
			}
			out[r.stems[i]] = true
		}
	}
	return out
}

// readActions are the action groups of the operations that read.
var readActions = []string{"get", "list", "search"}

// peopleWords are the resources that answer "who…".
var peopleWords = []string{"member", "user", "collaborator", "person", "people", "owner", "contributor",
	"follower", "assignee", "reviewer", "team", "admin", "stargazer", "watcher"}

// mainNouns are the terms of the thing a query asks about, with their
// weights (1 for a word of the query, synonymWeight for its synonyms):
// the words before its first preposition or clause ("the README of
// facebook/react": README; "who reacted to my comment": people, not
// comments), which name the object; the words after say where it is.
func mainNouns(r request) map[string]float64 {
	nouns := map[string]float64{}
	if r.person {
		// "kick bob off the repo": a person is acted on; the rest says
		// where. "add jane as a new customer" says what the person is.
		if role := roleNouns(r); len(role) > 0 {
			for _, t := range role {
				nouns[t] = 1
			}
		} else {
			for _, t := range peopleTerms {
				nouns[t] = 1
			}
		}
	}
	first := true
	for i, w := range r.words[:objectEnd(r)] {
		if r.values[i] {
			continue
		}
		if first && w == "who" {
			// "who…" asks for people.
			for _, t := range peopleTerms {
				nouns[t] = 1
			}
		}
		first = false
		if r.stems[i] == "" || selfWords[w] {
			continue
		}
		nouns[r.stems[i]] = 1
		for _, t := range synonymTerms[r.stems[i]] {
			if nouns[t] < synonymWeight {
				nouns[t] = synonymWeight
			}
		}
	}
	return nouns
}

// objectEnd is where the part of r that names its object ends: at the
// first boundary word after its first word, values not counted
// (mainNouns, pluralNouns).
func objectEnd(r request) int {
	first := true
	for i, w := range r.words {
		if r.values[i] {
			continue
		}
		if !first && boundaryWords[w] {
			return i
		}
		first = false
	}
	return len(r.words)
}

// boundaryWords end the part of a request that names its object:
// prepositions and the words that start a clause.
var boundaryWords = map[string]bool{
	"of": true, "in": true, "on": true, "for": true, "to": true, "from": true, "at": true, "by": true,
	"with": true, "into": true, "under": true, "across": true, "behind": true, "about": true, "as": true,
	"that": true, "so": true, "when": true, "whenever": true, "where": true, "if": true, "because": true,
	"while": true, "since": true, "after": true, "before": true, "between": true, "without": true,
}

// roleNouns are the stems of what a request says a person is to be, in
// the words after its "as" ("add jane as a new customer": new, customer),
// up to the next boundary word; nil when it says none.
func roleNouns(r request) []string {
	var out []string
	for i, w := range r.words {
		if w != "as" {
			continue
		}
		for j := i + 1; j < len(r.words) && !boundaryWords[r.words[j]]; j++ {
			if !r.values[j] && r.stems[j] != "" {
				out = append(out, r.stems[j])
			}
		}
		return out
	}
	return nil
}

// namesItem says whether r names its object by an id or a name right
// after the object's noun ("where is my order A1001?", "show issue 17"):
// one item, which a read gets rather than lists or searches. The object's
// noun is r's first word that is neither a stop word, a value, a word
// that asks to read nor the request's verb.
func namesItem(r request) bool {
	verb := true
	for i, w := range r.words {
		if r.values[i] || r.stems[i] == "" {
			continue
		}
		if readWords[w] {
			// "show issue 17": a verb that asks to read.
			verb = verb && actions[r.stems[i]] == nil
			continue
		}
		if verb && actions[r.stems[i]] != nil {
			// The request's verb ("get invoice in_55").
			verb = false
			continue
		}
		return i+1 < len(r.words) && r.values[i+1]
	}
	return false
}

// byUpdate returns act, the action a request asks for, with update added
// when act is none of reading, creating, changing and deleting and no
// operation among res does it to a thing the request names (nouns): APIs
// close an issue, archive a repository or end a subscription by
// changing its state ("close issue 88 as not planned" is GitHub's
// "Update an issue").
func (ix *Index) byUpdate(act []string, nouns map[string]float64, res []Result) []string {
	if act == nil || shareAny(act, crudActions) {
		return act
	}
	for _, x := range res {
		if s := ix.subjects[x.Doc]; nouns[s.head] > 0 && shareAny(act, s.acts) {
			return act
		}
	}
	return append(act[:len(act):len(act)], "update")
}

// crudActions are the action groups of reading, creating, changing and
// deleting.
var crudActions = []string{"get", "list", "search", "create", "update", "delete"}
