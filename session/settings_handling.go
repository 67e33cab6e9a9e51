package session

import (
	"strings"

	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/optimizer"
)

// paramHandling is what a session does with one of PostgreSQL's settable
// parameters. Every one of them is recognised: SET checks the value as
// PostgreSQL does (package guc), SHOW, current_setting and pg_settings
// show it, RESET restores it. What the value then does differs.
type paramHandling uint8

const (
	// paramImplemented: zproxy does what the parameter asks (knownVars,
	// timeouts.go, vars_styles.go, ...).
	paramImplemented paramHandling = iota
	// paramInert: every value PostgreSQL accepts is accepted and none
	// changes what zproxy returns, because what the parameter tunes is
	// not in zproxy (planner costs, I/O, vacuum, WAL) or cannot be told
	// apart from its default here (inertParams says why for each).
	paramInert
	// paramFixed: zproxy behaves as the parameter's default and nothing
	// else; SET to that value is accepted, SET to another valid value is
	// 0A000, never accepted and ignored.
	paramFixed
)

// inertCategories are pg_settings categories whose parameters tune how
// PostgreSQL's own executor, storage and WAL work: no result depends on
// them, and zproxy has none of those mechanisms.
var inertCategories = []string{
	"Query Tuning /",
	"Resource Usage /",
	"Write-Ahead Log / Settings", // synchronous_commit off allows losing recent commits; zproxy syncs every one anyway
	"Lock Management",
	"Developer Options", // the user-context ones are JIT and parallel-query switches; the superuser ones are fixed below
}

// inertParams are the other parameters no value of which changes a
// result here, each with the reason.
var inertParams = map[string]string{
	"row_security":            "zproxy has no row-level security policies, so off (pg_dump's setting) and on read the same rows",
	"synchronize_seqscans":    "it only changes where an unordered scan starts; pg_dump turns it off",
	"lock_timeout":            "zproxy takes no locks a statement could wait for",
	"stats_fetch_consistency": "zproxy's statistics views read one consistent snapshot whatever it is",
	// The statements of a function's body are not statements the
	// client sent: zproxy's auto_explain logs the client's only.
	"auto_explain.log_nested_statements": "zproxy's auto_explain logs the statements clients send, not those of function bodies",
}

// fixedDeveloperOptions are the Developer Options that change behaviour
// (a superuser's switches for modifying system catalogs, skipping
// checks), which zproxy does not offer.
var fixedDeveloperOptions = map[string]bool{
	"allow_in_place_tablespaces": true, "allow_system_table_mods": true, "backtrace_functions": true,
	"debug_discard_caches": true, "ignore_checksum_failure": true, "jit_dump_bitcode": true,
	"trace_notify": true, "trace_sort": true, "wal_consistency_checking": true,
}

// fixedKnown are parameters zproxy has in knownVars only at their default:
// the other values would change how text is read or printed.
var fixedKnown = map[string]bool{}

// handlingOf says how the session treats parameter n (canonical).
func handlingOf(n string) paramHandling {
	if fixedKnown[n] {
		return paramFixed
	}
	if _, ok := planMethodSettings[n]; ok {
		return paramImplemented
	}
	if _, ok := knownVars[n]; ok {
		return paramImplemented
	}
	p, ok := guc.Lookup(n)
	if !ok {
		return paramFixed
	}
	if _, ok := loggingParams[n]; ok {
		return paramImplemented // stmtlog.go
	}
	if n == "lo_compat_privileges" {
		return paramImplemented // largeobjects.go
	}
	if p.IsExtension() && !strings.HasPrefix(n, "auto_explain.") {
		return paramImplemented // pg_trgm's thresholds (builtins.TrgmThreshold)
	}
	if _, ok := inertParams[n]; ok {
		return paramInert
	}
	if fixedDeveloperOptions[n] {
		return paramFixed
	}
	for _, c := range inertCategories {
		if strings.HasPrefix(p.Category, c) {
			return paramInert
		}
	}
	return paramFixed
}

// setGUC checks value for parameter p as PostgreSQL does and returns what
// SHOW prints for it, refusing a value zproxy would not honour.
func setGUC(p *guc.Param, n, value string) (string, error) {
	v, err := p.Parse(value)
	if err != nil {
		return "", err
	}
	if handlingOf(n) == paramFixed && v != p.BootValue() {
		return "", pgerr.New(pgerr.FeatureNotSupported, "zproxy does not support %s = %s", p.Name, v.Show).
			WithHint("zproxy behaves as %s = '%s'; see README.md, \"Settings\".", p.Name, p.BootValue().Show)
	}
	if p.IsExtension() && v.Exact != "" {
		// The session keeps an extension's real in full, for the
		// functions that read it (pg_trgm's show_limit and operators);
		// varValue prints it as SHOW does.
		return v.Exact, nil
	}
	return v.Show, nil
}

// planMethodSettings are the enable_* planner settings zproxy honours,
// each with the plan method it turns off (optimizer.PlanMethods). The
// others of their category (enable_sort, enable_material, ...) steer
// methods zproxy does not choose between, so they stay inert.
var planMethodSettings = map[string]optimizer.PlanMethods{
	"enable_indexonlyscan": optimizer.MethodIndexOnlyScan,
	"enable_nestloop":      optimizer.MethodNestLoop,
	"enable_hashjoin":      optimizer.MethodHashJoin,
	"enable_mergejoin":     optimizer.MethodMergeJoin,
	// enable_indexscan and enable_bitmapscan turn index reads off together
	// (disabledMethods).
	"enable_indexscan":  0,
	"enable_bitmapscan": 0,
}

// disabledMethods are the plan methods the session's enable_* settings
// turn off.
func (s *Session) disabledMethods() optimizer.PlanMethods { return s.derived().disabled }

// disabledMethodsOfVars reads disabledMethods from the session's settings
// (an unset one is looked up as varValue would).
func (s *Session) disabledMethodsOfVars() optimizer.PlanMethods {
	off := func(n string) bool {
		v, ok := s.vars[n]
		if !ok {
			v = s.varValue(n)
		}
		return v == "off"
	}
	var m optimizer.PlanMethods
	for _, p := range planMethodList {
		if p.method != 0 && off(p.name) {
			m |= p.method
		}
	}
	if off("enable_indexscan") && off("enable_bitmapscan") {
		m |= optimizer.MethodIndexScan
	}
	return m
}

// planMethodList is planMethodSettings as a slice, for disabledMethods.
var planMethodList = func() []planMethodSetting {
	var out []planMethodSetting
	for n, m := range planMethodSettings {
		out = append(out, planMethodSetting{n, m})
	}
	return out
}()

type planMethodSetting struct {
	name   string
	method optimizer.PlanMethods
}
