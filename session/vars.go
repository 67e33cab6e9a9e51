package session

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/wire"
)

// varAllowFullScan is zproxy's own setting guarding full table scans.
const varAllowFullScan = "zproxy.allow_full_scan"

// varAdviceWorkload chooses the workload zproxy_index_advice reads: the
// proxy's statement statistics ("statements") or the statements this
// session EXPLAINs ("explained"; tuning.go), as zproxy advise --file uses.
const varAdviceWorkload = "zproxy.advice_workload"

// varReadConsistency is how a read-only statement outside a transaction
// block reads the store: "strong" (the default: it sees every commit
// before it) or "eventual" (DynamoDB's eventually consistent reads, at
// half the read capacity, possibly missing the last second's writes).
// Writes, constraint checks and transaction blocks always read strongly.
const varReadConsistency = "zproxy.read_consistency"

// varMaxReadCapacity bounds the read capacity units (DynamoDB's) one
// statement outside a transaction block may consume: 0 is no bound.
const varMaxReadCapacity = "zproxy.max_read_capacity"

// varWorkMem bounds the memory of each sort, hash table, DISTINCT set and
// window of a statement before it spills (what cannot spill shares one
// such budget per statement).
const varWorkMem = "zproxy.work_mem"

// varTempFileLimit bounds what one statement spills to disk past
// zproxy.work_mem (kB; -1: no bound), as PostgreSQL's.
const varTempFileLimit = "temp_file_limit"

// knownVars are the run-time parameters a session accepts with their
// defaults. Clients set several of these on connect (JDBC sets
// extra_float_digits and application_name; psql sets client_encoding).
var knownVars = map[string]string{
	"application_name":                    "",
	"client_encoding":                     "UTF8",
	"datestyle":                           "ISO, MDY",
	"timezone":                            "UTC",
	"intervalstyle":                       "postgres",
	"extra_float_digits":                  "1",
	"search_path":                         `"$user", public`,
	"statement_timeout":                   "0",
	"lock_timeout":                        "0",
	"idle_in_transaction_session_timeout": "0",
	"idle_session_timeout":                "0",
	"restrict_nonsystem_relation_kind":    "",
	"default_transaction_isolation":       "read committed",
	"transaction_isolation":               "read committed",
	"default_transaction_read_only":       "off",
	"transaction_read_only":               "off",
	"default_transaction_deferrable":      "off",
	"transaction_deferrable":              "off",
	"standard_conforming_strings":         "on",
	"escape_string_warning":               "on",
	"bytea_output":                        "hex",
	"xmloption":                           "content",
	"client_min_messages":                 "notice",
	"check_function_bodies":               "on",
	"is_superuser":                        "on",
	varRole:                               roleNone,
	varSessionAuth:                        "", // the session user (setrole.go)
	"default_text_search_config":          "pg_catalog.simple",
	varAllowFullScan:                      "on",
	varWorkMem:                            "256MB",
	varTempFileLimit:                      "-1",
	varAdviceWorkload:                     "statements",
	varReadConsistency:                    "strong",
	varMaxReadCapacity:                    "0",
}

// displayName is a parameter's name as PostgreSQL spells it (SHOW's
// column, ParameterStatus): TimeZone, DateStyle, IntervalStyle; others are
// lower case.
func displayName(n string) string {
	if d, ok := reportedVars[n]; ok {
		return d
	}
	if p, ok := guc.Lookup(n); ok {
		return p.Name
	}
	return n
}

// storedVarName is canonical parameter n as a stored default names it
// (ALTER ROLE SET, pg_db_role_setting): PostgreSQL's spelling, work_mem
// for zproxy.work_mem.
func storedVarName(n string) string {
	if n == varWorkMem {
		return "work_mem"
	}
	return displayName(n)
}

// reportedVars are sent to the client as ParameterStatus when they change.
var reportedVars = map[string]string{"application_name": "application_name", "client_encoding": "client_encoding",
	"datestyle": "DateStyle", "timezone": "TimeZone", "intervalstyle": "IntervalStyle", "standard_conforming_strings": "standard_conforming_strings"}

