package search

import "testing"

// BenchmarkReadRequest measures reading requests as Search does: their
// concepts, question form, verb and main nouns, the question form and
// verb twice (for the verb boost and for the subject boost).
func BenchmarkReadRequest(b *testing.B) {
	ix := New(nil)
	qs := []string{"who can get into our private repo acme/payments?", "kick bob off the repo, he left the project",
		"show me the code diff between v1.2.0 and v1.3.0", "create a code SUMMER23 that shoppers can type in for that discount"}
	for b.Loop() {
		for _, q := range qs {
			r := parseRequest(q)
			ix.concepts(r)
			mainNouns(r)
			asksToRead(r)
			asksForSet(r)
			leadingAction(r.words, r.stems)
			asksForSet(r)
			asksToRead(r)
			leadingAction(r.words, r.stems)
		}
	}
}
