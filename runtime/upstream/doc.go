// Package upstream is the REST client through which a server generated
// from an OpenAPI or Swagger document calls the API it wraps. It is for
// that generated code, and for the people who configure it when they serve
// it (credentials, retries, logging).
//
// Generated code serialises a tool's typed input into a Request with the
// parameter and body helpers (AppendPathParam, AppendQueryParam,
// HeaderParam, CookieParam, MultipartBody, RawBody), sends it with
// Client.Do and returns a JSON Response as structuredContent with
// Client.StructuredResult, which checks it against the document's response
// schema (logging deviations) and the tolerant output schema the tool
// lists, with the small JSON Schema interpreter of jsonschema.go. Retries of
// idempotent requests, the response size cap, credentials per security
// scheme (CredentialsFromEnv, WithCredentials, WithCredentialsFor) and the
// mapping of error responses to an *Error live here:
//
//	api := restmcp.NewUpstream("", upstream.WithCredentials(restmcp.UpstreamCredentialsFromEnv()))
//	srv := restmcp.NewServer(api, runtime.Options{})
//
// It imports the server core (package runtime: the caller's Identity,
// ToolResult, InvalidParams) and the standard library. Nothing else in the
// runtime imports it.
package upstream
