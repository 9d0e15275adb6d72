package runtime

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// inputRequiredError is returned by Elicit when the answer is not there
// yet. The handler returns it (possibly wrapped) and the dispatcher turns
// the round's pending requests into an input_required result.
type inputRequiredError struct {
	key string
}

func (e *inputRequiredError) Error() string {
	return "input required: " + e.key
}

func isInputRequired(err error) bool {
	var ir *inputRequiredError
	return errors.As(err, &ir)
}

// Elicit asks the user for input under key, which identifies the question
// within the request (the same key must mean the same question on every
// round).
//
// Over 2026-07-28, when the client has already answered (in this retry's
// inputResponses, or in an earlier round carried by requestState), Elicit
// returns the answer. Otherwise it returns an error that the handler must
// return unchanged: the runtime then answers input_required and the client
// retries the request with the answer. Handlers must therefore be safe to
// run again from the start. If the client did not declare the needed
// elicitation mode, the error is a -32021 *Error.
//
// Elicit works in tools/call, prompts/get and resources/read handlers.
func Elicit(ctx context.Context, key string, req ElicitRequest) (ElicitResult, error) {
	rs := stateFrom(ctx)
	if rs == nil {
		return ElicitResult{}, errors.New("runtime: Elicit called outside a request")
	}
	if p := rs.session; p.ls != nil {
		return p.ls.elicit(ctx, p.send, req)
	}
	if t := taskFrom(ctx); t != nil && t.isStarted() {
		return elicitInTask(ctx, t, rs, key, req)
	}
	m := rs.mrtr
	if m == nil {
		return ElicitResult{}, errors.New("runtime: Elicit is only available in tools/call, prompts/get and resources/read")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	raw, ok := m.answers[key]
	if !ok {
		raw, ok = m.responses[key]
	}
	if ok {
		res, e := decodeElicitResult(raw)
		if e != nil {
			return ElicitResult{}, e
		}
		if m.used == nil {
			m.used = map[string]json.RawMessage{}
		}
		m.used[key] = raw
		return res, nil
	}
	// Capabilities are parsed only here: most requests never elicit.
	caps := rs.caps
	if caps == (clientCaps{}) && rs.meta != nil {
		caps = parseClientCaps(rs.meta.ClientCapabilities)
	}
	if req.URL != "" && !caps.elicitURL {
		return ElicitResult{}, missingCapability(`{"elicitation":{"url":{}}}`)
	}
	if req.URL == "" && !caps.elicitForm {
		return ElicitResult{}, missingCapability(`{"elicitation":{"form":{}}}`)
	}
	params, err := appendElicitParams(nil, req)
	if err != nil {
		return ElicitResult{}, err
	}
	if t := taskFrom(ctx); t != nil && !t.pin() {
		// The call became a task meanwhile: the task waits for the answer.
		m.mu.Unlock()
		defer m.mu.Lock()
		return elicitInTask(ctx, t, rs, key, req)
	}
	if m.asked == nil {
		m.asked = map[string]inputRequest{}
	}
	if _, dup := m.asked[key]; !dup {
		m.pending = append(m.pending, key)
	}
	m.asked[key] = inputRequest{method: "elicitation/create", params: params}
	return ElicitResult{}, &inputRequiredError{key: key}
}

func missingCapability(required string) *Error {
	return &Error{
		Code:    CodeMissingRequiredClientCapability,
		Message: "Server requires the elicitation capability for this request",
		Data:    map[string]any{"requiredCapabilities": rawJSON(required)},
	}
}

// rawJSON marshals as itself.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// appendElicitParams encodes ElicitRequestFormParams or
// ElicitRequestURLParams.
func appendElicitParams(b []byte, req ElicitRequest) ([]byte, error) {
	if req.URL != "" {
		b = append(b, `{"mode":"url","message":`...)
		b = wire.AppendString(b, req.Message)
		b = append(b, `,"url":`...)
		b = wire.AppendString(b, req.URL)
		return append(b, '}'), nil
	}
	schema := []byte(`{"type":"object","properties":{}}`)
	if req.Schema != "" {
		var err error
		if schema, err = compactJSON([]byte(req.Schema)); err != nil {
			return nil, errors.New("runtime: ElicitRequest.Schema is not valid JSON")
		}
	}
	b = append(b, `{"mode":"form","message":`...)
	b = wire.AppendString(b, req.Message)
	b = append(b, `,"requestedSchema":`...)
	b = append(b, schema...)
	return append(b, '}'), nil
}
