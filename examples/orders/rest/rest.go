// Package rest serves the orders scenario as the REST API described by
// ../openapi.yaml, over the same store as the MCP server, so that the MCP
// server mcpgen generates from that description (../restmcp) can be checked
// against a real upstream.
//
// Every request needs "Authorization: Bearer TOKEN" for a known token and
// acts as that token's customer; a customer never sees another customer's
// orders (they are reported as not found, exactly like missing ones).
// Errors are JSON {code, message} with the status the description states.
package rest

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
)

// Tokens maps bearer tokens to the customers they act as.
type Tokens map[string]string

// maxBody bounds a request body; a return request is a few hundred bytes.
const maxBody = 64 << 10

// orderIDRE is the order_id parameter's pattern in openapi.yaml.
var orderIDRE = regexp.MustCompile(`^A[0-9]+$`)

// cursorPrefix marks cursors this server made, so that a stray string is
// rejected instead of read as an order id.
const cursorPrefix = "after:"

// NewHandler returns the REST API over st. logger receives internal errors
// (the client only sees "internal"); nil discards them.
func NewHandler(st *store.Store, tokens Tokens, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	a := &api{st: st, tokens: tokens, log: logger}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /orders", a.auth(a.searchOrders))
	mux.HandleFunc("GET /orders/{order_id}", a.auth(a.getOrder))
	mux.HandleFunc("POST /orders/{order_id}/returns", a.auth(a.createReturn))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such resource: "+r.Method+" "+r.URL.Path)
	})
	return mux
}

type api struct {
	st     *store.Store
	tokens Tokens
	log    *slog.Logger
}

type userKey struct{}

// auth resolves the bearer token to a customer, or answers 401.
func (a *api) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		user := ""
		if ok {
			for t, u := range a.tokens {
				// Constant time, so response timing does not reveal token prefixes.
				if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
					user = u
				}
			}
		}
		if user == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="orders"`)
			writeError(w, http.StatusUnauthorized, "unauthorized", "a valid bearer token is required")
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), userKey{}, user)))
	}
}

func userOf(r *http.Request) string { return r.Context().Value(userKey{}).(string) }

// orderJSON is the Order schema.
type orderJSON struct {
	OrderID    string `json:"order_id"`
	Status     string `json:"status"`
	TotalCents int64  `json:"total_cents"`
}

// summaryJSON is the OrderSummary schema.
type summaryJSON struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
}

// pageJSON is the OrderPage schema.
type pageJSON struct {
	Orders     []summaryJSON `json:"orders"`
	NextCursor string        `json:"next_cursor,omitempty"`
}

// returnRequest is the ReturnRequest schema.
type returnRequest struct {
	Reason         *string `json:"reason"`
	IdempotencyKey *string `json:"idempotency_key"`
}

// returnJSON is the Return schema.
type returnJSON struct {
	ReturnID string `json:"return_id"`
	OrderID  string `json:"order_id"`
	Status   string `json:"status"`
	Reason   string `json:"reason"`
}

func (a *api) orderID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("order_id")
	if len(id) > 8 || !orderIDRE.MatchString(id) {
		writeError(w, http.StatusBadRequest, "bad_request", "order_id must match ^A[0-9]+$ and be at most 8 characters")
		return "", false
	}
	return id, true
}

func (a *api) getOrder(w http.ResponseWriter, r *http.Request) {
	id, ok := a.orderID(w, r)
	if !ok {
		return
	}
	o, err := a.st.Order(r.Context(), userOf(r), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not_found", "no order "+id)
		return
	}
	if err != nil {
		a.internal(w, err)
		return
	}
	writeJSON(w, http.StatusOK, orderJSON{OrderID: o.ID, Status: o.Status, TotalCents: o.Total})
}

func (a *api) searchOrders(w http.ResponseWriter, r *http.Request) {
	q := store.OrderQuery{Owner: userOf(r), Limit: 10}
	query := r.URL.Query()
	for k := range query {
		switch k {
		case "status", "limit", "cursor":
			if len(query[k]) > 1 {
				writeError(w, http.StatusBadRequest, "bad_request", k+" given more than once")
				return
			}
		default:
			writeError(w, http.StatusBadRequest, "bad_request", "unknown query parameter "+k)
			return
		}
	}
	if s := query.Get("status"); query.Has("status") {
		switch s {
		case store.StatusPending, store.StatusShipped, store.StatusDelivered, store.StatusCancelled:
			q.Status = s
		default:
			writeError(w, http.StatusBadRequest, "bad_request", "status must be one of PENDING, SHIPPED, DELIVERED, CANCELLED")
			return
		}
	}
	if query.Has("limit") {
		n, err := strconv.Atoi(query.Get("limit"))
		if err != nil || n < 1 || n > 50 {
			writeError(w, http.StatusBadRequest, "bad_request", "limit must be an integer from 1 to 50")
			return
		}
		q.Limit = n
	}
	if c := query.Get("cursor"); query.Has("cursor") {
		raw, err := base64.RawURLEncoding.DecodeString(c)
		after, ok := strings.CutPrefix(string(raw), cursorPrefix)
		if len(c) > 256 || err != nil || !ok {
			writeError(w, http.StatusBadRequest, "bad_request", "cursor is not a next_cursor this API returned")
			return
		}
		q.After = after
	}
	page, more, err := a.st.Orders(r.Context(), q)
	if err != nil {
		a.internal(w, err)
		return
	}
	out := pageJSON{Orders: []summaryJSON{}}
	for _, o := range page {
		out.Orders = append(out.Orders, summaryJSON{OrderID: o.ID, Status: o.Status})
	}
	if more {
		out.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + page[len(page)-1].ID))
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *api) createReturn(w http.ResponseWriter, r *http.Request) {
	id, ok := a.orderID(w, r)
	if !ok {
		return
	}
	if mt := r.Header.Get("Content-Type"); !strings.HasPrefix(mt, "application/json") {
		writeError(w, http.StatusBadRequest, "bad_request", "the body must be application/json, not "+strconv.Quote(mt))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "cannot read the body: "+err.Error())
		return
	}
	var req returnRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("the body is not a ReturnRequest: %v", err))
		return
	}
	switch {
	case req.Reason == nil || utf8.RuneCountInString(*req.Reason) < 1 || utf8.RuneCountInString(*req.Reason) > 500:
		writeError(w, http.StatusBadRequest, "bad_request", "reason is required, 1 to 500 characters")
		return
	case req.IdempotencyKey == nil || utf8.RuneCountInString(*req.IdempotencyKey) < 1 || utf8.RuneCountInString(*req.IdempotencyKey) > 64:
		writeError(w, http.StatusBadRequest, "bad_request", "idempotency_key is required, 1 to 64 characters")
		return
	}
	ret, created, err := a.st.CreateReturn(r.Context(), userOf(r), id, *req.Reason, *req.IdempotencyKey)
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", "no order "+id)
		return
	case errors.Is(err, store.ErrKeyReused):
		writeError(w, http.StatusConflict, "conflict", "idempotency_key was already used for a return of another order")
		return
	case err != nil:
		a.internal(w, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, returnJSON{ReturnID: ret.ID, OrderID: ret.OrderID, Status: ret.Status, Reason: ret.Reason})
}

func (a *api) internal(w http.ResponseWriter, err error) {
	a.log.Error("orders rest", "err", err)
	writeError(w, http.StatusInternalServerError, "internal", "internal error")
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}{code, msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
