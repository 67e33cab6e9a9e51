package session

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// timeoutVars are the settings whose value is a time in milliseconds, read
// and shown the way PostgreSQL reads and shows them ("5s", 1500 → "1500ms").
var timeoutVars = map[string]bool{
	"statement_timeout":                   true,
	"idle_in_transaction_session_timeout": true,
	"lock_timeout":                        true,
	"idle_session_timeout":                true,
}

// timeUnits are PostgreSQL's units for a setting in milliseconds, largest
// first (the order SHOW picks them in).
var timeUnits = []struct {
	name string
	ms   float64
}{{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}, {"ms", 1}, {"us", 0.001}}

// normalizeMillis validates a value of a millisecond setting and returns it
// as SHOW prints it: the largest unit that divides it, "0" for zero.
func normalizeMillis(name, value string) (string, error) {
	ms, err := parseMillis(name, value)
	if err != nil {
		return "", err
	}
	if ms == 0 {
		return "0", nil
	}
	for _, u := range timeUnits[:5] {
		if ms%int64(u.ms) == 0 {
			return fmt.Sprintf("%d%s", ms/int64(u.ms), u.name), nil
		}
	}
	return fmt.Sprintf("%dms", ms), nil // not reached: the ms unit divides all
}

// parseMillis reads a millisecond setting as PostgreSQL's parse_int does: a
// number (fractions allowed), optionally followed by a unit; no unit means
// milliseconds. The result is rounded to a whole millisecond and must lie in
// 0 .. 2147483647.
func parseMillis(name, value string) (int64, error) {
	invalid := func() *pgerr.Error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, value)
	}
	s := strings.TrimLeft(value, " \t\n\r\f\v")
	n := numberPrefix(s)
	if n == 0 {
		return 0, invalid()
	}
	num, err := strconv.ParseFloat(s[:n], 64)
	if err != nil {
		return 0, invalid()
	}
	unit := strings.TrimSpace(s[n:])
	mult := 1.0
	if unit != "" {
		found := false
		for _, u := range timeUnits {
			if u.name == unit {
				mult, found = u.ms, true
				break
			}
		}
		if !found {
			return 0, invalid().WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
		}
	} else if !strings.ContainsAny(s[:n], ".eE") && (num > math.MaxInt32 || num < math.MinInt32) {
		return 0, invalid().WithHint("Value exceeds integer range.")
	}
	ms := math.RoundToEven(num * mult)
	if ms < 0 || ms > math.MaxInt32 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "%.0f ms is outside the valid range for parameter \"%s\" (0 .. 2147483647)", ms, name)
	}
	return int64(ms), nil
}

// numberPrefix returns the length of the number s starts with: an optional
// sign, digits with an optional fraction, an optional exponent.
func numberPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	return i
}

// millis returns a millisecond setting's current value as a duration.
func (s *Session) millis(name string) time.Duration {
	ms, err := parseMillis(name, s.vars[name])
	if err != nil {
		return 0 // values are checked when set
	}
	return time.Duration(ms) * time.Millisecond
}

// Limits implements wire.Session: the timeouts the connection enforces.
// The connection asks a few times a round trip; the settings' texts are
// parsed again only when they change.
func (s *Session) Limits() wire.Limits { return s.derived().limits }

// limitsOfVars reads the session's Limits from its settings.
func (s *Session) limitsOfVars() wire.Limits {
	return wire.Limits{
		StatementTimeout:         s.millis("statement_timeout"),
		IdleInTransactionTimeout: s.millis("idle_in_transaction_session_timeout"),
		IdleSessionTimeout:       s.millis("idle_session_timeout"),
	}
}