func defaultVars(allowFullScan bool) map[string]string {
	v := make(map[string]string, len(knownVars))
	for k, d := range knownVars {
		v[k] = d
	}
	if !allowFullScan {
		v[varAllowFullScan] = "off"
	}
	return v
}

// canonicalVar is the name a session keeps parameter name under, and
// whether there is such a parameter: zproxy's own and every one of
// PostgreSQL's that a session may set (package guc).
func canonicalVar(name string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "time zone":
		n = "timezone"
	case "work_mem":
		// PostgreSQL's name: what clients and tools set (zproxy's default
		// differs, 256MB for PostgreSQL's 4MB; see README).
		n = varWorkMem
	}
	if _, ok := knownVars[n]; ok {
		return n, true
	}
	_, ok := guc.Lookup(n)
	return n, ok
}

// reservedPrefixes are the built-in extensions', auto_explain's and
// PL/pgSQL's setting prefixes, under which no other name may be set
// (PostgreSQL's MarkGUCPrefixReserved, as once the libraries are loaded).
var reservedPrefixes = map[string]bool{"pg_trgm": true, "auto_explain": true, "plpgsql": true}

// customHandled are the parameters set checks itself rather than through
// package guc's reading of PostgreSQL's rules.
var customHandled = map[string]bool{
	"datestyle": true, "intervalstyle": true, "extra_float_digits": true, "timezone": true, "client_encoding": true,
	"default_transaction_isolation": true, "transaction_isolation": true,
	"default_transaction_read_only": true, "transaction_read_only": true,
	"default_transaction_deferrable": true, "transaction_deferrable": true,
	varTempFileLimit: true, "restrict_nonsystem_relation_kind": true,
}

// Setting implements wire.Session: parameter name's value as SHOW prints
// it (the ParameterStatus messages of the startup send it too).
func (s *Session) Setting(name string) (string, bool) {
	n, ok := s.resolveVar(name)
	if !ok {
		return "", false
	}
	return s.varValue(n), true
}

// exactSetting is an extension's setting as its functions read it: a
// real in full, where Setting prints six digits.
func (s *Session) exactSetting(name string) (string, bool) {
	n, ok := s.resolveVar(name)
	if !ok {
		return "", false
	}
	if v, ok := s.vars[n]; ok {
		return v, true
	}
	return s.varValue(n), true
}

// varValue is the value of parameter n (canonical).
func (s *Session) varValue(n string) string {
	if n == varSessionAuth {
		return s.sessionUser()
	}
	if v, ok := s.vars[n]; ok {
		if strings.IndexByte(n, '.') < 0 {
			// Only an extension's parameters (their names qualified,
			// as PostgreSQL requires) are kept other than shown; every
			// statement reads a few settings, so skip the lookup.
			return v
		}
		if p, ext := guc.Lookup(n); ext && p.IsExtension() && p.Type == guc.Real {
			if pv, err := p.Parse(v); err == nil {
				return pv.Show // kept in full (setGUC)
			}
		}
		return v
	}
	if p, ok := guc.Lookup(n); ok {
		return p.BootValue().Show
	}
	return ""
}

// set applies SET name = value (RESET name when reset) for the session.
func (s *Session) set(name, value string, reset bool) error {
	return s.setScoped(name, value, reset, false)
}

