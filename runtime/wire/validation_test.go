package wire

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestPathPointer(t *testing.T) {
	var root Path
	if got := root.Pointer(); got != "" {
		t.Errorf("root pointer = %q, want empty", got)
	}
	var nilPath *Path
	if got := nilPath.Pointer(); got != "" {
		t.Errorf("nil pointer = %q, want empty", got)
	}
	items := root.Child("items")
	item := items.Elem(3)
	odd := item.Child("a/b~c")
	empty := odd.Child("")
	tests := []struct {
		p    *Path
		want string
	}{
		{&items, "/items"},
		{&item, "/items/3"},
		{&odd, "/items/3/a~1b~0c"},
		{&empty, "/items/3/a~1b~0c/"},
	}
	for _, tt := range tests {
		if got := tt.p.Pointer(); got != tt.want {
			t.Errorf("Pointer() = %q, want %q", got, tt.want)
		}
	}
	// Generated code may start from a nil root.
	top := nilPath.Child("order_id")
	elem := nilPath.Elem(0)
	deeper := top.Child("x")
	if top.Pointer() != "/order_id" || elem.Pointer() != "/0" || deeper.Pointer() != "/order_id/x" {
		t.Errorf("steps from a nil root = %q, %q, %q", top.Pointer(), elem.Pointer(), deeper.Pointer())
	}
}

func TestErrors(t *testing.T) {
	var e Errors
	if e.Len() != 0 || e.Err() != nil {
		t.Fatal("empty Errors reports an error")
	}
	var root Path
	orderID := root.Child("order_id")
	limit := root.Child("limit")
	e.Add(&orderID, MsgPattern("^A[0-9]+$"))
	e.Addf(&limit, "must be at most %d", 50)
	e.Add(&root, MsgMinProperties(1))
	e.Add(nil, MsgRequired)
	err := e.Err()
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Errors) != 4 {
		t.Fatalf("Err() = %#v, want a *ValidationError with 4 entries", err)
	}
	if ve.Errors[0] != (FieldError{Pointer: "/order_id", Message: `must match pattern "^A[0-9]+$"`}) {
		t.Errorf("first entry = %+v", ve.Errors[0])
	}
	if ve.Errors[2].Pointer != "" {
		t.Errorf("root entry pointer = %q, want the RFC 6901 root \"\"", ve.Errors[2].Pointer)
	}
	want := `invalid arguments: /order_id: must match pattern "^A[0-9]+$"; /limit: must be at most 50; ` +
		`/: must have at least 1 property; /: is required`
	if err.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", err, want)
	}
	e.Reset()
	if e.Len() != 0 || e.Err() != nil {
		t.Error("Reset left violations behind")
	}
	e.Add(&limit, "x")
	if ve.Errors[0].Pointer != "/order_id" {
		t.Error("Add after Reset changed a ValidationError returned earlier")
	}
}

// countingStringer counts how often a message is formatted.
type countingStringer struct{ n *int }

func (c countingStringer) String() string { *c.n++; return "x" }

// Add and Addf keep at most MaxErrors violations between them, count the
// rest, and Addf formats no message it would drop.
func TestErrorsCap(t *testing.T) {
	for _, tt := range []struct {
		name       string
		add, addf  int // Add calls, then Addf calls
		wantKept   int
		wantFormat int // messages Addf formatted
	}{
		{name: "Add only", add: MaxErrors + 5, wantKept: MaxErrors},
		{name: "Add then Addf", add: MaxErrors + 5, addf: 1, wantKept: MaxErrors},
		{name: "Addf only", addf: MaxErrors + 6, wantKept: MaxErrors, wantFormat: MaxErrors},
		{name: "Addf reaches the cap", add: MaxErrors - 2, addf: 8, wantKept: MaxErrors, wantFormat: 2},
		{name: "under the cap", add: 2, addf: 1, wantKept: 3, wantFormat: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var e Errors
			var root Path
			formatted := 0
			for i := range tt.add {
				p := root.Elem(i)
				e.Add(&p, MsgRequired)
			}
			for i := range tt.addf {
				p := root.Elem(tt.add + i)
				e.Addf(&p, "extra %v", countingStringer{&formatted})
			}
			total := tt.add + tt.addf
			if e.Len() != total {
				t.Errorf("Len = %d, want every violation counted (%d)", e.Len(), total)
			}
			if formatted != tt.wantFormat {
				t.Errorf("Addf formatted %d messages, want %d", formatted, tt.wantFormat)
			}
			var ve *ValidationError
			if !errors.As(e.Err(), &ve) || len(ve.Errors) != tt.wantKept || ve.Omitted != total-tt.wantKept {
				t.Fatalf("Err() keeps %d and omits %d, want %d and %d", len(ve.Errors), ve.Omitted, tt.wantKept, total-tt.wantKept)
			}
			if omitted := total - tt.wantKept; omitted > 0 && !strings.HasSuffix(ve.Error(), fmt.Sprintf("; and %d more", omitted)) {
				t.Errorf("Error() does not say how many were left out: ...%s", ve.Error()[len(ve.Error())-30:])
			}
		})
	}
}

