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
	wantFirst(t, ix, docs, map[string]string{
		"start a new label with a color": "issues_create-label",
		"change the label's color":       "issues_update-label",
		// A question wants an operation that reads, whatever its verb.
		"what labels does the repo have?": "issues_list-labels",
	})
}

func TestSearchListBoost(t *testing.T) {
	docs := []Doc{
		// Getting one collaborator's permission says more about
		// "collaborator" than the listing does.
		{Name: "repos_get-collaborator-permission-level", Title: "Get repository permissions for a collaborator",
			Description: "Checks the permission of a collaborator: a collaborator may read, write or admin.", ReadOnly: true},
		{Name: "repos_list-collaborators", Title: "List repository collaborators", ReadOnly: true},
	}
	ix := New(docs)
	wantFirst(t, ix, docs, map[string]string{
		"who are the collaborators on this repo?":      "repos_list-collaborators",
		"what permission does this collaborator have?": "repos_get-collaborator-permission-level",
	})
	if !asksForSet(parseRequest("Which runners are offline?")) || asksForSet(parseRequest("what is the default branch?")) {
		t.Error("asksForSet: which/who ask for a set, what does not")
	}
}

func TestActionGroupsAreGroups(t *testing.T) {
	heads := map[string]bool{}
	for _, groups := range actions {
		for _, g := range groups {
			heads[g] = true
		}
	}
	for g := range actionGroups {
		if !heads[g] {
			t.Errorf("action group %q starts no line of synonymGroups", g)
		}
	}
}

// TestSearchVerbNamesWhatItCreates checks that a request whose verb is
// the name of a kind of object ("remind me…") finds the operation that
// creates one, not the others on it.
func TestSearchVerbNamesWhatItCreates(t *testing.T) {
	docs := []Doc{
		{Name: "delete_reminder", Title: "Delete a reminder", Route: "DELETE /reminders/{id}", Destructive: true},
		{Name: "list_reminders", Title: "List reminders", Route: "GET /reminders", ReadOnly: true},
		{Name: "add_reminder", Title: "Add a reminder", Route: "POST /reminders"},
		{Name: "complete_reminder", Title: "Mark a reminder complete", Route: "POST /reminders/{id}/complete"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"remind me at 5pm to submit my timesheet": "add_reminder",
	})
}

func TestDescribingVerbsKeepTheirWord(t *testing.T) {
	ix := New([]Doc{{Name: "issues_create", Title: "Create an issue"}})
	has := func(q, term string) bool {
		for _, c := range ix.concepts(parseRequest(q)) {
			if c[term] > 0 {
				return true
			}
		}
		return false
	}
	create := Stem("create")
	for q, want := range map[string]bool{
		// The request's verb stands for its action.
		"open an issue about the crash": true,
		// Another verb describes the object: nothing is to be created.
		"what container images have we published?":      false,
		"list the releases we published last week":      false,
		"show the pull requests that were opened today": false,
		// "New" says the object is to be made.
		"start a new label with a color": true,
	} {
		if got := has(q, create); got != want {
			t.Errorf("concepts(%q) name create: %v, want %v", q, got, want)
		}
	}
}

func TestSaveCreates(t *testing.T) {
	// "Save" asks to keep something new, not to download it.
	docs := []Doc{
		{Name: "gists_update", Title: "Update a gist", Route: "PATCH /gists/{gist_id}"},
		{Name: "gists_create", Title: "Create a gist", Description: "Allows you to add a new gist with one or more files.", Route: "POST /gists"},
		{Name: "gists_get", Title: "Get a gist", ReadOnly: true, Route: "GET /gists/{gist_id}"},
	}
	wantFirst(t, New(docs), docs, map[string]string{"save this snippet as a secret gist": "gists_create"})
}
