package search

import "strings"

// Typed ids: many APIs start an object's id with an abbreviation of its
// type (Stripe's cus_… customers, seti_… setup intents, fca_… Financial
// Connections accounts, mandate_… mandates), and a person pastes the id
// instead of naming the object: "what did the customer agree to in
// mandate_1Nx?". The id's value says which object; its prefix says which
// kind, and so which operations.
//
// A prefix is read against the collections of the index's routes (a
// literal segment followed by an id parameter: the objects that have
// ids), alone and after the literal segment before it
// ("financial_connections/accounts"). It abbreviates a collection when it
// splits into pieces, in order, each taken from one of the collection's
// words, starting with that word's first letter: "cus" of customers,
// "seti" of setup_intents (se·tup, i·ntents), "fca" of
// financial_connections/accounts. A piece that is the start of its word
// is a closer reading than one whose letters are spread through it
// ("acct" of accounts); only the closest readings count, and a prefix
// that reads as more than maxIDKinds kinds of object ("re": refunds,
// readers, reports…) says nothing and is left out.

// idPrefixMin and idPrefixMax bound the length of an id's prefix.
const (
	idPrefixMin = 2
	idPrefixMax = 8
)

// idTypeMax bounds the letters of a prefix of several pieces
// ("sub_sched").
const idTypeMax = 12

// maxIDKinds is how many kinds of object a prefix may read as.
const maxIDKinds = 2

// idWeight is how much the kind of object an id's prefix names counts
// against a word of the request: as much as the word itself ("seti_123"
// says "setup intent" as plainly as the words would), shared among the
// kinds a prefix reads as.
const idWeight = 1.0

// collection is a kind of object that routes give ids to: the words
// (lowercase, unstemmed) of its path segment, after those of the segment
// before it when there is one; own is where its own segment's words
// start. idName is the name its id parameter gives the id's kind, when
// the collection's words do not hold it ("ghsa" of
// /advisories/{ghsa_id}): a prefix that says it is that kind.
type collection struct {
	words  []string
	own    int
	idName string
}

// collections returns the distinct collections of the documents'
// routes: the literal segments followed by a parameter, alone and after
// the literal segment before them.
func collections(docs []Doc) []collection {
	seen := map[string]bool{}
	var out []collection
	add := func(before, own []string, idName string) {
		ws := append(before[:len(before):len(before)], own...)
		key := strings.Join(ws, " ") + "/" + idName
		if len(own) > 0 && !seen[key] {
			seen[key] = true
			out = append(out, collection{words: ws, own: len(before), idName: idName})
		}
	}
	for _, d := range docs {
		_, segs, _ := splitRoute(d.Route)
		prev := ""
		for i, s := range segs {
			if isParam(s) {
				continue
			}
			if i+1 < len(segs) && isParam(segs[i+1]) {
				own := words(s)
				name := idName(segs[i+1], own)
				add(nil, own, name)
				if prev != "" {
					add(words(prev), own, name)
				}
			}
			prev = s
		}
	}
	return out
}

// idName returns the kind of id that the parameter param names, when
// it is not the collection's own (words): the words of "{ghsa_id}" before
// "id", "ghsa", of advisories; "" for "{gist_id}" of gists, "{owner}" or
// "{customer}".
func idName(param string, words []string) string {
	name, ok := strings.CutSuffix(strings.ToLower(strings.Trim(param, "{}:")), "_id")
	if !ok || name == "" || strings.ContainsAny(name, "_-") {
		return ""
	}
	stem := Stem(name)
	for _, w := range words {
		if w == name || Stem(w) == stem {
			return ""
		}
	}
	return name
}

// idPrefix returns the prefix of a typed id, lowercased: the lowercase
// letters before its first underscore ("seti" of "seti_123"), or the
// capitals before its first hyphen ("ghsa" of "GHSA-4xqg-mq8r-7j2q",
// "cve" of "CVE-2021-44228"), when there are idPrefixMin to idPrefixMax
// of them and the rest has a digit; else "". An id whose type takes more
// than one word may spell each ("sub_sched_3", a subscription schedule):
// the lowercase pieces after the first, up to the first that is not all
// letters, are kept after an underscore ("sub_sched"), except the modes
// an id may carry ("cs_test_a1" is "cs"). value is a piece of a request
// without its punctuation (valueText).
func idPrefix(value string) string {
	lo, hi := byte('a'), byte('z')
	prefix, rest, ok := strings.Cut(value, "_")
	if !ok {
		lo, hi = 'A', 'Z'
		prefix, rest, ok = strings.Cut(value, "-")
	}
	if !ok || len(prefix) < idPrefixMin || len(prefix) > idPrefixMax || !strings.ContainsAny(rest, "0123456789") {
		return ""
	}
	if !allIn(prefix, lo, hi) {
		return ""
	}
	if lo == 'a' {
		letters := len(prefix)
		for {
			piece, more, ok := strings.Cut(rest, "_")
			if !ok || piece == "" || !allIn(piece, 'a', 'z') || !strings.ContainsAny(more, "0123456789") {
				break
			}
			if !idModes[piece] {
				if letters += len(piece); letters > idTypeMax {
					break
				}
				prefix += "_" + piece
			}
			rest = more
		}
	}
	return strings.ToLower(prefix)
}

