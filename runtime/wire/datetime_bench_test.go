package wire

import "testing"

// dateTimeSink keeps the benchmarks' results alive.
var dateTimeSink bool

// BenchmarkDecodeDateTime measures what generated code does with the
// string of a date-time field it decodes into a time.Time: "parse" is
// the one call it makes (the parse is the format check); "check+parse"
// is the format check followed by the parse, as it was generated before.
func BenchmarkDecodeDateTime(b *testing.B) {
	values := []string{"2026-07-28T09:30:00Z", "2026-07-28T09:30:00.123456789+02:00", "1999-12-31t23:59:60z"}
	b.Run("check+parse", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			s := values[i%len(values)]
			ok := IsDateTime(s)
			_, ok2 := ParseDateTime(s)
			dateTimeSink = ok && ok2
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			_, ok := ParseDateTime(values[i%len(values)])
			dateTimeSink = ok
		}
	})
}
