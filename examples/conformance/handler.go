package main

// The handler of the "everything server". The texts and shapes below are
// the ones the suite's server scenarios compare (SERVER_REQUIREMENTS.md of
// github.com/modelcontextprotocol/conformance and the scenario
// descriptions shipped in @modelcontextprotocol/conformance).

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sort"
	"strings"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

// newServer returns the fixture server. opts are passed to the generated
// NewServer (which fills Info, Instructions and cache hints from the spec).
func newServer(opts runtime.Options) *runtime.Server {
	h := &Handler{}
	srv := conformancemcp.NewServer(h, opts)
	h.server = srv
	return srv
}

// Handler implements conformancemcp.Handler.
type Handler struct {
	// server is the server this handler is registered on, for the
	// list-changed hooks; set once by newServer before it serves.
	server *runtime.Server
}

var _ conformancemcp.Handler = (*Handler)(nil)

func textResult(text string) *runtime.ToolResult {
	return &runtime.ToolResult{Content: []runtime.Content{runtime.TextContent(text)}}
}

// redPixelPNG is a 1x1 red PNG, the minimal test image the suite asks for.
func redPixelPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	_ = png.Encode(&buf, img) // writing to a bytes.Buffer cannot fail
	return buf.Bytes()
}

// silentWAV is 10 ms of 8 kHz 8-bit mono silence, the minimal test audio.
func silentWAV() []byte {
	const rate, samples = 8000, 80
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + samples))
	b.WriteString("WAVEfmt ")
	le(uint32(16))   // fmt chunk size
	le(uint16(1))    // PCM
	le(uint16(1))    // mono
	le(uint32(rate)) // sample rate
	le(uint32(rate)) // byte rate
	le(uint16(1))    // block align
	le(uint16(8))    // bits per sample
	b.WriteString("data")
	le(uint32(samples))
	b.Write(bytes.Repeat([]byte{0x80}, samples)) // 8-bit PCM silence is 128
	return b.Bytes()
}

// ---- JSON Schema 2020-12 ----

// JSONSchema202012Tool is called only with arguments that passed the
// generated validator: a phone or an email, and the one contactMethod names.
func (h *Handler) JSONSchema202012Tool(ctx context.Context, in conformancemcp.JSONSchema202012ToolInput) (*runtime.ToolResult, error) {
	return textResult("ok"), nil
}

// ---- content of every kind ----

func (h *Handler) TestSimpleText(ctx context.Context, in conformancemcp.TestSimpleTextInput) (*runtime.ToolResult, error) {
	return textResult("This is a simple text response for testing."), nil
}

func (h *Handler) TestImageContent(ctx context.Context, in conformancemcp.TestImageContentInput) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{runtime.ImageContent(redPixelPNG(), "image/png")}}, nil
}

func (h *Handler) TestAudioContent(ctx context.Context, in conformancemcp.TestAudioContentInput) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{runtime.AudioContent(silentWAV(), "audio/wav")}}, nil
}

func (h *Handler) TestEmbeddedResource(ctx context.Context, in conformancemcp.TestEmbeddedResourceInput) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{runtime.EmbeddedResource(runtime.ResourceContents{
		URI: "test://embedded-resource", MimeType: "text/plain", Text: "This is an embedded resource content.",
	})}}, nil
}

func (h *Handler) TestMultipleContentTypes(ctx context.Context, in conformancemcp.TestMultipleContentTypesInput) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{
		runtime.TextContent("Multiple content types test:"),
		runtime.ImageContent(redPixelPNG(), "image/png"),
		runtime.EmbeddedResource(runtime.ResourceContents{
			URI: "test://mixed-content-resource", MimeType: "application/json", Text: `{"test":"data","value":123}`,
		}),
	}}, nil
}

// pause waits d unless the request is cancelled first.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Handler) TestToolWithLogging(ctx context.Context, in conformancemcp.TestToolWithLoggingInput) (*runtime.ToolResult, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := pause(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		runtime.Log(ctx, "info", "conformance-test-server", msg)
	}
	return textResult("Tool with logging executed successfully"), nil
}

