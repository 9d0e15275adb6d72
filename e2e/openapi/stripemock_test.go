package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Stripe's document is too much for Prism: every operation's error
// response reaches most of its schemas, so even a one-operation pruned
// copy takes Prism many CPU-minutes to load. Stripe publishes its own
// validating mock, stripe-mock (github.com/stripe/stripe-mock), which
// loads the whole document in seconds and validates each request's
// parameters and body against it: a request it refuses is answered 400
// (401 for a missing key, 404 for an unknown route) with an
// "invalid_request_error" and a message, which it also logs. The sweep
// uses it for documents that say they are Stripe's (info carries
// x-stripeSpecFilename).
//
// Install: GOBIN=DIR go install github.com/stripe/stripe-mock@v0.203.0, then
// put DIR on PATH or name the binary in MCPGEN_STRIPE_MOCK.

// mockStripe names the stripe-mock kind of sweep chunk.
const mockStripe = "stripe-mock"

// isStripeDocument reports whether doc (decoded) is Stripe's description.
func isStripeDocument(doc map[string]any) bool {
	info, _ := doc["info"].(map[string]any)
	_, ok := info["x-stripeSpecFilename"]
	return ok
}

// stripeMockBinary is $MCPGEN_STRIPE_MOCK, or stripe-mock on PATH.
func stripeMockBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("MCPGEN_STRIPE_MOCK"); bin != "" {
		return bin
	}
	bin, err := exec.LookPath("stripe-mock")
	if err != nil {
		t.Fatalf("the Stripe sweep needs stripe-mock: GOBIN=DIR go install github.com/stripe/stripe-mock@v0.203.0, then put DIR on PATH or set MCPGEN_STRIPE_MOCK to the binary (%v)", err)
	}
	return bin
}

// tryStartStripeMock starts stripe-mock serving doc (a JSON file) on a
// loopback port, with its bundled fixtures (they shape the answers, not
// the validation). Its answers to the sweep's calls are judged by
// parseStripeMockLog, and the server must send a test key, which is all
// stripe-mock checks of the credentials.
func tryStartStripeMock(t *testing.T, doc string) (*prism, error) {
	t.Helper()
	bin := stripeMockBinary(t)
	addr := freeAddr(t)
	// stripe-mock serves HTTPS too unless told where: a second loopback
	// port, not its default on every interface.
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http-addr", addr, "-https-addr", freeAddr(t), "-spec", doc)
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	stop := sync.OnceFunc(func() { cancel(); <-exited })
	t.Cleanup(stop)
	if err := waitListening("http://"+addr, exited, 5*time.Minute); err != nil {
		stop()
		if errors.Is(err, errExited) {
			err = fmt.Errorf("stripe-mock exited before listening (%v)", waitErr)
		}
		return nil, fmt.Errorf("stripe-mock %s: %v; its output:\n%s", doc, err, log.String())
	}
	front := httptest.NewServer(emptyFormContentType(&httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(&url.URL{Scheme: "http", Host: addr}) },
	}))
	t.Cleanup(front.Close)
	return &prism{URL: front.URL, log: log, stop: func() { front.Close(); stop() }, judge: parseStripeMockLog}, nil
}

// emptyFormContentType is the sweep's workaround for one strictness of
// stripe-mock: it refuses a POST without a body unless the request says
// Content-Type: application/x-www-form-urlencoded ("Request's
// `Content-Type` header was empty"), where Stripe's API takes it (its
// Python library sent none for years). A POST whose body fields are all
// optional and none given has no body, and the generated server sends no
// Content-Type for a body it does not send; this adds the header to such a
// request, and only to one without a body, before stripe-mock sees it. It
// changes nothing stripe-mock validates.
func emptyFormContentType(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodDelete && r.ContentLength == 0 && r.Header.Get("Content-Type") == "" {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		next.ServeHTTP(w, r)
	})
}

// stripeMockCredentials make the server send a key stripe-mock takes
// ("sk_test_…", as a bearer token or a basic-auth user) for every
// security scheme of the document.
func stripeMockCredentials(creds []string) []string {
	var out []string
	for _, c := range creds {
		switch k, _, _ := strings.Cut(c, "="); {
		case strings.HasSuffix(k, "_TOKEN"), strings.HasSuffix(k, "_USERNAME"), strings.HasSuffix(k, "_API_KEY"):
			out = append(out, k+"=sk_test_mcpgen")
		case strings.HasSuffix(k, "_PASSWORD"):
			out = append(out, k+"=")
		}
	}
	return out
}

// writeJSONCopy writes doc (decoded) as JSON into dir, for a mock that
// reads JSON only.
func writeJSONCopy(t *testing.T, dir, name string, doc map[string]any) string {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".json")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

var stripeMockStatus = regexp.MustCompile(`^Response: elapsed=\S+ status=(\d+)$`)

