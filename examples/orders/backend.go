package orders

import (
	"context"

	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
)

// Store is what the service needs of its database: store.Store (SQLite,
// embedded, the default) and store.Postgres (shared by replicas on several
// machines) both provide it, with the same errors (store.ErrNotFound,
// store.ErrKeyReused).
type Store interface {
	Order(ctx context.Context, owner, id string) (store.Order, error)
	Orders(ctx context.Context, q store.OrderQuery) (page []store.Order, more bool, err error)
	OrderIDs(ctx context.Context, owner, prefix string, limit int) ([]string, error)
	CreateReturn(ctx context.Context, owner, orderID, reason, key string) (r store.Return, created bool, err error)
	Returns(ctx context.Context, owner, orderID string) ([]store.Return, error)
}

var (
	_ Store = (*store.Store)(nil)
	_ Store = (*store.Postgres)(nil)
)
