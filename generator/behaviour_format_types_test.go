package generator

// formatTypesBehaviour runs inside the format_types golden case's
// package: named date-time, date and base64 types are aliases of
// time.Time, runtime.Date and []byte, so values pass between them and
// inline ones without conversion, decode what the validators accept,
// refuse what they refuse, and round-trip.
const formatTypesBehaviour = `package formattypes

import (
	"bytes"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

const input = ` + "`" + `{"at":"2030-07-28t09:30:00z","on":"2024-02-29","data":"JVBERi0=",` +
	`"seen":["2030-07-28T08:30:00.25+02:00"],"by_key":{"a":"2030-12-25"},"until":null,` +
	`"inline_at":"2030-07-28T09:30:00Z"}` + "`" + `

func TestNamedFormatTypes(t *testing.T) {
	var in RecordInput
	if err := in.UnmarshalJSON([]byte(input)); err != nil {
		t.Fatal(err)
	}
	// The same types as the inline ones: no conversion.
	var inline time.Time = in.At
	if in.InlineAt == nil || !inline.Equal(*in.InlineAt) || in.At.Location() != time.UTC {
		t.Errorf("At = %v, InlineAt = %v", in.At, in.InlineAt)
	}
	var day runtime.Date = *in.On
	if day != (runtime.Date{Year: 2024, Month: time.February, Day: 29}) {
		t.Errorf("On = %v", day)
	}
	if string(in.Data) != "%PDF-" {
		t.Errorf("Data = %q", in.Data)
	}
	if _, off := in.Seen[0].Zone(); off != 2*3600 || in.Seen[0].Nanosecond() != 250000000 {
		t.Errorf("Seen = %v: the offset and fraction must be kept", in.Seen)
	}
	if in.ByKey["a"].String() != "2030-12-25" || in.Until != nil {
		t.Errorf("ByKey = %v, Until = %v", in.ByKey, in.Until)
	}

	out := RecordOutput{At: in.At, Days: []Day{day, in.ByKey["a"]}}
	b, err := out.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := ` + "`" + `{"at":"2030-07-28T09:30:00Z","days":["2024-02-29","2030-12-25"]}` + "`" + `; string(b) != want {
		t.Errorf("encoded %s, want %s", b, want)
	}
	var back RecordOutput
	if err := back.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	if !back.At.Equal(out.At) || len(back.Days) != 2 || back.Days[1] != out.Days[1] {
		t.Errorf("round trip: %+v, want %+v", back, out)
	}
	again, _ := back.MarshalJSON()
	if !bytes.Equal(again, b) {
		t.Errorf("round trip encoded %s, then %s", b, again)
	}
}

func TestNamedFormatTypesRefuse(t *testing.T) {
	for _, bad := range []string{
		` + "`" + `{"at":"2030-07-28 09:30"}` + "`" + `,
		` + "`" + `{"at":"2030-07-28T09:30:00Z","on":"2023-02-29"}` + "`" + `,
		` + "`" + `{"at":"2030-07-28T09:30:00Z","data":"not base64!"}` + "`" + `,
		` + "`" + `{"at":"2030-07-28T09:30:00Z","data":"QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB"}` + "`" + `,
	} {
		var in RecordInput
		if err := in.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}
`
