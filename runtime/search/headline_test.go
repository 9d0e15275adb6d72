package search

import (
	"slices"
	"testing"
)

func TestHeadlineSubject(t *testing.T) {
	for _, c := range []struct {
		headline, head, parent string
		acts                   []string
	}{
		{"List repository collaborators", "collabor", "repositori", []string{"list"}},
		{"Get a repository", "repositori", "", []string{"get"}},
		{"Remove a repository collaborator", "collabor", "repositori", []string{"delete"}},
		{"Create or update a file's contents", "content", "file", []string{"create"}},
		// Stripe's descriptions: tags, filler adjectives, "object".
		{"<p>Creates a new customer object.</p>", "custom", "", []string{"create"}},
		{"<p>Retrieves the details of an existing payout. Supply the unique payout ID.</p>", "payout", "", []string{"get"}},
		{"<p>Returns a list of your invoice items. Invoice items are returned sorted.</p>", "item", "invoic", []string{"list"}},
		{"<p>Retrieves an Issuing <code>Card</code> object.</p>", "card", "issu", []string{"get"}},
		{"Updates the specified refund by setting the values of the parameters passed.", "refund", "", []string{"update"}},
		{"You can delete coupons via the dashboard.", "coupon", "", []string{"delete"}},
		// A headline that does not start with a verb has no subject.
		{"Most credit balance transaction fields are immutable", "", "", nil},
		{"GitHub API Root", "", "", nil},
		{"Delete", "", "", nil},
		{"", "", "", nil},
	} {
		got := headlineSubject(Doc{Title: c.headline})
		if got.head != c.head || got.parent != c.parent || !slices.Equal(got.acts, c.acts) {
			t.Errorf("headlineSubject(%q) = head %q parent %q acts %q, want %q %q %q", c.headline, got.head, got.parent, got.acts, c.head, c.parent, c.acts)
		}
	}
}

func TestNameSubject(t *testing.T) {
	for _, c := range []struct {
		name, head, parent string
		acts               []string
	}{
		// A name that starts with a verb says the subject when the
		// headline does not.
		{"get_order_status", "statu", "order", []string{"get"}},
		{"FetchCallNotification", "notif", "call", []string{"get"}},
		{"create_return", "return", "", []string{"create"}},
		// Stripe's names start with the method, which says no one action.
		{"PostCustomersCustomer", "", "", nil},
		{"orders", "", "", nil},
	} {
		got := headlineSubject(Doc{Name: c.name, Description: "Most fields are immutable."})
		if got.head != c.head || got.parent != c.parent || !slices.Equal(got.acts, c.acts) {
			t.Errorf("headlineSubject(name %q) = head %q parent %q acts %q, want %q %q %q", c.name, got.head, got.parent, got.acts, c.head, c.parent, c.acts)
		}
	}
}

func FuzzHeadlineSubject(f *testing.F) {
	for _, h := range []string{"List repository collaborators", "<p>Returns a list of <code>Card</code> objects.</p>", "Create or",
		"of of of", "Get the details of", "<<a>>", "Delete the ÄÖ straße", "x. y, z: Get a b", "Returns"} {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, headline string) {
		s := headlineSubject(Doc{Title: headline, Name: headline})
		if s.head == "" && (s.parent != "" || s.acts != nil) || s.head != "" && len(s.acts) == 0 {
			t.Fatalf("headlineSubject(%q) = %+v", headline, s)
		}
	})
}
