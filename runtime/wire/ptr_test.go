package wire

import "testing"

func TestPtr(t *testing.T) {
	p := Ptr("gift")
	if p == nil || *p != "gift" {
		t.Fatalf("Ptr(%q) = %v", "gift", p)
	}
	q := Ptr("gift")
	if p == q {
		t.Error("two calls share one variable")
	}
	if n := Ptr[int64](10); *n != 10 {
		t.Errorf("Ptr[int64](10) = %d", *n)
	}
}
