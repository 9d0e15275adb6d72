package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// postgresURL is the server the PostgreSQL tests run against:
// $ORDERS_TEST_POSTGRES, as printed by scripts/pg.sh. Without it the tests
// skip, loudly, unless $ORDERS_REQUIRE_POSTGRES is set (CI sets it), in
// which case they fail.
func postgresURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("ORDERS_TEST_POSTGRES")
	if u == "" {
		msg := "NO POSTGRESQL: set ORDERS_TEST_POSTGRES (eval \"$(./scripts/pg.sh)\") to run the PostgreSQL store tests"
		if os.Getenv("ORDERS_REQUIRE_POSTGRES") != "" {
			t.Fatal(msg + "; ORDERS_REQUIRE_POSTGRES is set, so this is a failure")
		}
		t.Skip(msg)
	}
	return u
}

// freshDatabase creates an empty database for one test on the server and
// returns its URL; the database is dropped after the test.
func freshDatabase(t *testing.T) string {
	t.Helper()
	admin := postgresURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connect to %s: %v", admin, err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "orders_test_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		conn.Close(ctx)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		conn.Close(ctx)
	})
	cfg, err := pgx.ParseConfig(admin)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(admin, "/"+cfg.Database+"?", "/"+name+"?", 1)
}

func openPostgres(t *testing.T, url string) *Postgres {
	t.Helper()
	p, err := OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestPostgresBehavesAsSQLite(t *testing.T) {
	p := openPostgres(t, freshDatabase(t))
	ctx := context.Background()
	if err := p.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	o, err := p.Order(ctx, "alice", "A1001")
	if err != nil || o.Status != StatusShipped || o.Total != 4990 {
		t.Fatalf("seeded A1001 = %+v, %v", o, err)
	}
	if _, err := p.Order(ctx, "alice", "A1002"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bob's order as alice: %v, want ErrNotFound", err)
	}
	first, more, err := p.Orders(ctx, OrderQuery{Owner: "alice", Limit: 1})
	if err != nil || len(first) != 1 || first[0].ID != "A1001" || !more {
		t.Fatalf("first page = %+v, more=%v, %v", first, more, err)
	}
	second, more, err := p.Orders(ctx, OrderQuery{Owner: "alice", After: "A1001", Limit: 1})
	if err != nil || len(second) != 1 || second[0].ID != "A1003" || more {
		t.Fatalf("second page = %+v, more=%v, %v", second, more, err)
	}
	shipped, _, err := p.Orders(ctx, OrderQuery{Owner: "alice", Status: StatusShipped, Limit: 10})
	if err != nil || len(shipped) != 1 || shipped[0].ID != "A1001" {
		t.Fatalf("shipped = %+v, %v", shipped, err)
	}
	ids, err := p.OrderIDs(ctx, "alice", "A100", 10)
	if err != nil || fmt.Sprint(ids) != "[A1001 A1003]" {
		t.Fatalf("OrderIDs = %v, %v", ids, err)
	}

	r1, created, err := p.CreateReturn(ctx, "alice", "A1001", "wrong size", "key-1")
	if err != nil || !created || r1.Status != ReturnRequested {
		t.Fatalf("first CreateReturn: %+v created=%v err=%v", r1, created, err)
	}
	r2, created, err := p.CreateReturn(ctx, "alice", "A1001", "wrong size", "key-1")
	if err != nil || created || r2.ID != r1.ID {
		t.Fatalf("retry: %+v created=%v err=%v", r2, created, err)
	}
	if _, _, err := p.CreateReturn(ctx, "alice", "A1003", "x", "key-1"); !errors.Is(err, ErrKeyReused) {
		t.Fatalf("key reused: %v", err)
	}
	if _, _, err := p.CreateReturn(ctx, "alice", "A1002", "x", "key-9"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bob's order: %v", err)
	}
	r3, _, err := p.CreateReturn(ctx, "alice", "A1001", "second", "key-2")
	if err != nil {
		t.Fatal(err)
	}
	list, err := p.Returns(ctx, "alice", "A1001")
	if err != nil || len(list) != 2 || list[0].ID != r1.ID || list[1].ID != r3.ID {
		t.Fatalf("Returns = %+v, %v; want %s then %s", list, err, r1.ID, r3.ID)
	}
}

// TestPostgresReplicasCreateOneReturnPerKey is two replicas (two
// connection pools, opened at once on an empty database) creating a
// return with the same idempotency key concurrently: exactly one row.
func TestPostgresReplicasCreateOneReturnPerKey(t *testing.T) {
	url := freshDatabase(t)
	var a, b *Postgres
	var wg sync.WaitGroup
	var errA, errB error
	wg.Add(2)
	go func() { defer wg.Done(); a, errA = OpenPostgres(context.Background(), url) }()
	go func() { defer wg.Done(); b, errB = OpenPostgres(context.Background(), url) }()
	wg.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("opening twice at once: %v, %v", errA, errB)
	}
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	const n = 16
	ids := make([]string, n)
	created := make([]bool, n)
	errs := make([]error, n)
	for i := range n {
		replica := a
		if i%2 == 1 {
			replica = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, c, err := replica.CreateReturn(ctx, "alice", "A1003", "damaged", "same-key")
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
			t.Fatalf("call %d got %s, call 0 got %s", i, ids[i], ids[0])
		}
		if created[i] {
			nCreated++
		}
	}
	if nCreated != 1 {
		t.Fatalf("%d calls created the return, want 1", nCreated)
	}
	list, err := b.Returns(ctx, "alice", "A1003")
	if err != nil || len(list) != 1 {
		t.Fatalf("%d returns stored (%v), want 1", len(list), err)
	}
}
