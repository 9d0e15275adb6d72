package upstream

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func clientFor(t *testing.T, h http.HandlerFunc, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	schemes := []Scheme{
		{Name: "key", Type: "apiKey", In: "query", ParamName: "api_key"},
		{Name: "bearer", Type: "http", Scheme: "bearer"},
		{Name: "basic", Type: "http", Scheme: "basic"},
	}
	return NewClient(srv.URL, schemes, append([]Option{WithRetries(2, time.Millisecond)}, opts...)...)
}

func TestRetriesOnlyIdempotentMethods(t *testing.T) {
	for _, tc := range []struct {
		method string
		calls  int32
	}{{"GET", 3}, {"PUT", 3}, {"DELETE", 3}, {"HEAD", 3}, {"OPTIONS", 3}, {"POST", 1}, {"PATCH", 1}} {
		var calls atomic.Int32
		c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(http.StatusServiceUnavailable)
		})
		_, err := c.Do(context.Background(), &Request{Method: tc.method, Path: "/x"})
		var ue *Error
		if !errors.As(err, &ue) || ue.Status != 503 {
			t.Fatalf("%s: err %v, want a 503 Error", tc.method, err)
		}
		if got := calls.Load(); got != tc.calls {
			t.Errorf("%s: %d attempts, want %d", tc.method, got, tc.calls)
		}
	}
}

func TestDoesNotRetryClientErrors(t *testing.T) {
	var calls atomic.Int32
	c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusNotFound)
	})
	c.Do(context.Background(), &Request{Method: "GET", Path: "/x"})
	if calls.Load() != 1 {
		t.Errorf("%d attempts of a 404, want 1", calls.Load())
	}
}

func TestTruncatesWithMarker(t *testing.T) {
	c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, strings.Repeat("a", 100))
	}, WithMaxResponseBytes(10))
	resp, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Text(), strings.Repeat("a", 10)+"…[truncated 90 bytes]"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if err := DecodeJSON(resp, &rawOut{}); err == nil {
		t.Error("a truncated body decoded as the structured output")
	}
}

type rawOut struct{ b []byte }

func (r *rawOut) UnmarshalJSON(b []byte) error { r.b = b; return nil }

func TestErrorMapping(t *testing.T) {
	for _, tc := range []struct {
		name, ct, body string
		status         int
		want           []string
	}{
		{"problem+json", "application/problem+json", `{"type":"about:blank","title":"Bad Request","detail":"name is invalid","errors":[{"pointer":"/name","detail":"must not be empty"}]}`, 400,
			[]string{"400 Bad Request", "name is invalid", "/name: must not be empty"}},
		{"nested error", "application/json", `{"error":{"message":"No such pet","param":"id"}}`, 404, []string{"404 Not Found", "No such pet"}},
		{"field map", "application/json", `{"message":"invalid","errors":{"email":["is taken"]}}`, 422, []string{"422", "invalid", "email: is taken"}},
		{"html", "text/html", `<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>`, 500,
			[]string{"500 Internal Server Error", "502 Bad Gateway Bad Gateway"}},
		{"401", "application/json", `{"message":"token expired"}`, 401, []string{"401 Unauthorized", "credentials", "token expired"}},
		{"403", "application/json", `{"message":"needs admin"}`, 403, []string{"403 Forbidden", "lack the permission", "needs admin"}},
	} {
		e := ErrorFromResponse("t", tc.status, tc.ct, []byte(tc.body))
		msg := e.Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", tc.name, msg, w)
			}
		}
		if strings.Contains(msg, "<") {
			t.Errorf("%s: markup left in %q", tc.name, msg)
		}
	}
	if !ErrorFromResponse("t", 401, "", nil).Unauthorized() || ErrorFromResponse("t", 403, "", nil).Unauthorized() ||
		!ErrorFromResponse("t", 403, "", nil).Forbidden() || ErrorFromResponse("t", 500, "", nil).Forbidden() {
		t.Error("401 and 403 are not told apart")
	}
}

func TestCredentialsPerSchemeAndNeverLeaked(t *testing.T) {
	var got *http.Request
	var logs bytes.Buffer
	c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"message":"bad key"}`)
	}, WithCredentials(Credentials{
		"key":    {APIKey: "s3cr3t-key"},
		"bearer": {Token: "s3cr3t-token"},
	}), WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/p", RawQuery: "a=1",
		Security: [][]string{{"basic"}, {"key", "bearer"}}})
	if got.URL.Query().Get("api_key") != "s3cr3t-key" || got.URL.Query().Get("a") != "1" {
		t.Errorf("query %q lacks the API key or the parameter", got.URL.RawQuery)
	}
	if got.Header.Get("Authorization") != "Bearer s3cr3t-token" {
		t.Errorf("Authorization %q", got.Header.Get("Authorization"))
	}
	for _, text := range []string{err.Error(), logs.String()} {
		if strings.Contains(text, "s3cr3t") {
			t.Errorf("a secret leaked: %q", text)
		}
	}
	var ue *Error
	if !errors.As(err, &ue) || !ue.Unauthorized() {
		t.Errorf("err %v, want a 401", err)
	}
	if s := (Credentials{"k": {APIKey: "s3cr3t"}}); strings.Contains(slogString(s), "s3cr3t") {
		t.Error("credentials print their secrets")
	}
}

func slogString(c Credentials) string {
	var b bytes.Buffer
	slog.New(slog.NewTextHandler(&b, nil)).Info("x", "creds", c["k"])
	return b.String() + c["k"].String()
}

func TestOAuth2ClientCredentialsCachesToken(t *testing.T) {
	var tokenCalls atomic.Int32
	var auth []string
	mux := http.NewServeMux()
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		tokenCalls.Add(1)
		id, secret, _ := r.BasicAuth()
		if id != "cid" || secret != "csecret" || r.FormValue("grant_type") != "client_credentials" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"access_token":"tok1","expires_in":3600}`)
	})
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) { auth = append(auth, r.Header.Get("Authorization")) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := NewClient(srv.URL, []Scheme{{Name: "oauth", Type: "oauth2"}},
		WithCredentials(Credentials{"oauth": {ClientID: "cid", ClientSecret: "csecret", TokenURL: srv.URL + "/token"}}))
	for range 2 {
		if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/api", Security: [][]string{{"oauth"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if tokenCalls.Load() != 1 || len(auth) != 2 || auth[0] != "Bearer tok1" || auth[1] != "Bearer tok1" {
		t.Errorf("token calls %d, Authorization %q", tokenCalls.Load(), auth)
	}
}

func TestCredentialsFromEnv(t *testing.T) {
	env := map[string]string{"MCPGEN_PETSTORE_AUTH_TOKEN": "t", "MCPGEN_API_KEY_API_KEY": "k"}
	got := CredentialsFromEnv(func(k string) string { return env[k] }, "", []Scheme{{Name: "petstore_auth"}, {Name: "api-key"}, {Name: "unset"}})
	if got["petstore_auth"].Token != "t" || got["api-key"].APIKey != "k" || len(got) != 2 {
		t.Errorf("got %d schemes: token %q key %q", len(got), got["petstore_auth"].Token, got["api-key"].APIKey)
	}
}
