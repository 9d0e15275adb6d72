package main

// The tools of the tasks-* scenarios (io.modelcontextprotocol/tasks,
// SEP-2663). They are ordinary handlers: the runtime turns a call into a
// task when the tool is declared task-capable in mcpgen.yaml, the client
// declared the extension and the handler runs long or calls
// runtime.StartTask.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

func (h *Handler) Greet(ctx context.Context, in conformancemcp.GreetInput) (*runtime.ToolResult, error) {
	return textResult("Hello, " + in.Name + "!"), nil
}

// work waits d, or until ctx ends (tasks/cancel cancels it).
func work(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Handler) SlowCompute(ctx context.Context, in conformancemcp.SlowComputeInput) (*runtime.ToolResult, error) {
	if err := work(ctx, time.Duration(in.Seconds*float64(time.Second))); err != nil {
		return nil, err
	}
	label := ""
	if in.Label != nil {
		label = *in.Label
	}
	return textResult(fmt.Sprintf("computed %q in %gs", label, in.Seconds)), nil
}

func (h *Handler) FailingJob(ctx context.Context, in conformancemcp.FailingJobInput) (*runtime.ToolResult, error) {
	if err := work(ctx, time.Second); err != nil {
		return nil, err
	}
	return nil, errors.New("the job failed")
}

func (h *Handler) ProtocolErrorJob(ctx context.Context, in conformancemcp.ProtocolErrorJobInput) (*runtime.ToolResult, error) {
	runtime.StartTask(ctx)
	panic("protocol_error_job: simulated crash")
}

func (h *Handler) ConfirmDelete(ctx context.Context, in conformancemcp.ConfirmDeleteInput) (*runtime.ToolResult, error) {
	// The question belongs to the task, not to the call: become a task
	// first, so that the task waits in input_required.
	runtime.StartTask(ctx)
	res, err := runtime.Elicit(ctx, "confirm", runtime.ElicitRequest{
		Message: "Delete " + in.Filename + "?",
		Schema:  `{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`,
	})
	if err != nil {
		return nil, err
	}
	if ok, _ := res.Content["confirm"].(bool); res.Action == "accept" && ok {
		return textResult("Deleted " + in.Filename), nil
	}
	return textResult("Kept " + in.Filename), nil
}

func (h *Handler) MultiInput(ctx context.Context, in conformancemcp.MultiInputInput) (*runtime.ToolResult, error) {
	runtime.StartTask(ctx)
	// Two questions at once: the task lists both until both are answered.
	var (
		wg      sync.WaitGroup
		answers [2]runtime.ElicitResult
		errs    [2]error
	)
	for i, key := range []string{"first_name", "confirm"} {
		wg.Go(func() {
			answers[i], errs[i] = runtime.Elicit(ctx, key, runtime.ElicitRequest{
				Message: "Question " + key,
				Schema:  `{"type":"object","properties":{"name":{"type":"string"},"confirm":{"type":"boolean"}}}`,
			})
		})
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	return textResult(fmt.Sprintf("answers: %v, %v", answers[0].Content["name"], answers[1].Content["name"])), nil
}

func (h *Handler) TestToolWithTask(ctx context.Context, in conformancemcp.TestToolWithTaskInput) (*runtime.ToolResult, error) {
	// Asked in the call itself: the client answers by retrying it (MRTR).
	name, err := askName(ctx, "user_name", "What is your name?")
	if err != nil {
		return nil, err
	}
	// The rest runs as a task.
	runtime.StartTask(ctx)
	if err := work(ctx, 200*time.Millisecond); err != nil {
		return nil, err
	}
	return textResult("Hello, " + name + "! (from a task)"), nil
}
