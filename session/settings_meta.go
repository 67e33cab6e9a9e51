package session

import (
	"context"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Setting contexts, as PostgreSQL's pg_settings.context names them: who
// may change a parameter, and when.
const (
	ctxInternal         = "internal"          // never: a fact of the build
	ctxPostmaster       = "postmaster"        // only by restarting the server
	ctxSighup           = "sighup"            // only in the configuration, on reload
	ctxSuperuserBackend = "superuser-backend" // at connection start, by a superuser
	ctxBackend          = "backend"           // at connection start
	ctxSuperuser        = "superuser"         // by a superuser, at any time
	ctxUser             = "user"              // by anyone, at any time
)

// varMeta is what pg_settings says of a parameter besides its value.
// PostgreSQL's parameters take theirs from package guc, generated from
// PostgreSQL 15 (TestSettingsMatchPostgres compares the rows with
// testdata/pg15_settings.txt); varMetas holds the rest.
type varMeta struct {
	context, vartype, unit, min, max, category, desc string
	enumvals                                         []string
}

// varMetas describes zproxy's own parameters and is_superuser, which
// package guc (PostgreSQL's pg_settings) does not list.
var varMetas = map[string]varMeta{
	// is_superuser is GUC_NO_SHOW_ALL in PostgreSQL: SHOW answers it, but
	// pg_settings does not list it.
	"is_superuser": {context: ctxInternal, vartype: "bool", category: "Preset Options"},
	// zproxy.allow_full_scan is user context, but an operator's
	// --allow-full-scan=false is a ceiling only a superuser may lift
	// (checkVarPrivilege).
	varAllowFullScan:  {context: ctxUser, vartype: "bool", category: "zproxy", desc: "Allows statements that read a whole table."},
	varWorkMem:        {context: ctxUser, vartype: "integer", unit: "kB", min: "64", max: "2147483647", category: "zproxy", desc: "Sets the memory of each sort, hash table and window before it spills."},
	varAdviceWorkload: {context: ctxUser, vartype: "enum", category: "zproxy", enumvals: []string{"statements", "explained"}, desc: "Chooses the workload zproxy_index_advice reads."},
	varMaxReadCapacity: {context: ctxUser, vartype: "real", min: "0", max: "1e+15", category: "zproxy",
		desc: "Sets the most read capacity units (DynamoDB's) one statement outside a transaction block may consume; 0 is no limit."},
	varReadConsistency: {context: ctxUser, vartype: "enum", category: "zproxy", enumvals: []string{"strong", "eventual"},
		desc: "Sets how read-only statements outside a transaction block read the store (eventual: DynamoDB's eventually consistent reads, at half the capacity)."},
}

// hiddenVars are the parameters SHOW answers but pg_settings does not list
// (PostgreSQL's GUC_NO_SHOW_ALL).
var hiddenVars = map[string]bool{"is_superuser": true, varRole: true, varSessionAuth: true}

// metaOf returns n's description.
func metaOf(n string) varMeta {
	if m, ok := varMetas[n]; ok {
		return m
	}
	if p, ok := guc.Lookup(n); ok {
		return varMeta{context: p.Context, vartype: p.Type.String(), unit: p.Unit, min: p.Min, max: p.Max,
			category: p.Category, desc: p.Desc, enumvals: p.EnumVals}
	}
	return varMeta{context: ctxUser, vartype: "string"}
}

// checkVarContext refuses to change n as PostgreSQL's set_config_option
// does for a parameter of its context, set by a running session: internal,
// postmaster, sighup and backend parameters are not the session's to
// change (55P02), superuser ones only a superuser's (42501). SET, SET
// LOCAL, RESET, SET ... TO DEFAULT and set_config all come through here;
// startup parameters of backend context do not.
func (s *Session) checkVarContext(n, name string) error {
	switch metaOf(n).context {
	case ctxInternal:
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", name)
	case ctxPostmaster:
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed without restarting the server", name)
	case ctxSighup:
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed now", name)
	case ctxBackend, ctxSuperuserBackend:
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be set after connection start", name)
	case ctxSuperuser:
		if !s.trustedDefaults && !s.superuserNow() && !s.mayGrantedSet(n, name) {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set parameter \"%s\"", name)
		}
	}
	return nil
}

// mayGrantedSet reports whether the current role was granted SET on the
// parameter (GRANT SET ON PARAMETER), under its canonical name n or its
// name as written.
func (s *Session) mayGrantedSet(n, name string) bool {
	snap, err := s.snapshot(context.Background())
	if err != nil {
		return false
	}
	user := s.currentUser()
	return (snap.ParameterPrivileges(user, n)|snap.ParameterPrivileges(user, strings.ToLower(name)))&catalog.PrivSet != 0
}

// checkVarCeiling refuses a value that widens a limit the operator set:
// with --allow-full-scan=false only a superuser may turn
// zproxy.allow_full_scan on, so an ordinary role cannot undo the
// operator's guard against whole-table reads.
func (s *Session) checkVarCeiling(n, name, value string) error {
	if n == varAllowFullScan && value == "on" && !s.engine.cfg.AllowFullScan && !s.superuserNow() {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set parameter \"%s\"", name)
	}
	return nil
}

// superuserNow is isSuperuser against the newest catalog; a session that
// cannot read it is not trusted as one.
func (s *Session) superuserNow() bool {
	snap, err := s.snapshot(context.Background())
	if err != nil {
		return false
	}
	return s.isSuperuser(snap)
}
