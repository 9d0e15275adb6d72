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
	if !IsDateTime(s) {
		return time.Time{}, false
	}
	num := func(t string) int {
		n := 0
		for i := 0; i < len(t); i++ {
			n = n*10 + int(t[i]-'0')
		}
		return n
	}
	nsec := 0
	rest := s[19:]
	if rest[0] == '.' {
		i, scale := 1, 100000000
		for ; i < len(rest) && isDigit(rest[i]); i++ {
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		rest = rest[i:]
	}
	loc := time.UTC
	if rest != "Z" && rest != "z" {
		offset := (num(rest[1:3])*60 + num(rest[4:6])) * 60
		if rest[0] == '-' {
			offset = -offset
		}
		loc = time.FixedZone("", offset)
	}
	return time.Date(num(s[0:4]), time.Month(num(s[5:7])), num(s[8:10]),
		num(s[11:13]), num(s[14:16]), num(s[17:19]), nsec, loc), true
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
