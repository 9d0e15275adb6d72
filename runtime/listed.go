package runtime

// toolForms returns a compact tool definition in the forms a server with
// opts uses: as it serves it (with the field-selection argument and a
// relaxed output schema under Options.FieldSelection), the field selector
// that goes with it (nil when none), and as tools/list lists it (without
// outputSchema under Options.OmitOutputSchemas). AddTool and
// ListedToolDefinition share it, so what mcpgen stats measures is what a
// server lists.
func toolForms(def string, opts *Options) (served string, sel *fieldSelector, listed string) {
	served = def
	if opts.FieldSelection {
		if d, s, ok := withFieldSelection(def); ok {
			served, sel = d, s
		}
	}
	listed = served
	if opts.OmitOutputSchemas {
		listed = withoutOutputSchema(listed)
	}
	return served, sel, listed
}

// ListedToolDefinition returns a tool definition (as ToolDefinition
// builds it) as tools/list sends it from a server started with opts: with
// the _fields argument, whose enum lists every selectable field path,
// under Options.FieldSelection, and without outputSchema under
// Options.OmitOutputSchemas. mcpgen stats measures it. It panics when def
// is not valid JSON, as AddTool does.
func ListedToolDefinition(def string, opts Options) string {
	_, _, listed := toolForms(mustCompact("tool", "", def), &opts)
	return listed
}