// parseStripeMockLog reads the part of stripe-mock's log that one call
// produced. stripe-mock logs "Request: METHOD /path" when a request
// arrives; "Request data = …" once it parsed the parameters, just before
// it validates them against the document; each reason it refuses a
// request ("Request validation error: …", "Request coercion error: …",
// "Couldn't parse query/body: …", a Content-Type mismatch); and
// "Response: elapsed=… status=N" last. The request was accepted when it
// got as far as validation and the answer is not a 4xx, which stripe-mock
// gives only to requests it refuses (400 invalid_request_error; 401 for
// a missing or malformed key; 404 for a route the document lacks). A 5xx
// after validation is the mock failing to make its answer (a fixture it
// lacks), not a refusal.
func parseStripeMockLog(log string) prismVerdict {
	var v prismVerdict
	validated := false
	var reasons []string
	for _, line := range strings.Split(log, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "Request: "):
			v.reached = true
			validated, reasons = false, nil
		case strings.HasPrefix(line, "Request data = "):
			validated = true
		case strings.Contains(line, "http: panic serving"):
			// stripe-mock crashed making its answer (a fixture its own
			// copy of the API lacks): after validation, not a refusal.
			if validated {
				v.passed = true
			}
			if v.answer == "" {
				v.answer = "stripe-mock panicked making its answer"
			}
		case stripeMockStatus.MatchString(line):
			status := stripeMockStatus.FindStringSubmatch(line)[1]
			switch {
			case status[0] == '4':
				v.refused = true
				if len(reasons) == 0 {
					reasons = []string{"stripe-mock answered " + status}
				}
				for _, r := range reasons {
					if !slices.Contains(v.violations, r) {
						v.violations = append(v.violations, r)
					}
				}
			case validated:
				v.passed = true
				if status[0] == '5' && v.answer == "" {
					v.answer = "stripe-mock answered " + status + ": " + strings.Join(reasons, "; ")
				}
			case v.answer == "":
				// A 5xx before validation: the route has no answer
				// stripe-mock can make ("Couldn't find 200 response").
				v.answer = "stripe-mock answered " + status + " before validating: " + strings.Join(reasons, "; ")
			}
		default:
			reasons = append(reasons, line)
		}
	}
	return v
}

func TestParseStripeMockLog(t *testing.T) {
	// Lines as stripe-mock v0.203.0 logs them.
	const (
		get     = "Request: GET /v1/customers\n"
		data    = "Request data = map[limit:3]\n"
		ok      = "Response: elapsed=375.656µs status=200\n"
		invalid = "Request validation error: validator 0x112e18555d70 failed: object property 'limit' validation failed: value is not numeric\n"
		refused = "Response: elapsed=382.98µs status=400\n"
	)
	for _, tc := range []struct {
		name       string
		log        string
		accepted   bool
		violations []string
	}{
		{"nothing reached the mock", "", false, nil},
		{"accepted", get + data + ok, true, nil},
		{"refused", get + "Request data = map[limit:abc]\n" + invalid + refused, false,
			[]string{strings.TrimSpace(invalid)}},
		{"a key it does not take", get + "Response: elapsed=10µs status=401\n", false, []string{"stripe-mock answered 401"}},
		{"accepted, no answer made", get + data + "Couldn't generate response: no fixture\n" + "Response: elapsed=1ms status=500\n", true, nil},
		{"no answer in the document, not validated", get + "Couldn't find 200 response in spec\n" + "Response: elapsed=1ms status=500\n", false, nil},
		{"accepted, then stripe-mock panicked", get + data + "2026/12/02 04:57:08 http: panic serving 127.0.0.1:42922: Responding to GET /v1/x:\n" +
			"goroutine 9 [running]:\n", true, nil},
		{"a retry after a refusal", get + data + invalid + refused + get + data + ok, false, []string{strings.TrimSpace(invalid)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := parseStripeMockLog(tc.log)
			if v.accepted() != tc.accepted || !slices.Equal(v.violations, tc.violations) {
				t.Errorf("accepted %v, violations %q; want %v, %q (verdict %+v)", v.accepted(), v.violations, tc.accepted, tc.violations, v)
			}
		})
	}
}

func TestEmptyFormContentType(t *testing.T) {
	var got []string
	h := emptyFormContentType(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.Header.Get("Content-Type"))
	}))
	for _, r := range []*http.Request{
		httptest.NewRequest("POST", "/v1/accounts", nil),
		httptest.NewRequest("POST", "/v1/customers", strings.NewReader("name=x")),
		httptest.NewRequest("GET", "/v1/customers", nil),
		httptest.NewRequest("DELETE", "/v1/customers/c", nil),
	} {
		if r.Body != http.NoBody && r.ContentLength > 0 {
			r.Header.Set("Content-Type", "text/plain")
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	want := []string{"POST application/x-www-form-urlencoded", "POST text/plain", "GET ", "DELETE "}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
