package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres keeps the orders and returns in a PostgreSQL database, so that
// replicas on different machines share them. It behaves as Store does,
// method for method. It is safe for concurrent use.
type Postgres struct {
	pool *pgxpool.Pool
}

// pgSchema is schema in PostgreSQL's dialect. The returns' created column
// orders them oldest first (SQLite uses its rowid).
const pgSchema = `
CREATE TABLE IF NOT EXISTS orders (
	id     TEXT PRIMARY KEY,
	owner  TEXT NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('PENDING','SHIPPED','DELIVERED','CANCELLED')),
	total  BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_owner ON orders (owner, id);
CREATE TABLE IF NOT EXISTS returns (
	seq             BIGSERIAL,
	id              TEXT PRIMARY KEY,
	order_id        TEXT NOT NULL REFERENCES orders (id),
	owner           TEXT NOT NULL,
	reason          TEXT NOT NULL,
	idempotency_key TEXT NOT NULL,
	status          TEXT NOT NULL,
	UNIQUE (owner, idempotency_key)
);
INSERT INTO orders (id, owner, status, total) VALUES
	('A1001', 'alice', 'SHIPPED',   4990),
	('A1002', 'bob',   'PENDING',   1250),
	('A1003', 'alice', 'DELIVERED', 8900)
ON CONFLICT (id) DO NOTHING;
`

// pgSchemaLock serialises schema creation between replicas starting at
// once: CREATE TABLE IF NOT EXISTS is not safe against a concurrent twin.
const pgSchemaLock = 7_451_001

// OpenPostgres connects to the PostgreSQL database at url (a postgres://
// URL or a key=value connection string), creates the tables and seeds the
// demo orders on first use, as Open does for SQLite.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, pgSchemaLock); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, pgSchema)
		return err
	})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("create schema in postgres: %w", err)
	}
	return &Postgres{pool: pool}, nil
}

// Close closes the connections.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Ping reports whether the database answers.
func (p *Postgres) Ping(ctx context.Context) error { return p.pool.Ping(ctx) }

// Order returns the owner's order with the given id, or ErrNotFound.
func (p *Postgres) Order(ctx context.Context, owner, id string) (Order, error) {
	o := Order{ID: id, Owner: owner}
	err := p.pool.QueryRow(ctx, `SELECT status, total FROM orders WHERE id = $1 AND owner = $2`, id, owner).
		Scan(&o.Status, &o.Total)
	if errors.Is(err, pgx.ErrNoRows) {
		return Order{}, ErrNotFound
	}
	if err != nil {
		return Order{}, fmt.Errorf("read order %s: %w", id, err)
	}
	return o, nil
}

// Orders returns one page of orders and whether more orders follow it.
func (p *Postgres) Orders(ctx context.Context, q OrderQuery) (page []Order, more bool, err error) {
	if q.Limit < 1 {
		return nil, false, fmt.Errorf("list orders: limit %d is not positive", q.Limit)
	}
	rows, err := p.pool.Query(ctx, `
		SELECT id, status, total FROM orders
		WHERE owner = $1 AND ($2 = '' OR status = $2) AND id > $3
		ORDER BY id COLLATE "C" LIMIT $4`,
		q.Owner, q.Status, q.After, q.Limit+1)
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
// prefix, in ascending order.
func (p *Postgres) OrderIDs(ctx context.Context, owner, prefix string, limit int) ([]string, error) {
	rows, err := p.pool.Query(ctx, `
		SELECT id FROM orders WHERE owner = $1 AND left(id, $2) = $3
		ORDER BY id COLLATE "C" LIMIT $4`, owner, len([]rune(prefix)), prefix, limit)
	if err != nil {
		return nil, fmt.Errorf("complete order ids: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("complete order ids: %w", err)
	}
	return ids, nil
}

// CreateReturn files a return of the owner's order, once per idempotency
// key, with Store.CreateReturn's contract. Replicas may race with the same
// key: the UNIQUE (owner, idempotency_key) constraint lets exactly one
// INSERT add a row, and the others read that row.
func (p *Postgres) CreateReturn(ctx context.Context, owner, orderID, reason, key string) (r Return, created bool, err error) {
	if _, err := p.Order(ctx, owner, orderID); err != nil {
		return Return{}, false, err
	}
	id, err := newReturnID()
	if err != nil {
		return Return{}, false, err
	}
	tag, err := p.pool.Exec(ctx, `
		INSERT INTO returns (id, order_id, owner, reason, idempotency_key, status)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (owner, idempotency_key) DO NOTHING`,
		id, orderID, owner, reason, key, ReturnRequested)
	if err != nil {
		return Return{}, false, fmt.Errorf("create return for %s: %w", orderID, err)
	}
	// The row that won is committed (ours, or the one whose conflict
	// stopped ours), so a plain read sees it.
	r = Return{Owner: owner, IdempotencyKey: key}
	err = p.pool.QueryRow(ctx, `
		SELECT id, order_id, reason, status FROM returns WHERE owner = $1 AND idempotency_key = $2`,
		owner, key).Scan(&r.ID, &r.OrderID, &r.Reason, &r.Status)
	if err != nil {
		return Return{}, false, fmt.Errorf("read return for %s: %w", orderID, err)
	}
	if r.OrderID != orderID {
		return Return{}, false, ErrKeyReused
	}
	return r, tag.RowsAffected() == 1, nil
}

// Returns lists the returns of the owner's order, oldest first.
func (p *Postgres) Returns(ctx context.Context, owner, orderID string) ([]Return, error) {
	rows, err := p.pool.Query(ctx, `
		SELECT id, reason, idempotency_key, status FROM returns
		WHERE owner = $1 AND order_id = $2 ORDER BY seq`, owner, orderID)
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
