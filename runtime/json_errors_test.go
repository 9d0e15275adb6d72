package runtime

import (
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
