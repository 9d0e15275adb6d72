package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// Scheme is a security scheme of the upstream API, as the generated code
// lists it (from the document's securitySchemes).
type Scheme struct {
	Name string
	// Type is apiKey, http, oauth2, openIdConnect or mutualTLS.
	Type string
	// In and ParamName place an apiKey: header, query or cookie.
	In        string
	ParamName string
	// Scheme is the HTTP auth scheme of Type http: bearer or basic.
	Scheme string
}

// SchemeCredentials are the secrets of one security scheme. Which fields
// are used depends on the scheme: APIKey (apiKey), Token (http bearer, or a
// ready-made oauth2/openIdConnect access token), Username and Password
// (http basic), ClientID, ClientSecret, TokenURL and Scopes (oauth2 client
// credentials). They never print: String, GoString and LogValue redact.
type SchemeCredentials struct {
	APIKey       string
	Token        string
	Username     string
	Password     string
	ClientID     string
	ClientSecret string
	TokenURL     string
	Scopes       []string
}

// String redacts the secrets, so that credentials printed by mistake (%v)
// do not leak.
func (SchemeCredentials) String() string { return "[redacted credentials]" }

// GoString redacts the secrets for %#v.
func (c SchemeCredentials) GoString() string { return c.String() }

// LogValue redacts the secrets in log/slog records.
func (c SchemeCredentials) LogValue() slog.Value { return slog.StringValue(c.String()) }

func (c SchemeCredentials) empty() bool {
	return c.APIKey == "" && c.Token == "" && c.Username == "" && c.Password == "" && c.ClientID == ""
}

// Credentials maps security scheme names to their secrets.
type Credentials map[string]SchemeCredentials

// CredentialsFromEnv reads the credentials of schemes from the environment
// through getenv (os.Getenv). The variable of a field is
// <prefix>_<SCHEME>_<FIELD>: prefix "MCPGEN" when empty; SCHEME the scheme
// name upper-cased with every character other than a letter or digit
// turned into "_" (petstore_auth → PETSTORE_AUTH, api-key → API_KEY);
// FIELD one of API_KEY, TOKEN, USERNAME, PASSWORD, CLIENT_ID,
// CLIENT_SECRET, TOKEN_URL, SCOPES (space-separated). Schemes with no
// variable set are left out.
func CredentialsFromEnv(getenv func(string) string, prefix string, schemes []Scheme) Credentials {
	if prefix == "" {
		prefix = "MCPGEN"
	}
	out := Credentials{}
	for _, s := range schemes {
		p := prefix + "_" + EnvName(s.Name) + "_"
		c := SchemeCredentials{
			APIKey: getenv(p + "API_KEY"), Token: getenv(p + "TOKEN"),
			Username: getenv(p + "USERNAME"), Password: getenv(p + "PASSWORD"),
			ClientID: getenv(p + "CLIENT_ID"), ClientSecret: getenv(p + "CLIENT_SECRET"),
			TokenURL: getenv(p + "TOKEN_URL"), Scopes: strings.Fields(getenv(p + "SCOPES")),
		}
		if !c.empty() {
			out[s.Name] = c
		}
	}
	return out
}

// EnvName is a scheme name as it appears in environment variable names.
func EnvName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Client calls the wrapped REST API. Set its fields before the first call;
// it is safe for concurrent use afterwards.
type Client struct {
	// BaseURL is prepended to every operation path.
	BaseURL string
	// HTTP sends the requests; its Timeout bounds each attempt.
	HTTP *http.Client
	// Schemes are the security schemes of the document.
	Schemes []Scheme
	// Credentials are the secrets used when CredentialsFor is nil.
	Credentials Credentials
	// CredentialsFor, when set, maps the caller's verified identity
	// (runtime.IdentityFrom(ctx)) to the upstream credentials of this
	// call, so that each user acts upstream as themselves. A call without
	// an identity gets the zero Identity.
	CredentialsFor func(ctx context.Context, id runtime.Identity) (Credentials, error)
	// MaxResponseBytes caps what is read of a response body; the rest is
	// dropped and the text result ends with "…[truncated N bytes]".
	MaxResponseBytes int64
	// Retries is how many times an idempotent request (GET, HEAD, PUT,
	// DELETE, OPTIONS, TRACE) is retried after a network error, 429 or
	// 502/503/504. Other methods are never retried: the first attempt may
	// have taken effect.
	Retries int
	// RetryBackoff is the delay before the first retry, doubled each time.
	RetryBackoff time.Duration
	// Logger receives one debug record per attempt (method, path, status,
	// never headers, query or bodies, which may carry secrets); nil logs
	// nothing.
	Logger *slog.Logger

	tokens *tokenCache
	// outputs are the compiled output schemas of StructuredResult, made
	// on first use.
	outputsOnce sync.Once
	outputs     *outputCache
}

