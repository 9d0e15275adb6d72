package spec

// Task support of tools (the tasks extension, SEP-2663).

// The values of tools.<name>.task.
const (
	// TaskOptional: the call may become a task when the client declared
	// the tasks extension; otherwise it is answered directly.
	TaskOptional = "optional"
	// TaskRequired: the tool can only be called by clients that declared
	// the tasks extension; the others get -32021.
	TaskRequired = "required"
)

// toolTask reads tools.<name>.task.
func (l *loader) toolTask(f map[string]pair, ctx string, t *Tool) {
	l.optStr(f, "task", ctx, &t.Task)
	switch t.Task {
	case "", TaskOptional, TaskRequired:
	default:
		l.errorf(f["task"].val, ctx, "task %q must be optional or required (omit it for a tool that never runs as a task)", t.Task)
	}
}
