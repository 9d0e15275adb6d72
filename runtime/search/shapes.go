package search

import "strings"

// A value's form often says what kind of thing it is, when the request
// names it by the value alone: "@jdoe" is a user, "docs/setup.md" a file,
// "v2.4.0" a release, "https://ci.example.com/hook" a URL, "9f8e7d1" a
// commit, "acme/api" a repository, "fraud@bad.com" an email address,
// "$80" an amount, "NODE_VERSION" a variable, "#releases" a chat
// channel. Such a request ("give @jdoe push access", "publish v2.4.0")
// asks about that kind of object as if it had said its name; shapeKind
// reads it. The value's own words are still searched ("…/hook" of a
// webhook's URL), and a request that names the kind anyway ("the 0.9.1
// release") gains nothing from it.

// shapeWeight is how much the kind a value's form suggests counts against
// a word of the request: a form is a guess ("next.js" is a repository's
// name, not a file).
const shapeWeight = 0.5

// fileExtensions are the extensions that mark a value as a file's name.
var fileExtensions = map[string]bool{
	"md": true, "txt": true, "json": true, "yaml": true, "yml": true, "toml": true, "xml": true, "csv": true,
	"pdf": true, "png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "zip": true, "gz": true,
	"go": true, "py": true, "rb": true, "java": true, "ts": true, "tsx": true, "jsx": true, "c": true,
	"h": true, "cpp": true, "rs": true, "sh": true, "html": true, "css": true, "lock": true, "mod": true,
}

// shape is a kind of thing a value's form says it is.
type shape uint8

const (
	noShape shape = iota
	shapeURL
	shapeUser
	shapeEmail
	shapeRelease
	shapeCommit
	shapeAmount
	shapeVariable
	shapeFile
	shapeRepository
	shapeChannel
	// shapeBranch is never read from a value's form: readBranch sets it
	// for the conventional names of a default branch.
	shapeBranch
)

// shapeWords are the words of each kind, and shapeTerms their stems.
var (
	shapeWords = [...][]string{
		shapeURL: {"url"}, shapeUser: {"user", "member", "collaborator"}, shapeEmail: {"email"}, shapeRelease: {"release", "tag", "version"},
		shapeCommit: {"commit"}, shapeAmount: {"amount"}, shapeVariable: {"variable"}, shapeFile: {"file"},
		shapeRepository: {"repo", "repository"}, shapeChannel: {"channel", "conversation"},
		shapeBranch: {"branch"},
	}
	shapeTerms = func() [len(shapeWords)][]string {
		var out [len(shapeWords)][]string
		for k, ws := range shapeWords {
			for _, w := range ws {
				out[k] = append(out[k], Stem(w))
			}
		}
		return out
	}()
)

// shapeKind returns the kind of thing value's form says it is, or
// noShape: value is a piece of a request without its punctuation
// (valueText).
func shapeKind(value string) shape {
	f := strings.TrimSuffix(value, ".")
	switch {
	case len(f) < 2:
		return noShape
	case strings.HasPrefix(f, "http://") || strings.HasPrefix(f, "https://"):
		return shapeURL
	case f[0] == '@' && isHandle(f[1:]):
		return shapeUser
	case strings.Count(f, "@") == 1 && strings.Contains(f[strings.Index(f, "@"):], "."):
		return shapeEmail
	case isDottedVersion(f):
		return shapeRelease
	case isSHA(f):
		return shapeCommit
	case isMoney(f):
		return shapeAmount
	case isEnvName(f):
		return shapeVariable
	case isChannel(f):
		return shapeChannel
	}
	if dot := strings.LastIndexByte(f, '.'); dot > 0 && fileExtensions[strings.ToLower(f[dot+1:])] {
		return shapeFile
	}
	if owner, name, ok := strings.Cut(f, "/"); ok && isHandle(owner) && isHandle(name) {
		return shapeRepository
	}
	return noShape
}

// isHandle says whether s is a user's or a repository's name: letters,
// digits, '-', '_' and '.', starting with a letter or digit.
func isHandle(s string) bool {
	if s == "" || !isAlnum(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isDottedVersion says whether s is a version such as "v2.4.0" or "1.2":
// an optional v, then numbers joined by dots.
func isDottedVersion(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// isSHA says whether s is an abbreviated or full commit hash: 7 to 40
// lowercase hexadecimal digits with at least one letter and one digit.
func isSHA(s string) bool {
	if len(s) < 7 || len(s) > 40 {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			letter = true
		default:
			return false
		}
	}
	return letter && digit
}

// isMoney says whether s is a sum of money: a currency sign, then a
// number ("$2,000", "€15.50", "$5k").
func isMoney(s string) bool {
	for _, sign := range []string{"$", "€", "£", "¥"} {
		if n, ok := strings.CutPrefix(s, sign); ok {
			return n != "" && n[0] >= '0' && n[0] <= '9' && strings.Trim(n, "0123456789,.kKmM") == ""
		}
	}
	return false
}

// isEnvName says whether s is an environment variable's name, as such
// names are written: upper-case letters, digits and underscores, with
// at least one underscore ("NODE_VERSION").
func isEnvName(s string) bool {
	if !strings.Contains(s, "_") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isChannel says whether s is a chat channel's name as people write it:
// '#' and a name that starts with a letter ("#releases"; "#88" is an
// issue's number).
func isChannel(s string) bool {
	return len(s) > 1 && s[0] == '#' && (s[1] >= 'a' && s[1] <= 'z' || s[1] >= 'A' && s[1] <= 'Z') && isHandle(s[1:])
}
