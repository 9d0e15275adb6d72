package main

import (
	"strings"
	"testing"
)

// The answers of the three implementations as they put them on the wire
// (request id 2, so quantity 3), and answers the benchmark must reject.
func TestCheck(t *testing.T) {
	ok := map[string]string{
		"mcpgen": `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"{\"found\":true,\"order_id\":\"A1001\",\"status\":\"SHIPPED\",\"items\":3}"}],"structuredContent":{"found":true,"order_id":"A1001","status":"SHIPPED","items":3}}}`,
		"gosdk":  `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{}"}],"structuredContent":{"found":true,"items":3,"order_id":"A1001","status":"SHIPPED"},"resultType":"complete"}}`,
		"spaced": `{"jsonrpc":"2.0","id":2,"result":{"structuredContent": {"found": true, "items": 3, "order_id": "A1001", "status": "SHIPPED"}}}`,
	}
	for name, msg := range ok {
		if id, found := responseID([]byte(msg)); !found || id != 2 {
			t.Errorf("%s: id %d, %v", name, id, found)
		}
		if err := check([]byte(msg), 2); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := map[string]string{
		"wrong items":   `{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"found":true,"order_id":"A1001","status":"SHIPPED","items":4}}}`,
		"extra member":  `{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"found":true,"order_id":"A1001","status":"SHIPPED","items":3,"x":1}}}`,
		"tool error":    `{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"found":true,"order_id":"A1001","status":"SHIPPED","items":3},"isError":true}}`,
		"rpc error":     `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}`,
		"no structured": `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`,
	}
	for name, msg := range bad {
		if err := check([]byte(msg), 2); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if id, _ := responseID([]byte(`{"jsonrpc":"2.0","id":12345,"result":{}}`)); id != 12345 {
		t.Errorf("id %d", id)
	}
	if !strings.Contains(string(sseData([]byte("event: message\ndata: {\"id\":1}\n\n"))), `"id":1`) {
		t.Error("sseData")
	}
}
