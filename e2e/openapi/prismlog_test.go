package openapi

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// prismVerdict is what Prism's log says about the requests of one call:
// whether one reached it, whether it validated the request, and every
// request violation it logged. The sweep decides "request accepted by the
// mock" from it, never from the answer.
type prismVerdict struct {
	// reached: Prism logged "Request received".
	reached bool
	// passed: Prism logged "The request passed the validation rules".
	passed bool
	// refused: Prism logged "Request did not pass the validation rules"
	// (a violation of severity error), or ended the request before
	// validating it ("Request terminated with error" with no verdict,
	// such as a path that matches no operation).
	refused bool
	// violations are the request's violations, errors and warnings alike,
	// each once, as Prism words them ("Violation: request.body.x …" when
	// Prism logged the located form, else its bare message). Response
	// violations are not here: they are about Prism's answer.
	violations []string
	// answer is the first line in which Prism gave up on its answer
	// ("Request terminated with error: …"), when it did.
	answer string
}

// accepted reports whether the mock accepted the request: one reached it
// and passed validation without a single request violation, warnings
// included.
func (v prismVerdict) accepted() bool {
	return v.reached && v.passed && !v.refused && len(v.violations) == 0
}

// reason is the first violation, or what Prism logged instead.
func (v prismVerdict) reason() string {
	switch {
	case len(v.violations) > 0:
		return strings.Join(v.violations, "; ")
	case v.answer != "":
		return v.answer
	case !v.reached:
		return "no request reached the mock"
	}
	return "the mock logged no verdict on the request"
}

// prismLine is one line of Prism's log: `[time] › [SOURCE] sym level message`.
var prismLine = regexp.MustCompile(`\[(VALIDATOR|HTTP SERVER|NEGOTIATOR)\][^\n]*?\s(info|warning|error|success|note|debug|fatal)\s+(.*)$`)

// parsePrismLog reads the part of Prism's log that one call produced.
// Prism logs a refused request as a warning "Request did not pass the
// validation rules" followed by each violation's bare message at error
// level, and, when its answer validates, once more as "Violation:
// request.<where> <message>"; a request with only warnings passes, with
// each warning logged before "The request passed the validation rules".
func parsePrismLog(log string) prismVerdict {
	var v prismVerdict
	add := func(s string) {
		if !slices.Contains(v.violations, s) {
			v.violations = append(v.violations, s)
		}
	}
	inVerdict := false // between the verdict line and the negotiator's next line
	for _, line := range strings.Split(log, "\n") {
		m := prismLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		source, level, msg := m[1], m[2], strings.TrimSpace(m[3])
		switch {
		case source == "HTTP SERVER" && msg == "Request received":
			v.reached = true
			inVerdict = false
		case !v.reached:
			// Logged before this call's first request reached Prism: the
			// end of an earlier request (an answer Prism finished after
			// the server gave up on it), not this call's.
		case source == "HTTP SERVER" && strings.HasPrefix(msg, "Request terminated with error"):
			if !v.passed && len(v.violations) == 0 {
				v.refused = true
			}
			if v.answer == "" {
				v.answer = msg
			}
		case source != "VALIDATOR":
			inVerdict = false
		case msg == "Request did not pass the validation rules":
			v.refused, inVerdict = true, true
		case msg == "The request passed the validation rules. Looking for the best response":
			v.passed = true
		case strings.HasPrefix(msg, "Violation: request"):
			add(msg)
		case strings.HasPrefix(msg, "Violation: response"):
			// About Prism's own answer, not the request.
		case inVerdict && level == "error",
			!v.passed && level == "warning":
			// The bare messages of a refusal, or a warning logged before
			// the "passed" verdict.
			add(msg)
		}
	}
	// A located violation repeats a bare one: keep the located form only.
	var kept []string
	for _, s := range v.violations {
		if !strings.HasPrefix(s, "Violation: ") && slices.ContainsFunc(v.violations, func(o string) bool {
			return strings.HasPrefix(o, "Violation: ") && strings.HasSuffix(o, " "+s)
		}) {
			continue
		}
		kept = append(kept, s)
	}
	v.violations = kept
	return v
}

