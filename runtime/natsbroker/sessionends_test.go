package natsbroker_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// TestSessionEndedEverywhere ends a 2025-11-25 session through one replica
// and checks that every replica refuses its id from then on: one that
// served it, one started afterwards, and one that held a copy but was cut
// off from the broker when the session ended (once it is back).
func TestSessionEndedEverywhere(t *testing.T) {
	ns := startNATS(t, 0)
	link := newTCPLink(t, ns.Addr().String())
	a, b := startReplica(t, ns.ClientURL(), io.Discard), startReplica(t, ns.ClientURL(), io.Discard)
	c := startReplica(t, "nats://"+link.addr(), io.Discard)
	waitFor(t, func() bool { return a.broker.Connected() && b.broker.Connected() && c.broker.Connected() })

	cl := &legacyClient{t: t, url: a.ts.URL}
	cl.initialize()
	// Every replica serves the session, so each holds a copy.
	for i, r := range []*replica{a, b, c} {
		on := &legacyClient{t: t, url: r.ts.URL, sid: cl.sid}
		if m := on.call(i+1, "tools/call", `{"name":"count","arguments":{}}`); !strings.Contains(string(m.Result), `"ok":true`) {
			t.Fatalf("replica %d: %s", i, m.Result)
		}
	}

	link.cut()
	waitFor(t, func() bool { return !c.broker.Connected() })
	del, _ := http.NewRequest(http.MethodDelete, a.ts.URL, nil)
	del.Header.Set("Mcp-Session-Id", cl.sid)
	resp, err := http.DefaultClient.Do(del)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}

	status := func(r *replica) int {
		on := &legacyClient{t: t, url: r.ts.URL, sid: cl.sid}
		resp := on.post(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"count","arguments":{}}}`)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status(a); got != http.StatusNotFound {
		t.Errorf("the replica that took the DELETE answers %d, want 404", got)
	}
	waitFor(t, func() bool { return status(b) == http.StatusNotFound })
	// A replica started after the end never saw the message: the record
	// in the broker tells it.
	d := startReplica(t, ns.ClientURL(), io.Discard)
	waitFor(t, func() bool { return d.broker.Connected() })
	if got := status(d); got != http.StatusNotFound {
		t.Errorf("a replica started after the DELETE answers %d, want 404", got)
	}
	// The replica that was cut off still holds its copy; once back, it
	// learns of the end from the record and drops it.
	link.restore()
	waitFor(t, func() bool { return c.broker.Connected() })
	waitFor(t, func() bool { return status(c) == http.StatusNotFound })
}

// TestSessionEndsWithoutJetStream: on a NATS server without JetStream, an
// end still reaches the replicas connected at the time.
func TestSessionEndsWithoutJetStream(t *testing.T) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(ns.Shutdown)
	logs := &syncWriter{b: &strings.Builder{}}
	a, b := startReplica(t, ns.ClientURL(), logs), startReplica(t, ns.ClientURL(), io.Discard)
	waitFor(t, func() bool { return a.broker.Connected() && b.broker.Connected() })
	cl := &legacyClient{t: t, url: a.ts.URL}
	cl.initialize()
	onB := &legacyClient{t: t, url: b.ts.URL, sid: cl.sid}
	if m := onB.call(1, "tools/call", `{"name":"count","arguments":{}}`); !strings.Contains(string(m.Result), `"ok":true`) {
		t.Fatalf("replica b: %s", m.Result)
	}
	del, _ := http.NewRequest(http.MethodDelete, a.ts.URL, nil)
	del.Header.Set("Mcp-Session-Id", cl.sid)
	resp, err := http.DefaultClient.Do(del)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitFor(t, func() bool {
		resp := onB.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		resp.Body.Close()
		return resp.StatusCode == http.StatusNotFound
	})
	if !strings.Contains(logs.String(), "record of ended sessions cannot be used") {
		t.Errorf("no warning about the missing record:\n%s", logs.String())
	}
}

// tcpLink forwards TCP connections to a target and can be cut (every
// connection closed, new ones refused) and restored on the same address.
type tcpLink struct {
	t      *testing.T
	target string

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
}

func newTCPLink(t *testing.T, target string) *tcpLink {
	l := &tcpLink{t: t, target: target}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.serve(ln)
	t.Cleanup(l.cut)
	return l
}

func (l *tcpLink) addr() string { return l.ln.Addr().String() }

func (l *tcpLink) serve(ln net.Listener) {
	l.mu.Lock()
	l.ln = ln
	l.mu.Unlock()
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", l.target)
			if err != nil {
				in.Close()
				continue
			}
			l.mu.Lock()
			l.conns = append(l.conns, in, out)
			l.mu.Unlock()
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()
}

// cut closes the listener and every connection.
func (l *tcpLink) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ln.Close()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

// restore listens again on the same address.
func (l *tcpLink) restore() {
	ln, err := net.Listen("tcp", l.addr())
	if err != nil {
		l.t.Fatal(err)
	}
	l.serve(ln)
}
