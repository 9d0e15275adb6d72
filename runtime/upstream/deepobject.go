package upstream

import (
	"strconv"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// deepObject serialises a JSON value with style deepObject in one pass
// over its text: each scalar becomes a pair named by the path to it in
// brackets (shipping[address][line1]=…), a null member none, a null array
// item an empty value. Nested objects and arrays are read where they
// stand, never parsed again, and an empty one (which yields no pair, so a
// member the API requires would go missing without a word) is noted on the
// way.
type deepObject struct {
	d wire.Decoder
	q []byte
	// key is the query-escaped name of the value being read.
	key []byte
	// empty is the path to the first empty object or array nested in the
	// value, innermost segment first, once found is set.
	empty []pathSegment
	found bool
}

// pathSegment is a member name or an array index.
type pathSegment struct {
	key     string
	index   int
	isIndex bool
}

// appendDeepObject appends the deepObject pairs of value under name to q.
// emptyAt is the path (below name) of the first empty object or array
// nested in value, nil when there is none; the value itself may be empty
// (it then yields nothing, meaning no value). On malformed JSON q is
// returned as it was.
func appendDeepObject(q []byte, name string, value []byte) (out []byte, emptyAt []pathSegment, found bool) {
	w := deepObject{q: q}
	w.d.Reset(value)
	w.key = appendQueryEscape(make([]byte, 0, 64), name)
	if w.d.Peek() == wire.KindInvalid {
		return q, nil, false // empty or malformed: no value
	}
	if err := w.value(true); err != nil {
		return q, nil, false
	}
	return w.q, w.empty, w.found
}

func (w *deepObject) pair(val []byte, escape bool) {
	if len(w.q) > 0 {
		w.q = append(w.q, '&')
	}
	w.q = append(w.q, w.key...)
	w.q = append(w.q, '=')
	if escape {
		w.q = appendQueryEscape(w.q, val)
	} else {
		w.q = append(w.q, val...)
	}
}

// value reads the next value of w.d; top says it is the whole value,
// which may be empty.
func (w *deepObject) value(top bool) error {
	switch w.d.Peek() {
	case wire.KindObject:
		if err := w.d.BeginObject(); err != nil {
			return err
		}
		n, members := len(w.key), 0
		for {
			k, ok, err := w.d.NextKey()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			members++
			w.key = append(w.key, "%5B"...)
			w.key = appendQueryEscape(w.key, k)
			w.key = append(w.key, "%5D"...)
			var name string
			if !w.found {
				if kind := w.d.Peek(); kind == wire.KindObject || kind == wire.KindArray {
					name = string(k) // k is a view the value's reading may overwrite
				}
			}
			before := w.found
			if err := w.value(false); err != nil {
				return err
			}
			if w.found && !before {
				w.empty = append(w.empty, pathSegment{key: name})
			}
			w.key = w.key[:n]
		}
		w.found = w.found || members == 0 && !top
	case wire.KindArray:
		if err := w.d.BeginArray(); err != nil {
			return err
		}
		n, i := len(w.key), 0
		for ; ; i++ {
			ok, err := w.d.NextElem()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			w.key = append(w.key, "%5B"...)
			w.key = strconv.AppendInt(w.key, int64(i), 10)
			w.key = append(w.key, "%5D"...)
			before := w.found
			if w.d.Peek() == wire.KindNull {
				// An item cannot be left out without moving the ones
				// after it: an empty value.
				if err := w.d.ReadNull(); err != nil {
					return err
				}
				w.pair(nil, false)
			} else if err := w.value(false); err != nil {
				return err
			}
			if w.found && !before {
				w.empty = append(w.empty, pathSegment{index: i, isIndex: true})
			}
			w.key = w.key[:n]
		}
		w.found = w.found || i == 0 && !top
	case wire.KindNull:
		return w.d.ReadNull()
	case wire.KindString:
		s, err := w.d.ReadStringBytes()
		if err != nil {
			return err
		}
		w.pair(s, true)
	case wire.KindNumber:
		num, err := w.d.ReadNumberRaw()
		if err != nil {
			return err
		}
		w.pair(num, true)
	case wire.KindBool:
		b, err := w.d.ReadBool()
		if err != nil {
			return err
		}
		if b {
			w.pair([]byte("true"), false)
		} else {
			w.pair([]byte("false"), false)
		}
	default:
		return w.d.Skip() // a syntax error
	}
	return nil
}

// appendQueryEscape appends s escaped as url.QueryEscape escapes it. It
// takes the decoder's byte views as they are: a string conversion would
// copy each key and value.
func appendQueryEscape[T string | []byte](b []byte, s T) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}

// pathOf is the path of an empty member below property, from the
// segments appendDeepObject gives (innermost first).
func pathOf(property string, segs []pathSegment) *wire.Path {
	p := &wire.Path{Key: property}
	for i := len(segs) - 1; i >= 0; i-- {
		var c wire.Path
		if segs[i].isIndex {
			c = p.Elem(segs[i].index)
		} else {
			c = p.Child(segs[i].key)
		}
		p = &c
	}
	return p
}
