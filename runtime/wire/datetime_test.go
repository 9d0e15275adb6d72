package wire

import (
	"testing"
	"time"
)

func TestParseDateTime(t *testing.T) {
	minus8 := time.FixedZone("", -8*3600)
	for _, tc := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2030-07-28T09:30:00Z", time.Date(2030, 7, 28, 9, 30, 0, 0, time.UTC), true},
		{"2030-07-28t09:30:00z", time.Date(2030, 7, 28, 9, 30, 0, 0, time.UTC), true},
		{"1990-12-31T15:59:50.123-08:00", time.Date(1990, 12, 31, 15, 59, 50, 123000000, minus8), true},
		{"1985-04-12T00:59:59.999999999999999Z", time.Date(1985, 4, 12, 0, 59, 59, 999999999, time.UTC), true},
		// A leap second is the first instant of the next day.
		{"1998-12-31T23:59:60Z", time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"1998-12-31T23:59:60.5+00:00", time.Date(1999, 1, 1, 0, 0, 0, 500000000, time.UTC), true},
		{"1998-12-31T22:59:60Z", time.Time{}, false},
		{"2030-07-28 09:30:00Z", time.Time{}, false},
		{"2030-02-30T09:30:00Z", time.Time{}, false},
	} {
		got, ok := ParseDateTime(tc.in)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if _, off := got.Zone(); ok && tc.want.Location() != time.UTC && off != -8*3600 {
			t.Errorf("ParseDateTime(%q): offset %d", tc.in, off)
		}
	}
	if got, _ := ParseDateTime("2030-07-28T09:30:00Z"); got.Location() != time.UTC {
		t.Errorf("Z gives %v, want UTC", got.Location())
	}
}

func TestAppendDateTime(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2030, 7, 28, 9, 30, 0, 0, time.UTC),
		time.Date(2030, 7, 28, 9, 30, 0, 120000000, time.FixedZone("", 5*3600+1800)),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", -9*3600)),
		time.Date(1850, 3, 1, 12, 0, 0, 0, time.FixedZone("LMT", -(4*3600+56*60+2))),
	} {
		s := string(AppendDateTime(nil, tm))
		back, ok := ParseDateTime(s)
		if !IsDateTime(s) || !ok {
			t.Errorf("AppendDateTime(%v) = %q, not a date-time", tm, s)
			continue
		}
		if !back.Equal(tm) {
			t.Errorf("%q parses back to %v, want %v", s, back, tm)
		}
	}
}

// FuzzParseDateTime holds ParseDateTime to IsDateTime, and its result to
// AppendDateTime: what is parsed is written back as a valid date-time of
// the same instant.
func FuzzParseDateTime(f *testing.F) {
	for _, s := range []string{"2030-07-28T09:30:00Z", "1998-12-31T23:59:60Z", "1963-06-19t08:30:06.283185z", "1937-01-01T12:00:27.87+00:20"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, ok := ParseDateTime(s)
		if ok != IsDateTime(s) {
			t.Fatalf("ParseDateTime(%q) ok=%v, IsDateTime %v", s, ok, !ok)
		}
		if !ok {
			return
		}
		out := string(AppendDateTime(nil, tm))
		back, ok := ParseDateTime(out)
		if !ok || !back.Equal(tm) {
			t.Fatalf("%q → %v → %q → %v, %v", s, tm, out, back, ok)
		}
		if s[17:19] != "60" {
			if ref, err := time.Parse(time.RFC3339Nano, s[:10]+"T"+s[11:len(s)-1]+string(s[len(s)-1]&^0x20)); err == nil && !ref.Equal(tm) {
				t.Fatalf("ParseDateTime(%q) = %v, time.Parse %v", s, tm, ref)
			}
		}
	})
}

func TestAppendDateTimeJSON(t *testing.T) {
	tm := time.Date(2030, 7, 28, 9, 30, 0, 250000000, time.FixedZone("", 2*3600))
	if got := string(AppendDateTimeJSON([]byte("x"), tm)); got != `x"2030-07-28T09:30:00.25+02:00"` {
		t.Errorf("AppendDateTimeJSON = %s", got)
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { _ = AppendDateTimeJSON(buf[:0], tm) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
