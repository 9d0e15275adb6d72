package spec

import (
	"testing"
	"testing/fstest"
)

// TestOpenAPIBodyAndPathMarkers: an optional body's fields are optional
// arguments that remember the body's required list; a required body's are
// required; x-multi-segment and x-mcp-multi-segment mark path parameters.
func TestOpenAPIBodyAndPathMarkers(t *testing.T) {
	const doc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /repos/{owner}/contents/{path}/{ref}:
    put:
      operationId: putContent
      parameters:
        - {name: owner, in: path, required: true, schema: {type: string}}
        - {name: path, in: path, required: true, x-multi-segment: true, schema: {type: string}}
        - {name: ref, in: path, required: true, x-mcp-multi-segment: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [message]
              properties:
                message: {type: string}
                sha: {type: string}
      responses: {"204": {description: done}}
  /notes:
    post:
      operationId: createNote
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [title]
              properties:
                title: {type: string}
                body: {type: string}
      responses: {"204": {description: done}}
`
	api, err := LoadOpenAPI(fstest.MapFS{"api.yaml": {Data: []byte(doc)}}, "api.yaml", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	put := toolByName(t, api, "putContent")
	if put.Upstream.BodyRequired {
		t.Error("putContent: body required, want optional")
	}
	if p := prop(t, put.Input, "message"); p.Required {
		t.Error("putContent: message required in the input of an optional body")
	}
	if !upParam(t, put, "message").RequiredInBody || upParam(t, put, "sha").RequiredInBody {
		t.Error("RequiredInBody: want message only")
	}
	if upParam(t, put, "owner").MultiSegment || !upParam(t, put, "path").MultiSegment || !upParam(t, put, "ref").MultiSegment {
		t.Error("MultiSegment: want path and ref only")
	}
	note := toolByName(t, api, "createNote")
	if !note.Upstream.BodyRequired || !prop(t, note.Input, "title").Required || prop(t, note.Input, "body").Required {
		t.Error("createNote: a required body's required fields are required arguments")
	}
}
