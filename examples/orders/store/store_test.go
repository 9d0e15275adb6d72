package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "orders test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenSeedsDemoOrders(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for _, c := range []struct{ owner, id, status string }{
		{"alice", "A1001", StatusShipped},
		{"alice", "A1003", StatusDelivered},
		{"bob", "A1002", StatusPending},
	} {
		o, err := s.Order(ctx, c.owner, c.id)
		if err != nil {
			t.Fatalf("Order(%s, %s): %v", c.owner, c.id, err)
		}
		if o.Status != c.status {
			t.Errorf("Order(%s, %s).Status = %s, want %s", c.owner, c.id, o.Status, c.status)
		}
	}
}

func TestReopenKeepsDataAndDoesNotReseed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orders.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := s.CreateReturn(ctx, "alice", "A1001", "too small", "k1")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.Returns(ctx, "alice", "A1001")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != r.ID {
		t.Fatalf("returns after reopen = %+v, want the one return %s", list, r.ID)
	}
	page, _, err := s.Orders(ctx, OrderQuery{Owner: "alice", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 2 {
		t.Fatalf("alice has %d orders after reopen, want 2", len(page))
	}
}

func TestOtherOwnersOrderIsNotFound(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	_, errOther := s.Order(ctx, "alice", "A1002")
	_, errMissing := s.Order(ctx, "alice", "A9999")
	if !errors.Is(errOther, ErrNotFound) || !errors.Is(errMissing, ErrNotFound) {
		t.Fatalf("other owner's order: %v, missing order: %v; want ErrNotFound for both", errOther, errMissing)
	}
	if _, _, err := s.CreateReturn(ctx, "alice", "A1002", "broken", "k"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("CreateReturn on bob's order as alice: %v, want ErrNotFound", err)
	}
}

func TestOrdersPagesAndFilters(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()

	first, more, err := s.Orders(ctx, OrderQuery{Owner: "alice", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 1 || first[0].ID != "A1001" || !more {
		t.Fatalf("first page = %+v, more=%v; want [A1001], more", first, more)
	}
	second, more, err := s.Orders(ctx, OrderQuery{Owner: "alice", After: first[0].ID, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != 1 || second[0].ID != "A1003" || more {
		t.Fatalf("second page = %+v, more=%v; want [A1003], no more", second, more)
	}

	shipped, _, err := s.Orders(ctx, OrderQuery{Owner: "alice", Status: StatusShipped, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(shipped) != 1 || shipped[0].ID != "A1001" {
		t.Fatalf("alice's shipped orders = %+v, want [A1001]", shipped)
	}
	pending, _, err := s.Orders(ctx, OrderQuery{Owner: "alice", Status: StatusPending, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 0 {
		t.Fatalf("alice's pending orders = %+v, want none (A1002 is bob's)", pending)
	}
}

func TestOrderIDsCompletesOwnOrdersOnly(t *testing.T) {
	s := openTemp(t)
	ids, err := s.OrderIDs(context.Background(), "alice", "A100", 10)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ids) != "[A1001 A1003]" {
		t.Fatalf("OrderIDs(alice, A100) = %v, want [A1001 A1003]", ids)
	}
}

func TestCreateReturnIsIdempotentPerKey(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	r1, created, err := s.CreateReturn(ctx, "alice", "A1001", "wrong size", "key-1")
	if err != nil || !created {
		t.Fatalf("first CreateReturn: created=%v err=%v", created, err)
	}
	if r1.Status != ReturnRequested || r1.OrderID != "A1001" {
		t.Fatalf("first return = %+v", r1)
	}
	r2, created, err := s.CreateReturn(ctx, "alice", "A1001", "wrong size", "key-1")
	if err != nil || created || r2.ID != r1.ID {
		t.Fatalf("retry: %+v created=%v err=%v; want the same return %s, not created", r2, created, err, r1.ID)
	}
	r3, created, err := s.CreateReturn(ctx, "alice", "A1001", "second item", "key-2")
	if err != nil || !created || r3.ID == r1.ID {
		t.Fatalf("new key: %+v created=%v err=%v; want a new return", r3, created, err)
	}
	if _, _, err := s.CreateReturn(ctx, "alice", "A1003", "wrong size", "key-1"); !errors.Is(err, ErrKeyReused) {
		t.Fatalf("key reused for another order: %v, want ErrKeyReused", err)
	}
	// Keys are per owner: bob may use alice's key for his own order.
	if _, created, err := s.CreateReturn(ctx, "bob", "A1002", "late", "key-1"); err != nil || !created {
		t.Fatalf("bob with alice's key: created=%v err=%v; want a new return", created, err)
	}
}

func TestConcurrentCreateReturnSameKeyCreatesOne(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	const n = 16
	var (
		wg      sync.WaitGroup
		ids     [n]string
		created [n]bool
		errs    [n]error
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, c, err := s.CreateReturn(ctx, "alice", "A1003", "damaged", "same-key")
			ids[i], created[i], errs[i] = r.ID, c, err
		}()
	}
	wg.Wait()
	nCreated := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		if ids[i] != ids[0] {
			t.Fatalf("call %d got return %s, call 0 got %s", i, ids[i], ids[0])
		}
		if created[i] {
			nCreated++
		}
	}
	if nCreated != 1 {
		t.Fatalf("%d calls report creating the return, want exactly 1", nCreated)
	}
	list, err := s.Returns(ctx, "alice", "A1003")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("%d returns stored, want 1", len(list))
	}
}
