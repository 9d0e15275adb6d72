package search

import (
	"slices"
	"testing"
)

func TestDiversify(t *testing.T) {
	ix := New([]Doc{
		0: {Name: "list-starred-for-user", Route: "GET /users/{username}/starred"},
		1: {Name: "list-starred-for-me", Route: "GET /user/starred"},
		2: {Name: "list-starred-for-org", Route: "GET /orgs/{org}/starred"},
		3: {Name: "search-repos", Route: "GET /search/repositories"},
		4: {Name: "star-repo", Route: "PUT /user/starred/{owner}/{repo}"},
		5: {Name: "no-route"},
		6: {Name: "no-route-either"},
	})
	for _, c := range []struct {
		name   string
		scores []float64 // by doc, best first as given
		docs   []int
		limit  int
		want   []int
	}{
		{"the best of each group first", []float64{10, 9, 8, 7.5, 7}, []int{0, 1, 2, 3, 4}, 5, []int{0, 3, 4, 1, 2}},
		{"only within 70% of the best", []float64{10, 9, 8, 6.9, 6.8}, []int{0, 1, 2, 3, 4}, 5, []int{0, 1, 2, 3, 4}},
		{"only the first page", []float64{10, 9, 8, 7.5}, []int{0, 1, 2, 3}, 2, []int{0, 3, 1, 2}},
		{"no route, no group", []float64{10, 9, 8, 7.5}, []int{5, 6, 0, 1}, 4, []int{5, 6, 0, 1}},
		{"no limit, no change", []float64{10, 9, 8}, []int{0, 1, 3}, 0, []int{0, 1, 3}},
	} {
		res := make([]Result, len(c.docs))
		for i, d := range c.docs {
			res[i] = Result{Doc: d, Score: c.scores[i]}
		}
		ix.diversify(res, c.limit)
		var got []int
		for _, r := range res {
			got = append(got, r.Doc)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
