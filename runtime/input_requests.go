package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// SampleRequest asks the client's model for a completion
// (sampling/createMessage). MaxTokens is required by the protocol; zero
// sends 1.
type SampleRequest struct {
	Messages     []SamplingMessage
	SystemPrompt string
	MaxTokens    int
	// Temperature is sent when non-nil.
	Temperature   *float64
	StopSequences []string
}

// SamplingMessage is one message of a sampling conversation: text, image or
// audio content.
type SamplingMessage struct {
	Role    string // "user" or "assistant"
	Content Content
}

// SampleResult is the client's answer to a SampleRequest.
type SampleResult struct {
	Role       string
	Content    Content
	Model      string
	StopReason string
}

// Root is one root the client exposes (a file:// URI).
type Root struct {
	URI  string
	Name string
}

// Sample asks the client's model for a completion under key, like Elicit
// asks the user: over 2026-07-28 it returns the answer when the client has
// given it (in this retry's inputResponses or in requestState), otherwise an
// error that the handler must return unchanged so that the runtime answers
// input_required. A client that did not declare the sampling capability
// gets a -32021 *Error naming it. Over a 2025-11-25 session it is a real
// sampling/createMessage round trip.
//
// Deprecated: the 2026-07-28 revision deprecates sampling (SEP-2577); it
// keeps working in every revision released within a year of 2026-07-28,
// and may be removed after. Call the model provider's API from the server
// instead, with credentials the server holds. See docs/runtime.md.
func Sample(ctx context.Context, key string, req SampleRequest) (SampleResult, error) {
	raw, err := askClient(ctx, key, "sampling/createMessage", appendSampleParams(nil, req),
		func(c clientCaps) bool { return c.sampling }, `{"sampling":{}}`)
	if err != nil {
		return SampleResult{}, err
	}
	return decodeSampleResult(raw)
}

// ListRoots asks the client for its roots under key, with the same rounds
// and errors as Sample; the capability is "roots".
//
// Deprecated: the 2026-07-28 revision deprecates roots (SEP-2577); they
// keep working in every revision released within a year of 2026-07-28,
// and may be removed after. Take the paths or locations a tool works on
// as tool arguments, or from the server's configuration, instead. See
// docs/runtime.md.
func ListRoots(ctx context.Context, key string) ([]Root, error) {
	raw, err := askClient(ctx, key, "roots/list", []byte(`{}`),
		func(c clientCaps) bool { return c.roots }, `{"roots":{}}`)
	if err != nil {
		return nil, err
	}
	return decodeListRootsResult(raw)
}

// askClient is the common part of Sample and ListRoots: the answer to key
// if there is one, else a pending input request (or, in a legacy session,
// a real round trip). has tells whether the client declared the needed
// capability; required is the requiredCapabilities of the -32021 error.
func askClient(ctx context.Context, key, method string, params []byte, has func(clientCaps) bool, required string) (json.RawMessage, error) {
	rs := stateFrom(ctx)
	if rs == nil {
		return nil, errors.New("runtime: " + method + " requested outside a request")
	}
	caps := rs.caps
	if caps == (clientCaps{}) && rs.meta != nil {
		caps = parseClientCaps(rs.meta.ClientCapabilities)
	}
	if p := rs.session; p.ls != nil {
		if !has(caps) {
			return nil, missingClientCapability(required)
		}
		return p.ls.request(ctx, p.send, method, params)
	}
	if t := taskFrom(ctx); t != nil && t.isStarted() {
		if !has(caps) {
			return nil, missingClientCapability(required)
		}
		return t.srv.taskAskClient(ctx, t, rs, key, inputRequest{method: method, params: params})
	}
	m := rs.mrtr
	if m == nil {
		return nil, errors.New("runtime: " + method + " is only available in tools/call, prompts/get and resources/read")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	raw, ok := m.answers[key]
	if !ok {
		raw, ok = m.responses[key]
	}
	if ok {
		if m.used == nil {
			m.used = map[string]json.RawMessage{}
		}
		m.used[key] = raw
		return raw, nil
	}
	if !has(caps) {
		return nil, missingClientCapability(required)
	}
	if t := taskFrom(ctx); t != nil && !t.pin() {
		m.mu.Unlock()
		defer m.mu.Lock()
		return t.srv.taskAskClient(ctx, t, rs, key, inputRequest{method: method, params: params})
	}
	if m.asked == nil {
		m.asked = map[string]inputRequest{}
	}
	if _, dup := m.asked[key]; !dup {
		m.pending = append(m.pending, key)
	}
	m.asked[key] = inputRequest{method: method, params: params}
	return nil, &inputRequiredError{key: key}
}

// missingClientCapability is the -32021 error for a capability the client
// did not declare; required is the ClientCapabilities object it needs.
func missingClientCapability(required string) *Error {
	return &Error{
		Code:    CodeMissingRequiredClientCapability,
		Message: "Server requires a client capability the request did not declare",
		Data:    map[string]any{"requiredCapabilities": rawJSON(required)},
	}
}

// appendSampleParams encodes CreateMessageRequestParams.
func appendSampleParams(b []byte, req SampleRequest) []byte {
	b = append(b, `{"messages":[`...)
	for i := range req.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		msg := &req.Messages[i]
		b = append(b, `{"role":`...)
		b = wire.AppendString(b, msg.Role)
		b = append(b, `,"content":`...)
		b = appendContent(b, &msg.Content)
		b = append(b, '}')
	}
	b = append(b, ']')
	b = appendOptString(b, "systemPrompt", req.SystemPrompt)
	if req.Temperature != nil {
		b = append(b, `,"temperature":`...)
		b = appendFloat(b, *req.Temperature)
	}
	if len(req.StopSequences) > 0 {
		b = append(b, `,"stopSequences":`...)
		b = appendStringList(b, req.StopSequences)
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = 1
	}
	b = append(b, `,"maxTokens":`...)
	b = strconv.AppendInt(b, int64(maxTokens), 10)
	return append(b, '}')
}

