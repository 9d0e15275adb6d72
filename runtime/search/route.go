package search

import "strings"

// subject is what an operation acts on and how, read from its HTTP route:
// most requests name one kind of object ("pull request", "invoice",
// "webhook") and one action on it (list, show, create, change, delete),
// which the route says more reliably than word overlap does.
type subject struct {
	// head is the stem of the last word of the resource: "run" for
	// /check-runs, "code" for /promotion_codes.
	head string
	// acts are the action groups of what the operation does to it.
	acts []string
	// parent is the stem of the last word of the resource it belongs to:
	// "pull" for …/pulls/{pull_number}/comments.
	parent string
}

// routeSubject reads the subject of a route such as
// "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments": the resource
// is its last literal segment (comments), or the one before when the last
// names an action on an item (POST …/packages/{name}/restore: restore a
// package); the action is that segment's, or the method's: GET of a
// collection lists, GET of an item gets, POST of a collection creates,
// PUT, PATCH and POST of an item change, DELETE deletes. A route of no
// literal segment has no subject.
func routeSubject(route string) subject {
	method, segs, ok := splitRoute(route)
	if !ok {
		return subject{}
	}
	last := len(segs) - 1
	for last >= 0 && isParam(segs[last]) {
		last--
	}
	if last < 0 {
		return subject{}
	}
	item := last < len(segs)-1
	var acts []string
	if method != "GET" && !item && last > 0 && isParam(segs[last-1]) && !isPlural(segs[last]) {
		// A verb after an item's id: POST /invoices/{invoice}/void (but
		// POST …/{pull_number}/comments creates a comment).
		if a := segmentAction(segs[last]); a != nil {
			acts = a
			prev := last - 1
			for prev >= 0 && isParam(segs[prev]) {
				prev--
			}
			if prev >= 0 {
				last, item = prev, true
			}
		}
	}
	res := stemmer(nil).terms(segs[last])
	if len(res) == 0 {
		return subject{}
	}
	if acts == nil {
		acts = methodAction(method, item, isPlural(segs[last]))
	}
	sub := subject{head: res[len(res)-1], acts: acts}
	for p := last - 1; p >= 0; p-- {
		if !isParam(segs[p]) {
			if ps := stemmer(nil).terms(segs[p]); len(ps) > 0 {
				sub.parent = ps[len(ps)-1]
			}
			break
		}
	}
	return sub
}

// splitRoute splits a route such as "GET /v1/customers/{customer}" into
// its method, upper-cased, and its path's segments, versions left out
// (customers, {customer}); ok is false when it is no route.
func splitRoute(route string) (method string, segs []string, ok bool) {
	method, path, ok := strings.Cut(strings.TrimSpace(route), " ")
	if !ok {
		return "", nil, false
	}
	for _, s := range strings.Split(path, "/") {
		if dot := strings.LastIndexByte(s, '.'); dot > 0 && formatExtensions[s[dot+1:]] {
			// Twilio's /Calls/{Sid}.json: the format, not a word.
			s = s[:dot]
		}
		if s != "" && !isVersion(s) {
			segs = append(segs, s)
		}
	}
	return strings.ToUpper(method), segs, true
}

// segmentAction returns the action groups of a path segment that is a
// verb ("restore", "merge", "rerun-failed-jobs"), or nil.
func segmentAction(seg string) []string {
	ws := words(seg)
	if len(ws) == 0 {
		return nil
	}
	return actions[Stem(ws[0])]
}

// methodAction is the action of an HTTP method on a collection or an
// item.
func methodAction(method string, item, plural bool) []string {
	switch method {
	case "GET":
		if item || !plural {
			return []string{"get"}
		}
		return []string{"list"}
	case "POST":
		if item {
			return []string{"update"}
		}
		return []string{"create"}
	case "PUT", "PATCH":
		return []string{"update"}
	case "DELETE":
		return []string{"delete"}
	}
	return nil
}

// isParam says whether a path segment is a parameter ("{owner}").
func isParam(seg string) bool {
	return strings.HasPrefix(seg, "{") || strings.HasPrefix(seg, ":")
}

// isVersion says whether a path segment is an API version: "v1", or a
// date ("2010-04-01", Twilio's).
func isVersion(seg string) bool {
	if len(seg) == len("2006-01-02") && seg[4] == '-' && seg[7] == '-' && strings.Trim(seg, "0123456789-") == "" {
		return true
	}
	if len(seg) < 2 || seg[0] != 'v' {
		return false
	}
	for i := 1; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return false
		}
	}
	return true
}

// isPlural says whether the last word of a segment is a plural noun
// ("pulls", "check-runs", "entries"): it ends in s but not ss or us.
func isPlural(seg string) bool {
	ws := words(seg)
	if len(ws) == 0 {
		return false
	}
	w := ws[len(ws)-1]
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us")
}

