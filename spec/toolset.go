package spec

import "strings"

// DefaultToolset is the toolset of tools that name none and of operations
// without tags.
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
