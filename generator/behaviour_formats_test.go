package generator

// goTypesBehaviour runs inside the go_types golden case's package: the Go
// types of date-time (time.Time), date (runtime.Date) and base64 ([]byte)
// strings decode what the validators accept, the lower-case "t" and "z"
// and the leap second that time.Parse refuses included, encode what the
// schema promises, and round-trip.
const goTypesBehaviour = `package gotypes

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
const input = ` + "`" + `{"at":"2030-07-28t09:30:00z","until":"1998-12-31T23:59:60Z","day":"2024-02-29",` +
	`"holidays":["2030-12-25","2031-01-01"],"reminders":["2030-07-28T08:30:00.25+02:00"],` +
	`"deadlines":{"draft":"2030-07-01T00:00:00Z"},"attachment":"JVBERi0=","thumbnail":"",` +
	`"chunks":["aGVsbG8=","d29ybGQ="],"slot":{"starts":"2030-07-28T09:30:00Z","ends":null,"day":"2030-07-28"}}` + "`" + `

func TestDecodeFormats(t *testing.T) {
	var in BookInput
	if err := in.UnmarshalJSON([]byte(input)); err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2030, 7, 28, 9, 30, 0, 0, time.UTC); !in.At.Equal(want) || in.At.Location() != time.UTC {
		t.Errorf("At = %v, want %v", in.At, want)
	}
	// A leap second is the first instant of the next day.
	if want := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC); in.Until == nil || !in.Until.Equal(want) {
		t.Errorf("Until = %v, want %v", in.Until, want)
	}
	if in.Day != (runtime.Date{Year: 2024, Month: time.February, Day: 29}) {
		t.Errorf("Day = %v", in.Day)
	}
	if in.After != (runtime.Date{Year: 2030, Month: time.January, Day: 1}) {
		t.Errorf("After (default) = %v", in.After)
	}
	if len(in.Holidays) != 2 || in.Holidays[1].String() != "2031-01-01" {
		t.Errorf("Holidays = %v", in.Holidays)
	}
	if _, off := in.Reminders[0].Zone(); off != 2*3600 || in.Reminders[0].Nanosecond() != 250000000 {
		t.Errorf("Reminders = %v: the offset and fraction must be kept", in.Reminders)
	}
	if !in.Deadlines["draft"].Equal(time.Date(2030, 7, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Deadlines = %v", in.Deadlines)
	}
	if string(in.Attachment) != "%PDF-" || in.Thumbnail == nil || len(in.Thumbnail) != 0 {
		t.Errorf("Attachment = %q, Thumbnail = %#v", in.Attachment, in.Thumbnail)
	}
	if !slices.EqualFunc(in.Chunks, [][]byte{[]byte("hello"), []byte("world")}, bytes.Equal) {
		t.Errorf("Chunks = %q", in.Chunks)
	}
	if in.Slot == nil || in.Slot.Ends != nil || in.Slot.Day.Day != 28 {
		t.Errorf("Slot = %+v", in.Slot)
	}
}

func TestEncodeFormats(t *testing.T) {
	var in BookInput
	if err := in.UnmarshalJSON([]byte(input)); err != nil {
		t.Fatal(err)
	}
	want := ` + "`" + `{"at":"2030-07-28T09:30:00Z","until":"1999-01-01T00:00:00Z","day":"2024-02-29","after":"2030-01-01",` +
	`"holidays":["2030-12-25","2031-01-01"],"reminders":["2030-07-28T08:30:00.25+02:00"],` +
	`"deadlines":{"draft":"2030-07-01T00:00:00Z"},"attachment":"JVBERi0=","thumbnail":"",` +
	`"chunks":["aGVsbG8=","d29ybGQ="],"slot":{"starts":"2030-07-28T09:30:00Z","ends":null,"day":"2030-07-28"}}` + "`" + `
	got := in.AppendJSON(nil)
	if string(got) != want {
		t.Errorf("encoded\n%s\nwant\n%s", got, want)
	}
	// decode → encode → decode gives the same values, and the same JSON.
	var back BookInput
	if err := back.UnmarshalJSON(got); err != nil {
		t.Fatal(err)
	}
	if !back.At.Equal(in.At) || !back.Until.Equal(*in.Until) || back.Day != in.Day ||
		!back.Reminders[0].Equal(in.Reminders[0]) || !bytes.Equal(back.Attachment, in.Attachment) ||
		!slices.Equal(back.Holidays, in.Holidays) || *back.Slot != *in.Slot {
		t.Errorf("round trip: %+v, want %+v", back, in)
	}
	if again := back.AppendJSON(nil); !bytes.Equal(again, got) {
		t.Errorf("second encoding\n%s\nwant\n%s", again, got)
	}
}

func TestFormatViolations(t *testing.T) {
	var in BookInput
	err := in.UnmarshalJSON([]byte(` + "`" + `{"at":"2030-07-28 09:30:00Z","day":"2023-02-29","attachment":"not base64!",` +
	`"reminders":["2030-07-28T09:30:00Z","2030-07-28T22:59:60Z"],"deadlines":{"x":"tomorrow"},` +
	`"thumbnail":"aGVsbG8gd29ybGQ=","chunks":["aGVsbG8"],"holidays":["2030-12-25","2030-12-25"]}` + "`" + `))
	wantPointers(t, err, "/at", "/day", "/attachment", "/reminders/1", "/deadlines/x", "/thumbnail", "/chunks/0", "/holidays")
	var ve *wire.ValidationError
	if errors.As(err, &ve) && ve.Errors[2].Message != wire.MsgBase64 {
		t.Errorf("/attachment: %q", ve.Errors[2].Message)
	}
	err = in.UnmarshalJSON([]byte(` + "`" + `{"at":1,"day":null,"attachment":"YQ=="}` + "`" + `))
	wantPointers(t, err, "/at", "/day")
}

func TestOutputFormats(t *testing.T) {
	out := BookOutput{
		BookedAt: time.Date(2030, 7, 28, 9, 30, 0, 0, time.FixedZone("", 5*3600+1800)),
		Day:      runtime.Date{Year: 2030, Month: time.July, Day: 28},
		Slots:    []Slot{{Starts: time.Date(2030, 7, 28, 9, 0, 0, 0, time.UTC), Day: runtime.Date{Year: 2030, Month: time.July, Day: 28}}},
		Receipt:  []byte{0, 1, 2, 0xfe, 0xff},
		ByDay:    map[string]runtime.Date{"mon": {Year: 2030, Month: time.July, Day: 29}},
	}
	var root wire.Path
	var e wire.Errors
	validateBookOutput(&root, &out, &e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	want := ` + "`" + `{"booked_at":"2030-07-28T09:30:00+05:30","day":"2030-07-28","confirmed":null,` +
	`"slots":[{"starts":"2030-07-28T09:00:00Z","ends":null,"day":"2030-07-28"}],"receipt":"AAEC/v8=","by_day":{"mon":"2030-07-29"}}` + "`" + `
	if got := string(out.AppendJSON(nil)); got != want {
		t.Errorf("encoded\n%s\nwant\n%s", got, want)
	}
	// A Date that is not a day, which a handler can build, is refused
	// before it reaches the client.
	out.Day = runtime.Date{}
	out.ByDay["tue"] = runtime.Date{Year: 2030, Month: time.February, Day: 30}
	out.Slots[0].Day = runtime.Date{Year: 10000, Month: time.January, Day: 1}
	e = wire.Errors{}
	validateBookOutput(&root, &out, &e)
	wantPointers(t, e.Err(), "/day", "/slots/0/day", "/by_day/tue")
}
`
