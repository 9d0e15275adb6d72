package golang

import (
	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// taskSupport is the runtime.TaskSupport constant of a tool's task key, or
// nil when the tool never runs as a task.
func taskSupport(task string) Code {
	switch task {
	case spec.TaskOptional:
		return rt("TaskOptional")
	case spec.TaskRequired:
		return rt("TaskRequired")
	}
	return nil
}
