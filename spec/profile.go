package spec

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Profile is a client profile of generate.profile: a rewrite of the
// published tool definitions (the schemas and names tools/list shows) for
// hosts that refuse parts of JSON Schema 2020-12 or long tool names. The
// server keeps validating arguments against the full spec.
type Profile struct {
	// Name is one of ProfileNames.
	Name string
	// Arg is the number after the colon: the recursion depth of
	// inline-refs (DefaultInlineDepth when not given), the name length of
	// name-length. 0 for the others.
	Arg int
	Pos Pos
}

// The profiles generate.profile accepts.
const (
	// ProfileInlineRefs lists schemas without "$ref" and "$defs":
	// definitions are inlined, recursive ones cut after Arg levels.
	ProfileInlineRefs = "inline-refs"
	// ProfileGemini lists input schemas in the OpenAPI 3.0 subset of
	// Gemini function declarations (implies inline-refs).
	ProfileGemini = "gemini"
	// ProfileNameLength lists tool names of at most Arg characters of
	// [A-Za-z0-9_-].
	ProfileNameLength = "name-length"
	// ProfileCursor is name-length with room for Cursor's server prefix.
	ProfileCursor = "cursor"
)

// ProfileNames are the profiles there are, in the order they are listed
// in messages.
var ProfileNames = []string{ProfileInlineRefs, ProfileGemini, ProfileNameLength, ProfileCursor}

// DefaultInlineDepth is how many times inline-refs expands a recursive
// type along one path before listing it as any value.
const DefaultInlineDepth = 2

// ParseProfile parses one profile as written in generate.profile or
// --profile: "inline-refs", "inline-refs:3", "gemini", "name-length:48",
// "cursor".
func ParseProfile(s string) (Profile, error) {
	name, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	p := Profile{Name: name}
	n := 0
	if hasArg {
		v, err := strconv.Atoi(arg)
		if err != nil || v < 0 {
			return p, fmt.Errorf("profile %q: %q is not a non-negative number", s, arg)
		}
		n = v
	}
	switch name {
	case ProfileInlineRefs:
		p.Arg = DefaultInlineDepth
		if hasArg {
			p.Arg = n
		}
	case ProfileNameLength:
		if !hasArg {
			return p, fmt.Errorf("profile %q: name-length needs a length (name-length:60)", s)
		}
		if n < 16 || n > 128 {
			return p, fmt.Errorf("profile %q: the length must be between 16 and 128", s)
		}
		p.Arg = n
	case ProfileGemini, ProfileCursor:
		if hasArg {
			return p, fmt.Errorf("profile %q: %s takes no argument", s, name)
		}
	default:
		return p, fmt.Errorf("unknown profile %q (known: %s)", s, strings.Join(ProfileNames, ", "))
	}
	return p, nil
}

// ParseProfiles parses a list of profiles, refusing one named twice.
func ParseProfiles(list []string) ([]Profile, error) {
	var out []Profile
	seen := map[string]bool{}
	for _, s := range list {
		p, err := ParseProfile(s)
		if err != nil {
			return nil, err
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("profile %q is listed twice", p.Name)
		}
		seen[p.Name] = true
		out = append(out, p)
	}
	return out, nil
}

// profiles reads generate.profile: a list of profile names.
func (l *loader) profiles(n *yaml.Node) []Profile {
	if n.Kind != yaml.SequenceNode {
		l.expected(n, "generate: profile", "a list of profile names")
		return nil
	}
	var out []Profile
	seen := map[string]bool{}
	for _, c := range n.Content {
		s, ok := l.str(c, "generate: profile")
		if !ok {
			continue
		}
		p, err := ParseProfile(s)
		if err != nil {
			l.errorf(c, "generate", "%v", err)
			continue
		}
		if seen[p.Name] {
			l.errorf(c, "generate", "profile %q is listed twice", p.Name)
			continue
		}
		seen[p.Name] = true
		p.Pos = l.pos(c)
		out = append(out, p)
	}
	return out
}

// HasProfile returns the profile named name among ps.
func HasProfile(ps []Profile, name string) (Profile, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// ProfileReport counts what the client profiles changed in the published
// tool definitions; the generator fills it in (api.Profiles) beside the
// notes that name each change, so that a summary survives -q.
type ProfileReport struct {
	// Losses are the lossy schema rewrites, each a note of API.Notes too.
	Losses []Diagnostic
	// Renamed are the tools listed under a shorter name.
	Renamed int
}

// ListedToolName fits a tool name into budget characters of
// [A-Za-z0-9_-], the tool name pattern of hosts stricter than MCP (dots
// and other characters become "_"): unchanged when it fits, else
// shortened as OpenAPI operation names are (words abbreviated, then cut
// and ended with 8 hex digits of the SHA-256 of the full name), so the
// same name always gives the same result.
func ListedToolName(name string, budget int) string {
	clean := strings.ReplaceAll(toolNameChars(name), ".", "_")
	if clean == "" {
		clean = "tool"
	}
	return shortenName(clean, budget)
}
