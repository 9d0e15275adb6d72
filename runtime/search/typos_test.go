package search

import (
	"strings"
	"testing"
)

func TestOneEdit(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"subscript", "subscirpt", true},  // swapped
		{"repositori", "repostori", true}, // left out
		{"invoic", "innvoic", true},       // added
		{"webhook", "webhoak", true},      // changed
		{"webhook", "webhook", false},     // the same
		{"webhook", "wbehoko", false},     // two edits
		{"abc", "cba", false},
		{"", "a", true},
		{"ab", "ba", true},
		{"abcd", "abdcx", false},
	} {
		if got := oneEdit(c.a, c.b); got != c.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := oneEdit(c.b, c.a); got != c.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}

// FuzzOneEdit checks oneEdit against the optimal string alignment
// distance.
func FuzzOneEdit(f *testing.F) {
	for _, s := range [][2]string{{"subscript", "subscirpt"}, {"ab", "ba"}, {"", ""}, {"abc", "abd"}, {"abc", "ab"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 32 || len(b) > 32 {
			return
		}
		if got, want := oneEdit(a, b), osa(a, b) == 1; got != want {
			t.Fatalf("oneEdit(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}

// osa is the optimal string alignment distance of a and b, bytewise.
func osa(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func TestCorrect(t *testing.T) {
	ix := New([]Doc{
		{Name: "GetSubscriptions", Title: "List subscriptions", ReadOnly: true, Route: "GET /v1/subscriptions"},
		{Name: "repos_get", Title: "Get a repository", ReadOnly: true, Route: "GET /repos/{owner}/{repo}"},
		{Name: "drives_list", Title: "List drives", ReadOnly: true, Route: "GET /drives"},
	})
	for q, want := range map[string]string{
		"cancel the subscirption":    "cancel the subscript", // a misspelling of a term
		"show the repositroy":        "show the repositori",  // another
		"archvie the subscription":   "archiv the subscript", // a misspelled word of the synonym table
		"which driver is it":         "which driver is it",   // an English word is no misspelling
		"list xubscriptions":         "list xubscript",       // the first letter is kept
		"show priya":                 "show priya",           // too short to read as one
		"find sub_sched_3 subscirpt": "find sub sched 3 subscript",
	} {
		r := parseRequest(q)
		ix.correct(&r)
		var got []string
		for i, w := range r.words {
			if r.stems[i] != "" {
				w = r.stems[i]
			}
			got = append(got, w)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("correct(%q) = %q, want %q", q, g, want)
		}
	}
}

// TestSearchMisspelled checks that a misspelled request finds what the
// spelled one does.
func TestSearchMisspelled(t *testing.T) {
	docs := []Doc{
		{Name: "GetSubscriptions", Title: "List subscriptions", ReadOnly: true, Route: "GET /v1/subscriptions"},
		{Name: "GetInvoices", Title: "List invoices", ReadOnly: true, Route: "GET /v1/invoices"},
		{Name: "DeleteSubscriptionsSubscription", Title: "Cancel a subscription", Route: "DELETE /v1/subscriptions/{subscription}"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"cancel subscription sub_1":      "DeleteSubscriptionsSubscription",
		"cancel subscirption sub_1":      "DeleteSubscriptionsSubscription",
		"which subscirptions do we have": "GetSubscriptions",
		"show me all the invocies":       "GetInvoices",
	})
}
