package wire

import "time"

// FormatDateTime is AppendDateTime as a string: what a time.Time field of
// a generated type is encoded as.
func FormatDateTime(t time.Time) string { return string(AppendDateTime(nil, t)) }
