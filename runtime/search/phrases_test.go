package search

import (
	"slices"
	"strings"
	"testing"
)

func TestReadPhrases(t *testing.T) {
	for _, c := range []struct {
		query string
		// words are the request's words once its phrases are read.
		words string
	}{
		// The phrase becomes the word it means; its particle is gone.
		{"kick off the nightly build", "run the nightly build"},
		// In cloud parlance what is spun up is made: a VM, a container, an environment.
		{"spin up a dev environment", "create a dev environment"},
		{"get rid of the stale branches", "delete the stale branches"},
		{"turn off the alerts", "disable the alerts"},
		{"turn on vulnerability alerts", "enable vulnerability alerts"},
		{"put the subscription on hold", "pause the subscription"},
		{"keep an eye on this repo", "watch this repo"},
		// Particles after the verb's object.
		{"hand the old repo over to bob", "move the old repo to bob"},
		// A value in the object is one name, however many words it splits into.
		{"hand the mobile-app repo over to bob", "move the mobile app repo to bob"},
		{"kick user 4242 off the server", "delete user 4242 the server"},
		{"close it out as revoked", "close it as revoked"},
		{"turn all the alerts off", "disable all the alerts"},
		// A phrase that needs an object between its words.
		{"kick bob off the repo", "delete bob the repo"},
		{"send bob a direct message", "send bob a dm"},
		{"jdoe left, get him out of the org", "delete him of the org jdoe left"},
		// A verb's past is no object: paid out, not got out.
		{"is acct_1 able to get paid out yet", "is acct 1 able to get payout yet"},
		// No phrase: the words between are no object, or too many.
		{"pull requests are up for review", "pull requests are up for review"},
		{"turn the old unused staging alerts off", "turn the old unused staging alerts off"},
		{"set the topic", "set the topic"},
		// Any form of the verb.
		{"we kicked off a deploy", "we run a deploy"},
		{"he shuts down the runner", "he stop the runner"},
		{"got rid of the label", "delete the label"},
		{"paid back the customer", "refund the customer"},
		{"did away with it", "delete it"},
		// Phrases of business software, and the readings they must not take.
		{"top up the account balance", "fund the account balance"},
		{"let me know when the build fails", "notify me when the build fails"},
		{"loop the finance team in", "invite the finance team"},
		{"the job is stuck in a loop in step 3", "the job is stuck in a loop in step 3"},
		{"back out the last change", "revert the last change"},
		{"back out of the deal", "cancel the deal"},
		{"knock 10% off her plan", "discount 10 her plan"},
		{"wrote off the invoice", "uncollectible the invoice"},
		{"opt out of the newsletter", "unsubscribe of the newsletter"},
		{"show the logs in staging", "show the logs in staging"},
		// A verb alone, and a hyphenated phrase.
		{"kick", "kick"},
		{"a kick-off meeting", "a run meeting"},
	} {
		if got := strings.Join(parseRequest(c.query).words, " "); got != c.words {
			t.Errorf("parseRequest(%q) words %q, want %q", c.query, got, c.words)
		}
	}
}

func TestPhraseParticleNotAContentWord(t *testing.T) {
	r := parseRequest("kick off a deploy")
	if slices.Contains(r.stems, Stem("off")) || slices.Contains(r.stems, Stem("kick")) {
		t.Errorf("stems %q hold the phrase's own words", r.stems)
	}
	if got := leadingAction(r.words, r.stems); got != nil {
		t.Errorf("leadingAction = %q, want none (run is no action group)", got)
	}
	if got := leadingAction(parseRequest("get rid of the label").words, nil); !slices.Equal(got, []string{"delete"}) {
		t.Errorf("leadingAction(get rid of) = %q, want delete", got)
	}
}

// Every phrase means a word of the synonym table, so that it finds that
// word's group.
func TestPhrasesMeanTableWords(t *testing.T) {
	for verb, ps := range phrases {
		for _, p := range ps {
			if synonymTerms[Stem(p.word)] == nil {
				t.Errorf("%s %s: %q is in no group of synonymGroups", verb, strings.Join(p.particles, " "), p.word)
			}
		}
	}
}

func TestSearchPhrasalVerb(t *testing.T) {
	docs := []Doc{
		{Name: "actions_create-workflow-dispatch", Title: "Trigger a workflow run", Description: "Starts a run of a workflow."},
		{Name: "repos_list-kickoff-notes", Title: "List kickoff notes", ReadOnly: true},
		{Name: "repos_delete-branch", Title: "Delete a branch", Destructive: true},
	}
	ix := New(docs)
	wantFirst(t, ix, docs, map[string]string{
		"kick off the release workflow":     "actions_create-workflow-dispatch",
		"get rid of the feature/old branch": "repos_delete-branch",
	})
}

func TestSearchIdiom(t *testing.T) {
	docs := []Doc{
		{Name: "reactions_create-for-issue", Title: "Create reaction for an issue"},
		{Name: "issues_create", Title: "Create an issue"},
	}
	ix := New(docs)
	if res := ix.Search("give issue #200 a thumbs up", 1, nil); len(res) == 0 || res[0].Doc != 0 {
		t.Errorf("Search(thumbs up) = %v, want the reaction first", res)
	}
}
