package spec

import "strings"

// DefaultToolset is the toolset of tools that name none, and of
// operations with neither tags nor a resource in their path.
const DefaultToolset = "other"

// ToolsetName normalises a tag or a written toolset name to the form
// toolset names take: lowercase ASCII letters and digits, runs of anything
// else made one "_", none at either end ("Pull Requests" → "pull_requests",
// "code-scanning" → "code_scanning"). It returns "" when nothing is left.
// Toolset names are short, stable words a person types on a command line
// (--toolsets repos,issues) and a model reads in instructions.
func ToolsetName(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	return b.String()
}

// pathToolset is the toolset of an operation without tags: the first
// segment of its path that names a resource, skipping version prefixes
// ("/v1/customers/{customer}" → "customers", "/api/v2/items" → "items").
// Documents without tags (Stripe's has none) still group by resource,
// which is what their tags would have said.
func pathToolset(path string) string {
	for _, seg := range strings.Split(path, "/") {
		if seg == "" || strings.HasPrefix(seg, "{") || seg == "api" || isVersion(seg) {
			continue
		}
		return ToolsetName(seg)
	}
	return ""
}

// isVersion reports whether a path segment is a version prefix: v1, v2beta, 2023-10-16.
func isVersion(seg string) bool {
	s := strings.ToLower(seg)
	if len(s) >= 2 && s[0] == 'v' && s[1] >= '0' && s[1] <= '9' {
		return true
	}
	return len(s) > 0 && s[0] >= '0' && s[0] <= '9'
}
