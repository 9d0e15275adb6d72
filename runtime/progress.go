package runtime

import "context"

// ReportProgress sends notifications/progress for the current request. It
// does nothing when the client gave no progressToken, when progress does
// not exceed the last value sent (the protocol requires it to increase),
// or once the request has been answered. A total <= 0 and an empty message
// are left out.
func ReportProgress(ctx context.Context, progress, total float64, message string) {
	rs := stateFrom(ctx)
	if rs == nil || rs.meta == nil || rs.meta.ProgressToken == nil || rs.out == nil {
		return
	}
	// The lock also orders the notifications: two concurrent reports
	// cannot reach the client in the opposite order of their values.
	rs.progMu.Lock()
	defer rs.progMu.Unlock()
	if rs.done || (rs.sentProgress && progress <= rs.lastProgress) {
		return
	}
	rs.sentProgress = true
	rs.lastProgress = progress
	b := make([]byte, 0, 128)
	b = append(b, `{"progressToken":`...)
	b = append(b, rs.meta.ProgressToken...)
	b = append(b, `,"progress":`...)
	b = appendFloat(b, progress)
	if total > 0 {
		b = append(b, `,"total":`...)
		b = appendFloat(b, total)
	}
	b = appendOptString(b, "message", message)
	b = append(b, '}')
	rs.out.notify("notifications/progress", b)
}
