package upstream

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// Parameter serialisation (OpenAPI 3 style/explode). Generated code passes
// each value as its JSON encoding, so one implementation serves every
// type.

// paramValue is a decoded JSON parameter value: a scalar (as its text),
// an array of scalars, or an object (ordered pairs of scalars).
type paramValue struct {
	kind  byte // 's' scalar, 'a' array, 'o' object, 'n' null
	text  string
	items []string
	pairs [][2]string
}

func scalarText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

func parseParam(raw []byte) paramValue {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return paramValue{kind: 'n'}
	}
	switch raw[0] {
	case '[':
		var items []json.RawMessage
		json.Unmarshal(raw, &items)
		v := paramValue{kind: 'a'}
		for _, it := range items {
			v.items = append(v.items, scalarText(it))
		}
		return v
	case '{':
		v := paramValue{kind: 'o'}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.Token()
		for d.More() {
			t, _ := d.Token()
			k, _ := t.(string)
			var m json.RawMessage
			if d.Decode(&m) != nil {
				break
			}
			v.pairs = append(v.pairs, [2]string{k, scalarText(m)})
		}
		return v
	}
	return paramValue{kind: 's', text: scalarText(raw)}
}

// AppendPathParam appends the path parameter value (JSON) to b, serialised
// with style simple, label or matrix and escaped for a path segment.
func AppendPathParam(b []byte, name, style string, explode bool, value []byte) []byte {
	return appendPathValue(b, name, style, explode, parseParam(value))
}

// appendPathValue is AppendPathParam of a value already parsed.
func appendPathValue(b []byte, name, style string, explode bool, v paramValue) []byte {
	esc := url.PathEscape
	prefix, sep := "", ","
	switch style {
	case "label":
		prefix = "."
		if explode {
			sep = "."
		}
	case "matrix":
		prefix = ";" + name + "="
		if explode {
			sep = ";" + name + "="
		}
	}
	b = append(b, prefix...)
	switch v.kind {
	case 's':
		b = append(b, esc(v.text)...)
	case 'a':
		for i, it := range v.items {
			if i > 0 {
				b = append(b, sep...)
			}
			b = append(b, esc(it)...)
		}
	case 'o':
		if explode {
			// simple k=v,k=v; label .k=v.k=v; matrix ;k=v;k=v
			b = b[:len(b)-len(prefix)]
			lead := map[string]string{"label": ".", "matrix": ";"}[style]
			for i, p := range v.pairs {
				if i > 0 && lead == "" {
					b = append(b, ',')
				}
				b = append(b, lead...)
				b = append(b, esc(p[0])...)
				b = append(b, '=')
				b = append(b, esc(p[1])...)
			}
			return b
		}
		for i, p := range v.pairs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, esc(p[0])...)
			b = append(b, ',')
			b = append(b, esc(p[1])...)
		}
	}
	return b
}

// AppendQueryParam appends name=value pairs of a query parameter (or a
// form-urlencoded body field) to q, "&"-separated, serialised with style
// form (default), spaceDelimited, pipeDelimited or deepObject.
func AppendQueryParam(q []byte, name, style string, explode bool, value []byte) []byte {
	if style == "deepObject" {
		// An object or array nests further: line_items[0][price]=p,
		// not the item's JSON.
		q, _, _ = appendDeepObject(q, name, value)
		return q
	}
	v := parseParam(value)
	esc := url.QueryEscape
	add := func(k, val string) {
		if len(q) > 0 {
			q = append(q, '&')
		}
		q = append(q, esc(k)...)
		q = append(q, '=')
		q = append(q, val...)
	}
	joined := func(items []string, sep string) string {
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = esc(it)
		}
		return strings.Join(parts, sep)
	}
	switch v.kind {
	case 'n':
		return q
	case 's':
		add(name, esc(v.text))
	case 'a':
		switch {
		case style == "spaceDelimited" && !explode:
			add(name, joined(v.items, "%20"))
		case style == "pipeDelimited" && !explode:
			add(name, joined(v.items, "|"))
		case explode:
			for _, it := range v.items {
				add(name, esc(it))
			}
		default:
			add(name, joined(v.items, ","))
		}
	case 'o':
		switch {
		case explode:
			for _, p := range v.pairs {
				add(p[0], esc(p[1]))
			}
		default:
			// k,v pairs joined by the style's delimiter: OpenAPI's
			// R%20100%20G%20200 (spaceDelimited), R|100|G|200
			// (pipeDelimited), R,100,G,200 (form).
			var flat []string
			for _, p := range v.pairs {
				flat = append(flat, p[0], p[1])
			}
			sep := ","
			switch style {
			case "spaceDelimited":
				sep = "%20"
			case "pipeDelimited":
				sep = "|"
			}
			add(name, joined(flat, sep))
		}
	}
	return q
}