// setScoped applies SET [LOCAL] name = value. Inside a transaction block
// the change is recorded (gucscope.go), so that ROLLBACK undoes it and the
// end of the block undoes a LOCAL one; SET LOCAL outside a block is
// checked and changes nothing, with PostgreSQL's WARNING.
func (s *Session) setScoped(name, value string, reset, local bool) error {
	if !local && len(s.routineFrames) > 0 {
		if n, ok := s.resolveVar(name); ok {
			s.routineSettingSet(n)
		}
	}
	if local && s.txStatus == 'I' {
		n, err := s.defineVar(name)
		if err != nil {
			return err
		}
		s.notice(&pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: "WARNING", Message: "SET LOCAL can only be used in transaction blocks"})
		before, role := s.varValue(n), s.varValue(varRole)
		if err := s.setVar(name, value, reset); err != nil {
			return err
		}
		if n == varSessionAuth {
			s.restoreRoleVar(varRole, role) // SET SESSION AUTHORIZATION also ended SET ROLE
		}
		return s.restoreVar(n, before)
	}
	if s.txStatus != 'I' {
		if n, err := s.defineVar(name); err == nil && !strings.HasPrefix(n, "transaction_") {
			s.gucChanging(n)
			if n == varSessionAuth {
				s.gucChanging(varRole) // which it sets to none
			}
			if err := s.setVar(name, value, reset); err != nil {
				return err
			}
			s.gucChanged(n, local)
			if n == varSessionAuth {
				s.gucChanged(varRole, local)
			}
			return nil
		}
	}
	if err := s.setVar(name, value, reset); err != nil {
		return err
	}
	if s.txStatus == 'I' {
		// Outside a block the next statement is a new transaction, which
		// starts in the default modes just set (SET
		// default_transaction_read_only = off makes it read-write).
		for _, v := range []string{"transaction_read_only", "transaction_isolation", "transaction_deferrable"} {
			s.putVar(v, s.vars["default_"+v])
		}
	}
	return nil
}

// setVar checks and applies a new value of parameter name.
func (s *Session) setVar(name, value string, reset bool) error {
	if reset && name == "all" {
		return s.resetAll()
	}
	n, err := s.defineVar(name)
	if err != nil {
		return err
	}
	if err := s.checkVarContext(n, name); err != nil {
		return err
	}
	if strings.HasPrefix(n, "transaction_") && s.txStatus == 'I' && !reset {
		// As in PostgreSQL: outside a block there is no transaction to set.
		s.notice(&pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: "WARNING", Message: "SET TRANSACTION can only be used in transaction blocks"})
		return nil
	}
	if reset {
		value = s.resetValue(n)
	}
	if isRoleVar(n) {
		return s.setRoleVar(n, value)
	}
	if p, ok := guc.Lookup(n); ok && !customHandled[n] {
		v, err := setGUC(p, n, value)
		if err != nil {
			return err
		}
		value = v
	}
	if v, ok, err := styleVar(n, value, s.varValue(n), s.resetValue(n)); ok {
		if err != nil {
			return err
		}
		value = v
	}
	switch n {
	case varAllowFullScan:
		switch strings.ToLower(value) {
		case "on", "true", "yes", "1":
			value = "on"
		case "off", "false", "no", "0":
			value = "off"
		default:
			return pgerr.New(pgerr.InvalidParameterValue, "parameter %q requires a Boolean value", name)
		}
	case "default_transaction_isolation", "transaction_isolation":
		level, err := s.isolationLevel(value)
		if err != nil {
			return err
		}
		if n == "transaction_isolation" && s.txn != nil && !reset {
			return pgerr.New(pgerr.ActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
		}
		value = level
	case "default_transaction_read_only", "transaction_read_only", "default_transaction_deferrable", "transaction_deferrable":
		switch strings.ToLower(value) {
		case "on", "true", "yes", "1":
			value = "on"
		case "off", "false", "no", "0":
			value = "off"
		default:
			return pgerr.New(pgerr.InvalidParameterValue, "parameter %q requires a Boolean value", name)
		}
		if n == "transaction_read_only" && value == "off" && s.txn != nil && s.txn.ReadOnly() {
			return pgerr.New(pgerr.ActiveSQLTransaction, "transaction read-write mode must be set before any query")
		}
	case varAdviceWorkload:
		if value = strings.ToLower(value); value != "statements" && value != "explained" {
			return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, value).
				WithHint("Available values: statements, explained.")
		}
	case varMaxReadCapacity:
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsNaN(f) {
			return pgerr.New(pgerr.InvalidParameterValue, "parameter %q requires a numeric value", name)
		}
		if f < 0 || math.IsInf(f, 0) {
			return pgerr.New(pgerr.InvalidParameterValue, "%s is outside the valid range for parameter %q (0 .. 1e+15)", strings.TrimSpace(value), name)
		}
	case varReadConsistency:
		if value = strings.ToLower(value); value != "strong" && value != "eventual" {
			return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, value).
				WithHint("Available values: strong, eventual.")
		}
	case varWorkMem:
		n, err := parseMemory(value)
		if err != nil {
			return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, value).
				WithHint("Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".")
		}
		if n < 64<<10 {
			return pgerr.New(pgerr.InvalidParameterValue, "%d kB is outside the valid range for parameter %q (64 kB .. )", n>>10, name)
		}
		if p, ok := guc.Lookup("work_mem"); ok {
			// Shown as PostgreSQL shows it: SET work_mem = 4096 is 4MB.
			if pv, err := p.Parse(value); err == nil {
				value = pv.Show
			}
		}
	case varTempFileLimit:
		if v := strings.TrimSpace(value); strings.HasPrefix(v, "-") && v != "-1" {
			return pgerr.New(pgerr.InvalidParameterValue, "%s kB is outside the valid range for parameter %q (-1 .. 2147483647)", strings.TrimSuffix(v, "kB"), name)
		} else if v != "-1" {
			if _, err := parseMemory(value); err != nil {
				return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, value).
					WithHint("Valid units for this parameter are \"kB\", \"MB\", \"GB\", and \"TB\".")
			}
		}
	case "client_encoding":
		// Any encoding the wire converts (wire/encoding.go), kept and
		// shown under PostgreSQL's name for it; the connection learns it
		// from the ParameterStatus below.
		e, err := wire.ClientEncoding(value)
		if err != nil {
			return err
		}
		value = e.Name
	case "default_text_search_config":
		// The configurations are pg_catalog's (internal/tsearch); the
		// value is shown schema-qualified, as PostgreSQL shows it.
		c, err := sqltypes.ParseRegConfig(value)
		if err != nil {
			return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, value)
		}
		value = "pg_catalog." + c.S
	case "restrict_nonsystem_relation_kind":
		if _, err := restrictedKinds(value); err != nil {
			return err
		}
	case "timezone":
		name, loc, err := parseTimeZone(value)
		if err != nil {
			return err
		}
		value, s.ext.loc = name, loc
	}
	if err := s.checkVarCeiling(n, name, value); err != nil {
		return err
	}
	s.putVar(n, value)
	if rep, ok := reportedVars[n]; ok && s.params.ParameterStatus != nil {
		s.params.ParameterStatus(rep, value)
	}
	return nil
}