// openRequests is how many of the requests whose "Request received" is in
// log Prism has not finished: one ends at its answer ("> Responding with
// \"200\"", after which only its violations follow) or when Prism ends it
// with an error ("Request terminated with error", other than the
// VIOLATIONS error, which follows an answer that failed the document).
// Lines of requests received before log began are not counted.
func openRequests(log string) int {
	open := 0
	for _, line := range strings.Split(log, "\n") {
		m := prismLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		source, msg := m[1], strings.TrimSpace(m[3])
		switch {
		case source == "HTTP SERVER" && msg == "Request received":
			open++
		case open == 0:
		case source == "NEGOTIATOR" && strings.HasPrefix(msg, "> Responding with \""),
			source == "HTTP SERVER" && strings.HasPrefix(msg, "Request terminated with error") && !strings.Contains(msg, "#VIOLATIONS"):
			open--
		}
	}
	return open
}

func TestParsePrismLog(t *testing.T) {
	// Lines as Prism 5.14 logs them (captured from a run on the petstore).
	const (
		received = "[12:42:03 AM] › [HTTP SERVER] get /pet/findByStatus ℹ  info      Request received\n"
		refused  = "[12:42:03 AM] ›     [VALIDATOR] ⚠  warning   Request did not pass the validation rules\n"
		passed   = "[12:42:03 AM] ›     [VALIDATOR] ✔  success   The request passed the validation rules. Looking for the best response\n"
		accept   = "[12:42:03 AM] ›     [NEGOTIATOR] ℹ  info      Request contains an accept header: */*\n"
		respond  = "[12:42:03 AM] ›     [NEGOTIATOR] ℹ  info      > Responding with \"200\"\n"
		// terminated is how an answer that fails the document ends.
		terminated = "[12:42:04 AM] › [HTTP SERVER] get /pet ✖  error     Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid\n"
	)
	for _, tc := range []struct {
		name       string
		log        string
		accepted   bool
		violations []string
	}{
		{"nothing reached the mock", "", false, nil},
		{"accepted", received + accept + passed + respond, true, nil},
		{"accepted, the answer failed the document", received + passed + respond +
			"[12:42:04 AM] › [HTTP SERVER] get /pet ✖  error     Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid\n",
			true, nil},
		{"refused, the answer failed too (only the bare messages)", received + accept + refused +
			"[12:42:03 AM] ›     [VALIDATOR] ✖  error     Request body property name must be string\n" +
			"[12:42:03 AM] ›     [NEGOTIATOR] ✔  success   Found response 400. I'll try with it.\n" +
			"[12:42:04 AM] › [HTTP SERVER] post /pet ✖  error     Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid\n",
			false, []string{"Request body property name must be string"}},
		{"refused, then located", received + accept + refused +
			"[12:42:03 AM] ›     [VALIDATOR] ✖  error     Request query parameter status must be equal to one of the allowed values: available, pending, sold\n" +
			"[12:42:03 AM] ›     [NEGOTIATOR] ✔  success   Created a 422 from a default response\n" + respond +
			"[12:42:03 AM] ›     [VALIDATOR] ✖  error     Violation: request.query.status Request query parameter status must be equal to one of the allowed values: available, pending, sold\n" +
			"[12:42:03 AM] ›     [VALIDATOR] ✖  error     Violation: response.body Response body must be array\n",
			false, []string{"Violation: request.query.status Request query parameter status must be equal to one of the allowed values: available, pending, sold"}},
		{"a warning only", received + accept +
			"[12:42:03 AM] ›     [VALIDATOR] ⚠  warning   Request header Content-Type is not expected\n" + passed + respond,
			false, []string{"Request header Content-Type is not expected"}},
		{"no operation matched", received +
			"[12:42:04 AM] › [HTTP SERVER] get /nope ✖  error     Request terminated with error: https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR: Route not resolved, no path matched\n",
			false, nil},
		// Under load, the end of the previous call's request (which the
		// server gave up on) is logged after this call's window began: it
		// is not this call's verdict.
		{"accepted, after an earlier request's late end", respond + terminated +
			"[12:42:05 AM] ›     [VALIDATOR] ✖  error     Violation: response.body Response body must be array\n" +
			received + accept + passed + respond, true, nil},
		{"refused, after an earlier request's late end", terminated + received + accept + refused +
			"[12:42:03 AM] ›     [VALIDATOR] ✖  error     Request body property name must be string\n" + respond,
			false, []string{"Request body property name must be string"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := parsePrismLog(tc.log)
			if v.accepted() != tc.accepted || !slices.Equal(v.violations, tc.violations) {
				t.Errorf("accepted %v, violations %q; want %v, %q (verdict %+v)", v.accepted(), v.violations, tc.accepted, tc.violations, v)
			}
		})
	}
}