// HeaderParam is a header parameter value (JSON) serialised with style
// simple.
func HeaderParam(explode bool, value []byte) string {
	b := AppendPathParam(nil, "", "simple", explode, value)
	s, err := url.PathUnescape(string(b))
	if err != nil {
		return string(b)
	}
	return s
}

// CookieParam is a cookie parameter as "name=value" (style form).
func CookieParam(name string, explode bool, value []byte) string {
	v := parseParam(value)
	switch v.kind {
	case 'a':
		return name + "=" + url.QueryEscape(strings.Join(v.items, ","))
	case 'o':
		var flat []string
		for _, p := range v.pairs {
			flat = append(flat, p[0], p[1])
		}
		return name + "=" + url.QueryEscape(strings.Join(flat, ","))
	}
	return name + "=" + url.QueryEscape(v.text)
}

// MultipartField is one part of a multipart/form-data body: Value is the
// field's JSON encoding; Base64 says it is a file whose bytes are the
// base64 string's decoding, sent with ContentType.
type MultipartField struct {
	Name        string
	Value       []byte
	Base64      bool
	ContentType string
}

// MultipartBody encodes fields as multipart/form-data and returns the body
// and its Content-Type.
func MultipartBody(fields []MultipartField) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		v := parseParam(f.Value)
		switch {
		case f.Base64:
			files := v.items
			if v.kind != 'a' {
				files = []string{v.text}
			}
			for _, enc := range files {
				data, err := base64.StdEncoding.DecodeString(enc)
				if err != nil {
					return nil, "", runtime.InvalidParams("%s: not valid base64: %v", f.Name, err)
				}
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.Name, f.Name))
				ct := f.ContentType
				if ct == "" {
					ct = "application/octet-stream"
				}
				h.Set("Content-Type", ct)
				pw, err := w.CreatePart(h)
				if err != nil {
					return nil, "", err
				}
				pw.Write(data)
			}
		case v.kind == 's':
			w.WriteField(f.Name, v.text)
		case v.kind == 'a':
			for _, it := range v.items {
				w.WriteField(f.Name, it)
			}
		case v.kind == 'o':
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, f.Name))
			h.Set("Content-Type", "application/json")
			pw, err := w.CreatePart(h)
			if err != nil {
				return nil, "", err
			}
			pw.Write(f.Value)
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// RawBody is the body of a non-JSON, non-form media type from the "body"
// argument (its JSON encoding): base64-decoded when the schema says the
// string is base64 (binary uploads), the string itself otherwise (text/*).
func RawBody(value []byte, base64Encoded bool) ([]byte, error) {
	v := parseParam(value)
	if v.kind != 's' {
		return value, nil
	}
	if !base64Encoded {
		return []byte(v.text), nil
	}
	data, err := base64.StdEncoding.DecodeString(v.text)
	if err != nil {
		return nil, runtime.InvalidParams("body: not valid base64: %v", err)
	}
	return data, nil
}
