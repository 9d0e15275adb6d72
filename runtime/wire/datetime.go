package wire

import "time"

// ParseDateTime parses a string of format "date-time" into a time.Time. It
// accepts exactly what IsDateTime accepts, which time.Parse with
// time.RFC3339 does not: a lower-case "t" or "z" and a leap second
// (23:59:60Z) are valid RFC 3339, and a handler receiving them must not
// fail. Go's time.Time has no leap seconds: 23:59:60 becomes 00:00:00 of
// the next day, as time.Date normalises it. A "Z" offset gives a time in
// time.UTC, any other offset (-00:00 included) a time.FixedZone. Digits of
// a fraction beyond nanoseconds are dropped.
func ParseDateTime(s string) (time.Time, bool) {
	v, ok := scanDateTime(s)
	if !ok {
		return time.Time{}, false
	}
	loc := time.UTC
	if !v.zulu {
		loc = time.FixedZone("", v.offset*60)
	}
	return time.Date(v.year, time.Month(v.month), v.day, v.hour, v.min, v.sec, v.nsec, loc), true
}

// AppendDateTime appends t to b in RFC 3339 with as many fraction digits
// as it needs (time.RFC3339Nano), a value IsDateTime accepts for every t
// from year 0 to 9999 that names the same instant. An offset with seconds
// (local mean time of old dates), which RFC 3339 cannot write, is written
// in UTC instead. It appends no quotes.
func AppendDateTime(b []byte, t time.Time) []byte {
	if _, off := t.Zone(); off%60 != 0 {
		t = t.UTC()
	}
	return t.AppendFormat(b, time.RFC3339Nano)
}

// AppendDateTimeJSON appends t as a JSON string holding AppendDateTime's
// text: how generated code encodes a time.Time, without an intermediate
// string.
func AppendDateTimeJSON(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = AppendDateTime(b, t)
	return append(b, '"')
}
