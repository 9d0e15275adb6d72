package wire

import (
	"testing"
	"time"
)

func TestFormatDateTime(t *testing.T) {
	for _, tt := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2030, 7, 28, 9, 30, 0, 0, time.UTC), "2030-07-28T09:30:00Z"},
		{time.Date(2030, 7, 28, 9, 30, 0, 500_000_000, time.FixedZone("", -8*3600)), "2030-07-28T09:30:00.5-08:00"},
		// An offset with seconds cannot be written in RFC 3339: UTC instead.
		{time.Date(1880, 1, 1, 0, 0, 0, 0, time.FixedZone("LMT", 561)), "1879-12-31T23:50:39Z"},
	} {
		got := FormatDateTime(tt.t)
		if got != tt.want {
			t.Errorf("FormatDateTime(%v) = %q, want %q", tt.t, got, tt.want)
		}
		if !IsDateTime(got) {
			t.Errorf("%q is not a date-time", got)
		}
	}
}
