package runtime

import (
	"errors"
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

func TestErrorsCap(t *testing.T) {
	var e Errors
	var root Path
	for i := range MaxErrors + 5 {
		p := root.Elem(i)
		e.Add(&p, MsgRequired)
	}
	e.Addf(&root, "extra %d", 1)
	if e.Len() != MaxErrors+6 {
		t.Errorf("Len = %d, want every violation counted", e.Len())
	}
	var ve *ValidationError
	if !errors.As(e.Err(), &ve) || len(ve.Errors) != MaxErrors || ve.Omitted != 6 {
		t.Fatalf("Err() keeps %d and omits %d, want %d and 6", len(ve.Errors), ve.Omitted, MaxErrors)
	}
	if !strings.HasSuffix(ve.Error(), "; and 6 more") {
		t.Errorf("Error() does not say how many were left out: ...%s", ve.Error()[len(ve.Error())-30:])
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
		{MsgFormat("email"), "must be an email address"},
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