// resetValue is what RESET gives a parameter: the value the client set at
// startup, else the default (PostgreSQL's reset_val).
func (s *Session) resetValue(n string) string {
	if n == varSessionAuth {
		return s.params.User // the authenticated user
	}
	for k, v := range s.params.Startup {
		if c, ok := s.resolveVar(k); ok && c == n {
			return v
		}
	}
	if v, ok := s.connectDefaults[n]; ok {
		return v
	}
	if d, ok := s.engine.defaultVars()[n]; ok {
		return d
	}
	if p, ok := guc.Lookup(n); ok {
		return p.BootValue().Show
	}
	return ""
}

// resetAll is RESET ALL: every parameter a session may set goes back to
// its reset value. Transaction settings keep the block's, as in
// PostgreSQL.
func (s *Session) resetAll() error {
	names := make([]string, 0, len(knownVars))
	all := allVarNames()
	for n := range s.customVars {
		all = append(all, n)
	}
	for _, n := range all {
		// As PostgreSQL's RESET ALL, it passes over what the session may
		// not change rather than failing on it.
		// role and session_authorization are GUC_NO_RESET_ALL: RESET ALL
		// leaves SET ROLE in force (DISCARD ALL does not).
		if !isServerVar(n) && !strings.HasPrefix(n, "transaction_") && !isRoleVar(n) && s.varValue(n) != s.resetValue(n) &&
			s.checkVarContext(n, n) == nil && s.checkVarCeiling(n, n, s.resetValue(n)) == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if err := s.set(n, "", true); err != nil {
			return err
		}
	}
	return nil
}

