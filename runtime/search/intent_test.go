package search

import (
	"slices"
	"testing"
)

func TestAction(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Create a label", []string{"create"}},
		{"<p>Creates a new customer object.</p>", []string{"create"}},
		{"please remove the old branch", []string{"delete"}},
		{"we need to rename master to main", []string{"update"}},
		{"List repository collaborators", []string{"list"}},
		{"show me my gists", []string{"get", "list"}},
		// The verb must come first: a request's later words name things.
		{"the nightly job on main failed, create a ticket", nil},
		{"", nil},
	} {
		if got := action(c.text); !slices.Equal(got, c.want) {
			t.Errorf("action(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestSearchActionBoost(t *testing.T) {
	docs := []Doc{
		// The update's text names a new label more often than the create's
		// does; only the create starts with a verb of the request's group.
		{Name: "issues_update-label", Title: "Update a label", Description: "Gives a label a new name.",
			Params: []string{"new_name", "color"}},
		{Name: "issues_create-label", Title: "Create a label", Params: []string{"name", "color"}},
		{Name: "issues_list-labels", Title: "List labels for a repository", ReadOnly: true},
	}
	ix := New(docs)
	for q, want := range map[string]string{
		"start a new label with a color": "issues_create-label",
		"change the label's color":       "issues_update-label",
		// A question wants an operation that reads, whatever its verb.
		"what labels does the repo have?": "issues_list-labels",
	} {
		res := ix.Search(q, 1, nil)
		if len(res) == 0 || docs[res[0].Doc].Name != want {
			t.Errorf("Search(%q) = %v, want %s first", q, res, want)
		}
	}
}
