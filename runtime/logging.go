package runtime

import (
	"context"
	"encoding/json"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// logSeverity orders the LoggingLevel values; 0 is not a level.
func logSeverity(level string) int {
	switch level {
	case "debug":
		return 1
	case "info":
		return 2
	case "notice":
		return 3
	case "warning":
		return 4
	case "error":
		return 5
	case "critical":
		return 6
	case "alert":
		return 7
	case "emergency":
		return 8
	}
	return 0
}

// Log sends notifications/message for the current request with the given
// level ("debug" … "emergency"), logger name (may be empty) and data (any
// value that encodes as JSON). It sends only when the client asked for log
// messages at that level or a more severe one (the request's
// io.modelcontextprotocol/logLevel _meta key; a 2025-11-25 session fills it
// from logging/setLevel), and never after the request has been answered:
// without a logLevel a server must not log to the client at all.
//
// Deprecated: the 2026-07-28 revision deprecates protocol-level logging
// (SEP-2577); it keeps working in every revision released within a year
// of 2026-07-28, and may be removed after. Log with log/slog through
// Options.Logger (stderr, never stdout) and trace requests with
// runtime/otelmcp instead: operators read those, and clients rarely show
// notifications/message. See docs/runtime.md.
func Log(ctx context.Context, level, logger string, data any) {
	rs := stateFrom(ctx)
	if rs == nil || rs.meta == nil || rs.out == nil {
		return
	}
	sev := logSeverity(level)
	if sev == 0 || sev < logSeverity(rs.meta.LogLevel) || rs.meta.LogLevel == "" {
		return
	}
	raw, err := json.Marshal(data)
	if err != nil {
		raw, _ = json.Marshal(err.Error()) // a string always encodes
	}
	b := make([]byte, 0, 64+len(raw))
	b = append(b, `{"level":`...)
	b = wire.AppendString(b, level)
	b = appendOptString(b, "logger", logger)
	b = append(b, `,"data":`...)
	b = append(b, raw...)
	b = append(b, '}')
	// progMu orders log messages with progress and with the response.
	rs.progMu.Lock()
	defer rs.progMu.Unlock()
	if rs.done {
		return
	}
	rs.out.notify("notifications/message", b)
}
