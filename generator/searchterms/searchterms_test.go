package searchterms

import (
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"PostCustomersCustomer":             "post customers customer",
		"repos/list-for-authenticated-user": "repos list for authenticated user",
		"Create a refund v2":                "create a refund v",
		"":                                  "",
	} {
		if got := strings.Join(words(in), " "); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLookup(t *testing.T) {
	syn := map[string][]string{"invoice": {"bill", "account"}, "remove": {"take away"}, "reply": {"answer"}, "copy": {"duplicate"}}
	for in, want := range map[string]string{
		"invoice":  "bill account",
		"invoices": "bill account",
		"removed":  "take away",
		"removing": "take away",
		"replies":  "answer",
		"copies":   "duplicate",
		"unknown":  "",
	} {
		if got := strings.Join(lookup(syn, in), " "); got != want {
			t.Errorf("lookup(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKeywords(t *testing.T) {
	got := Keywords(&spec.Tool{Name: "GetInvoices", Title: "List all invoices"})
	for _, w := range []string{"bill"} {
		if !strings.Contains(" "+got+" ", " "+w+" ") {
			t.Errorf("Keywords = %q, want it to hold %q", got, w)
		}
	}
	if again := Keywords(&spec.Tool{Name: "GetInvoices", Title: "List all invoices"}); again != got {
		t.Errorf("Keywords is not deterministic: %q then %q", got, again)
	}
	seen := map[string]bool{}
	for _, w := range strings.Split(got, " ") {
		if seen[w] {
			t.Errorf("Keywords = %q: %q twice", got, w)
		}
		seen[w] = true
	}
	if kw := Keywords(&spec.Tool{Name: "xyzzy"}); kw != "" {
		t.Errorf("Keywords of a word WordNet lacks = %q, want none", kw)
	}
}

// TestTable checks the embedded table's shape: every line a word, a tab
// and a comma-separated list of synonyms.
func TestTable(t *testing.T) {
	syn := synonyms()
	if len(syn) < 1000 {
		t.Fatalf("table has %d words", len(syn))
	}
	for w, ss := range syn {
		if w == "" || strings.ContainsAny(w, " \t,") {
			t.Errorf("bad key %q", w)
		}
		for _, s := range ss {
			if s == "" || s == w {
				t.Errorf("%s: bad synonym %q", w, s)
			}
		}
	}
}

func TestHeadline(t *testing.T) {
	for _, c := range []struct {
		title, description, want string
	}{
		{"List invoices", "Returns invoices. Newest first.", "List invoices"},
		{"", "<p>Returns a list of your invoices. The invoices are returned sorted.</p>", "<p>Returns a list of your invoices"},
		{"", "Deletes a coupon.\n\nYou can still use it.", "Deletes a coupon."},
		{"", "", ""},
	} {
		if got := headline(&spec.Tool{Title: c.title, Description: c.description}); got != c.want {
			t.Errorf("headline(%q, %q) = %q, want %q", c.title, c.description, got, c.want)
		}
	}
}