// allVarNames lists every parameter a session has, canonical names.
func allVarNames() []string {
	names := make([]string, 0, len(knownVars)+200)
	for n := range knownVars {
		names = append(names, n)
	}
	for _, p := range guc.All() {
		n := strings.ToLower(p.Name)
		if c, _ := canonicalVar(n); c != n {
			continue // work_mem is zproxy.work_mem
		}
		if _, known := knownVars[n]; !known {
			names = append(names, n)
		}
	}
	return names
}

// showAll lists every parameter and its value, sorted by name.
func (s *Session) showAll() [][2]string {
	var out [][2]string
	for _, n := range allVarNames() {
		out = append(out, [2]string{n, s.varValue(n)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// readOnly reports whether the session refuses writes: SET
// default_transaction_read_only = on, or SET TRANSACTION READ ONLY / BEGIN
// READ ONLY in the current block.
func (s *Session) readOnly() bool { return s.derived().readOnly }

// parseMemory reads a memory size as PostgreSQL's settings spell it: a
// number of kB, or a number with a unit (B, kB, MB, GB, TB).
func parseMemory(v string) (int64, error) {
	v = strings.TrimSpace(v)
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, strconv.ErrSyntax
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	unit := strings.TrimSpace(v[i:])
	mult := map[string]int64{"": 1 << 10, "B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[unit]
	if mult == 0 {
		return 0, strconv.ErrSyntax
	}
	return n * mult, nil
}

// tempFileLimit is the session's temp_file_limit as
// executor.RunOptions.TempFileLimit wants it.
func (s *Session) tempFileLimit() int64 { return s.derived().tempFileLimit }

// tempFileLimitOfVars reads tempFileLimit from the session's settings.
func (s *Session) tempFileLimitOfVars() int64 {
	v := strings.TrimSpace(s.vars[varTempFileLimit])
	if v == "-1" {
		return 0
	}
	n, err := parseMemory(v)
	if err != nil {
		return 0
	}
	if n == 0 {
		// Any spill exceeds it (53400, as PostgreSQL's 0kB); 0 would
		// mean no bound to the executor.
		return 1
	}
	return n
}

// workMem is the session's zproxy.work_mem in bytes.
func (s *Session) workMem() int64 { return s.derived().workMem }

// workMemOfVars reads zproxy.work_mem from the session's settings.
func (s *Session) workMemOfVars() int64 {
	n, err := parseMemory(s.vars[varWorkMem])
	if err != nil {
		return 0
	}
	return n
}

// eventualReads reports whether a read-only statement's plan may read with
// eventual consistency: the session asked for it (zproxy.read_consistency)
// and the statement runs outside a transaction block and writes nothing
// (no data-modifying WITH).
func (s *Session) eventualReads(plan *optimizer.Plan, txn *executor.Txn) bool {
	return txn == nil && len(plan.Writes) == 0 && s.derived().eventualReads
}

// maxReadCapacity is zproxy.max_read_capacity (0: no bound).
func (s *Session) maxReadCapacity() float64 {
	f, _ := strconv.ParseFloat(s.vars[varMaxReadCapacity], 64)
	return f
}

// checkReadCapacity refuses a read plan whose estimated capacity exceeds
// zproxy.max_read_capacity before it runs (the estimate needs statistics;
// without them the bound is checked as the reads consume capacity).
func (s *Session) checkReadCapacity(plan *optimizer.Plan, eventual bool) error {
	limit := s.maxReadCapacity()
	if limit <= 0 {
		return nil
	}
	var est float64
	optimizer.Walk(plan.Root, func(n optimizer.Node) {
		if sc, ok := n.(*optimizer.Scan); ok && sc.Estimated != nil {
			est += sc.Estimated.Capacity
		}
	})
	if eventual {
		est /= 2
	}
	if est > limit {
		return pgerr.New(pgerr.ConfigurationLimitExceeded, "statement would read about %.0f capacity units, more than zproxy.max_read_capacity (%g)", est, limit).
			WithHint("Narrow the query, add an index, raise zproxy.max_read_capacity, or set zproxy.read_consistency to eventual to read at half the capacity.")
	}
	return nil
}
