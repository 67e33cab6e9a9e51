package session

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/wire"
)

// putVar sets parameter n to v in the session's settings. It is the one
// writer of s.vars (TestVarsWrittenOnlyByPutVar checks that no other code
// of the package assigns to it): SET, RESET, SET LOCAL and their undoing
// at a block's end, set_config, a function's SET clause, SET ROLE and the
// startup parameters all end here, so the version it advances changes
// whenever any setting does.
func (s *Session) putVar(n, v string) {
	s.vars[n] = v
	s.varsVersion++
}

// derivedSettings is what every statement and round trip reads of the
// session's settings, derived from their texts once per version of them
// rather than looked up and parsed in the settings map every time (a key
// lookup's round trip read some twenty of them).
type derivedSettings struct {
	style         sqltypes.Style // Style
	limits        wire.Limits    // Limits
	workMem       int64          // workMem
	disabled      optimizer.PlanMethods
	allowFullScan bool
	readOnly      bool
	// logStatement, logDuration, minStatement and minSample are what
	// CommandReceived and CommandDone read for every command;
	// autoExplainMin is auto_explain.log_min_duration (-1 unset).
	logStatement            int
	logDuration             bool
	minStatement, minSample int64
	autoExplainMin          int64
	// The rest are read by planning (plan_cache_mode, search_path),
	// privilege checks and pg_stat_activity.
	planCacheMode, searchPath string
	currentUser, sessionUser  string
	tempFileLimit             int64
	eventualReads             bool // zproxy.read_consistency is eventual
	appName                   string
}

// settingsCache holds the derivedSettings of one version of the settings.
type settingsCache struct {
	version uint64
	ok      bool
	d       derivedSettings
}

// derived returns the derivedSettings of the session's current settings.
func (s *Session) derived() *derivedSettings {
	c := &s.settingsCache
	if c.ok && c.version == s.varsVersion {
		return &c.d
	}
	c.d = derivedSettings{
		style:          s.styleOfVars(),
		limits:         s.limitsOfVars(),
		workMem:        s.workMemOfVars(),
		disabled:       s.disabledMethodsOfVars(),
		allowFullScan:  s.vars[varAllowFullScan] != "off",
		readOnly:       s.vars["default_transaction_read_only"] == "on" || s.vars["transaction_read_only"] == "on",
		logStatement:   logStatementLevels[s.vars["log_statement"]],
		logDuration:    s.vars["log_duration"] == "on",
		minStatement:   s.msSetting("log_min_duration_statement"),
		minSample:      s.msSetting("log_min_duration_sample"),
		autoExplainMin: s.msSetting("auto_explain.log_min_duration"),
		planCacheMode:  s.varValue("plan_cache_mode"),
		searchPath:     s.varValue("search_path"),
		currentUser:    s.currentUserOfVars(),
		sessionUser:    s.sessionUserOfVars(),
		tempFileLimit:  s.tempFileLimitOfVars(),
		eventualReads:  s.vars[varReadConsistency] == "eventual",
		appName:        s.vars["application_name"],
	}
	c.version, c.ok = s.varsVersion, true
	return &c.d
}
