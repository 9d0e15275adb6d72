package search

import "strings"

// subject is what an operation acts on and how, read from its HTTP route
// (or, for a tool that calls none, its headline: see headlineSubject):
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
	// scopes are the stems of the resources whose item the route is
	// under: "repo" for /repos/{owner}/{repo}/security-advisories, where
	// /advisories/{ghsa_id} is under none.
	scopes []string
	// one says whether the operation acts on one item, which the
	// route's last parameter names: GET /v1/customers/{customer}.
	one bool
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
	search := false
	if searchSegment(segs[last]) && (method == "GET" || method == "POST") {
		// GET /v1/customers/search searches customers.
		search = true
		for prev := last - 1; prev >= 0; prev-- {
			if !isParam(segs[prev]) {
				last = prev
				break
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
	for p := 0; p < last && !search; p++ {
		// GET /search/code, /search/users: GitHub's searches.
		search = searchSegment(segs[p]) && (method == "GET" || method == "POST")
	}
	if search {
		acts = []string{"search"}
	}
	sub := subject{head: res[len(res)-1], acts: acts, one: item}
	for p := 0; p < last; p++ {
		if !isParam(segs[p]) && p+1 < len(segs) && isParam(segs[p+1]) {
			if ps := stemmer(nil).terms(segs[p]); len(ps) > 0 {
				sub.scopes = append(sub.scopes, ps[len(ps)-1])
			}
		}
	}
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

// searchSegment says whether a path segment is "search": the route
// searches what it is under or names after it.
func searchSegment(seg string) bool {
	return strings.EqualFold(seg, "search")
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
