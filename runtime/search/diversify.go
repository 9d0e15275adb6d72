package search

// diversifyWithin is how close to the best score a result must be for the
// first page to be spread over what the results act on: within 70% of
// it, the request matched them about as well.
const diversifyWithin = 0.7

// group is what an operation does to which kind of object, by its route:
// the scoped variants of one operation (a repository's, an
// organization's, the caller's) share one.
type group struct{ head, act string }

func (ix *Index) group(doc int) group {
	s := ix.subjects[doc]
	g := group{head: s.head}
	if len(s.acts) > 0 {
		g.act = s.acts[0]
	}
	return g
}

// diversify reorders the first limit results (sorted best first) so that,
// among the results that score within diversifyWithin of the best, the
// best of each group comes before a second of any group: an ambiguous
// request ("find Rust web frameworks with more than 1000 stars") then
// sees the different things it may mean (searching repositories, listing
// starred ones) rather than the same listing for each scope. The first
// result stays first; operations without a route form no group.
func (ix *Index) diversify(res []Result, limit int) {
	if limit <= 0 || len(res) < 2 {
		return
	}
	close := 1
	for close < len(res) && res[close].Score >= diversifyWithin*res[0].Score {
		close++
	}
	limit = min(limit, close)
	seen := make([]group, 0, limit)
	for pos := 0; pos < limit; pos++ {
		j := pos
		for j < close && ix.repeats(res[j].Doc, seen) {
			j++
		}
		if j == close {
			// Every result left repeats a group: they keep their order.
			return
		}
		r := res[j]
		copy(res[pos+1:j+1], res[pos:j])
		res[pos] = r
		if g := ix.group(r.Doc); g.head != "" {
			seen = append(seen, g)
		}
	}
}

// repeats says whether doc's group is among seen.
func (ix *Index) repeats(doc int, seen []group) bool {
	g := ix.group(doc)
	if g.head == "" {
		return false
	}
	for _, s := range seen {
		if s == g {
			return true
		}
	}
	return false
}