func (h *Handler) TestToolWithProgress(ctx context.Context, in conformancemcp.TestToolWithProgressInput) (*runtime.ToolResult, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := pause(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		runtime.ReportProgress(ctx, p, 100, "")
	}
	return textResult("Tool with progress executed successfully"), nil
}

func (h *Handler) TestErrorHandling(ctx context.Context, in conformancemcp.TestErrorHandlingInput) (*runtime.ToolResult, error) {
	res := textResult("This tool intentionally returns an error for testing")
	res.IsError = true
	return res, nil
}

// ---- requests to the client ----

func userText(text string) runtime.SamplingMessage {
	return runtime.SamplingMessage{Role: "user", Content: runtime.TextContent(text)}
}

func (h *Handler) TestSampling(ctx context.Context, in conformancemcp.TestSamplingInput) (*runtime.ToolResult, error) {
	res, err := runtime.Sample(ctx, "sampling", runtime.SampleRequest{Messages: []runtime.SamplingMessage{userText(in.Prompt)}, MaxTokens: 100})
	if err != nil {
		return nil, err
	}
	return textResult("LLM response: " + res.Content.Text), nil
}

// elicitSummary renders an elicitation answer for the tools that echo it.
func elicitSummary(res runtime.ElicitResult) string {
	content, _ := json.Marshal(res.Content) // a decoded JSON object marshals
	return fmt.Sprintf("action=%s, content=%s", res.Action, content)
}

func (h *Handler) TestElicitation(ctx context.Context, in conformancemcp.TestElicitationInput) (*runtime.ToolResult, error) {
	res, err := runtime.Elicit(ctx, "elicitation", runtime.ElicitRequest{Message: in.Message, Schema: `{"type":"object","properties":{
		"username":{"type":"string","description":"User's response"},
		"email":{"type":"string","description":"User's email address"}},"required":["username","email"]}`})
	if err != nil {
		return nil, err
	}
	return textResult("User response: " + elicitSummary(res)), nil
}

func (h *Handler) TestElicitationSep1034Defaults(ctx context.Context, in conformancemcp.TestElicitationSep1034DefaultsInput) (*runtime.ToolResult, error) {
	res, err := runtime.Elicit(ctx, "defaults", runtime.ElicitRequest{Message: "Please review and update the form fields with defaults", Schema: `{"type":"object","properties":{
		"name":{"type":"string","description":"User name","default":"John Doe"},
		"age":{"type":"integer","description":"User age","default":30},
		"score":{"type":"number","description":"User score","default":95.5},
		"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
		"verified":{"type":"boolean","description":"Verification status","default":true}}}`})
	if err != nil {
		return nil, err
	}
	return textResult("Elicitation completed: " + elicitSummary(res)), nil
}

func (h *Handler) TestElicitationSep1330Enums(ctx context.Context, in conformancemcp.TestElicitationSep1330EnumsInput) (*runtime.ToolResult, error) {
	res, err := runtime.Elicit(ctx, "enums", runtime.ElicitRequest{Message: "Please select options from the enum fields", Schema: `{"type":"object","properties":{
		"untitledSingle":{"type":"string","description":"Select one option","enum":["option1","option2","option3"]},
		"titledSingle":{"type":"string","description":"Select one option with titles","oneOf":[
			{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},
		"legacyEnum":{"type":"string","description":"Select one option (legacy)","enum":["opt1","opt2","opt3"],
			"enumNames":["Option One","Option Two","Option Three"]},
		"untitledMulti":{"type":"array","description":"Select multiple options","items":{"type":"string","enum":["option1","option2","option3"]}},
		"titledMulti":{"type":"array","description":"Select multiple options with titles","items":{"anyOf":[
			{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`})
	if err != nil {
		return nil, err
	}
	return textResult("Elicitation completed: " + elicitSummary(res)), nil
}

