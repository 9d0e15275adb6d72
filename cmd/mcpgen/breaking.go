package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/gotype"
	"github.com/mcpgen-dev/mcpgen/spec"
	"github.com/mcpgen-dev/mcpgen/surface"
)

const breakingSynopsis = `mcpgen breaking [-f mcpgen.yaml] [--against mcpgen.lock.json | old.yaml | git-revision]

Compares the tool surface of the spec with a previous one and prints every
change that would break an existing client as "file:line:col: RULE: message",
then every safe change as "safe: file:line:col: RULE: message". Exits 1 when
a change is breaking.

--against takes a lock file written by 'mcpgen generate', a previous spec
file, or a git revision (HEAD, main, v1.2.0, …): at a revision the lock file
beside the spec is read, else the spec itself. Without --against, the lock
file beside the spec is used.`

// breaking implements `mcpgen breaking`.
func (c *cli) breaking(args []string) error {
	flags := c.newFlags("breaking", breakingSynopsis)
	specPath := flags.String("f", defaultSpec, "the spec `file`")
	against := flags.String("against", "", "the previous `surface`: a lock file, a spec file or a git revision (default: "+surface.LockFile+" beside the spec)")
	if err := parse(flags, args); err != nil {
		return err
	}
	root, base := filepath.Split(*specPath)
	root = filepath.Clean(root)
	if _, err := os.Stat(*specPath); errors.Is(err, fs.ErrNotExist) {
		return &problemError{msg: fmt.Sprintf("%s: no such file (name the spec with -f)", *specPath)}
	}
	api, err := loadSpec(*specPath)
	if err != nil {
		return err
	}
	// The surface of code-first tools is their Go types' schema.
	if err := gotype.Resolve(api, root); err != nil {
		return locate(root, err)
	}
	prev, err := previousSurface(root, base, *against)
	if err != nil {
		return err
	}
	changes := surface.Compare(prev, surface.FromAPI(api))
	var breaking int
	for _, safe := range []bool{false, true} {
		for _, ch := range changes {
			if ch.Breaking == safe {
				continue
			}
			if ch.Breaking {
				breaking++
			}
			line := changeLine(root, ch)
			if safe {
				line = "safe: " + line
			}
			fmt.Fprintln(c.stdout, line)
		}
	}
	if breaking > 0 {
		what := "changes"
		if breaking == 1 {
			what = "change"
		}
		name := *against
		if name == "" {
			name = filepath.Join(root, surface.LockFile)
		}
		return &problemError{msg: fmt.Sprintf("%d breaking %s against %s", breaking, what, name)}
	}
	return nil
}

// changeLine formats a change as a diagnostic, its file relative to the
// working directory (root is the spec's directory as the user named it).
func changeLine(root string, ch surface.Change) string {
	file := func(name string) string {
		if name != "" && !filepath.IsAbs(name) {
			return filepath.Join(root, filepath.FromSlash(name))
		}
		return name
	}
	pos := ch.Pos
	pos.File = file(pos.File)
	return spec.Diagnostic{Pos: pos, Message: ch.Detail(file)}.String()
}

// previousSurface reads the surface to compare with: against names a lock
// file or spec file on disk, or else a git revision; "" means the lock file
// beside the spec.
func previousSurface(root, base, against string) (*surface.Surface, error) {
	if against == "" {
		lock := filepath.Join(root, surface.LockFile)
		if _, err := os.Stat(lock); errors.Is(err, fs.ErrNotExist) {
			return nil, &problemError{msg: fmt.Sprintf("%s: no such file (run 'mcpgen generate' to write it, or name what to compare with using --against)", lock)}
		}
		against = lock
	}
	if fi, err := os.Stat(against); err == nil && !fi.IsDir() {
		data, err := os.ReadFile(against)
		if err != nil {
			return nil, err
		}
		if isLock(data) {
			s, err := surface.Parse(data)
			if err != nil {
				return nil, &problemError{msg: fmt.Sprintf("%s: %v", against, err)}
			}
			return s, nil
		}
		api, err := loadSpec(against)
		if err != nil {
			return nil, err
		}
		// Both sides see their code-first types, or neither side's
		// go: schemas would be compared. The old spec's types must come
		// from the old Go source: resolved from the module of the
		// current spec, they are today's types, and a change of them
		// (dropping omitempty makes an input required) goes unseen.
		dir := filepath.Dir(against)
		if usesGoTypes(api) {
			if mod := moduleDir(dir); mod != "" && mod == moduleDir(root) {
				return nil, &problemError{msg: fmt.Sprintf("%s has code-first (go:) types, which would resolve from the same Go source as the current spec (the module in %s), so changes to those Go types would go unseen: compare against the %s that 'mcpgen generate' wrote at the old version (--against old/%s, or --against <git revision> when it is committed), or against a spec in a checkout of the old version", against, mod, surface.LockFile, surface.LockFile)}
			}
		}
		if err := gotype.Resolve(api, dir); err != nil {
			return nil, locate(dir, err)
		}
		return surface.FromAPI(api), nil
	}
	return surfaceAtRevision(root, base, against)
}

// isLock tells a lock file (a JSON object) from a spec (YAML, which does
// not start with '{' in any spec mcpgen writes or documents).
func isLock(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))
}

// surfaceAtRevision reads the lock file beside the spec, else the spec, as
// they were at the git revision rev.
func surfaceAtRevision(root, base, rev string) (*surface.Surface, error) {
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil && stderr.Len() > 0 {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
		}
		return out, err
	}
	prefix, err := git("rev-parse", "--show-prefix")
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return nil, &usageError{msg: fmt.Sprintf("--against %s: no such file, and %s is not in a git repository", rev, root)}
		}
		return nil, fmt.Errorf("running git: %w", err)
	}
	if _, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, &usageError{msg: fmt.Sprintf("--against %s: no such file or git revision", rev)}
	}
	dir := strings.TrimSpace(string(prefix))
	if data, err := git("show", rev+":"+dir+surface.LockFile); err == nil {
		s, err := surface.Parse(data)
		if err != nil {
			return nil, &problemError{msg: fmt.Sprintf("%s:%s%s: %v", rev, dir, surface.LockFile, err)}
		}
		return s, nil
	}
	data, err := git("show", rev+":"+dir+base)
	if err != nil {
		return nil, &problemError{msg: fmt.Sprintf("neither %s nor %s exists at %s in %s", surface.LockFile, base, rev, root)}
	}
	api, err := spec.Load(fstest.MapFS{base: {Data: data}}, base)
	if err != nil {
		return nil, &problemError{msg: fmt.Sprintf("the spec at %s does not load:\n%v", rev, err)}
	}
	if usesGoTypes(api) {
		// Their Go source at rev is not on disk; the working tree's would
		// compare today's types with themselves.
		return nil, &problemError{msg: fmt.Sprintf("the spec at %s has code-first (go:) types and no %s beside it: compare against a lock file", rev, surface.LockFile)}
	}
	return surface.FromAPI(api), nil
}

// usesGoTypes reports whether a named type or a tool schema of api takes
// its schema from Go source (a go: key).
func usesGoTypes(api *spec.API) bool {
	for _, nt := range api.Types {
		if nt.Schema.GoType != "" {
			return true
		}
	}
	for _, t := range api.Tools {
		if t.Input != nil && t.Input.GoType != "" || t.Output != nil && t.Output.GoType != "" {
			return true
		}
	}
	return false
}

// moduleDir is the directory of the go.mod that dir belongs to, absolute;
// "" when there is none.
func moduleDir(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