// formatExtensions are the extensions some APIs end their paths with to
// say the format of the response ("/Calls/{Sid}.json").
var formatExtensions = map[string]bool{"json": true, "xml": true, "csv": true, "yaml": true, "html": true, "txt": true}

// headlineSubject reads the subject of a tool that calls no route from
// its headline, as a hand-written server's tools are described: the
// action of its first verb, the resource the last word of the noun
// phrase after it (up to a preposition, a clause or the sentence's end),
// the word before that the resource it belongs to. "List repository
// collaborators": collaborators, listed, of a repository; "Creates a new
// customer object.": a customer, created; "Returns a list of your
// invoices" and "Retrieves the details of an invoice": invoices, listed,
// and an invoice, got. When the headline starts with no verb, or there
// is none, the tool's name is read the same way ("get_order_status");
// else the tool has no subject.
func headlineSubject(d Doc) subject {
	if s := phraseSubject(words(firstClause(stripTags(headline(d))))); s.head != "" {
		return s
	}
	// "get_order_status", Twilio's "FetchCallNotification" (which has
	// no summary): a name that starts with a verb says it too.
	ws := words(d.Name)
	if len(ws) > 0 && httpMethodWords[ws[0]] {
		// Stripe's "PostCustomersCustomer": the method, which updates
		// as often as it creates.
		return subject{}
	}
	return phraseSubject(ws)
}

// httpMethodWords are the HTTP methods that names generated from routes
// start with and that say no one action.
var httpMethodWords = map[string]bool{"post": true, "put": true, "patch": true}

// phraseSubject is the subject that ws, the words of a headline or a
// name, say (see headlineSubject).
func phraseSubject(ws []string) subject {
	verb := -1
	var acts []string
	for i, n := 0, 0; i < len(ws) && n < maxActionWords; i++ {
		if stopWords[ws[i]] {
			continue
		}
		if ws[i] == "returns" {
			// "Returns a list of…", "Returns the balance…": what an
			// operation reads, not a refund.
			verb, acts = i, readActions[:1]
			break
		}
		if a := actions[Stem(ws[i])]; a != nil {
			verb, acts = i, a
			break
		}
		n++
	}
	if verb < 0 {
		return subject{}
	}
	var phrase []string
	for j := verb + 1; j < len(ws); j++ {
		w := ws[j]
		switch {
		case len(phrase) == 0 && (w == "or" || w == "and") && j+1 < len(ws) && actions[Stem(ws[j+1])] != nil:
			// "Create or update a file": the object has not started.
			j++
		case w == "of" && len(phrase) > 0 && containerWords[phrase[len(phrase)-1]]:
			// "the details of an invoice": the invoice.
			if phrase[len(phrase)-1] == "list" {
				acts = listAction
			}
			phrase = phrase[:0]
		case boundaryWords[w] || phraseEnds[w]:
			j = len(ws)
		case !stopWords[w] && !headlineFillers[w] && !strings.HasSuffix(w, "ly") && strings.Trim(w, "0123456789") != "":
			phrase = append(phrase, w)
		}
	}
	for len(phrase) > 0 && genericNouns[phrase[len(phrase)-1]] {
		phrase = phrase[:len(phrase)-1]
	}
	if len(phrase) == 0 {
		return subject{}
	}
	sub := subject{head: Stem(phrase[len(phrase)-1]), acts: acts}
	if len(phrase) > 1 {
		sub.parent = Stem(phrase[len(phrase)-2])
	}
	return sub
}

// headlineFillers are the words of a headline's noun phrase that say
// which one, not what: "an existing customer", "the specified refund".
var headlineFillers = map[string]bool{
	"existing": true, "specified": true, "given": true, "new": true, "single": true, "current": true,
	"specific": true, "particular": true, "unique": true, "previously": true, "most": true, "recent": true,
}

// phraseEnds end a headline's noun phrase, besides boundaryWords.
var phraseEnds = map[string]bool{"and": true, "or": true, "via": true, "using": true, "which": true, "who": true, "whose": true, "than": true}

// firstClause is text up to its first clause's end: a full stop, a comma,
// a colon or a semicolon followed by a space, or a line's end.
func firstClause(text string) string {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', ',', ';', ':':
			if i+1 == len(text) || text[i+1] == ' ' {
				return text[:i]
			}
		case '\n':
			return text[:i]
		}
	}
	return text
}

// stripTags removes the HTML tags of text ("<p>Retrieves a
// <code>Card</code>.</p>"), which would read as words.
func stripTags(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	var b strings.Builder
	in := false
	for _, r := range text {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// containerWords are the nouns of a headline that hold what it is about
// ("a list of customers", "the details of a run").
var containerWords = map[string]bool{
	"list": true, "details": true, "detail": true, "information": true, "info": true, "set": true,
	"collection": true, "array": true, "page": true, "summary": true,
}

// genericNouns end a headline's noun phrase without naming what it is
// about ("a new customer object").
var genericNouns = map[string]bool{"object": true, "objects": true, "resource": true, "resources": true, "record": true, "records": true, "entity": true}