// wireContent is a text, image or audio content block as received.
type wireContent struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

// decodeSampleResult decodes one inputResponses entry for sampling
// (CreateMessageResult). Content may be one block or, from clients that
// use sampling with tools, an array: the first block is kept.
func decodeSampleResult(raw json.RawMessage) (SampleResult, error) {
	var w struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return SampleResult{}, InvalidParams("invalid sampling response: %v", err)
	}
	if w.Role != "user" && w.Role != "assistant" {
		return SampleResult{}, InvalidParams("invalid sampling response: role must be user or assistant")
	}
	var blocks []wireContent
	if len(w.Content) > 0 && w.Content[0] == '[' {
		if err := json.Unmarshal(w.Content, &blocks); err != nil {
			return SampleResult{}, InvalidParams("invalid sampling response: %v", err)
		}
	} else {
		var one wireContent
		if err := json.Unmarshal(w.Content, &one); err != nil {
			return SampleResult{}, InvalidParams("invalid sampling response: %v", err)
		}
		blocks = append(blocks, one)
	}
	if len(blocks) == 0 {
		return SampleResult{}, InvalidParams("invalid sampling response: content is empty")
	}
	c, e := blocks[0].content()
	if e != nil {
		return SampleResult{}, e
	}
	return SampleResult{Role: w.Role, Content: c, Model: w.Model, StopReason: w.StopReason}, nil
}

func (w wireContent) content() (Content, *Error) {
	switch w.Type {
	case "text":
		return TextContent(w.Text), nil
	case "image", "audio":
		data, err := base64.StdEncoding.DecodeString(w.Data)
		if err != nil {
			return Content{}, InvalidParams("invalid sampling response: %s data is not base64", w.Type)
		}
		return Content{Type: w.Type, Data: data, MimeType: w.MimeType}, nil
	}
	return Content{}, InvalidParams("invalid sampling response: unsupported content type %q", w.Type)
}

// decodeListRootsResult decodes one inputResponses entry for roots/list.
func decodeListRootsResult(raw json.RawMessage) ([]Root, error) {
	var w struct {
		Roots *[]struct {
			URI  string `json:"uri"`
			Name string `json:"name"`
		} `json:"roots"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, InvalidParams("invalid roots response: %v", err)
	}
	if w.Roots == nil {
		return nil, InvalidParams("invalid roots response: roots is missing")
	}
	roots := make([]Root, 0, len(*w.Roots))
	for _, r := range *w.Roots {
		if r.URI == "" {
			return nil, InvalidParams("invalid roots response: a root has no uri")
		}
		roots = append(roots, Root{URI: r.URI, Name: r.Name})
	}
	return roots, nil
}
