// Package store keeps the orders scenario's orders and returns in an embedded
// SQLite database (the pure-Go modernc.org/sqlite driver, so no cgo).
//
// Every query takes the owner: a customer can only ever read or change their
// own orders, and an order of another customer is indistinguishable from a
// missing one (ErrNotFound).
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// ErrNotFound is returned for an order that does not exist or belongs to
// another owner. The two cases are deliberately the same error.
var ErrNotFound = errors.New("order not found")

// ErrKeyReused is returned by CreateReturn when an idempotency key already
// names a return for a different order: reusing a key for another request is
// a caller bug, not a retry.
var ErrKeyReused = errors.New("idempotency key already used for another order")

// The order statuses stored in the database (the OrderStatus enum of the spec).
const (
	StatusPending   = "PENDING"
	StatusShipped   = "SHIPPED"
	StatusDelivered = "DELIVERED"
	StatusCancelled = "CANCELLED"
)

// ReturnRequested is the status of a newly created return.
const ReturnRequested = "REQUESTED"

// Order is one order of one owner.
type Order struct {
	ID     string
	Owner  string
	Status string
	// Total is the order total in cents.
	Total int64
}

// Return is a return request for an order.
type Return struct {
	ID             string
	OrderID        string
	Owner          string
	Reason         string
	IdempotencyKey string
	Status         string
}

// Store is an open orders database. It is safe for concurrent use.
type Store struct {
	db     *sql.DB // readers, as many connections as callers
	writer *sql.DB // the one connection that writes
}

const schema = `
CREATE TABLE IF NOT EXISTS orders (
	id     TEXT PRIMARY KEY,
	owner  TEXT NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('PENDING','SHIPPED','DELIVERED','CANCELLED')),
	total  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_owner ON orders (owner, id);
CREATE TABLE IF NOT EXISTS returns (
	id              TEXT PRIMARY KEY,
	order_id        TEXT NOT NULL REFERENCES orders (id),
	owner           TEXT NOT NULL,
	reason          TEXT NOT NULL,
	idempotency_key TEXT NOT NULL,
	status          TEXT NOT NULL,
	UNIQUE (owner, idempotency_key)
);
INSERT OR IGNORE INTO orders (id, owner, status, total) VALUES
	('A1001', 'alice', 'SHIPPED',   4990),
	('A1002', 'bob',   'PENDING',   1250),
	('A1003', 'alice', 'DELIVERED', 8900);
`

