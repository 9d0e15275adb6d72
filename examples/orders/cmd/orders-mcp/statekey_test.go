package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

func TestParseStateKey(t *testing.T) {
	want := []byte("0123456789abcdef")
	for _, s := range []string{
		"30313233343536373839616263646566", // hex
		"MDEyMzQ1Njc4OWFiY2RlZg==",         // base64
		"MDEyMzQ1Njc4OWFiY2RlZg",           // unpadded base64
	} {
		got, err := parseStateKey(s)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("parseStateKey(%q) = %q, %v; want %q", s, got, err, want)
		}
	}
	for _, s := range []string{"not a key!", "00ff", "c2hvcnQ="} {
		if _, err := parseStateKey(s); err == nil {
			t.Errorf("parseStateKey(%q) accepted", s)
		}
	}
}

// A bad key from the flag or the environment stops the process before it
// serves with a key other replicas do not share.
func TestStateKeyFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  string
	}{
		{args: []string{"--state-key", "short"}},
		{env: "zz"},
	} {
		var stderr strings.Builder
		getenv := func(k string) string {
			if k == "ORDERS_STATE_KEY" {
				return c.env
			}
			return ""
		}
		args := append([]string{"--db", t.TempDir() + "/o.db"}, c.args...)
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr, getenv); code != 2 || !strings.Contains(stderr.String(), "--state-key") {
			t.Errorf("%q env %q: exit %d, want 2 (%s)", c.args, c.env, code, stderr.String())
		}
	}
}
