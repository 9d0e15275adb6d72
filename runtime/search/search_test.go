package search

import "testing"

func TestStem(t *testing.T) {
	// Porter's own examples (Porter 1980, and the reference vocabulary).
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed", "agreed": "agre",
		"plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat",
		"hopping": "hop", "filing": "file", "happy": "happi", "relational": "relat",
		"conditional": "condit", "generalization": "gener", "hopefulness": "hope",
		"repositories": "repositori", "repository": "repositori", "creating": "creat",
		"created": "creat", "creates": "creat", "adjustment": "adjust", "v2": "v2", "go": "go",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	got := words("repos/list-for-authenticatedUser HTMLURL v2_id")
	want := []string{"repos", "list", "for", "authenticated", "user", "htmlurl", "v2", "id"}
	if len(got) != len(want) {
		t.Fatalf("words = %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("words = %q, want %q", got, want)
		}
	}
}

func TestSearchRanks(t *testing.T) {
	docs := []Doc{
		{Name: "repos_delete", Title: "Delete a repository", Toolset: "repos"},
		{Name: "repos_create_for_authenticated_user", Title: "Create a repository for the authenticated user", Toolset: "repos"},
		{Name: "issues_create", Title: "Create an issue", Toolset: "issues", Params: []string{"owner", "repo", "title"}},
		{Name: "activity_list_stargazers_for_repo", Title: "List stargazers", Toolset: "activity"},
	}
	ix := New(docs)
	for q, want := range map[string]string{
		"create a new repository for me":   "repos_create_for_authenticated_user",
		"get rid of, i.e. remove the repo": "repos_delete",
		"file a bug":                       "issues_create",
		"who starred the project":          "activity_list_stargazers_for_repo",
	} {
		res := ix.Search(q, 1, nil)
		if len(res) == 0 || docs[res[0].Doc].Name != want {
			t.Errorf("Search(%q) = %v, want %s first", q, res, want)
		}
	}
	if res := ix.Search("repository", 10, func(d int) bool { return d != 0 }); len(res) == 0 || res[0].Doc == 0 {
		t.Errorf("keep did not filter: %v", res)
	}
}
