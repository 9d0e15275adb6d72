package runtime

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

func TestParseDate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Date
		ok   bool
	}{
		{"2026-07-28", Date{2026, time.July, 28}, true},
		{"2024-02-29", Date{2024, time.February, 29}, true},
		{"0000-01-01", Date{0, time.January, 1}, true},
		{"9999-12-31", Date{9999, time.December, 31}, true},
		{"2023-02-29", Date{}, false},
		{"2026-7-28", Date{}, false},
		{"2026-07-28T00:00:00Z", Date{}, false},
		{"", Date{}, false},
	} {
		got, err := ParseDate(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseDate(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if tc.ok && got.String() != tc.in {
			t.Errorf("ParseDate(%q).String() = %q", tc.in, got.String())
		}
	}
}

func TestDateMethods(t *testing.T) {
	d := Date{2030, time.December, 31}
	if !d.IsValid() || d.IsZero() || !(Date{}).IsZero() || (Date{}).IsValid() {
		t.Error("IsValid/IsZero")
	}
	if (Date{2023, time.February, 29}).IsValid() || (Date{10000, time.January, 1}).IsValid() || (Date{-1, time.January, 1}).IsValid() {
		t.Error("an invalid date is valid")
	}
	if got := d.AddDays(1); got != (Date{2031, time.January, 1}) {
		t.Errorf("AddDays(1) = %v", got)
	}
	if !d.Before(d.AddDays(1)) || d.Before(d) || !d.AddDays(1).After(d) {
		t.Error("Before/After")
	}
	tokyo := time.FixedZone("JST", 9*3600)
	start := d.In(tokyo)
	if start.Hour() != 0 || DateOf(start) != d || DateOf(start.UTC()) != d.AddDays(-1) {
		t.Errorf("In(JST) = %v; DateOf in UTC %v", start, DateOf(start.UTC()))
	}
	for d, want := range map[Date]string{
		{7, time.March, 5}:           "0007-03-05",
		{70, time.March, 15}:         "0070-03-15",
		{2026, time.December, 31}:    "2026-12-31",
		{12345, time.January, 1}:     "12345-01-01",
		{-1, time.January, 1}:        "-0001-01-01",
		{0, time.Month(0), 0}:        "0000-00-00",
		{999, time.Month(100), 1000}: "0999-100-1000",
	} {
		if s := d.String(); s != want {
			t.Errorf("%#v.String() = %q, want %q", d, s, want)
		}
	}
	buf := make([]byte, 0, 16)
	if n := testing.AllocsPerRun(100, func() { _ = d.AppendJSON(buf[:0]) }); n != 0 {
		t.Errorf("AppendJSON: %v allocations", n)
	}
}

func TestDateJSON(t *testing.T) {
	type doc struct {
		Day  Date  `json:"day"`
		Next *Date `json:"next,omitempty"`
	}
	in := doc{Day: Date{2026, time.July, 28}, Next: new(Date{2026, time.July, 29})}
	data, err := json.Marshal(in)
	if err != nil || string(data) != `{"day":"2026-07-28","next":"2026-07-29"}` {
		t.Fatalf("Marshal = %s, %v", data, err)
	}
	var back doc
	if err := json.Unmarshal(data, &back); err != nil || back.Day != in.Day || *back.Next != *in.Next {
		t.Fatalf("Unmarshal = %+v, %v", back, err)
	}
	for _, bad := range []string{`{"day":"2026-02-30"}`, `{"day":20260728}`, `{"day":"28/07/2026"}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("Unmarshal(%s) succeeded", bad)
		}
	}
}

// FuzzParseDate holds ParseDate to wire.IsDate, and String to ParseDate:
// every accepted string parses and is written back the same, and every
// other one is an error.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-07-28", "2024-02-29", "2023-02-29", "0000-01-01", "2026-13-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		if (err == nil) != wire.IsDate(s) {
			t.Fatalf("ParseDate(%q) err=%v, IsDate %v", s, err, wire.IsDate(s))
		}
		if err != nil {
			return
		}
		if !d.IsValid() || d.String() != s {
			t.Fatalf("%q → %+v → %q", s, d, d.String())
		}
		if DateOf(d.In(time.UTC)) != d {
			t.Fatalf("%q: DateOf(In(UTC)) = %v", s, DateOf(d.In(time.UTC)))
		}
	})
}
