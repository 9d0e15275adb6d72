package search

import "testing"

// TestVariants: forms of one word that the stemmer leaves apart meet, and
// words that only start alike do not.
func TestVariants(t *testing.T) {
	docs := []Doc{
		{Name: "subscriptions_list", Title: "List subscriptions"},
		{Name: "gists_list_public", Title: "List public gists"},
		{Name: "releases_publish", Title: "Publish a release"},
		{Name: "charges_list", Title: "List charges"},
	}
	ix := New(docs)
	wantFirst(t, ix, docs, map[string]string{
		"which subscribers are there": "subscriptions_list",
		"gists shared publicly":       "gists_list_public",
	})
	c := map[string]float64{}
	ix.addVariants(Stem("publicly"), c)
	if _, ok := c[Stem("publish")]; ok {
		t.Errorf("publicly matched publish: %v", c)
	}
	if c[Stem("public")] != variantWeight {
		t.Errorf("publicly did not match public: %v", c)
	}
}
