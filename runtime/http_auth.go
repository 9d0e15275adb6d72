package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// TokenVerifier checks an OAuth bearer token. Verify must check the token's
// signature or introspect it, its expiry, and that its audience is this
// server (tokens issued for another resource must be refused). It returns
// the caller; an error makes the request 401.
//
// The returned Identity must not hold the raw token: the runtime never
// passes a caller's token on, and neither should handlers (to call another
// service, obtain a token for that service).
type TokenVerifier interface {
	Verify(ctx context.Context, token string, r *http.Request) (Identity, error)
}

// AuthOptions turn on OAuth 2.1 bearer authorization for the HTTP handler
// (MCP authorization, RFC 9728 protected-resource metadata).
type AuthOptions struct {
	// Verifier checks the token of every request.
	Verifier TokenVerifier
	// ResourceMetadataURL is the absolute URL of the protected-resource
	// metadata, named in WWW-Authenticate. When empty it is derived from the
	// request: scheme://host/.well-known/oauth-protected-resource<path>,
	// where Mount serves it.
	ResourceMetadataURL string
	// Resource is the canonical URI of this MCP server (the token audience),
	// e.g. "https://mcp.example.com/mcp".
	Resource string
	// AuthorizationServers are the issuer URLs of the authorization
	// servers clients obtain tokens from.
	AuthorizationServers []string
	// ScopesSupported are the scopes clients may request.
	ScopesSupported []string
}

// authenticate verifies the bearer token of r.
func (a *AuthOptions) authenticate(r *http.Request) (Identity, *httpError) {
	const bearer = "bearer "
	auth := r.Header.Get("Authorization")
	if len(auth) <= len(bearer) || !strings.EqualFold(auth[:len(bearer)], bearer) {
		return Identity{}, a.unauthorized(r, "", "Unauthorized: missing bearer token")
	}
	token := strings.TrimSpace(auth[len(bearer):])
	if a.Verifier == nil {
		return Identity{}, a.unauthorized(r, "invalid_token", "Unauthorized: no token verifier configured")
	}
	id, err := a.Verifier.Verify(r.Context(), token, r)
	if err != nil {
		return Identity{}, a.unauthorized(r, "invalid_token", "Unauthorized: invalid bearer token")
	}
	return id, nil
}

func (a *AuthOptions) unauthorized(r *http.Request, code, msg string) *httpError {
	params := ""
	if code != "" {
		params = `error="` + code + `", `
	}
	params += `resource_metadata="` + a.metadataURL(r) + `"`
	e := reject(http.StatusUnauthorized, codeTransport, "%s", msg)
	e.header = http.Header{"Www-Authenticate": {"Bearer " + params}}
	return e
}

// checkScopes answers 403 insufficient_scope when the caller lacks one of
// the scopes; the challenge names all of them, so the client can step up
// in one authorization.
func (a *AuthOptions) checkScopes(ctx context.Context, r *http.Request, need []string) *httpError {
	id, _ := IdentityFrom(ctx)
	if hasScopes(id.Scopes, need) {
		return nil
	}
	e := reject(http.StatusForbidden, codeTransport, "Forbidden: this tool needs scopes %q", strings.Join(need, " "))
	e.header = http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="` +
		strings.Join(need, " ") + `", resource_metadata="` + a.metadataURL(r) + `"`}}
	return e
}

func hasScopes(have, need []string) bool {
	for _, s := range need {
		if !slices.Contains(have, s) {
			return false
		}
	}
	return true
}

// wellKnownPrefix is where RFC 9728 puts protected-resource metadata.
const wellKnownPrefix = "/.well-known/oauth-protected-resource"

func (a *AuthOptions) metadataURL(r *http.Request) string {
	if a.ResourceMetadataURL != "" {
		return a.ResourceMetadataURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	// Host has passed the allow-list, so reflecting it is safe.
	return scheme + "://" + r.Host + wellKnownPrefix + r.URL.Path
}

// MetadataHandler serves the RFC 9728 protected-resource metadata
// document: resource, authorization_servers, scopes_supported and
// bearer_methods_supported ["header"].
func (a *AuthOptions) MetadataHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		resource := a.Resource
		if resource == "" {
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			resource = scheme + "://" + r.Host + strings.TrimPrefix(r.URL.Path, wellKnownPrefix)
		}
		doc := struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers,omitempty"`
			ScopesSupported      []string `json:"scopes_supported,omitempty"`
			BearerMethods        []string `json:"bearer_methods_supported"`
		}{resource, a.AuthorizationServers, a.ScopesSupported, []string{"header"}}
		b, _ := json.Marshal(doc)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Write(b)
	})
}

// Mount registers the Streamable HTTP endpoint of s at path on mux and,
// when opts.Auth is set, its protected-resource metadata at
// /.well-known/oauth-protected-resource<path>.
func (s *Server) Mount(mux *http.ServeMux, path string, opts HTTPOptions) {
	mux.Handle(path, s.Handler(opts))
	if opts.Auth != nil {
		mux.Handle(wellKnownPrefix+path, opts.Auth.MetadataHandler())
	}
}

// toolsListFor is tools/list for a caller holding scopes: tools it may not
// call are left out, and the list is private to its authorization context.
func (s *Server) toolsListFor(params json.RawMessage, scopes []string) response {
	defs := s.servedDefinitions(func(t *ToolDef) bool { return hasScopes(scopes, t.Scopes) })
	hint := s.opts.ListCache
	hint.Scope = "private"
	var p listParams
	if e := decodeParams(params, &p); e != nil {
		return response{err: e}
	}
	start := 0
	if p.Cursor != nil {
		var e *Error
		// The cursor kind differs from the unfiltered list's: an offset
		// into one caller's list means nothing in the full list.
		if start, e = s.parseCursor("tools/scoped", *p.Cursor, len(defs)); e != nil {
			return response{err: e}
		}
	}
	end := min(start+s.opts.PageSize, len(defs))
	r := s.beginResult(make([]byte, 0, 1024), "complete")
	r.key("tools")
	r.b = append(r.b, '[')
	for i, d := range defs[start:end] {
		if i > 0 {
			r.b = append(r.b, ',')
		}
		r.b = append(r.b, d...)
	}
	r.b = append(r.b, ']')
	if end < len(defs) {
		r.key("nextCursor")
		r.b = wire.AppendString(r.b, s.makeCursor("tools/scoped", end))
	}
	return response{result: s.finishResult(r, &hint, nil)}
}
