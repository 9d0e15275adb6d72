package orders

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

// A failing store is reported to the caller without its detail: the
// database's error text stays in the server's log.
func TestStoreFailureDoesNotLeak(t *testing.T) {
	ctx := runtime.WithIdentity(context.Background(), runtime.Identity{Subject: "alice"})
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "orders.db"))
	if err != nil {
		t.Fatal(err)
	}
	svc := NewService(st)
	if _, err := svc.GetOrderStatus(ctx, ordersmcp.GetOrderStatusInput{OrderID: "A1001"}); err != nil {
		t.Fatalf("before the failure: %v", err)
	}
	st.Close() // every store call fails from here on

	calls := map[string]func() error{
		"get_order_status": func() error {
			_, err := svc.GetOrderStatus(ctx, ordersmcp.GetOrderStatusInput{OrderID: "A1001"})
			return err
		},
		"search_orders": func() error {
			_, err := svc.SearchOrders(ctx, ordersmcp.SearchOrdersInput{Limit: 10})
			return err
		},
		"create_return": func() error {
			_, err := svc.CreateReturn(ctx, ordersmcp.CreateReturnInput{OrderID: "A1001", Reason: "too big", IdempotencyKey: "k1"})
			return err
		},
		"order_summary": func() error {
			_, err := svc.ReadOrderSummary(ctx, ordersmcp.OrderSummaryParams{OrderID: "A1001"})
			return err
		},
	}
	for name, call := range calls {
		err := call()
		if !errors.Is(err, errUnavailable) {
			t.Errorf("%s: got %v, want errUnavailable", name, err)
		}
		if err != nil && strings.Contains(strings.ToLower(err.Error()), "sql") {
			t.Errorf("%s: the error names the database: %v", name, err)
		}
	}
}
