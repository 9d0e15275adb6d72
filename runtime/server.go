package runtime

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// Defaults of Options.
const (
	defaultPageSize        = 100
	defaultMaxMessageBytes = 4 << 20
	defaultStateTTL        = 10 * time.Minute
)

// Server dispatches MCP requests to the registered tools, resources,
// resource templates and prompts. It is safe for concurrent use; one Server
// can serve any number of transports at once. Definitions may be added while
// serving (announce them with the Notify* methods).
type Server struct {
	opts       Options
	logger     *slog.Logger
	serverInfo []byte // JSON of opts.Info, stamped on every result
	stateKeys  [][]byte
	// now is the clock of requestState expiry; tests replace it.
	now func() time.Time

	mu        sync.RWMutex
	tools     []*ToolDef
	toolIndex map[string]int
	// flags are the annotations of tools[i], read at registration.
	flags []toolFlags
	// listed are the definitions of tools[i] as tools/list sends them
	// (without outputSchema under Options.OmitOutputSchemas).
	listed []string
	// toolsets is the resolved Options.Toolsets; nil serves all.
	toolsets map[string]bool
	// discovery is the search index of discovery mode.
	discovery discoveryIndex
	resources []*ResourceDef
	resIndex  map[string]int
	templates []*registeredTemplate
	tplIndex  map[string]int
	prompts   []*PromptDef
	promptIdx map[string]int
	// completions counts registered CompleteFuncs: the completions
	// capability is advertised only when there is something to complete.
	completions int
	// taskTools counts tools with ToolDef.Task set: the tasks extension is
	// advertised only when some tool can run as a task.
	taskTools int

	subs subscriptions
	// tasks are the tasks of task-capable tool calls (tasks.go).
	tasks taskStore
	// repl connects the replicas through Options.Broker; nil without one.
	repl *replication
}

type registeredTemplate struct {
	def     *TemplateDef
	matcher *uriTemplate
}

