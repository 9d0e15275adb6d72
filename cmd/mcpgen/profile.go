package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// profileFlag is --profile: a comma-separated list of client profiles
// that replaces generate.profile for one run ("" for none).
type profileFlag struct {
	list []string
	set  bool
}

func (p *profileFlag) String() string { return strings.Join(p.list, ",") }

func (p *profileFlag) Set(s string) error {
	p.set = true
	p.list = nil
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			p.list = append(p.list, name)
		}
	}
	_, err := spec.ParseProfiles(p.list)
	return err
}

// profileFlags adds --profile and --strict-profile to a command that
// builds a generation.
func profileFlags(fs *flag.FlagSet, o *buildOptions) {
	fs.Var(&o.Profiles, "profile", "client `profiles`, comma-separated (inline-refs[:DEPTH], gemini, name-length:N, cursor): rewrite the published tool definitions for hosts that refuse parts of JSON Schema or long names, in place of generate.profile (\"\": none)")
	fs.BoolVar(&o.StrictProfile, "strict-profile", false, "fail, writing nothing, when a profile's rewrite loses anything")
}

// applyProfileFlag puts --profile, when given, in place of the spec's
// generate.profile.
func applyProfileFlag(api *spec.API, o buildOptions) error {
	if !o.Profiles.set {
		return nil
	}
	ps, err := spec.ParseProfiles(o.Profiles.list)
	if err != nil {
		return &usageError{msg: "--profile: " + err.Error()}
	}
	api.Generate.Profiles = ps
	return nil
}

// strictProfileError is the error of --strict-profile: the lossy rewrites,
// as errors at their tools.
func strictProfileError(dir string, r spec.ProfileReport) error {
	if len(r.Losses) == 0 {
		return nil
	}
	ds := make(spec.Diagnostics, len(r.Losses))
	copy(ds, r.Losses)
	return located{dir: dir, ds: ds}
}

// printProfileSummary prints what the profiles changed in one line, which
// -q does not hide: a lossy rewrite is never silent.
func printProfileSummary(w io.Writer, r spec.ProfileReport) {
	if len(r.Losses) == 0 && r.Renamed == 0 {
		return
	}
	fmt.Fprintf(w, "mcpgen: client profiles: %d lossy schema rewrite(s), %d tool(s) renamed (listed as warnings; --strict-profile makes lossy rewrites errors)\n", len(r.Losses), r.Renamed)
}
