package session

import (
	"context"

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

// varMeta is what pg_settings says of a parameter besides its value, as
// PostgreSQL 15 says it (testdata/pg15_settings.txt holds PostgreSQL's rows,
// which TestSettingsMatchPostgres compares these with).
type varMeta struct {
	context, vartype, unit, min, max, category, desc string
	enumvals                                         []string
}

// varMetas describes each of knownVars; a parameter missing here is a
// user-context string.
var varMetas = map[string]varMeta{
	"application_name":                    {context: ctxUser, vartype: "string", category: "Reporting and Logging / What to Log"},
	"client_encoding":                     {context: ctxUser, vartype: "string", category: "Client Connection Defaults / Locale and Formatting"},
	"datestyle":                           {context: ctxUser, vartype: "string", category: "Client Connection Defaults / Locale and Formatting"},
	"timezone":                            {context: ctxUser, vartype: "string", category: "Client Connection Defaults / Locale and Formatting"},
	"intervalstyle":                       {context: ctxUser, vartype: "enum", category: "Client Connection Defaults / Locale and Formatting", enumvals: []string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}},
	"extra_float_digits":                  {context: ctxUser, vartype: "integer", min: "-15", max: "3", category: "Client Connection Defaults / Locale and Formatting"},
	"search_path":                         {context: ctxUser, vartype: "string", category: "Client Connection Defaults / Statement Behavior"},
	"statement_timeout":                   {context: ctxUser, vartype: "integer", unit: "ms", min: "0", max: "2147483647", category: "Client Connection Defaults / Statement Behavior"},
	"lock_timeout":                        {context: ctxUser, vartype: "integer", unit: "ms", min: "0", max: "2147483647", category: "Client Connection Defaults / Statement Behavior"},
	"idle_in_transaction_session_timeout": {context: ctxUser, vartype: "integer", unit: "ms", min: "0", max: "2147483647", category: "Client Connection Defaults / Statement Behavior"},
	"default_transaction_isolation":       {context: ctxUser, vartype: "enum", category: "Client Connection Defaults / Statement Behavior", enumvals: isolationEnum},
	"transaction_isolation":               {context: ctxUser, vartype: "enum", category: "Client Connection Defaults / Statement Behavior", enumvals: isolationEnum},
	"default_transaction_read_only":       {context: ctxUser, vartype: "bool", category: "Client Connection Defaults / Statement Behavior"},
	"transaction_read_only":               {context: ctxUser, vartype: "bool", category: "Client Connection Defaults / Statement Behavior"},
	"default_transaction_deferrable":      {context: ctxUser, vartype: "bool", category: "Client Connection Defaults / Statement Behavior"},
	"transaction_deferrable":              {context: ctxUser, vartype: "bool", category: "Client Connection Defaults / Statement Behavior"},
	"standard_conforming_strings":         {context: ctxUser, vartype: "bool", category: "Version and Platform Compatibility / Previous PostgreSQL Versions"},
	"server_version":                      {context: ctxInternal, vartype: "string", category: "Preset Options"},
	"server_encoding":                     {context: ctxInternal, vartype: "string", category: "Preset Options"},
	"integer_datetimes":                   {context: ctxInternal, vartype: "bool", category: "Preset Options"},
	"bytea_output":                        {context: ctxUser, vartype: "enum", category: "Client Connection Defaults / Statement Behavior", enumvals: []string{"escape", "hex"}},
	"client_min_messages":                 {context: ctxUser, vartype: "enum", category: "Client Connection Defaults / Statement Behavior", enumvals: []string{"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"}},
	"max_identifier_length":               {context: ctxInternal, vartype: "integer", min: "63", max: "63", category: "Preset Options"},
	// is_superuser is GUC_NO_SHOW_ALL in PostgreSQL: SHOW answers it, but
	// pg_settings does not list it.
	"is_superuser": {context: ctxInternal, vartype: "bool", category: "Preset Options"},
	// zproxy.allow_full_scan is user context, but an operator's
	// --allow-full-scan=false is a ceiling only a superuser may lift
	// (checkVarPrivilege).
	varAllowFullScan:  {context: ctxUser, vartype: "bool", category: "zproxy", desc: "Allows statements that read a whole table."},
	varWorkMem:        {context: ctxUser, vartype: "integer", unit: "kB", min: "64", max: "2147483647", category: "zproxy", desc: "Sets the memory of each sort, hash table and window before it spills."},
	varTempFileLimit:  {context: ctxSuperuser, vartype: "integer", unit: "kB", min: "-1", max: "2147483647", category: "Resource Usage / Disk", desc: "Limits the total size of all temporary files used by each process."},
	varAdviceWorkload: {context: ctxUser, vartype: "enum", category: "zproxy", enumvals: []string{"statements", "explained"}, desc: "Chooses the workload zproxy_index_advice reads."},
}

var isolationEnum = []string{"serializable", "repeatable read", "read committed", "read uncommitted"}

// hiddenVars are the parameters SHOW answers but pg_settings does not list
// (PostgreSQL's GUC_NO_SHOW_ALL).
var hiddenVars = map[string]bool{"is_superuser": true}

// metaOf returns n's description.
func metaOf(n string) varMeta {
	if m, ok := varMetas[n]; ok {
		return m
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
		if !s.superuserNow() {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set parameter \"%s\"", name)
		}
	}
	return nil
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
	snap, err := s.engine.catalog.Snapshot(context.Background())
	if err != nil {
		return false
	}
	return s.isSuperuser(snap)
}
