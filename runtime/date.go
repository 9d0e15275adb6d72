package runtime

import (
	"errors"
	"strconv"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// Date is a calendar day without a time or a place: what a string of
// format "date" (an RFC 3339 full-date, "2026-07-28") is in generated Go
// code. It has the shape of cloud.google.com/go/civil's Date, so code that
// knows one reads the other.
//
// Its zero value is not a valid date (year 0, month 0): an optional date
// field is a *Date, and nil means absent. A time.Time would not do: it is
// an instant, so the same day read in two time zones would be two
// different values, and a date that round-trips through one can come back
// as the day before.
type Date struct {
	Year  int        // the year, 0 to 9999 in JSON
	Month time.Month // 1 (January) to 12 (December)
	Day   int        // 1 to 31
}

// ParseDate parses an RFC 3339 full-date ("2026-07-28"), accepting exactly
// what the validator of format "date" accepts (wire.IsDate): four-digit
// year, two-digit month and day, a day that exists in that month.
func ParseDate(s string) (Date, error) {
	if !wire.IsDate(s) {
		return Date{}, errors.New("runtime: " + strconv.Quote(s) + " is not a date like \"2026-07-28\" (RFC 3339 full-date)")
	}
	y, _ := strconv.Atoi(s[0:4])
	m, _ := strconv.Atoi(s[5:7])
	d, _ := strconv.Atoi(s[8:10])
	return Date{Year: y, Month: time.Month(m), Day: d}, nil
}

// DateOf is the day on which t falls in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// In is the start of the day (midnight) in loc. Like time.Date, it
// normalises a date that does not exist (February 30 is March 1 or 2).
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// IsValid reports whether d is a day that exists, with a year that RFC
// 3339 can write (0 to 9999).
func (d Date) IsValid() bool { return wire.IsDate(d.String()) }

// IsZero reports whether d is the zero Date, which is not a valid date.
func (d Date) IsZero() bool { return d == Date{} }

// String is the RFC 3339 full-date of d, "2026-07-28". A year outside 0 to
// 9999 or a month or day out of range is written as it is, which is not a
// valid date: IsValid reports it, and the generated validator of a tool's
// output refuses it.
func (d Date) String() string { return string(d.AppendText(nil)) }

// AppendText appends d as String writes it.
func (d Date) AppendText(b []byte) []byte {
	pad := func(b []byte, v, width int) []byte {
		if v < 0 {
			b = append(b, '-')
			v = -v
		}
		for w, x := 1, v; w < width; w++ {
			if x /= 10; x == 0 {
				b = append(b, '0')
			}
		}
		return strconv.AppendInt(b, int64(v), 10) // no allocation, unlike Itoa
	}
	b = pad(b, d.Year, 4)
	b = append(b, '-')
	b = pad(b, int(d.Month), 2)
	b = append(b, '-')
	return pad(b, d.Day, 2)
}

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Day < e.Day
}

// After reports whether d is a later day than e.
func (d Date) After(e Date) bool { return e.Before(d) }

// AddDays is the day n days after d (before it when n is negative).
func (d Date) AddDays(n int) Date { return DateOf(d.In(time.UTC).AddDate(0, 0, n)) }

// MarshalText implements encoding.TextMarshaler: the full-date of String.
func (d Date) MarshalText() ([]byte, error) { return d.AppendText(nil), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseDate.
func (d *Date) UnmarshalText(data []byte) error {
	p, err := ParseDate(string(data))
	if err != nil {
		return err
	}
	*d = p
	return nil
}

// AppendJSON appends d as a JSON string holding its full-date: how
// generated code encodes a Date.
func (d Date) AppendJSON(b []byte) []byte {
	b = append(b, '"')
	b = d.AppendText(b)
	return append(b, '"')
}

// MarshalJSON implements json.Marshaler with AppendJSON, so that
// encoding/json writes a Date the way the generated code does.
func (d Date) MarshalJSON() ([]byte, error) { return d.AppendJSON(nil), nil }

// UnmarshalJSON implements json.Unmarshaler: a JSON string holding a
// full-date.
func (d *Date) UnmarshalJSON(data []byte) error {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return errors.New("runtime: a Date is a JSON string like \"2026-07-28\"")
	}
	return d.UnmarshalText(data[1 : len(data)-1])
}
