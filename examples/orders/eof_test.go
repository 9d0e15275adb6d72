package orders_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnswersRequestsWrittenBeforeEOF runs orders-mcp the way a script
// does (`printf '<initialize>\n<tools/call>\n' | orders-mcp`): stdin holds
// the requests and ends, the slow export included, and the server must
// answer every one of them before it exits.
func TestAnswersRequestsWrittenBeforeEOF(t *testing.T) {
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":` + params + `}`
	}
	modern := func(id, tool, args string) string {
		return call(id, `{"_meta":`+meta+`,"name":"`+tool+`","arguments":`+args+`}`)
	}
	legacy := func(id, tool, args string) string {
		return call(id, `{"name":"`+tool+`","arguments":`+args+`}`)
	}
	const initialize = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}`
	tests := []struct {
		name  string
		lines []string
	}{
		{"2025 handshake", []string{initialize,
			legacy("export", "export_order_history", `{}`),
			legacy("status", "get_order_status", `{"order_id":"A1001"}`)}},
		{"2026-07-28", []string{
			modern("export", "export_order_history", `{}`),
			modern("status", "get_order_status", `{"order_id":"A1001"}`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(serverBin, "--db", filepath.Join(t.TempDir(), "orders.db"), "--export-cost", "300ms")
			cmd.Env = append(os.Environ(), "ORDERS_USER=alice")
			cmd.Stdin = strings.NewReader(strings.Join(tc.lines, "\n") + "\n")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("orders-mcp: %v\n%s", err, stderr.String())
			}
			answered := map[string]response{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 4<<20)
			for sc.Scan() {
				var r response
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					t.Fatalf("invalid output line %q: %v", sc.Text(), err)
				}
				var id string
				json.Unmarshal(r.ID, &id)
				answered[id] = r
			}
			for _, line := range tc.lines {
				var req struct{ ID string }
				json.Unmarshal([]byte(line), &req)
				r, ok := answered[req.ID]
				if !ok {
					t.Errorf("no answer to %q before exit; output:\n%s\nstderr:\n%s", req.ID, out, stderr.String())
					continue
				}
				if r.Error != nil || bytes.Contains(r.Result, []byte(`"isError":true`)) {
					t.Errorf("%q: %s", req.ID, r.Result)
				}
			}
			if !bytes.Contains(answered["export"].Result, []byte(`order_count`)) {
				t.Errorf("the export's answer lacks its result: %s", answered["export"].Result)
			}
		})
	}
}
