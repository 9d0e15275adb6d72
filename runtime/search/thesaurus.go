package search

import "sort"

// A thesaurus, mined from the operations themselves when the index is
// built, relates the words an API's prose uses to the words of its
// operations' names and toolsets: GitHub describes codespaces as
// "development environments" and names them codespaces; Stripe's prose
// says "payment" of what its names call charges. A person asks in words
// closer to the prose, and an operation whose own description does not use
// them is still found by its name.
//
// For each stem p of the first paragraphs of descriptions and each stem a
// of names and toolsets (a ≠ p), n(p, a) counts the operations that have p
// in their first paragraph and a in their name or toolset. p expands to a
// when n(p, a) ≥ thesaurusMinPair, P(a | p) = n(p, a) / n(p) ≥
// thesaurusMinShare and P(a | p) ≥ thesaurusLift × P(a) (a says more
// about the operations that p occurs in than about any operation); each
// p keeps its thesaurusMaxTerms best.
const (
	thesaurusMinPair  = 5
	thesaurusMinShare = 0.3
	thesaurusLift     = 3
	thesaurusMaxTerms = 3
)

// thesaurusWeight is how much an API term found by the thesaurus counts
// against the query word, times P(a | p).
const thesaurusWeight = 0.5

// expansion is an API term a prose term stands for, with P(a | p).
type expansion struct {
	term  string
	share float64
}

// mineThesaurus relates the prose terms of each document (prose[i]) to its
// API terms (api[i]); see the comment above.
func mineThesaurus(prose, api [][]string) map[string][]expansion {
	n := len(prose)
	proseDocs := map[string]int{}
	apiDocs := map[string]int{}
	pairs := map[string]map[string]int{}
	var ps, as []string
	for i := range prose {
		ps, as = distinct(ps[:0], prose[i]), distinct(as[:0], api[i])
		for _, a := range as {
			apiDocs[a]++
		}
		for _, p := range ps {
			proseDocs[p]++
			m := pairs[p]
			if m == nil {
				m = map[string]int{}
				pairs[p] = m
			}
			for _, a := range as {
				if a != p {
					m[a]++
				}
			}
		}
	}
	out := map[string][]expansion{}
	for p, m := range pairs {
		var es []expansion
		for a, c := range m {
			if c < thesaurusMinPair {
				continue
			}
			share := float64(c) / float64(proseDocs[p])
			if share < thesaurusMinShare || share < thesaurusLift*float64(apiDocs[a])/float64(n) {
				continue
			}
			es = append(es, expansion{a, share})
		}
		if len(es) == 0 {
			continue
		}
		sort.Slice(es, func(i, j int) bool {
			if es[i].share != es[j].share {
				return es[i].share > es[j].share
			}
			return es[i].term < es[j].term
		})
		out[p] = es[:min(len(es), thesaurusMaxTerms)]
	}
	return out
}

// distinct appends the distinct terms of ts to dst, in order.
func distinct(dst, ts []string) []string {
	for _, t := range ts {
		dup := false
		for _, d := range dst {
			if d == t {
				dup = true
				break
			}
		}
		if !dup {
			dst = append(dst, t)
		}
	}
	return dst
}
