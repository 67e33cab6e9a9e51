package session

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Custom parameters: a name of two or more identifiers joined by dots
// that no parameter of zproxy's has (app.user_id, request.jwt.claims) is
// a placeholder the first SET, RESET or set_config of it defines, as
// PostgreSQL's find_option does with create_placeholders. Applications
// keep per-session and per-transaction context in them (row-level
// security policies and audit triggers read them with current_setting).
// A placeholder is a string; it lives as long as the session, so a
// rolled-back SET leaves it defined with the value it had, '' at first
// (RESET's value too); SHOW ALL and pg_settings do not list it
// (GUC_NO_SHOW_ALL). Its value follows the transaction rules of every
// other parameter (gucscope.go).

// plpgsqlParams are PL/pgSQL's own parameters, which zproxy's PL/pgSQL
// does not have: setting one would change nothing, so it is refused
// rather than kept as a placeholder.
var plpgsqlParams = map[string]bool{
	"plpgsql.variable_conflict": true, "plpgsql.print_strict_params": true, "plpgsql.check_asserts": true,
	"plpgsql.extra_warnings": true, "plpgsql.extra_errors": true,
}

// resolveVar is the canonical name of parameter name as a reader asks
// for it (SHOW, current_setting): one zproxy knows, or a custom one this
// session has defined.
func (s *Session) resolveVar(name string) (string, bool) {
	if n, ok := canonicalVar(name); ok {
		return n, true
	}
	n := strings.ToLower(strings.TrimSpace(name))
	_, ok := s.customVars[n]
	return n, ok
}

// defineVar is resolveVar for a statement that sets the parameter: an
// unknown name that is a valid custom parameter name becomes the session's
// placeholder. Other unknown names are 42704, invalid custom names and
// names under a reserved prefix 42602, as in PostgreSQL.
func (s *Session) defineVar(name string) (string, error) {
	if n, ok := s.resolveVar(name); ok {
		return n, nil
	}
	n, err := checkCustomVar(name)
	if err != nil {
		return "", err
	}
	if s.customVars == nil {
		s.customVars = map[string]string{}
	}
	s.customVars[n] = name
	return n, nil
}

// checkCustomVar checks that name, unknown to zproxy, may name a custom
// parameter, and returns its canonical name.
func checkCustomVar(name string) (string, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if !strings.Contains(name, ".") {
		return "", pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", name)
	}
	if !validCustomVarName(name) {
		return "", pgerr.New(pgerr.InvalidName, "invalid configuration parameter name %q", name).
			WithDetail("Custom parameter names must be two or more simple identifiers separated by dots.")
	}
	if plpgsqlParams[n] {
		return "", pgerr.New(pgerr.FeatureNotSupported, "parameter %q is not supported", name).
			WithDetail("zproxy's PL/pgSQL has none of PostgreSQL's plpgsql.* settings.")
	}
	if prefix, _, _ := strings.Cut(n, "."); reservedPrefixes[prefix] {
		// As PostgreSQL once an extension has claimed its prefix.
		return "", pgerr.New(pgerr.InvalidName, "invalid configuration parameter name %q", name).
			WithDetail("\"%s\" is a reserved prefix.", prefix)
	}
	return n, nil
}

// validCustomVarName is PostgreSQL's valid_custom_variable_name: two or
// more non-empty components joined by dots, each a letter, an underscore
// or a byte above ASCII first, then those, digits or dollar signs.
func validCustomVarName(name string) bool {
	sawDot, start := false, true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '.':
			if start {
				return false
			}
			sawDot, start = true, true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= 0x80:
			start = false
		case !start && (c >= '0' && c <= '9' || c == '$'):
		default:
			return false
		}
	}
	return sawDot && !start
}

// isCustomVar reports whether n (canonical) is one of the session's
// placeholders.
func (s *Session) isCustomVar(n string) bool {
	_, ok := s.customVars[n]
	return ok
}
