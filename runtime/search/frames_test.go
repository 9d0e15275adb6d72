package search

import (
	"strings"
	"testing"
)

func TestDropFrames(t *testing.T) {
	for _, c := range []struct {
		query, words string
		question     bool
	}{
		// Politeness, ability, need and want around an instruction: the
		// instruction is read, and a question mark does not make it a
		// question.
		{"can you close issue 212?", "close issue 212", false},
		{"Could you please freeze card ic_42?", "freeze card ic 42", false},
		{"hey, can someone tag issue 17 as a duplicate?", "tag issue 17 as a duplicate", false},
		{"how do I refund this charge?", "refund this charge", false},
		{"how can we go about archiving acme/old?", "archiving acme old", false},
		{"is there a way to pause a subscription?", "pause a subscription", false},
		{"is it possible to rename a branch?", "rename a branch", false},
		{"I'd like to archive the old repo", "archive the old repo", false},
		{"I would like you to rotate the key", "rotate the key", false},
		{"we need to rotate the key", "rotate the key", false},
		{"I need you to rotate the key", "rotate the key", false},
		{"we're trying to move acme/api to another org", "move acme api to another org", false},
		{"we must rotate the key", "rotate the key", false},
		{"go ahead and merge PR 5", "merge pr 5", false},
		{"let's merge PR 5", "merge pr 5", false},
		{"help me invite bob to the team", "invite bob to the team", false},
		{"how to create a webhook?", "create a webhook", false},
		// A frame before each clause.
		{"PR 5 is green, can you merge it?", "pr 5 is green merge it", false},
		// A question asked inside a request stays a question.
		{"can you tell me who follows me?", "who follows me", true},
		{"I want to know which invoices are overdue", "which invoices are overdue", true},
		{"do you know whether the payout went through", "whether the payout went through", true},
		{"can you find out what's in the cart?", "what s in the cart", true},
		{"how do I know whether the payout went through?", "how do i know whether the payout went through", true},
		{"can you show me the open issues?", "show me the open issues", false},
		// No frame: a need of a thing, a value or nothing after the frame.
		{"I need a new API key", "i need a new api key", false},
		{"can you 42?", "can you 42", true},
		{"can you?", "can you", true},
		{"can you, please", "can you", false},
		{"who can you see?", "who can you see", true},
		// Only the request's start leads to an embedded question.
		{"why is the deposit small? show what went into it", "show what went into it why is the deposit small", false},
	} {
		r := parseRequest(c.query)
		if got := strings.Join(r.words, " "); got != c.words || r.question != c.question {
			t.Errorf("parseRequest(%q): words %q question %v, want %q %v", c.query, got, r.question, c.words, c.question)
		}
	}
}

func TestCauseFirst(t *testing.T) {
	wantWords(t, map[string]string{
		// Asking someone to do something asks for that thing, of them.
		"get maria-dev and the backend team to look over PR 88": "review pr 88 ask maria dev and the backend team",
		"ask carol to approve my pull request":                  "approve my pull request ask carol",
		"can you get dana to review PR 412?":                    "review pr 412 ask dana",
		"tell bob to close issue 5, it is fixed":                "close issue 5 ask bob it is fixed",
		// Not a cause: a read for me, no instruction after "to", too far.
		"get me a link to Bob's message":   "get me a link to bob s message",
		"get the invoice to acme":          "get the invoice to acme",
		"get a b c d e f g h to review it": "get a b c d e f g h to review it",
		// After the story, as instructionFirst reads it.
		"the repo is dead, ask bob to archive it": "archive it the repo is dead ask bob",
	})
}

// TestSearchFramedRequest checks that a framed request finds the
// operation its bare form finds, not the read its question mark asked
// for before.
func TestSearchFramedRequest(t *testing.T) {
	docs := []Doc{
		{Name: "issues_get", Title: "Get an issue", ReadOnly: true, Route: "GET /repos/{owner}/{repo}/issues/{issue_number}"},
		{Name: "issues_update", Title: "Update an issue", Description: "Issue owners can change the title, body, state (open or closed) and labels.",
			Route: "PATCH /repos/{owner}/{repo}/issues/{issue_number}"},
		{Name: "issues_list", Title: "List repository issues", Description: "Lists the open issues of a repository; state=closed lists the closed ones.",
			ReadOnly: true, Route: "GET /repos/{owner}/{repo}/issues"},
		{Name: "issues_lock", Title: "Lock an issue", Route: "PUT /repos/{owner}/{repo}/issues/{issue_number}/lock"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"lock issue 88":                          "issues_lock",
		"can you lock issue 88?":                 "issues_lock",
		"could you please lock issue 88 for me?": "issues_lock",
		"how do I lock issue 88?":                "issues_lock",
		"I'd like to lock issue 88":              "issues_lock",
		"can you tell me which issues are open?": "issues_list",
	})
}

func TestGuardFirst(t *testing.T) {
	wantWords(t, map[string]string{
		// A rule stated as a prohibition asks to set a protection.
		"nobody should be able to push to main": "set protect nobody should be able to push to main",
		"No one can merge without a review":     "set protect no one can merge without a review",
		"don't let anyone delete the repo":      "set protect don t let anyone delete the repo",
		"do not let bots open more than 3 PRs":  "set protect do not let bots open more than 3 prs",
		// Not a prohibition.
		"nobody reviewed PR 5": "nobody reviewed pr 5",
		"let bob push to main": "let bob push to main",
		"nothing":              "nothing",
	})
}

func TestSearchProhibition(t *testing.T) {
	docs := []Doc{
		{Name: "repos_get-branch-protection", Title: "Get branch protection", ReadOnly: true, Route: "GET /repos/{owner}/{repo}/branches/{branch}/protection"},
		{Name: "repos_update-branch-protection", Title: "Update branch protection", Description: "Protecting a branch requires admin or owner permissions to the repository.",
			Route: "PUT /repos/{owner}/{repo}/branches/{branch}/protection"},
		{Name: "repos_get-branch", Title: "Get a branch", ReadOnly: true, Route: "GET /repos/{owner}/{repo}/branches/{branch}"},
		{Name: "git_update-ref", Title: "Update a reference", Description: "Updates the provided reference to point to a new SHA; a push.", Route: "PATCH /repos/{owner}/{repo}/git/refs/{ref}"},
	}
	wantFirst(t, New(docs), docs, map[string]string{
		"nobody should be able to push to main without a review": "repos_update-branch-protection",
	})
}

// wantWords checks the words each request parses to.
func wantWords(t *testing.T, requests map[string]string) {
	t.Helper()
	for q, want := range requests {
		if got := strings.Join(parseRequest(q).words, " "); got != want {
			t.Errorf("parseRequest(%q).words = %q, want %q", q, got, want)
		}
	}
}
