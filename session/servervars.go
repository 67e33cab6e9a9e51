package session

import (
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// serverVar describes one of the server's own settings, which the wire
// server passes in wire.SessionParams.ServerSettings: sessions show them
// (SHOW, current_setting, pg_settings) but cannot set them, as
// PostgreSQL's sighup and postmaster settings cannot be set by a session.
type serverVar struct {
	context, unit, category, desc string
	boot, min, max                string
}

// serverVars are the server settings sessions show, described as
// PostgreSQL 15's pg_settings describes them.
var serverVars = map[string]serverVar{
	"authentication_timeout": {context: "sighup", unit: "s", category: "Connections and Authentication / Authentication",
		desc: "Sets the maximum allowed time to complete client authentication.", boot: "60", min: "1", max: "600"},
	"max_connections": {context: "postmaster", category: "Connections and Authentication / Connection Settings",
		desc: "Sets the maximum number of concurrent connections.", boot: "100", min: "1", max: "262143"},
	"superuser_reserved_connections": {context: "postmaster", category: "Connections and Authentication / Connection Settings",
		desc: "Sets the number of connection slots reserved for superusers.", boot: "3", min: "0", max: "262143"},
}

// serverSetting is the pg_settings value of a server setting: the wire
// server's, or PostgreSQL's default for a session without one.
func (s *Session) serverSetting(n string) string {
	if v, ok := s.params.ServerSettings[n]; ok {
		return v
	}
	return serverVars[n].boot
}

// showServerVar is a server setting as SHOW prints it: a time in the
// largest unit that divides it ("1min"), a count as it is.
func showServerVar(n, setting string) string {
	if serverVars[n].unit == "s" {
		if v, err := normalizeMillis(n, setting+"s"); err == nil {
			return v
		}
	}
	return setting
}

// initServerVars fills in the server settings' values.
func (s *Session) initServerVars() {
	for n := range serverVars {
		s.vars[n] = showServerVar(n, s.serverSetting(n))
	}
}

// errServerVar is PostgreSQL's refusal to SET a server setting.
func errServerVar(name string, v serverVar) *pgerr.Error {
	if v.context == "postmaster" {
		return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed without restarting the server", name)
	}
	return pgerr.New(pgerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed now", name)
}

// serverVarSetting is a server setting's pg_settings row.
func (s *Session) serverVarSetting(n string) pgcatalog.Setting {
	v := serverVars[n]
	st := pgcatalog.Setting{Name: n, Value: s.serverSetting(n), Unit: v.unit, Category: v.category, Description: v.desc,
		Context: v.context, VarType: "integer", Min: v.min, Max: v.max, Boot: v.boot}
	if st.Value != v.boot {
		st.Source = "command line"
	}
	return st
}
