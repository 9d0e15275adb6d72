// Package orders is the hand-written half of the orders example: a Service
// that implements the Handler interface generated into ./ordersmcp from
// mcpgen.yaml, on top of the SQLite store in ./store.
//
// Every method acts for the caller named by runtime.IdentityFrom(ctx) and
// only ever sees that caller's orders: another customer's order is reported
// exactly like a missing one.
package orders

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

// PolicyURI is the URI of the after-sales policy resource.
const PolicyURI = "policy://after-sales/current"

// PolicyText is the after-sales policy served at PolicyURI. Its byte length
// is the resource size declared in mcpgen.yaml (a test keeps them equal).
const PolicyText = `After-sales policy (current)
- Returns are accepted within 30 days of delivery.
- Refunds go to the original payment method within 5 business days.
- Damaged items are replaced free of charge.
- Cancelled orders cannot be returned.
`

// cursorPrefix marks search_orders cursors, so that a stray string is
// rejected instead of silently restarting the listing.
const cursorPrefix = "after:"

// Service implements ordersmcp.Handler on a Store.
type Service struct {
	store Store
	// exportCost is the time export_order_history spends per order.
	exportCost time.Duration
}

var _ ordersmcp.Handler = (*Service)(nil)

// NewService returns a Service that reads and writes st.
func NewService(st Store) *Service { return &Service{store: st, exportCost: DefaultExportCost} }

// errUnavailable is what a caller is told when the store fails: the
// detail, a database error, is for the server's log, not for the model.
var errUnavailable = errors.New("the order service is unavailable right now; try again in a moment")

// storeFailure logs a store error on the server and returns errUnavailable.
func storeFailure(ctx context.Context, err error) error {
	slog.ErrorContext(ctx, "orders store failed", "err", err)
	return errUnavailable
}

// caller returns the subject of the verified caller of the request.
func caller(ctx context.Context) (string, error) {
	id, ok := runtime.IdentityFrom(ctx)
	if !ok || id.Subject == "" {
		return "", errors.New("no signed-in customer: the request carries no identity")
	}
	return id.Subject, nil
}

// GetOrderStatus reports the status of one of the caller's orders. A missing
// order and another customer's order both answer found: false.
func (s *Service) GetOrderStatus(ctx context.Context, in ordersmcp.GetOrderStatusInput) (ordersmcp.GetOrderStatusOutput, error) {
	user, err := caller(ctx)
	if err != nil {
		return ordersmcp.GetOrderStatusOutput{}, err
	}
	out := ordersmcp.GetOrderStatusOutput{OrderID: in.OrderID}
	o, err := s.store.Order(ctx, user, in.OrderID)
	if errors.Is(err, store.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return ordersmcp.GetOrderStatusOutput{}, storeFailure(ctx, err)
	}
	status := ordersmcp.OrderStatus(o.Status)
	out.Found = true
	out.Status = &status
	return out, nil
}

// SearchOrders lists a page of the caller's orders in id order. The
// next_cursor it returns is opaque to clients: it encodes the last order id
// of the page.
func (s *Service) SearchOrders(ctx context.Context, in ordersmcp.SearchOrdersInput) (ordersmcp.SearchOrdersOutput, error) {
	user, err := caller(ctx)
	if err != nil {
		return ordersmcp.SearchOrdersOutput{}, err
	}
	q := store.OrderQuery{Owner: user, Limit: int(in.Limit)}
	if in.Status != nil {
		q.Status = string(*in.Status)
	}
	if in.Cursor != nil {
		if q.After, err = decodeCursor(*in.Cursor); err != nil {
			return ordersmcp.SearchOrdersOutput{}, err
		}
	}
	page, more, err := s.store.Orders(ctx, q)
	if err != nil {
		return ordersmcp.SearchOrdersOutput{}, storeFailure(ctx, err)
	}
	// A non-nil slice: "orders" is required, so an empty page is [].
	out := ordersmcp.SearchOrdersOutput{Orders: make([]ordersmcp.SearchOrdersOutputOrdersItem, 0, len(page))}
	for _, o := range page {
		out.Orders = append(out.Orders, ordersmcp.SearchOrdersOutputOrdersItem{
			OrderID: o.ID,
			Status:  ordersmcp.OrderStatus(o.Status),
		})
	}
	if more {
		next := encodeCursor(page[len(page)-1].ID)
		out.NextCursor = &next
	}
	return out, nil
}

