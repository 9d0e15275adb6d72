package search

import (
	_ "embed"
	"sort"
	"strings"
	"sync"
)

// Misspellings: a person types "subscirption" or "repositroy" and means
// the word. A word of a request that nothing knows (no operation's text,
// no synonym, no action, no mined expansion) and that is no everyday
// English word (english.txt: "driver" is not a misspelled "drive") is
// read as the known term one edit away (a letter left out, added,
// changed, or two swapped, the first letter kept), the one most
// operations hold when several are. Measured by swapping two letters in
// the longest word of every task of GitHub's and Stripe's sets,
// misspelling cut the top-5 hit rate from 83% to 66% on GitHub and from
// 84% to 68% on Stripe.

// minTypoLen is the shortest stem read as a misspelling: shorter words
// have too many neighbours one edit away ("night", "right"), and names
// are often short ("priya", "maria").
const minTypoLen = 6

// englishWords is bench/search/wordnet/english.py's output: the everyday
// English words of minTypoLen letters or more, one per line.
//
//go:embed english.txt
var englishWords string

// englishStems are the stems of englishWords, built on first use: only
// an index reads misspellings.
var englishStems = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(englishWords) {
		m[Stem(w)] = true
	}
	return m
})

// spellings returns the terms a misspelling may stand for, by length:
// the index's terms of letters only and the stems of the synonym table.
func spellings(terms []string) map[int][]string {
	seen := map[string]bool{}
	out := map[int][]string{}
	add := func(t string) {
		if len(t) < minTypoLen-1 || seen[t] || !allIn(t, 'a', 'z') {
			return
		}
		seen[t] = true
		out[len(t)] = append(out[len(t)], t)
	}
	for _, t := range terms {
		add(t)
	}
	for t := range synonymTerms {
		add(t)
	}
	for _, ts := range out {
		sort.Strings(ts)
	}
	return out
}

// known says whether the index can read stem as it is.
func (ix *Index) known(stem string) bool {
	return len(ix.postings[stem]) > 0 || synonymTerms[stem] != nil || actions[stem] != nil || len(ix.thesaurus[stem]) > 0
}

// correct reads each word of r that nothing knows as the known term one
// edit away, when there is one.
func (ix *Index) correct(r *request) {
	for i, stem := range r.stems {
		if r.values[i] || stem == "" || len(stem) < minTypoLen || !allIn(stem, 'a', 'z') || ix.known(stem) || englishStems()[stem] {
			continue
		}
		if t := ix.nearest(stem); t != "" {
			r.words[i], r.stems[i] = t, t
		}
	}
}

// nearest returns the known term one edit away from stem that most
// documents hold (then the first in order), or "".
func (ix *Index) nearest(stem string) string {
	best, bestDF := "", -1
	for n := len(stem) - 1; n <= len(stem)+1; n++ {
		for _, t := range ix.spellings[n] {
			if t[0] != stem[0] || !oneEdit(stem, t) {
				continue
			}
			df := len(ix.postings[t])
			if synonymTerms[t] != nil {
				// A word of everyday English: as common as any term.
				df = max(df, ix.n)
			}
			if df > bestDF {
				best, bestDF = t, df
			}
		}
	}
	return best
}

// oneEdit says whether a and b differ by one edit: a letter left out,
// added or changed, or two neighbouring letters swapped.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if a[i+1:] == b[i+1:] {
			return true // changed
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swapped
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:] // left out
	}
	return false
}