func TestOpenRequests(t *testing.T) {
	// Lines as Prism 5.14 logs them.
	const (
		received   = "[12:42:03 AM] › [HTTP SERVER] get /pet/1 ℹ  info      Request received\n"
		passed     = "[12:42:03 AM] ›     [VALIDATOR] ✔  success   The request passed the validation rules. Looking for the best response\n"
		respond    = "[12:42:03 AM] ›     [NEGOTIATOR] ℹ  info      > Responding with \"200\"\n"
		requested  = "[12:42:03 AM] ›     [NEGOTIATOR] ✔  success   Responding with the requested status code 200\n"
		violations = "[12:42:04 AM] › [HTTP SERVER] get /pet/1 ✖  error     Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid\n"
		tooComplex = "[12:42:04 AM] › [HTTP SERVER] get /pet/1 ✖  error     Request terminated with error: https://stoplight.io/prism/errors#SCHEMA_TOO_COMPLEX: Unable to generate body for response\n"
	)
	for _, tc := range []struct {
		name string
		log  string
		open int
	}{
		{"nothing", "", 0},
		{"being judged", received + passed, 1},
		{"answered", received + passed + requested + respond, 0},
		{"answered, the answer failed the document", received + passed + requested + respond + violations, 0},
		{"ended without an answer", received + passed + tooComplex, 0},
		// The server timed out and retried: Prism judges both.
		{"a retry while the first is being judged", received + passed + received, 2},
		{"the first of two answered", received + passed + received + respond + violations + passed, 1},
		{"the end of a request received before the log began", respond + violations + tooComplex, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := openRequests(tc.log); got != tc.open {
				t.Errorf("openRequests = %d, want %d", got, tc.open)
			}
		})
	}
}

// TestSettleWaitsForPrism: a call whose request Prism is still judging
// (the server gave up on it) is not settled until Prism has ended it, so
// its late lines stay out of the next call's part of the log.
func TestSettleWaitsForPrism(t *testing.T) {
	const (
		received = "[12:42:03 AM] › [HTTP SERVER] get /pet/1 ℹ  info      Request received\n"
		passed   = "[12:42:03 AM] ›     [VALIDATOR] ✔  success   The request passed the validation rules. Looking for the best response\n"
		respond  = "[12:42:40 AM] ›     [NEGOTIATOR] ℹ  info      > Responding with \"200\"\n"
		ended    = "[12:42:40 AM] › [HTTP SERVER] get /pet/1 ✖  error     Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid\n"
	)
	p := &prism{log: &syncBuffer{}}
	p.log.Write([]byte(received + passed))
	go func() {
		time.Sleep(time.Second) // longer than the quiet spell settle otherwise waits for
		p.log.Write([]byte(respond + ended))
	}()
	p.settle()
	if log := p.log.String(); !strings.HasSuffix(log, ended) || p.done <= len(received+passed) {
		t.Errorf("settle returned before Prism ended the request (done at %d of %d): %q", p.done, len(log), log)
	}
	from := len(p.log.String())
	p.log.Write([]byte(received + passed + respond))
	if v := p.verdict(from); !v.accepted() {
		t.Errorf("the next call's verdict: %+v", v)
	}
}

// TestSettleMockExited: settle does not wait for the requests of a mock
// that has exited (Prism dies on some requests), and crashed names the
// error it died with.
func TestSettleMockExited(t *testing.T) {
	exited := make(chan struct{})
	p := &prism{log: &syncBuffer{}, exited: exited}
	p.log.Write([]byte("[12:42:03 AM] › [HTTP SERVER] put /anything ℹ  info      Request received\n" +
		"TypeError: Cannot read properties of undefined (reading 'split')\n"))
	if _, dead := p.crashed(); dead {
		t.Fatal("crashed before the process exited")
	}
	close(exited)
	done := make(chan struct{})
	go func() { p.settle(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("settle waits for the requests of a mock that has exited")
	}
	if crash, dead := p.crashed(); !dead || !strings.HasPrefix(crash, "TypeError: Cannot read") {
		t.Errorf("crashed = %q, %v", crash, dead)
	}
}