// askName is the elicitation of the basic input_required scenarios.
func askName(ctx context.Context, key, message string) (string, error) {
	res, err := runtime.Elicit(ctx, key, runtime.ElicitRequest{Message: message,
		Schema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`})
	if err != nil {
		return "", err
	}
	name, _ := res.Content["name"].(string)
	if res.Action != "accept" || name == "" {
		return "", errors.New("no name was given")
	}
	return name, nil
}

// askConfirm asks for the ok flag of the request-state scenarios.
func askConfirm(ctx context.Context) (runtime.ElicitResult, error) {
	return runtime.Elicit(ctx, "confirm", runtime.ElicitRequest{Message: "Please confirm",
		Schema: `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`})
}

func (h *Handler) TestInputRequiredResultElicitation(ctx context.Context, in conformancemcp.TestInputRequiredResultElicitationInput) (*runtime.ToolResult, error) {
	name, err := askName(ctx, "user_name", "What is your name?")
	if err != nil {
		return nil, err
	}
	return textResult("Hello, " + name + "!"), nil
}

func (h *Handler) TestInputRequiredResultSampling(ctx context.Context, in conformancemcp.TestInputRequiredResultSamplingInput) (*runtime.ToolResult, error) {
	res, err := runtime.Sample(ctx, "capital_question", runtime.SampleRequest{
		Messages: []runtime.SamplingMessage{userText("What is the capital of France?")}, MaxTokens: 100})
	if err != nil {
		return nil, err
	}
	return textResult("The model answered: " + res.Content.Text), nil
}

// rootsText lists roots for the tools that report them.
func rootsText(roots []runtime.Root) string {
	uris := make([]string, len(roots))
	for i, r := range roots {
		uris[i] = r.URI
	}
	return fmt.Sprintf("%d root(s): %s", len(roots), strings.Join(uris, ", "))
}

func (h *Handler) TestInputRequiredResultListRoots(ctx context.Context, in conformancemcp.TestInputRequiredResultListRootsInput) (*runtime.ToolResult, error) {
	roots, err := runtime.ListRoots(ctx, "client_roots")
	if err != nil {
		return nil, err
	}
	return textResult("Client roots: " + rootsText(roots)), nil
}

func (h *Handler) TestInputRequiredResultRequestState(ctx context.Context, in conformancemcp.TestInputRequiredResultRequestStateInput) (*runtime.ToolResult, error) {
	res, err := askConfirm(ctx)
	if err != nil {
		return nil, err
	}
	// The runtime verified the requestState's signature before the
	// handler ran; a retry with a bad one never gets here.
	return textResult("state-ok: confirmation " + elicitSummary(res)), nil
}

func (h *Handler) TestInputRequiredResultMultipleInputs(ctx context.Context, in conformancemcp.TestInputRequiredResultMultipleInputsInput) (*runtime.ToolResult, error) {
	// All three are asked before any error is returned, so that the
	// client gets them in one round.
	name, errName := askName(ctx, "user_name", "What is your name?")
	greeting, errGreeting := runtime.Sample(ctx, "greeting", runtime.SampleRequest{
		Messages: []runtime.SamplingMessage{userText("Generate a greeting")}, MaxTokens: 50})
	roots, errRoots := runtime.ListRoots(ctx, "client_roots")
	if err := errors.Join(errName, errGreeting, errRoots); err != nil {
		return nil, firstError(errName, errGreeting, errRoots)
	}
	return textResult(fmt.Sprintf("name=%s, greeting=%s, roots=%s", name, greeting.Content.Text, rootsText(roots))), nil
}

// firstError returns the first non-nil error: an input-required error must
// be returned unchanged, not joined.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (h *Handler) TestInputRequiredResultMultiRound(ctx context.Context, in conformancemcp.TestInputRequiredResultMultiRoundInput) (*runtime.ToolResult, error) {
	name, err := askName(ctx, "step1", "Step 1: What is your name?")
	if err != nil {
		return nil, err
	}
	res, err := runtime.Elicit(ctx, "step2", runtime.ElicitRequest{Message: "Step 2: What is your favorite color?",
		Schema: `{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`})
	if err != nil {
		return nil, err
	}
	color, _ := res.Content["color"].(string)
	return textResult(fmt.Sprintf("%s likes %s", name, color)), nil
}

func (h *Handler) TestInputRequiredResultTamperedState(ctx context.Context, in conformancemcp.TestInputRequiredResultTamperedStateInput) (*runtime.ToolResult, error) {
	res, err := askConfirm(ctx)
	if err != nil {
		return nil, err
	}
	return textResult("Confirmed with an intact requestState: " + elicitSummary(res)), nil
}

// isMissingCapability reports a -32021 error: the client did not declare
// what that input request needs.
func isMissingCapability(err error) bool {
	var rpcErr *runtime.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == runtime.CodeMissingRequiredClientCapability
}

func (h *Handler) TestInputRequiredResultCapabilities(ctx context.Context, in conformancemcp.TestInputRequiredResultCapabilitiesInput) (*runtime.ToolResult, error) {
	// Ask for every kind of input, and skip the kinds the client cannot
	// answer: the runtime never embeds those.
	_, errSample := runtime.Sample(ctx, "sample", runtime.SampleRequest{
		Messages: []runtime.SamplingMessage{userText("Say hello")}, MaxTokens: 20})
	_, errElicit := askName(ctx, "user_name", "What is your name?")
	_, errRoots := runtime.ListRoots(ctx, "client_roots")
	var asked []string
	var pending error
	for _, r := range []struct {
		kind string
		err  error
	}{{"sampling", errSample}, {"elicitation", errElicit}, {"roots", errRoots}} {
		if isMissingCapability(r.err) {
			continue
		}
		asked = append(asked, r.kind)
		if r.err != nil && pending == nil {
			pending = r.err
		}
	}
	if pending != nil {
		return nil, pending
	}
	sort.Strings(asked)
	return textResult("Answered: " + strings.Join(asked, ", ")), nil
}

func (h *Handler) TestMissingCapability(ctx context.Context, in conformancemcp.TestMissingCapabilityInput) (*runtime.ToolResult, error) {
	res, err := runtime.Sample(ctx, "sample", runtime.SampleRequest{
		Messages: []runtime.SamplingMessage{userText("Say hello")}, MaxTokens: 20})
	if err != nil {
		return nil, err
	}
	return textResult("Sampled: " + res.Content.Text), nil
}

func (h *Handler) TestStreamingElicitation(ctx context.Context, in conformancemcp.TestStreamingElicitationInput) (*runtime.ToolResult, error) {
	name, err := askName(ctx, "user_name", "What is your name?")
	if err != nil {
		return nil, err
	}
	return textResult("Hello, " + name + "!"), nil
}

func (h *Handler) TestLoggingTool(ctx context.Context, in conformancemcp.TestLoggingToolInput) (*runtime.ToolResult, error) {
	runtime.Log(ctx, "info", "conformance-test-server", "test_logging_tool ran")
	return textResult("Logged (if the client asked for logs)."), nil
}

func (h *Handler) TestCustomHeaders(ctx context.Context, in conformancemcp.TestCustomHeadersInput) (*runtime.ToolResult, error) {
	return textResult("region=" + in.Region), nil
}

func (h *Handler) TestTriggerToolChange(ctx context.Context, in conformancemcp.TestTriggerToolChangeInput) (*runtime.ToolResult, error) {
	h.server.NotifyToolsListChanged()
	return textResult("tools/list_changed sent"), nil
}

func (h *Handler) TestTriggerPromptChange(ctx context.Context, in conformancemcp.TestTriggerPromptChangeInput) (*runtime.ToolResult, error) {
	h.server.NotifyPromptsListChanged()
	return textResult("prompts/list_changed sent"), nil
}

// ---- resources ----

func (h *Handler) ReadStaticText(ctx context.Context) ([]runtime.ResourceContents, error) {
	return []runtime.ResourceContents{{Text: "This is the content of the static text resource."}}, nil
}

func (h *Handler) ReadStaticBinary(ctx context.Context) ([]runtime.ResourceContents, error) {
	return []runtime.ResourceContents{{Blob: redPixelPNG()}}, nil
}

func (h *Handler) ReadWatchedResource(ctx context.Context) ([]runtime.ResourceContents, error) {
	return []runtime.ResourceContents{{Text: "Watched resource content"}}, nil
}

func (h *Handler) ReadTemplateData(ctx context.Context, in conformancemcp.TemplateDataParams) ([]runtime.ResourceContents, error) {
	data, err := json.Marshal(struct {
		ID           string `json:"id"`
		TemplateTest bool   `json:"templateTest"`
		Data         string `json:"data"`
	}{in.ID, true, "Data for ID: " + in.ID})
	if err != nil {
		return nil, err
	}
	return []runtime.ResourceContents{{Text: string(data)}}, nil
}

// ---- prompts ----

func userMessage(c runtime.Content) runtime.PromptMessage {
	return runtime.PromptMessage{Role: "user", Content: c}
}

func (h *Handler) GetTestSimplePrompt(ctx context.Context, in conformancemcp.TestSimplePromptArgs) (*runtime.PromptResult, error) {
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		userMessage(runtime.TextContent("This is a simple prompt for testing.")),
	}}, nil
}

func (h *Handler) GetTestPromptWithArguments(ctx context.Context, in conformancemcp.TestPromptWithArgumentsArgs) (*runtime.PromptResult, error) {
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		userMessage(runtime.TextContent(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2))),
	}}, nil
}

func (h *Handler) GetTestPromptWithEmbeddedResource(ctx context.Context, in conformancemcp.TestPromptWithEmbeddedResourceArgs) (*runtime.PromptResult, error) {
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		userMessage(runtime.EmbeddedResource(runtime.ResourceContents{
			URI: in.ResourceURI, MimeType: "text/plain", Text: "Embedded resource content for testing.",
		})),
		userMessage(runtime.TextContent("Please process the embedded resource above.")),
	}}, nil
}

func (h *Handler) GetTestPromptWithImage(ctx context.Context, in conformancemcp.TestPromptWithImageArgs) (*runtime.PromptResult, error) {
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		userMessage(runtime.ImageContent(redPixelPNG(), "image/png")),
		userMessage(runtime.TextContent("Please analyze the image above.")),
	}}, nil
}

func (h *Handler) GetTestInputRequiredResultPrompt(ctx context.Context, in conformancemcp.TestInputRequiredResultPromptArgs) (*runtime.PromptResult, error) {
	res, err := runtime.Elicit(ctx, "user_context", runtime.ElicitRequest{Message: "What context should the prompt use?",
		Schema: `{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`})
	if err != nil {
		return nil, err
	}
	context, _ := res.Content["context"].(string)
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		userMessage(runtime.TextContent("Answer with this context in mind: " + context)),
	}}, nil
}

// ---- completions ----

// completeFrom returns the values that start with what the user typed.
func completeFrom(values []string, typed string) runtime.Completion {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, typed) {
			out = append(out, v)
		}
	}
	return runtime.Completion{Values: out, Total: len(out)}
}

func (h *Handler) CompleteTestPromptWithArgumentsArg1(ctx context.Context, req runtime.CompleteRequest) (runtime.Completion, error) {
	return completeFrom([]string{"paris", "park", "party", "test", "testing"}, req.Value), nil
}

func (h *Handler) CompleteTemplateDataID(ctx context.Context, req runtime.CompleteRequest) (runtime.Completion, error) {
	return completeFrom([]string{"1", "123", "42"}, req.Value), nil
}
