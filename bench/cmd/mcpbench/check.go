package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/mcpgen-dev/mcpgen/bench/tool"
)

// responseID reads the numeric id of a JSON-RPC response. Tool text is
// JSON-escaped inside a string, so the first `"id":` is the envelope's.
func responseID(msg []byte) (int64, bool) {
	i := bytes.Index(msg, []byte(`"id":`))
	if i < 0 {
		return 0, false
	}
	rest := bytes.TrimLeft(msg[i+5:], " ")
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	id, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	return id, err == nil
}

// check fails unless msg is a successful tools/call result whose
// structuredContent is the expected answer for request id. Implementations
// order keys differently; compact answers are compared member by member
// without decoding, anything else is decoded and compared as values.
func check(msg []byte, id int64) error {
	if bytes.Contains(msg, []byte(`"isError":true`)) || !bytes.Contains(msg, []byte(`"result":`)) {
		return fmt.Errorf("request %d failed: %s", id, msg)
	}
	obj := structuredContent(msg)
	if obj == nil {
		return fmt.Errorf("no structuredContent in %s", msg)
	}
	q := strconv.FormatInt(tool.Items(quantity(id), false), 10)
	members := [...]string{`"found":true`, `"order_id":"A1001"`, `"status":"` + tool.Shipped + `"`, `"items":` + q}
	size := 2 + len(members) - 1
	ok := true
	for _, m := range members {
		size += len(m)
		ok = ok && bytes.Contains(obj, []byte(m))
	}
	if ok && size == len(obj) {
		return nil
	}
	var got, want any
	if err := json.Unmarshal(obj, &got); err != nil {
		return fmt.Errorf("structuredContent of request %d: %v", id, err)
	}
	json.Unmarshal(tool.AppendExpected(nil, "A1001", quantity(id)), &want)
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("request %d: structuredContent %s, want %s", id, obj, tool.AppendExpected(nil, "A1001", quantity(id)))
	}
	return nil
}

// structuredContent returns the raw object after "structuredContent":.
func structuredContent(msg []byte) []byte {
	i := bytes.Index(msg, []byte(`"structuredContent":`))
	if i < 0 {
		return nil
	}
	rest := bytes.TrimLeft(msg[i+len(`"structuredContent":`):], " ")
	depth, inString := 0, false
	for j := 0; j < len(rest); j++ {
		c := rest[j]
		switch {
		case inString && c == '\\':
			j++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return rest[:j+1]
			}
		}
	}
	return nil
}