func encodeCursor(afterID string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + afterID))
}

func decodeCursor(cursor string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	after, ok := strings.CutPrefix(string(raw), cursorPrefix)
	if err != nil || !ok {
		return "", errors.New("cursor: not a next_cursor returned by search_orders")
	}
	return after, nil
}

// CreateReturn requests a return of one of the caller's orders, once per
// idempotency_key: a retry with the same key answers the return made the
// first time. An order the caller cannot see is an error.
func (s *Service) CreateReturn(ctx context.Context, in ordersmcp.CreateReturnInput) (ordersmcp.CreateReturnOutput, error) {
	user, err := caller(ctx)
	if err != nil {
		return ordersmcp.CreateReturnOutput{}, err
	}
	r, _, err := s.store.CreateReturn(ctx, user, in.OrderID, in.Reason, in.IdempotencyKey)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return ordersmcp.CreateReturnOutput{}, fmt.Errorf("order_id: no order %s", in.OrderID)
	case errors.Is(err, store.ErrKeyReused):
		return ordersmcp.CreateReturnOutput{}, fmt.Errorf("idempotency_key: %q was already used for a return of another order", in.IdempotencyKey)
	case err != nil:
		return ordersmcp.CreateReturnOutput{}, storeFailure(ctx, err)
	}
	return ordersmcp.CreateReturnOutput{
		ReturnID: r.ID,
		OrderID:  r.OrderID,
		Status:   ordersmcp.ReturnStatus(r.Status),
	}, nil
}

// confirmSchema is the form confirm_return shows the customer.
const confirmSchema = `{"type":"object","properties":{"confirm":{"type":"boolean","title":"Request this return?"}},"required":["confirm"]}`

// ConfirmReturn asks the customer to confirm, then files the return like
// CreateReturn. The same code serves both protocol eras: a 2025-11-25
// client gets an elicitation/create request while this call waits; a
// 2026-07-28 client gets input_required and retries, so the method runs
// again from the start and Elicit then returns the answer. Everything
// before Elicit is therefore read-only, and the write after it is
// idempotent per key.
func (s *Service) ConfirmReturn(ctx context.Context, in ordersmcp.ConfirmReturnInput) (ordersmcp.ConfirmReturnOutput, error) {
	user, err := caller(ctx)
	if err != nil {
		return ordersmcp.ConfirmReturnOutput{}, err
	}
	// Ask only about an order the caller can see.
	if _, err := s.store.Order(ctx, user, in.OrderID); errors.Is(err, store.ErrNotFound) {
		return ordersmcp.ConfirmReturnOutput{}, fmt.Errorf("order_id: no order %s", in.OrderID)
	} else if err != nil {
		return ordersmcp.ConfirmReturnOutput{}, storeFailure(ctx, err)
	}
	answer, err := runtime.Elicit(ctx, "confirm", runtime.ElicitRequest{
		Message: fmt.Sprintf("Request a return of order %s (reason: %s)?", in.OrderID, in.Reason),
		Schema:  confirmSchema,
	})
	if err != nil {
		return ordersmcp.ConfirmReturnOutput{}, err
	}
	if answer.Action != "accept" || answer.Content["confirm"] != true {
		return ordersmcp.ConfirmReturnOutput{Confirmed: false}, nil
	}
	r, err := s.CreateReturn(ctx, ordersmcp.CreateReturnInput{OrderID: in.OrderID, Reason: in.Reason, IdempotencyKey: in.IdempotencyKey})
	if err != nil {
		return ordersmcp.ConfirmReturnOutput{}, err
	}
	status := r.Status
	return ordersmcp.ConfirmReturnOutput{Confirmed: true, ReturnID: &r.ReturnID, Status: &status}, nil
}

