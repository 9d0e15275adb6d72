// Package tool is the one tool every implementation serves in the
// side-by-side benchmark: its JSON Schemas (the ones mcpgen generated, so
// that the peers validate exactly the same constraints) and its answer.
package tool

import (
	"context"
	_ "embed"
	"strconv"

	"github.com/mcpgen-dev/mcpgen/bench/tool/benchmcp"
)

//go:generate go tool mcpgen generate -f mcpgen.yaml

// Name is the tool's name.
const Name = "get_order_status"

// InputSchema and OutputSchema are the 2020-12 schemas mcpgen generated
// from mcpgen.yaml; the go-sdk and mcp-go servers register the same bytes.
var (
	//go:embed benchmcp/schemas/get_order_status.input.schema.json
	InputSchema []byte
	//go:embed benchmcp/schemas/get_order_status.output.schema.json
	OutputSchema []byte
)

// Input mirrors benchmcp.GetOrderStatusInput for the peers, which decode
// with encoding/json.
type Input struct {
	OrderID  string `json:"order_id"`
	Quantity int64  `json:"quantity"`
	Express  *bool  `json:"express,omitempty"`
}

// Output mirrors benchmcp.GetOrderStatusOutput.
type Output struct {
	Found   bool    `json:"found"`
	OrderID string  `json:"order_id"`
	Status  *string `json:"status,omitempty"`
	Items   int64   `json:"items"`
}

// Shipped is the status every answer carries.
const Shipped = "SHIPPED"

// Items is the answer's item count for a quantity: doubled for express
// orders, so that the optional input changes the output.
func Items(quantity int64, express bool) int64 {
	if express {
		return 2 * quantity
	}
	return quantity
}

// AppendExpected appends the compact structuredContent every implementation
// must answer for (orderID, quantity) without express, in the key order of
// the schema: the drivers compare responses against it.
func AppendExpected(b []byte, orderID string, quantity int64) []byte {
	b = append(b, `{"found":true,"order_id":"`...)
	b = append(b, orderID...)
	b = append(b, `","status":"`+Shipped+`","items":`...)
	b = strconv.AppendInt(b, Items(quantity, false), 10)
	return append(b, '}')
}

// Handler implements the generated benchmcp.Handler: mcpgen's side.
type Handler struct{ benchmcp.UnimplementedHandler }

// GetOrderStatus answers from memory.
func (Handler) GetOrderStatus(ctx context.Context, in benchmcp.GetOrderStatusInput) (benchmcp.GetOrderStatusOutput, error) {
	status := benchmcp.OrderStatusShipped
	return benchmcp.GetOrderStatusOutput{
		Found:   true,
		OrderID: in.OrderID,
		Status:  &status,
		Items:   Items(in.Quantity, in.Express != nil && *in.Express),
	}, nil
}