// Err of violations still kept inline makes one allocation, the block
// with the error, its list and its pointers, whichever block size fits.
func TestErrorsErrAllocatesOnce(t *testing.T) {
	var root Path
	short, long := root.Child("id"), root.Child(strings.Repeat("p", 40))
	for _, tt := range []struct {
		name  string
		paths []*Path
		want  string
	}{
		{"one short pointer", []*Path{&short}, "invalid arguments: /id: is required"},
		{"one long pointer", []*Path{&long}, "invalid arguments: /" + strings.Repeat("p", 40) + ": is required"},
		{"three", []*Path{&short, &root, &short}, "invalid arguments: /id: is required; /: is required; /id: is required"},
	} {
		var ve *ValidationError
		n := testing.AllocsPerRun(20, func() {
			var e Errors
			for _, p := range tt.paths {
				e.Add(p, MsgRequired)
			}
			ve = e.Err().(*ValidationError)
		})
		if n != 1 {
			t.Errorf("%s: Err allocates %v times, want 1", tt.name, n)
		}
		if got := ve.Error(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestMessages(t *testing.T) {
	tests := []struct{ got, want string }{
		{MsgType("string", KindNumber), "must be a string, not a number"},
		{MsgType("integer", KindString), "must be an integer, not a string"},
		{MsgType("object", KindNull), "must be an object, not null"},
		{MsgType("array", KindObject), "must be an array, not an object"},
		{MsgType("null", KindBool), "must be null, not a boolean"},
		{MsgType("string or null", KindArray), "must be a string or null, not an array"},
		{MsgType("boolean", KindInvalid), "must be a boolean, not malformed JSON"},
		{MsgRequired, "is required"},
		{MsgUnknownProperty, "is not allowed"},
		{MsgNotInteger, "must be an integer"},
		{MsgOutOfRange, "is out of range"},
		{MsgMinLength(1), "must be at least 1 character long"},
		{MsgMaxLength(8), "must be at most 8 characters long"},
		{MsgPattern(`^"\d"$`), `must match pattern "^\"\\d\"$"`},
		{MsgFormat("date"), `must be a full-date like "2026-07-28" (RFC 3339)`},
		{MsgFormat("date-time"), `must be a date-time like "2026-07-28T09:30:00Z" (RFC 3339)`},
		{MsgFormat("email"), `must be an email address like "name@example.com" (no quoted local part, address literal or single-label domain)`},
		{MsgFormat("uri"), `must be an absolute URI like "https://example.com/"`},
		{MsgFormat("uuid"), `must be a UUID like "123e4567-e89b-12d3-a456-426614174000"`},
		{MsgFormat("hostname"), "must be a valid hostname"},
		{MsgMinimum(1e6), "must be at least 1000000"},
		{MsgMaximum(50), "must be at most 50"},
		{MsgExclusiveMinimum(0), "must be greater than 0"},
		{MsgExclusiveMaximum(0.5), "must be less than 0.5"},
		{MsgMultipleOf(0.01), "must be a multiple of 0.01"},
		{MsgMinItems(1), "must have at least 1 item"},
		{MsgMaxItems(10), "must have at most 10 items"},
		{MsgUniqueItems(0, 2), "must have unique items, but items 0 and 2 are equal"},
		{MsgEnum([]string{`"PENDING"`, `"SHIPPED"`}), `must be one of "PENDING", "SHIPPED"`},
		{MsgEnum([]string{`1`}), `must be 1`},
		{MsgConst(`"v1"`), `must be "v1"`},
		{MsgMinProperties(2), "must have at least 2 properties"},
		{MsgMaxProperties(1), "must have at most 1 property"},
		{MsgOneOf(0), "must match exactly one of the allowed schemas, but matches none"},
		{MsgOneOf(2), "must match exactly one of the allowed schemas, but matches 2"},
		{MsgDiscriminator([]string{"circle", "square"}), `must be one of "circle", "square" to select a variant`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	many := make([]string, 25)
	for i := range many {
		many[i] = `"v"`
	}
	if got := MsgEnum(many); !strings.HasSuffix(got, `"v", … (5 more)`) {
		t.Errorf("MsgEnum of 25 values = %q, want the list cut after %d", got, maxListed)
	}
}
