package session

import (
	"context"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// The server's parameters are PostgreSQL 15's parameters that no session
// may change (contexts internal, postmaster, sighup, backend and
// superuser-backend; package guc lists them with the settable ones).
// Sessions show them (SHOW, SHOW ALL, current_setting, pg_settings) and
// SET refuses them as PostgreSQL does (checkVarContext). Each one's value
// is, in order: the wire server's (wire.SessionParams.ServerSettings:
// connection limits, the listen address, TLS, the version reported at
// startup), a fact of zproxy's below, or PostgreSQL's built-in default,
// which is what a PostgreSQL server started without configuration shows:
// zproxy has no shared buffers, WAL or vacuum to configure, so it reports
// them as a fresh PostgreSQL would rather than invent values.

// zproxyFacts are server parameters whose value zproxy fixes differently
// from PostgreSQL's built-in default, each for the reason given.
var zproxyFacts = map[string]string{
	// What the wire server reports at startup, for a session without one.
	"server_version": wire.DefaultServerVersion,
	// zproxy compares and sorts text bytewise, as the C locale does.
	"lc_collate": "C",
	"lc_ctype":   "C",
	// Every database zproxy serves is UTF8 (clients may speak another
	// encoding, client_encoding, converted by the wire).
	"server_encoding": "UTF8",
	// PostgreSQL's built-in default is 0 until shared memory is sized at
	// start; zproxy has none.
	"shared_memory_size": "0",
	// zproxy keeps no log files: it logs to its standard error.
	"logging_collector": "off",
	"log_destination":   "stderr",
}

// isServerVar reports whether n (canonical) is one of the server's
// parameters rather than one a session may set.
func isServerVar(n string) bool {
	p, ok := guc.Lookup(n)
	return ok && !p.SessionSettable()
}

// serverSetting is a server parameter's pg_settings.setting (a number in
// its base unit for an integer with a unit), and where it came from, as
// pg_settings.source names it.
func (s *Session) serverSetting(p *guc.Param, n string) (setting, source string) {
	if v, ok := s.params.ServerSettings[n]; ok {
		return v, "command line"
	}
	if n == "server_version_num" {
		version, _ := s.serverSetting(p, "server_version")
		return versionNum(version), "default"
	}
	if v, ok := zproxyFacts[n]; ok {
		return v, "default"
	}
	return p.Boot, "default"
}

// versionNum is server_version_num for a server_version: "15.2 (zproxy)"
// is 150002, as PostgreSQL numbers its versions since 10.
func versionNum(version string) string {
	major, rest, _ := strings.Cut(version, ".")
	minor := strings.TrimLeft(rest, "0123456789")
	minor = rest[:len(rest)-len(minor)]
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	if err1 != nil || err2 != nil {
		return "150000"
	}
	return strconv.Itoa(ma*10000 + mi)
}

// initServerVars fills in the server parameters' values as SHOW prints
// them (with the largest unit that divides a number: "1min", "128MB").
func (s *Session) initServerVars() {
	for _, p := range guc.All() {
		if p.SessionSettable() {
			continue
		}
		n := strings.ToLower(p.Name)
		setting, _ := s.serverSetting(p, n)
		show := setting
		if p.Type == guc.Integer || p.Type == guc.Real {
			if v, err := p.Parse(setting); err == nil {
				show = v.Show
			}
		}
		s.putVar(n, show)
	}
}

// serverVarSetting is a server parameter's pg_settings row.
func (s *Session) serverVarSetting(p *guc.Param, n string) pgcatalog.Setting {
	setting, source := s.serverSetting(p, n)
	return pgcatalog.Setting{Name: p.Name, Value: setting, Unit: p.Unit, Category: p.Category, Description: p.Desc,
		Context: p.Context, VarType: p.Type.String(), Min: p.Min, Max: p.Max, EnumVals: p.EnumVals, Boot: p.Boot, Source: source}
}

// mayReadVar reports whether the session may read parameter n: those
// PostgreSQL marks superuser-only (file paths, library lists) are read by
// superusers and members of pg_read_all_settings alone.
func (s *Session) mayReadVar(n string) bool {
	p, ok := guc.Lookup(n)
	if !ok || !p.SuperuserOnly {
		return true
	}
	snap, err := s.snapshot(context.Background())
	if err != nil {
		return false
	}
	return s.isSuperuser(snap) || snap.IsMemberOf(s.currentUser(), catalog.RoleReadAllSettings)
}

// errCannotExamine is PostgreSQL's refusal to show a superuser-only
// parameter.
func errCannotExamine(name string) *pgerr.Error {
	return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser or have privileges of pg_read_all_settings to examine \"%s\"", name)
}
