package runtime

import "fmt"

// JSON-RPC and MCP error codes used by the runtime.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeHeaderMismatch: an HTTP header is missing, malformed or differs
	// from the body.
	CodeHeaderMismatch = -32020
	// CodeMissingRequiredClientCapability: the request needs a client
	// capability the client did not declare in its _meta.
	CodeMissingRequiredClientCapability = -32021
	// CodeUnsupportedProtocolVersion: the requested revision is not served.
	CodeUnsupportedProtocolVersion = -32022
)

// Error is a JSON-RPC error. A handler returning an *Error (possibly
// wrapped) makes the runtime answer with exactly this code, message and
// data.
type Error struct {
	Code    int
	Message string
	// Data is marshalled with encoding/json; nil omits it.
	Data any
}

func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// InvalidParams returns a -32602 error with a formatted message.
func InvalidParams(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// ResourceNotFound returns the error for a resource that does not exist:
// -32602 with data {"uri": uri}, as the 2026-07-28 revision requires
// (the older -32002 must no longer be sent).
func ResourceNotFound(uri string) *Error {
	return &Error{Code: CodeInvalidParams, Message: "Resource not found", Data: map[string]string{"uri": uri}}
}

// MethodNotFound returns the -32601 error for an unknown, removed or
// unadvertised method.
func MethodNotFound(method string) *Error {
	return &Error{Code: CodeMethodNotFound, Message: fmt.Sprintf("Method not found: %s", method)}
}

// errInternal is the answer for a handler failure whose details must stay in
// the server's log: they may carry internals a remote caller must not see.
func errInternal() *Error {
	return &Error{Code: CodeInternalError, Message: "Internal error"}
}

// errUnsupportedVersion is the -32022 answer; it lists what we serve so that
// a dual-era client can retry with a version we share.
func errUnsupportedVersion(requested string) *Error {
	return &Error{
		Code:    CodeUnsupportedProtocolVersion,
		Message: "Unsupported protocol version",
		Data:    map[string]any{"supported": []string{ProtocolVersion}, "requested": requested},
	}
}

func errInvalidState() *Error {
	return &Error{Code: CodeInvalidParams, Message: "invalid requestState"}
}
