package spec

import (
	"encoding/base64"
	"net/netip"
	"regexp"
	"strings"
)

// documentedFormatOK checks a value against a format that the generated
// validators leave as an annotation (they assert only the formats of
// formatOK) but whose grammar is exact and which the clients' Ajv with
// ajv-formats asserts. Only a vendor's own values are held to it (see
// valueChecker.documentedFormats): a default that is not a valid duration
// is one the API would refuse if the server sent it in the caller's name.
// Formats it does not know pass.
func documentedFormatOK(format, v string) bool {
	switch format {
	case "duration":
		return isDuration(v)
	case "json-pointer":
		return isJSONPointer(v)
	case "relative-json-pointer":
		// A non-negative integer without leading zeros, then "#" or a JSON
		// pointer (draft 2020-12, relative-json-pointer draft 01).
		i := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		if i == 0 || i > 1 && v[0] == '0' {
			return false
		}
		return v[i:] == "#" || isJSONPointer(v[i:])
	case "ipv4":
		a, err := netip.ParseAddr(v)
		return err == nil && a.Is4()
	case "ipv6":
		a, err := netip.ParseAddr(v)
		return err == nil && a.Is6() && a.Zone() == ""
	case "byte":
		// OpenAPI's base64-encoded characters (RFC 4648, padded).
		_, err := base64.StdEncoding.DecodeString(v)
		return err == nil
	}
	return true
}

// durationPattern is the grammar of RFC 3339 Appendix A's duration: P,
// then weeks alone, or a date part and/or a time part, each element in
// order and at least one element after P and after T.
var durationPattern = regexp.MustCompile(`^P(?:\d+W|(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?)$`)

func isDuration(v string) bool {
	if !durationPattern.MatchString(v) || v == "P" || strings.HasSuffix(v, "T") {
		return false
	}
	return true
}

// isJSONPointer reports whether v is an RFC 6901 JSON pointer: empty, or
// "/"-separated tokens in which "~" is only "~0" or "~1".
func isJSONPointer(v string) bool {
	if v == "" {
		return true
	}
	if v[0] != '/' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] == '~' && (i+1 == len(v) || v[i+1] != '0' && v[i+1] != '1') {
			return false
		}
	}
	return true
}
