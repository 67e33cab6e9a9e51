package session

import (
	"context"
	"sort"
)

// applyStartup applies the run-time parameters the client set at startup
// as SET would, in name order (PostgreSQL's order among them is not
// observable). An unknown name or a bad value refuses the connection, as
// in PostgreSQL; read-only parameters (is_superuser, server_version) cannot
// be set this way either. The session's role decides is_superuser.
func (s *Session) applyStartup(ctx context.Context) error {
	snap, err := s.snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	s.putVar("is_superuser", "off")
	if s.isSuperuser(snap) {
		s.putVar("is_superuser", "on")
	}
	report := s.params.ParameterStatus
	s.params.ParameterStatus = nil // the connection reports the startup values itself
	defer func() { s.params.ParameterStatus = report }()
	names := make([]string, 0, len(s.params.Startup))
	for k := range s.params.Startup {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := s.set(k, s.params.Startup[k], false); err != nil {
			return err
		}
	}
	return nil
}
