package runtime

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// InvalidOutputError is the error of a tool call whose handler returned a
// value that its output schema forbids. That is a bug of the server, not of
// the call: the runtime logs each violation at error level (the tool, the
// JSON pointer and the message) and answers with a -32603 Internal error
// that names the tool but neither blames the arguments nor shows the value.
// Generated code returns it; a handler has no reason to.
type InvalidOutputError struct {
	// Tool is the tool's name.
	Tool string
	// Err lists the violations; it is a *wire.ValidationError when the
	// generated validator found them.
	Err error
}

func (e *InvalidOutputError) Error() string {
	msg := e.Err.Error()
	var ve *wire.ValidationError
	if errors.As(e.Err, &ve) {
		// Its own Error() is worded for arguments.
		msg = ""
		for i, fe := range ve.Errors {
			if i > 0 {
				msg += "; "
			}
			msg += pointerOrRoot(fe.Pointer) + ": " + fe.Message
		}
		if ve.Omitted > 0 {
			msg += fmt.Sprintf("; and %d more", ve.Omitted)
		}
	}
	return fmt.Sprintf("tool %q returned a result that does not match its output schema: %s", e.Tool, msg)
}

func (e *InvalidOutputError) Unwrap() error { return e.Err }

func pointerOrRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// invalidOutput logs the violations of e and returns the caller's answer.
func (s *Server) invalidOutput(e *InvalidOutputError) *Error {
	var ve *wire.ValidationError
	if errors.As(e.Err, &ve) {
		for _, fe := range ve.Errors {
			s.logger.Error("tool result does not match its output schema",
				slog.String("tool", e.Tool), slog.String("pointer", pointerOrRoot(fe.Pointer)), slog.String("violation", fe.Message))
		}
		if ve.Omitted > 0 {
			s.logger.Error("tool result does not match its output schema",
				slog.String("tool", e.Tool), slog.Int("more violations", ve.Omitted))
		}
	} else {
		s.logger.Error("tool result does not match its output schema", slog.String("tool", e.Tool), slog.String("violation", e.Err.Error()))
	}
	return &Error{Code: CodeInternalError, Message: fmt.Sprintf("Internal error: tool %q produced a result that does not match its output schema", e.Tool)}
}
