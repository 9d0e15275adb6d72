package wire

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestErrorsManyPointers: pointers share one growing buffer; every
// violation keeps its own pointer when the list and the buffer outgrow
// their first block, and an error returned earlier is not changed by
// violations added after it.
func TestErrorsManyPointers(t *testing.T) {
	var e Errors
	var root Path
	items := root.Child("items")
	var want []string
	for i := range 30 {
		el := items.Elem(i)
		name := el.Child(strings.Repeat("k", i) + "/~")
		e.Add(&name, MsgRequired)
		want = append(want, "/items/"+strconv.Itoa(i)+"/"+strings.Repeat("k", i)+"~1~0")
	}
	e.Add(&root, MsgUnknownProperty)
	want = append(want, "")
	first := e.Err().(*ValidationError)
	e.Add(&items, MsgRequired)
	second := e.Err().(*ValidationError)
	if len(first.Errors) != len(want) || len(second.Errors) != len(want)+1 {
		t.Fatalf("%d then %d errors, want %d then %d", len(first.Errors), len(second.Errors), len(want), len(want)+1)
	}
	for i, w := range want {
		if first.Errors[i].Pointer != w || second.Errors[i].Pointer != w {
			t.Errorf("error %d: pointers %q and %q, want %q", i, first.Errors[i].Pointer, second.Errors[i].Pointer, w)
		}
	}
	if got := second.Errors[len(want)].Pointer; got != "/items" {
		t.Errorf("last pointer %q", got)
	}
}

// TestMsgTypeTable: the constant messages for one type read exactly as the
// general form does.
func TestMsgTypeTable(t *testing.T) {
	for _, want := range []string{"string", "integer", "number", "boolean", "array", "object", "null"} {
		for k := KindInvalid; k <= KindObject; k++ {
			if got, built := MsgType(want, k), buildTypeMessage(want, k); got != built {
				t.Errorf("%s, %s: %q, want %q", want, KindName(k), got, built)
			}
		}
	}
	if got := MsgType("string or null", KindNumber); got != "must be a string or null, not a number" {
		t.Errorf("%q", got)
	}
	if n := testing.AllocsPerRun(10, func() { _ = MsgType("object", KindArray) }); n != 0 {
		t.Errorf("MsgType allocates %v times", n)
	}
}

// TestErrorsFew: one, two, three and four violations, with pointers short
// and long (the first few are kept inline until Err or until they no
// longer fit), come out in order with their pointers and messages, and Err
// can be called again after more violations.
func TestErrorsFew(t *testing.T) {
	var root Path
	long := strings.Repeat("p", 40)
	keys := []string{"order_id", "", long, "a/b", "quantity"}
	for n := 1; n <= len(keys); n++ {
		for _, rot := range []int{0, 1, 2} {
			var e Errors
			var want []FieldError
			for i := range n {
				k := keys[(i+rot)%len(keys)]
				c := root.Child(k)
				el := c.Elem(i * 7)
				e.Add(&el, MsgRequired+k)
				want = append(want, FieldError{Pointer: "/" + strings.ReplaceAll(k, "/", "~1") + "/" + strconv.Itoa(i*7), Message: MsgRequired + k})
			}
			if e.Len() != n {
				t.Fatalf("Len %d, want %d", e.Len(), n)
			}
			got := e.Err().(*ValidationError).Errors
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d violations, rotation %d:\n got %q\nwant %q", n, rot, got, want)
			}
			e.Add(&root, MsgUnknownProperty)
			again := e.Err().(*ValidationError).Errors
			if !reflect.DeepEqual(again[:n], want) || again[n].Pointer != "" || !reflect.DeepEqual(got, want) {
				t.Errorf("%d violations, rotation %d, then one more: %q (first error now %q)", n, rot, again, got)
			}
		}
	}
	var e Errors
	if e.Err() != nil {
		t.Error("no violation, but an error")
	}
}
