package spec

import "strings"

// PointerToken escapes name as one reference token of a JSON Pointer
// (RFC 6901 section 3): "~" becomes "~0" and "/" becomes "~1". Diagnostics,
// the API surface and the generator's schema rewrites all point into
// documents with it.
func PointerToken(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}

// UnescapePointerToken undoes PointerToken. It is one pass (RFC 6901
// section 4), so "~01" is "~1", never "/".
func UnescapePointerToken(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
}