// ReadAfterSalesPolicy returns the after-sales policy text.
func (s *Service) ReadAfterSalesPolicy(ctx context.Context) ([]runtime.ResourceContents, error) {
	return []runtime.ResourceContents{{URI: PolicyURI, MimeType: "text/plain", Text: PolicyText}}, nil
}

// orderSummary is the JSON document of the order_summary resource.
type orderSummary struct {
	OrderID    string          `json:"order_id"`
	Status     string          `json:"status"`
	TotalCents int64           `json:"total_cents"`
	Returns    []returnSummary `json:"returns"`
}

type returnSummary struct {
	ReturnID string `json:"return_id"`
	Status   string `json:"status"`
	Reason   string `json:"reason"`
}

// ReadOrderSummary returns a JSON summary of one of the caller's orders and
// its returns. Another customer's order is "resource not found", as a
// missing one is.
func (s *Service) ReadOrderSummary(ctx context.Context, in ordersmcp.OrderSummaryParams) ([]runtime.ResourceContents, error) {
	uri := "order://" + in.OrderID + "/summary"
	user, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.store.Order(ctx, user, in.OrderID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, runtime.ResourceNotFound(uri)
	}
	if err != nil {
		return nil, storeFailure(ctx, err)
	}
	returns, err := s.store.Returns(ctx, user, o.ID)
	if err != nil {
		return nil, storeFailure(ctx, err)
	}
	sum := orderSummary{OrderID: o.ID, Status: o.Status, TotalCents: o.Total, Returns: make([]returnSummary, 0, len(returns))}
	for _, r := range returns {
		sum.Returns = append(sum.Returns, returnSummary{ReturnID: r.ID, Status: r.Status, Reason: r.Reason})
	}
	b, err := json.Marshal(sum)
	if err != nil {
		return nil, err
	}
	return []runtime.ResourceContents{{URI: uri, MimeType: "application/json", Text: string(b)}}, nil
}

// GetReplyOrderQuestion renders the reply_order_question prompt for one of
// the caller's orders; an order the caller cannot see is an invalid argument.
func (s *Service) GetReplyOrderQuestion(ctx context.Context, in ordersmcp.ReplyOrderQuestionArgs) (*runtime.PromptResult, error) {
	user, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.store.Order(ctx, user, in.OrderID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, runtime.InvalidParams("order_id: no order %s", in.OrderID)
	}
	if err != nil {
		return nil, storeFailure(ctx, err)
	}
	text := fmt.Sprintf("A customer asks about order %s (status %s). "+
		"Answer their question politely and briefly. Quote the after-sales policy (%s) "+
		"when they ask about returns or refunds, and offer the create_return tool if a return applies.",
		o.ID, o.Status, PolicyURI)
	return &runtime.PromptResult{
		Description: "Reply to a question about order " + o.ID,
		Messages:    []runtime.PromptMessage{{Role: "user", Content: runtime.TextContent(text)}},
	}, nil
}

// CompleteReplyOrderQuestionOrderID completes the prompt's order_id with the
// caller's own order ids.
func (s *Service) CompleteReplyOrderQuestionOrderID(ctx context.Context, req runtime.CompleteRequest) (runtime.Completion, error) {
	return s.completeOrderID(ctx, req)
}

// CompleteOrderSummaryOrderID completes the order_summary template's
// order_id with the caller's own order ids.
func (s *Service) CompleteOrderSummaryOrderID(ctx context.Context, req runtime.CompleteRequest) (runtime.Completion, error) {
	return s.completeOrderID(ctx, req)
}

// maxCompletions is the most values a completion answer may carry.
const maxCompletions = 100

func (s *Service) completeOrderID(ctx context.Context, req runtime.CompleteRequest) (runtime.Completion, error) {
	user, err := caller(ctx)
	if err != nil {
		return runtime.Completion{}, err
	}
	// One more than the cap tells whether the list was cut.
	ids, err := s.store.OrderIDs(ctx, user, req.Value, maxCompletions+1)
	if err != nil {
		return runtime.Completion{}, storeFailure(ctx, err)
	}
	if len(ids) > maxCompletions {
		return runtime.Completion{Values: ids[:maxCompletions], HasMore: true}, nil
	}
	return runtime.Completion{Values: ids, Total: len(ids)}, nil
}
