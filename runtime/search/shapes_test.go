package search

import (
	"strings"
	"testing"
)

func TestShapeKind(t *testing.T) {
	for field, want := range map[string]string{
		"@jdoe":                       "user member collaborator",
		"(@octo-cat)":                 "user member collaborator",
		"fraud@bad.com":               "email",
		"https://ci.example.com/hook": "url",
		"v2.4.0":                      "release tag version",
		"0.9.1,":                      "release tag version",
		"9f8e7d1":                     "commit",
		"docs/setup.md":               "file",
		"package.json.":               "file",
		"acme/api":                    "repo repository",
		"feature/x":                   "repo repository",
		"vercel/next.js":              "repo repository", // .js is no extension of the table: a name
		"cus_123":                     "",
		"v1":                          "", // an API's version, as often as a release
		"deadbeef":                    "", // a word, no digit
		"1234567":                     "", // a number, no letter
		"@":                           "",
		"a/b/c":                       "",
		"$500":                        "amount",
		"$2,000":                      "amount",
		"€15.50":                      "amount",
		"$":                           "",
		"$x":                          "",
		"NODE_VERSION":                "variable",
		"NODE":                        "",
		"API_KEY_2":                   "variable",
		"parseConfig":                 "",
		"#releases":                   "channel conversation",
		"#dev-ops.":                   "channel conversation",
		"#88":                         "", // an issue's number
		"#":                           "",
	} {
		if got := strings.Join(shapeWords[shapeKind(valueText(field))], " "); got != want {
			t.Errorf("shapeKind(%q) = %q, want %q", field, got, want)
		}
	}
}

func TestSearchValueShape(t *testing.T) {
	docs := []Doc{
		{Name: "repos_create_release", Title: "Create a release", Route: "POST /repos/{owner}/{repo}/releases"},
		{Name: "repos_merge", Title: "Merge a branch", Route: "POST /repos/{owner}/{repo}/merges"},
		{Name: "repos_add_collaborator", Title: "Add a repository collaborator", Description: "Add a user to a repository.", Route: "PUT /repos/{owner}/{repo}/collaborators/{username}"},
		{Name: "repos_add_team", Title: "Add a repository team", Description: "Give a team access to a repository.", Route: "PUT /repos/{owner}/{repo}/teams/{team_slug}"},
	}
	ix := New(docs)
	wantFirst(t, ix, docs, map[string]string{
		// Only the value says what is published, or who gets access.
		"publish v2.4.0 today":          "repos_create_release",
		"give @jdoe access to the repo": "repos_add_collaborator",
	})
}

// TestSearchSendsMessage checks that a request to post or send something
// finds the operation that creates a message, which says neither.
func TestSearchSendsMessage(t *testing.T) {
	docs := []Doc{
		{Name: "send_soundboard_sound", Route: "POST /channels/{channel_id}/send-soundboard-sound"},
		{Name: "create_message", Route: "POST /channels/{channel_id}/messages"},
		{Name: "create_thread", Route: "POST /channels/{channel_id}/threads"},
		{Name: "list_messages", Route: "GET /channels/{channel_id}/messages", ReadOnly: true},
	}
	ix := New(docs)
	// A tool that calls no route says it by its name.
	docs = append(docs, Doc{Name: "create_email"}, Doc{Name: "email_settings"})
	wantFirst(t, ix, docs, map[string]string{
		// The message's text and the channel's name are values, and the
		// channel is where, not what.
		`post "deploy finished" in the #releases channel`: "create_message",
		"post 'all clear' in #incidents":                  "create_message",
	})
	for _, d := range docs {
		kind := kindWords(d, sendsMessage(docSubject(d)))
		if got, want := strings.Contains(kind, "send"), d.Name == "create_message" || d.Name == "create_email"; got != want {
			t.Errorf("kindWords(%s) = %q: says send = %v, want %v", d.Name, kind, got, want)
		}
	}
}