// idModes are the pieces of an id that say the mode it was made in, not
// its type ("cs_test_a1", "sk_live_51").
var idModes = map[string]bool{"test": true, "live": true}

// allIn says whether every byte of s is between lo and hi.
func allIn(s string, lo, hi byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < lo || s[i] > hi {
			return false
		}
	}
	return true
}

// idKinds returns the stems of the words of the kinds of object prefix
// abbreviates among the index's collections, one list per kind, or nil
// when it abbreviates none or more than maxIDKinds. Only the closest
// readings count: those that skip the fewest letters, then those of the
// fewest pieces ("cus" is customers, not cu·stomers s·ources).
func (ix *Index) idKinds(prefix string) [][]string {
	if first, _, ok := strings.Cut(prefix, "_"); ok {
		// "sub_sched": the whole type when its pieces read as one, else
		// the first piece's.
		if kinds := ix.idKinds(strings.ReplaceAll(prefix, "_", "")); kinds != nil {
			return kinds
		}
		prefix = first
	}
	var best reading
	var kinds [][]string
	seen := map[string]bool{}
	for _, c := range ix.collections {
		r, ok := abbreviates(prefix, c)
		if c.idName == prefix {
			// The id's kind by the parameter's own name: the closest
			// reading there is.
			r, ok = reading{words: c.words[c.own:], skipped: -1}, true
		}
		if !ok || kinds != nil && best.closer(r) {
			continue
		}
		if kinds == nil || r.closer(best) {
			best, kinds, seen = r, [][]string{}, map[string]bool{}
		}
		var stems []string
		for _, w := range r.words {
			if !stopWords[w] {
				stems = append(stems, Stem(w))
			}
		}
		if key := strings.Join(stems, " "); len(stems) > 0 && !seen[key] {
			seen[key] = true
			kinds = append(kinds, stems)
		}
	}
	if len(kinds) == 0 || len(kinds) > maxIDKinds {
		return nil
	}
	return kinds
}

// reading is how a prefix abbreviates a collection: the words its pieces
// come from and how many letters it skips inside them ("seti" of
// setup_intents skips none, "acct" of accounts three).
type reading struct {
	words   []string
	skipped int
}

// closer says whether r reads a prefix more closely than o.
func (r reading) closer(o reading) bool {
	if r.skipped != o.skipped {
		return r.skipped < o.skipped
	}
	return len(r.words) < len(o.words)
}

// abbreviates returns the closest reading of prefix as an abbreviation
// of the collection c, and whether there is one: the prefix split into
// pieces, in order, each found in one of c's words from its first letter
// on. The last piece comes from the collection's own name, not the
// segment before it: "po" is not billing_portal/configurations.
func abbreviates(prefix string, c collection) (best reading, ok bool) {
	var path []string
	var match func(p string, from, skipped int)
	match = func(p string, from, skipped int) {
		if p == "" {
			if r := (reading{path, skipped}); from > c.own && (!ok || r.closer(best)) {
				best, ok = reading{append([]string(nil), path...), skipped}, true
			}
			return
		}
		for wi := from; wi < len(c.words); wi++ {
			w := c.words[wi]
			if w == "" || w[0] != p[0] {
				continue
			}
			for k := len(p); k >= 1; k-- {
				end := spanOf(p[:k], w)
				if end < 0 {
					continue
				}
				path = append(path, w)
				match(p[k:], wi+1, skipped+end-k)
				path = path[:len(path)-1]
			}
		}
	}
	match(prefix, 0, 0)
	return best, ok
}

// spanOf returns where the letters of piece, found in order in w from its
// first letter on, end in w; -1 when they are not all there.
func spanOf(piece, w string) int {
	j, end := 0, -1
	for i := 0; i < len(w) && j < len(piece); i++ {
		if w[i] == piece[j] {
			j++
			end = i + 1
		}
	}
	if j < len(piece) {
		return -1
	}
	return end
}
