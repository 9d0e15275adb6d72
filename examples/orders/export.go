package orders

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

// DefaultExportCost is the time export_order_history spends on each order.
// It stands for the real work of an export (rendering, fetching line items
// and invoices from other systems) that this example's store does not have,
// so that a customer with a long history waits seconds, as with a real one.
const DefaultExportCost = time.Second

// exportPage is the number of orders read from the store at a time.
const exportPage = 50

// SetExportCost sets the time export_order_history spends per order
// (DefaultExportCost unless set); tests shorten it.
func (s *Service) SetExportCost(d time.Duration) { s.exportCost = d }

// ExportOrderHistory builds a CSV of the caller's orders. It is declared
// task: optional, so for a client with the tasks extension the call becomes
// a task at once (runtime.StartTask) and the client polls tasks/get;
// tasks/cancel cancels ctx, which stops the export between two orders.
func (s *Service) ExportOrderHistory(ctx context.Context, in ordersmcp.ExportOrderHistoryInput) (ordersmcp.ExportOrderHistoryOutput, error) {
	user, err := caller(ctx)
	if err != nil {
		return ordersmcp.ExportOrderHistoryOutput{}, err
	}
	runtime.StartTask(ctx)
	q := store.OrderQuery{Owner: user, Limit: exportPage}
	if in.Status != nil {
		q.Status = string(*in.Status)
	}
	var b strings.Builder
	b.WriteString("order_id,status,total\n")
	count := 0
	for {
		page, more, err := s.store.Orders(ctx, q)
		if err != nil {
			return ordersmcp.ExportOrderHistoryOutput{}, storeFailure(ctx, err)
		}
		for _, o := range page {
			if err := s.exportWork(ctx); err != nil {
				return ordersmcp.ExportOrderHistoryOutput{}, err
			}
			fmt.Fprintf(&b, "%s,%s,%d.%02d\n", o.ID, o.Status, o.Total/100, o.Total%100)
			count++
		}
		if !more || len(page) == 0 {
			break
		}
		q.After = page[len(page)-1].ID
	}
	return ordersmcp.ExportOrderHistoryOutput{OrderCount: int64(count), CSV: b.String()}, nil
}

// exportWork spends the per-order cost, or returns early when ctx ends.
func (s *Service) exportWork(ctx context.Context) error {
	if s.exportCost <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(s.exportCost)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