// Open opens (creating it if needed) the database file at path, creates the
// tables and seeds the demo orders on first use: A1001 (SHIPPED) and A1003
// (DELIVERED) of alice, A1002 (PENDING) of bob.
func Open(ctx context.Context, path string) (*Store, error) {
	// WAL lets readers run beside the single writer. SQLite admits one writer
	// at a time, so writes go through a pool of one connection: writers in
	// this process queue in Go, where they honour their context, instead of
	// polling for the file lock and failing with SQLITE_BUSY when a busy
	// machine keeps them waiting past the timeout. busy_timeout remains for
	// writers in other processes, and _txlock=immediate takes the write lock
	// when a transaction begins, where that timeout applies.
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate"
	writer, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	writer.SetMaxOpenConns(1)
	// journal_mode is a property of the file: set once, not per connection,
	// since switching it needs a lock that a busy database may not grant.
	if _, err := writer.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		writer.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if _, err := writer.ExecContext(ctx, schema); err != nil {
		writer.Close()
		return nil, fmt.Errorf("create schema in %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &Store{db: db, writer: writer}, nil
}

// Close closes the database.
func (s *Store) Close() error { return errors.Join(s.db.Close(), s.writer.Close()) }

// Order returns the owner's order with the given id, or ErrNotFound.
func (s *Store) Order(ctx context.Context, owner, id string) (Order, error) {
	o := Order{ID: id, Owner: owner}
	err := s.db.QueryRowContext(ctx,
		`SELECT status, total FROM orders WHERE id = ? AND owner = ?`, id, owner,
	).Scan(&o.Status, &o.Total)
	if errors.Is(err, sql.ErrNoRows) {
		return Order{}, ErrNotFound
	}
	if err != nil {
		return Order{}, fmt.Errorf("read order %s: %w", id, err)
	}
	return o, nil
}

// OrderQuery selects a page of an owner's orders, in ascending id order.
type OrderQuery struct {
	Owner string
	// Status keeps only orders with this status; "" keeps all.
	Status string
	// After starts the page after this order id; "" starts at the first.
	After string
	// Limit is the page size (at least 1).
	Limit int
}

// Orders returns one page of orders and whether more orders follow it.
func (s *Store) Orders(ctx context.Context, q OrderQuery) (page []Order, more bool, err error) {
	if q.Limit < 1 {
		return nil, false, fmt.Errorf("list orders: limit %d is not positive", q.Limit)
	}
	// One extra row tells whether another page follows without a COUNT.
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, status, total FROM orders
		WHERE owner = ? AND (? = '' OR status = ?) AND id > ?
		ORDER BY id LIMIT ?`,
		q.Owner, q.Status, q.Status, q.After, q.Limit+1)
	if err != nil {
		return nil, false, fmt.Errorf("list orders: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		o := Order{Owner: q.Owner}
		if err := rows.Scan(&o.ID, &o.Status, &o.Total); err != nil {
			return nil, false, fmt.Errorf("list orders: %w", err)
		}
		page = append(page, o)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("list orders: %w", err)
	}
	if len(page) > q.Limit {
		return page[:q.Limit], true, nil
	}
	return page, false, nil
}

// OrderIDs returns up to limit of the owner's order ids that start with
// prefix, in ascending order, for argument completion.
func (s *Store) OrderIDs(ctx context.Context, owner, prefix string, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id FROM orders WHERE owner = ? AND substr(id, 1, ?) = ?
		ORDER BY id LIMIT ?`, owner, len(prefix), prefix, limit)
	if err != nil {
		return nil, fmt.Errorf("complete order ids: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("complete order ids: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// CreateReturn files a return of the owner's order, once per idempotency
// key: a second call with the same owner and key returns the first return
// (created is then false). It fails with ErrNotFound when the owner has no
// such order and with ErrKeyReused when the key names a return of another
// order.
func (s *Store) CreateReturn(ctx context.Context, owner, orderID, reason, key string) (r Return, created bool, err error) {
	if _, err := s.Order(ctx, owner, orderID); err != nil {
		return Return{}, false, err
	}
	id, err := newReturnID()
	if err != nil {
		return Return{}, false, err
	}
	// One write transaction on the writer connection (see Open), so that
	// concurrent writers, in this process or another, wait their turn. The UNIQUE (owner, idempotency_key) constraint decides the race
	// between concurrent retries: exactly one INSERT adds a row.
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return Return{}, false, fmt.Errorf("create return for %s: %w", orderID, err)
	}
	defer tx.Rollback() // a no-op after Commit
	res, err := tx.ExecContext(ctx, `
		INSERT INTO returns (id, order_id, owner, reason, idempotency_key, status)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (owner, idempotency_key) DO NOTHING`,
		id, orderID, owner, reason, key, ReturnRequested)
	if err != nil {
		return Return{}, false, fmt.Errorf("create return for %s: %w", orderID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return Return{}, false, fmt.Errorf("create return for %s: %w", orderID, err)
	}
	r = Return{Owner: owner, IdempotencyKey: key}
	err = tx.QueryRowContext(ctx, `
		SELECT id, order_id, reason, status FROM returns WHERE owner = ? AND idempotency_key = ?`,
		owner, key).Scan(&r.ID, &r.OrderID, &r.Reason, &r.Status)
	if err != nil {
		return Return{}, false, fmt.Errorf("read return for %s: %w", orderID, err)
	}
	if err := tx.Commit(); err != nil {
		return Return{}, false, fmt.Errorf("create return for %s: %w", orderID, err)
	}
	if r.OrderID != orderID {
		return Return{}, false, ErrKeyReused
	}
	return r, n == 1, nil
}

// Returns lists the returns of the owner's order, oldest first.
func (s *Store) Returns(ctx context.Context, owner, orderID string) ([]Return, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, reason, idempotency_key, status FROM returns
		WHERE owner = ? AND order_id = ? ORDER BY rowid`, owner, orderID)
	if err != nil {
		return nil, fmt.Errorf("list returns of %s: %w", orderID, err)
	}
	defer rows.Close()
	var list []Return
	for rows.Next() {
		r := Return{OrderID: orderID, Owner: owner}
		if err := rows.Scan(&r.ID, &r.Reason, &r.IdempotencyKey, &r.Status); err != nil {
			return nil, fmt.Errorf("list returns of %s: %w", orderID, err)
		}
		list = append(list, r)
	}
	return list, rows.Err()
}

// newReturnID makes a random return id such as R7F3A9C21D4E6B80.
func newReturnID() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make return id: %w", err)
	}
	return "R" + strings.ToUpper(hex.EncodeToString(b[:])), nil
}