// NewServer returns a Server configured by opts. Zero fields take their
// documented defaults.
func NewServer(opts Options) *Server {
	if opts.PageSize <= 0 {
		opts.PageSize = defaultPageSize
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = defaultMaxMessageBytes
	}
	if opts.StateTTL <= 0 {
		opts.StateTTL = defaultStateTTL
	}
	if opts.TaskTTL <= 0 {
		opts.TaskTTL = defaultTaskTTL
	}
	if opts.TaskPollInterval <= 0 {
		opts.TaskPollInterval = defaultTaskPollInterval
	}
	if opts.TaskStartAfter <= 0 {
		opts.TaskStartAfter = defaultTaskStartAfter
	}
	if opts.Info.Name == "" {
		opts.Info.Name = "mcpgen-server"
	}
	if opts.Info.Version == "" {
		opts.Info.Version = "0.0.0"
	}
	s := &Server{
		opts:      opts,
		logger:    opts.Logger,
		stateKeys: opts.StateKeys,
		now:       time.Now,
		toolIndex: map[string]int{},
		resIndex:  map[string]int{},
		tplIndex:  map[string]int{},
		promptIdx: map[string]int{},
	}
	s.toolsets = s.selectedToolsets()
	if s.logger == nil {
		s.logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	info, err := json.Marshal(opts.Info)
	if err != nil {
		panic(fmt.Sprintf("runtime: cannot encode Options.Info: %v", err))
	}
	s.serverInfo = info
	if len(s.stateKeys) == 0 {
		// A per-process key: requestState and cursors then only verify on
		// this Server, which is right for stdio and single replicas.
		key := make([]byte, 32)
		rand.Read(key)
		s.stateKeys = [][]byte{key}
	}
	s.subs.listeners = map[*listener]struct{}{}
	s.tasks = &memoryTaskStore{}
	if opts.Broker != nil {
		s.repl = newReplication(opts.Broker, s.logger)
		s.startReplication()
	}
	return s
}

// mustCompact returns the compacted JSON of a definition; invalid JSON is a
// bug in the registering code, reported at registration.
func mustCompact(kind, name, def string) string {
	out, err := compactJSON([]byte(def))
	if err != nil {
		panic(fmt.Sprintf("runtime: %s %q: Definition is not valid JSON", kind, name))
	}
	return string(out)
}

// AddTool registers a tool. It panics on a duplicate name or an invalid
// Definition: both are programming errors.
func (s *Server) AddTool(t ToolDef) {
	if t.Call == nil {
		panic(fmt.Sprintf("runtime: tool %q has no Call", t.Name))
	}
	var listed string
	t.Definition, t.fields, listed = toolForms(mustCompact("tool", t.Name, t.Definition), &s.opts)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.toolIndex[t.Name]; dup {
		panic(fmt.Sprintf("runtime: duplicate tool %q", t.Name))
	}
	s.toolIndex[t.Name] = len(s.tools)
	s.tools = append(s.tools, &t)
	s.flags = append(s.flags, parseToolFlags(t.Definition))
	if t.Task != TaskNever {
		s.taskTools++
	}
	s.listed = append(s.listed, listed)
}

// AddResource registers a resource with a fixed URI. It panics on a
// duplicate URI or an invalid Definition.
func (s *Server) AddResource(r ResourceDef) {
	if r.Read == nil {
		panic(fmt.Sprintf("runtime: resource %q has no Read", r.URI))
	}
	r.Definition = mustCompact("resource", r.URI, r.Definition)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.resIndex[r.URI]; dup {
		panic(fmt.Sprintf("runtime: duplicate resource %q", r.URI))
	}
	s.resIndex[r.URI] = len(s.resources)
	s.resources = append(s.resources, &r)
}

// AddResourceTemplate registers a resource template. It panics on a
// duplicate or unsupported URI template (only level-1 {var} expressions are
// matched) or an invalid Definition.
func (s *Server) AddResourceTemplate(t TemplateDef) {
	if t.Read == nil {
		panic(fmt.Sprintf("runtime: resource template %q has no Read", t.URITemplate))
	}
	m, err := parseURITemplate(t.URITemplate)
	if err != nil {
		panic(fmt.Sprintf("runtime: resource template %q: %v", t.URITemplate, err))
	}
	t.Definition = mustCompact("resource template", t.URITemplate, t.Definition)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.tplIndex[t.URITemplate]; dup {
		panic(fmt.Sprintf("runtime: duplicate resource template %q", t.URITemplate))
	}
	s.tplIndex[t.URITemplate] = len(s.templates)
	s.templates = append(s.templates, &registeredTemplate{def: &t, matcher: m})
	s.completions += len(t.Complete)
}

// AddPrompt registers a prompt. It panics on a duplicate name or an invalid
// Definition.
func (s *Server) AddPrompt(p PromptDef) {
	if p.Get == nil {
		panic(fmt.Sprintf("runtime: prompt %q has no Get", p.Name))
	}
	p.Definition = mustCompact("prompt", p.Name, p.Definition)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.promptIdx[p.Name]; dup {
		panic(fmt.Sprintf("runtime: duplicate prompt %q", p.Name))
	}
	s.promptIdx[p.Name] = len(s.prompts)
	s.prompts = append(s.prompts, &p)
	s.completions += len(p.Complete)
}

// capSet is the set of server capabilities, derived from what is
// registered at the moment of the request.
type capSet struct {
	tools, resources, prompts, completions bool
	// tasks: some tool can run as a task (the tasks extension).
	tasks bool
}

func (s *Server) caps() capSet {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return capSet{
		tools:       len(s.tools) > 0,
		resources:   len(s.resources) > 0 || len(s.templates) > 0,
		prompts:     len(s.prompts) > 0,
		completions: s.completions > 0,
		tasks:       s.taskTools > 0,
	}
}

// appendCapabilities appends the ServerCapabilities object.
func appendCapabilities(b []byte, c capSet) []byte {
	b = append(b, '{')
	n := len(b)
	add := func(member string) {
		if len(b) > n {
			b = append(b, ',')
		}
		b = append(b, member...)
	}
	if c.completions {
		add(`"completions":{}`)
	}
	if c.prompts {
		add(`"prompts":{"listChanged":true}`)
	}
	if c.resources {
		add(`"resources":{"subscribe":true,"listChanged":true}`)
	}
	if c.tools {
		add(`"tools":{"listChanged":true}`)
	}
	if c.tasks {
		add(`"extensions":{"` + TasksExtension + `":{}}`)
	}
	return append(b, '}')
}

func (s *Server) listCache() *CacheHint {
	c := s.opts.ListCache
	return &c
}

// lookupTool returns a registered tool, for transports that act on its
// definition before dispatch (HTTP: Scopes, ParamHeaders). The ToolDef must
// not be modified.
func (s *Server) lookupTool(name string) (*ToolDef, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.toolIndex[name]
	if !ok {
		return nil, false
	}
	return s.tools[i], true
}