// Defaults of NewClient.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 1 << 20
	DefaultRetries          = 2
	DefaultRetryBackoff     = 200 * time.Millisecond
)

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sends requests through hc.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) { c.HTTP = hc }
}

// WithCredentials sets the credentials of every call.
func WithCredentials(cr Credentials) Option {
	return func(c *Client) { c.Credentials = cr }
}

// WithCredentialsFor maps the caller's identity to upstream credentials.
func WithCredentialsFor(f func(ctx context.Context, id runtime.Identity) (Credentials, error)) Option {
	return func(c *Client) { c.CredentialsFor = f }
}

// WithMaxResponseBytes caps response bodies.
func WithMaxResponseBytes(n int64) Option {
	return func(c *Client) { c.MaxResponseBytes = n }
}

// WithRetries sets the retries of idempotent requests and the first delay.
func WithRetries(n int, backoff time.Duration) Option {
	return func(c *Client) { c.Retries, c.RetryBackoff = n, backoff }
}

// WithLogger logs attempts (never secrets) to l.
func WithLogger(l *slog.Logger) Option {
	return func(c *Client) { c.Logger = l }
}

// NewClient returns a client of baseURL with a 30 s timeout per
// attempt, a 1 MiB response cap and 2 retries of idempotent requests.
func NewClient(baseURL string, schemes []Scheme, opts ...Option) *Client {
	c := &Client{
		BaseURL:          baseURL,
		HTTP:             &http.Client{Timeout: DefaultTimeout},
		Schemes:          schemes,
		MaxResponseBytes: DefaultMaxResponseBytes,
		Retries:          DefaultRetries,
		RetryBackoff:     DefaultRetryBackoff,
		tokens:           &tokenCache{},
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Request is one operation call, serialised by generated code.
type Request struct {
	// Tool names the tool, for error messages.
	Tool   string
	Method string
	// Path is the operation path with its parameters substituted and
	// escaped (see AppendPathParam).
	Path string
	// RawQuery is the encoded query without "?" (see AppendQueryParam).
	RawQuery string
	// Header holds header parameters; credentials are added by the client.
	Header http.Header
	// Cookies are "name=value" pairs of cookie parameters.
	Cookies []string
	// Body and ContentType are the request body; nil Body sends none.
	Body        []byte
	ContentType string
	// Security lists the alternatives of security requirements, each a set
	// of scheme names; the first alternative whose credentials are all
	// configured is used. Empty: no credentials.
	Security [][]string
}

// Response is a 2xx response of the upstream API.
type Response struct {
	Status      int
	ContentType string
	// Body is at most MaxResponseBytes long.
	Body []byte
	// Truncated is how many bytes of the body were dropped.
	Truncated int64
}

// IsJSON reports whether the response is JSON (application/json or +json).
func (r *Response) IsJSON() bool {
	ct := strings.ToLower(strings.TrimSpace(strings.Split(r.ContentType, ";")[0]))
	return ct == "application/json" || strings.HasSuffix(ct, "+json")
}

// Text is the body as text, with the truncation marker when it was cut.
func (r *Response) Text() string {
	if r.Truncated > 0 {
		return string(r.Body) + TruncationMarker(r.Truncated)
	}
	return string(r.Body)
}

// TextResult is the response as a text tool result: what a tool without
// an output schema, or a non-JSON response, returns.
func (r *Response) TextResult() *runtime.ToolResult {
	return &runtime.ToolResult{Content: []runtime.Content{runtime.TextContent(r.Text())}}
}

// TruncationMarker ends a text cut by the response size cap.
func TruncationMarker(n int64) string { return fmt.Sprintf("…[truncated %d bytes]", n) }

// Error is a non-2xx answer of the upstream API, or a failure to reach it
// (Status 0). Its Error text is what the caller sees in the isError
// result: the status, the message and field details of the error body,
// never the request's credentials.
type Error struct {
	Tool    string
	Status  int
	Message string
	// Fields are per-field details of the error body ("field: message").
	Fields []string
	// Err is the transport error when Status is 0.
	Err error
}

// Unauthorized reports a 401: the upstream API did not accept the
// configured credentials (missing, expired or wrong).
func (e *Error) Unauthorized() bool { return e.Status == http.StatusUnauthorized }

// Forbidden reports a 403: the credentials were accepted but do not allow
// this operation.
func (e *Error) Forbidden() bool { return e.Status == http.StatusForbidden }

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("upstream API")
	switch {
	case e.Status == 0:
		b.WriteString(" unreachable")
		if e.Err != nil {
			b.WriteString(": ")
			b.WriteString(e.Err.Error())
		}
		return b.String()
	case e.Unauthorized():
		b.WriteString(" rejected the server's credentials (401 Unauthorized: missing, expired or wrong)")
	case e.Forbidden():
		b.WriteString(" denied the operation (403 Forbidden: the credentials lack the permission)")
	default:
		fmt.Fprintf(&b, " answered %d %s", e.Status, http.StatusText(e.Status))
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	for _, f := range e.Fields {
		b.WriteString("\n- ")
		b.WriteString(f)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Do sends req, retrying idempotent methods, and returns the 2xx response
// or an *Error.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	creds := c.Credentials
	if c.CredentialsFor != nil {
		id, _ := runtime.IdentityFrom(ctx)
		var err error
		if creds, err = c.CredentialsFor(ctx, id); err != nil {
			return nil, &Error{Tool: req.Tool, Err: fmt.Errorf("no upstream credentials for the caller: %w", err)}
		}
	}
	u := strings.TrimSuffix(c.BaseURL, "/") + req.Path
	retries := 0
	if idempotent(req.Method) {
		retries = c.Retries
	}
	delay := c.RetryBackoff
	for attempt := 0; ; attempt++ {
		resp, err := c.attempt(ctx, req, u, creds)
		if err == nil {
			return resp, nil
		}
		var ue *Error
		retry := attempt < retries && ctx.Err() == nil && errors.As(err, &ue) &&
			(ue.Status == 0 || ue.Status == 429 || ue.Status == 502 || ue.Status == 503 || ue.Status == 504)
		if !retry {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(delay):
		}
		delay *= 2
	}
}

func idempotent(method string) bool {
	switch strings.ToUpper(method) {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

func (c *Client) attempt(ctx context.Context, req *Request, u string, creds Credentials) (*Response, error) {
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	query := req.RawQuery
	hr, err := http.NewRequestWithContext(ctx, req.Method, u, body)
	if err != nil {
		return nil, &Error{Tool: req.Tool, Err: err}
	}
	// Only what the operation declares is sent: no header of the MCP
	// client's request is forwarded.
	for k, vs := range req.Header {
		hr.Header[textproto.CanonicalMIMEHeaderKey(k)] = vs
	}
	if req.Body != nil && req.ContentType != "" {
		hr.Header.Set("Content-Type", req.ContentType)
	}
	hr.Header.Set("Accept", "application/json, */*;q=0.5")
	cookies := append([]string(nil), req.Cookies...)
	if query, cookies, err = c.authorize(ctx, hr, req.Security, creds, query, cookies); err != nil {
		return nil, &Error{Tool: req.Tool, Err: err}
	}
	if len(cookies) > 0 {
		hr.Header.Set("Cookie", strings.Join(cookies, "; "))
	}
	hr.URL.RawQuery = query
	start := time.Now()
	resp, err := c.HTTP.Do(hr)
	if err != nil {
		// url.Error carries the URL, whose query may hold an API key.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		c.log(ctx, req, 0, start)
		return nil, &Error{Tool: req.Tool, Err: err}
	}
	defer resp.Body.Close()
	c.log(ctx, req, resp.StatusCode, start)
	max := c.MaxResponseBytes
	if max <= 0 {
		max = DefaultMaxResponseBytes
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max))
	if err != nil {
		return nil, &Error{Tool: req.Tool, Status: 0, Err: err}
	}
	rest, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<20))
	ct := resp.Header.Get("Content-Type")
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, ErrorFromResponse(req.Tool, resp.StatusCode, ct, data)
	}
	return &Response{Status: resp.StatusCode, ContentType: ct, Body: data, Truncated: rest}, nil
}

func (c *Client) log(ctx context.Context, req *Request, status int, start time.Time) {
	if c.Logger == nil {
		return
	}
	c.Logger.DebugContext(ctx, "upstream call", "tool", req.Tool, "method", req.Method, "path", req.Path,
		"status", status, "duration", time.Since(start))
}

// authorize adds the credentials of the first satisfiable security
// alternative to the request.
func (c *Client) authorize(ctx context.Context, hr *http.Request, security [][]string, creds Credentials, query string, cookies []string) (string, []string, error) {
	if len(security) == 0 {
		return query, cookies, nil
	}
	schemes := map[string]Scheme{}
	for _, s := range c.Schemes {
		schemes[s.Name] = s
	}
	for _, alt := range security {
		ok := true
		for _, name := range alt {
			if _, has := creds[name]; !has {
				ok = false
			}
		}
		if !ok {
			continue
		}
		for _, name := range alt {
			s, cr := schemes[name], creds[name]
			switch {
			case s.Type == "apiKey":
				switch s.In {
				case "header":
					hr.Header.Set(s.ParamName, cr.APIKey)
				case "query":
					query = joinQuery(query, url.QueryEscape(s.ParamName)+"="+url.QueryEscape(cr.APIKey))
				case "cookie":
					cookies = append(cookies, s.ParamName+"="+cr.APIKey)
				}
			case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
				hr.SetBasicAuth(cr.Username, cr.Password)
			case cr.Token != "":
				hr.Header.Set("Authorization", "Bearer "+cr.Token)
			case s.Type == "oauth2" && cr.ClientID != "":
				tok, err := c.tokens.token(ctx, c.HTTP, name, cr)
				if err != nil {
					return "", nil, err
				}
				hr.Header.Set("Authorization", "Bearer "+tok)
			default:
				return "", nil, fmt.Errorf("security scheme %q: no usable credentials configured", name)
			}
		}
		return query, cookies, nil
	}
	// No alternative is configured: send the request without credentials
	// and let the upstream API say whether it needs them (401).
	return query, cookies, nil
}

func joinQuery(q, kv string) string {
	if q == "" {
		return kv
	}
	return q + "&" + kv
}

// tokenCache holds OAuth2 client-credentials access tokens per scheme.
type tokenCache struct {
	mu     sync.Mutex
	tokens map[string]cachedToken
}

type cachedToken struct {
	token   string
	expires time.Time
}

func (t *tokenCache) token(ctx context.Context, hc *http.Client, scheme string, cr SchemeCredentials) (string, error) {
	if t == nil {
		return "", errors.New("upstream client not made by NewClient: no token cache")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	key := scheme + "\x00" + cr.ClientID + "\x00" + cr.TokenURL
	if c, ok := t.tokens[key]; ok && time.Now().Before(c.expires) {
		return c.token, nil
	}
	if cr.TokenURL == "" {
		return "", fmt.Errorf("security scheme %q: oauth2 client credentials need a token URL", scheme)
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(cr.Scopes) > 0 {
		form.Set("scope", strings.Join(cr.Scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cr.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("security scheme %q: token request: %w", scheme, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(cr.ClientID), url.QueryEscape(cr.ClientSecret))
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("security scheme %q: token request: %w", scheme, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		// The body of a failed token request is not echoed: some servers
		// repeat the submitted secret.
		return "", fmt.Errorf("security scheme %q: token endpoint answered %d", scheme, resp.StatusCode)
	}
	var tr struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(data, &tr); err != nil || tr.AccessToken == "" {
		return "", fmt.Errorf("security scheme %q: token endpoint gave no access_token", scheme)
	}
	life := time.Duration(tr.ExpiresIn) * time.Second
	if tr.ExpiresIn <= 0 {
		life = 5 * time.Minute
	}
	// Renew a little early so that a token does not expire in flight.
	life -= min(life/10, 30*time.Second)
	if t.tokens == nil {
		t.tokens = map[string]cachedToken{}
	}
	t.tokens[key] = cachedToken{token: tr.AccessToken, expires: time.Now().Add(life)}
	return tr.AccessToken, nil
}

// ErrorFromResponse maps a non-2xx response into an *Error. JSON bodies
// (RFC 9457 problem+json, {"message"}, {"error": {"message"}},
// {"errors": [...]}) give the message and field details; other bodies give
// at most 200 characters of text, with markup (HTML error pages) dropped.
func ErrorFromResponse(tool string, status int, contentType string, body []byte) *Error {
	e := &Error{Tool: tool, Status: status}
	var v any
	if json.Unmarshal(body, &v) == nil {
		if m, ok := v.(map[string]any); ok {
			e.Message, e.Fields = problemDetails(m)
			return e
		}
	}
	e.Message = shortText(body, contentType)
	return e
}

func problemDetails(m map[string]any) (string, []string) {
	str := func(v any) string {
		s, _ := v.(string)
		return s
	}
	var msg string
	for _, k := range []string{"detail", "message", "error_description", "title", "error"} {
		if s := str(m[k]); s != "" {
			msg = s
			if k == "title" && str(m["detail"]) != "" {
				msg = str(m["detail"])
			}
			break
		}
	}
	if inner, ok := m["error"].(map[string]any); ok && msg == "" {
		return problemDetails(inner)
	}
	var fields []string
	for _, k := range []string{"errors", "invalid_params", "invalid-params", "details", "fields"} {
		switch list := m[k].(type) {
		case []any:
			for _, it := range list {
				switch x := it.(type) {
				case string:
					fields = append(fields, x)
				case map[string]any:
					name := str(x["field"])
					for _, nk := range []string{"name", "pointer", "param", "path", "loc"} {
						if name == "" {
							name = str(x[nk])
						}
					}
					text := ""
					for _, tk := range []string{"message", "reason", "detail", "msg", "code"} {
						if text == "" {
							text = str(x[tk])
						}
					}
					switch {
					case name != "" && text != "":
						fields = append(fields, name+": "+text)
					case text != "":
						fields = append(fields, text)
					case name != "":
						fields = append(fields, name)
					}
				}
			}
		case map[string]any:
			for name, x := range list {
				switch y := x.(type) {
				case string:
					fields = append(fields, name+": "+y)
				case []any:
					for _, z := range y {
						if s, ok := z.(string); ok {
							fields = append(fields, name+": "+s)
						}
					}
				}
			}
		}
	}
	sortStrings(fields)
	return msg, fields
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// shortText is at most 200 characters of a non-JSON error body, tags of
// HTML removed and whitespace collapsed.
func shortText(body []byte, contentType string) string {
	s := string(body)
	if strings.Contains(strings.ToLower(contentType), "html") || strings.HasPrefix(strings.TrimSpace(s), "<") {
		var b strings.Builder
		in := false
		for _, r := range s {
			switch {
			case r == '<':
				in = true
				b.WriteByte(' ')
			case r == '>':
				in = false
			case !in:
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

// DecodeJSON decodes a 2xx response into a tool's output (whose generated
// UnmarshalJSON validates it). A response that is not JSON, or
// was cut by the size cap, cannot be the structured output: the error
// carries its text instead, so the caller still sees what came back.
func DecodeJSON(resp *Response, out json.Unmarshaler) error {
	if len(bytes.TrimSpace(resp.Body)) == 0 && resp.Truncated == 0 {
		return out.UnmarshalJSON([]byte("null"))
	}
	if !resp.IsJSON() {
		return fmt.Errorf("upstream API answered %d with %s, not JSON: %s", resp.Status, resp.ContentType, shortText([]byte(resp.Text()), resp.ContentType))
	}
	if resp.Truncated > 0 {
		return fmt.Errorf("upstream response exceeds the %d-byte cap: %s", len(resp.Body), resp.Text())
	}
	if err := out.UnmarshalJSON(resp.Body); err != nil {
		return fmt.Errorf("upstream response does not match the output schema: %w", err)
	}
	return nil
}
