package search

import (
	"sort"
	"strings"
)

// Porter's stemmer leaves apart some forms of one word that a person and
// an API use for the same thing: "subscribers" (subscrib) and
// "subscriptions" (subscript), "publicly" (publicli) and "public". A query
// term also matches, at variantWeight, the index's terms that share its
// first variantPrefix letters or more and differ from it only in their
// last two letters or fewer (each side).
const (
	variantPrefix = 6
	variantSlack  = 2
	variantWeight = 0.5
)

// sortedTerms returns the index's terms in order, for variants.
func sortedTerms(postings map[string][]posting) []string {
	out := make([]string, 0, len(postings))
	for t := range postings {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// addVariants adds to c, at variantWeight, the index's terms that are
// variants of stem (see variantPrefix), other than stem itself.
func (ix *Index) addVariants(stem string, c map[string]float64) {
	if len(stem) < variantPrefix {
		return
	}
	prefix := stem[:variantPrefix]
	for i := sort.SearchStrings(ix.terms, prefix); i < len(ix.terms) && strings.HasPrefix(ix.terms[i], prefix); i++ {
		t := ix.terms[i]
		if t == stem || c[t] >= variantWeight {
			continue
		}
		k := variantPrefix
		for k < len(t) && k < len(stem) && t[k] == stem[k] {
			k++
		}
		if k >= len(t)-variantSlack && k >= len(stem)-variantSlack {
			c[t] = variantWeight
		}
	}
}
