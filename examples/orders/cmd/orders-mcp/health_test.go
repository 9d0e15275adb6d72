package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func getStatus(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// TestHealthAndDrain checks /healthz and /readyz, and that SIGTERM (here:
// the context) turns /readyz to 503 while the server goes on serving for
// --drain-delay, then exits cleanly.
func TestHealthAndDrain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	args := []string{"--db", filepath.Join(t.TempDir(), "orders.db"), "--http", "127.0.0.1:0",
		"--token", "tok-alice=alice", "--drain-delay", "3s"}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, strings.NewReader(""), io.Discard, pw, func(string) string { return "" })
		pw.Close()
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		re := regexp.MustCompile(`url=(http://\S+)/mcp`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var base string
	select {
	case base = <-found:
	case <-time.After(15 * time.Second):
		t.Fatal("orders-mcp did not start")
	}
	if code, body := getStatus(t, base+"/healthz"); code != 200 || body != "ok" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, body := getStatus(t, base+"/readyz"); code != 200 || body != "ready" {
		t.Errorf("/readyz: %d %q", code, body)
	}
	cancel()
	deadline := time.Now().Add(3 * time.Second)
	for {
		code, body := getStatus(t, base+"/readyz")
		if code == 503 && body == "draining" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz while draining: %d %q", code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, _ := getStatus(t, base+"/healthz"); code != 200 {
		t.Errorf("/healthz while draining: %d", code)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("orders-mcp did not stop after the drain delay")
	}
}
