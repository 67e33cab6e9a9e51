package session

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
)

// A routine's SET clauses other than search_path (routine_path.go):
// proconfig's parameters take its values while it runs and get back their
// values when it returns, as PostgreSQL's fmgr_security_definer does with
// a GUC nest level of GUC_ACTION_SAVE. Inside, a SET LOCAL of one of them
// is undone at the return with it; a plain SET (or set_config(..., false))
// of one overrides the clause, and its value stays after the return,
// unless the routine fails, which undoes both. Parameters the routine
// does not name behave as in any statement.

// routineSettingsFrame is one running routine's SET clauses.
type routineSettingsFrame struct {
	// prior are the values before the call, by canonical name;
	// overridden the parameters a plain SET changed inside the call.
	prior      map[string]string
	overridden map[string]bool
	// recorded are, for each parameter, the transaction levels
	// (gucLevels) that already held a record of it at the call: records
	// the call adds are undone with the call's value.
	recorded map[string][]bool
}

// routineConfig are fn's SET clauses the session applies around a call,
// "name=value": all but search_path, which the routine's scope applies.
func routineConfig(fn *catalog.Function) []string {
	var out []string
	for _, c := range fn.Config {
		if name, _, _ := strings.Cut(c, "="); !strings.EqualFold(name, "search_path") {
			out = append(out, c)
		}
	}
	return out
}

// enterRoutineSettings applies a routine's SET clauses config for a call
// and returns what ends the call's settings (failed: the call failed).
// trusted is a routine whose clauses may set superuser-only parameters
// whoever calls it: a SECURITY DEFINER routine of a superuser.
func (s *Session) enterRoutineSettings(config []string, trusted bool) (leave func(failed bool), err error) {
	fr := &routineSettingsFrame{prior: map[string]string{}, overridden: map[string]bool{}, recorded: map[string][]bool{}}
	s.routineFrames = append(s.routineFrames, fr)
	leave = func(failed bool) { s.leaveRoutineSettings(fr, failed) }
	saved := s.trustedDefaults
	s.trustedDefaults = s.trustedDefaults || trusted
	defer func() { s.trustedDefaults = saved }()
	for _, item := range config {
		name, value, _ := strings.Cut(item, "=")
		n, err := s.defineVar(name)
		if err != nil {
			leave(true)
			return nil, err
		}
		if _, ok := fr.prior[n]; !ok {
			fr.prior[n] = s.varValue(n)
			held := make([]bool, len(s.gucLevels))
			for i, lv := range s.gucLevels {
				held[i] = lv[n] != nil
			}
			fr.recorded[n] = held
		}
		if err := s.setVar(name, value, false); err != nil {
			leave(true)
			return nil, err
		}
	}
	return leave, nil
}

// leaveRoutineSettings ends frame fr: each parameter it set gets its value
// from before the call back, unless a plain SET inside overrode the clause
// and the call succeeded.
func (s *Session) leaveRoutineSettings(fr *routineSettingsFrame, failed bool) {
	for i := len(s.routineFrames) - 1; i >= 0; i-- {
		if s.routineFrames[i] == fr {
			s.routineFrames = append(s.routineFrames[:i], s.routineFrames[i+1:]...)
			break
		}
	}
	for n, prior := range fr.prior {
		held := fr.recorded[n]
		if fr.overridden[n] && !failed {
			// The SET inside stays. The records the block's levels made
			// of it inside the call hold the clause's value as the one
			// to go back to; seen from outside, it is the value before
			// the call (a ROLLBACK of the block ends there).
			for i, lv := range s.gucLevels {
				if g := lv[n]; g != nil && !(i < len(held) && held[i]) {
					g.prior = prior
				}
			}
			continue
		}
		_ = s.restoreVar(n, prior)
		// What the block's levels recorded of it inside the call (a SET
		// LOCAL's prior, the call's value) is undone with the call.
		for i, lv := range s.gucLevels {
			if !(i < len(held) && held[i]) {
				delete(lv, n)
			}
		}
	}
}

// routineSettingSet notes a plain SET of parameter n (canonical) while
// routines run: the routines whose clauses name it keep its new value
// after they return.
func (s *Session) routineSettingSet(n string) {
	for _, fr := range s.routineFrames {
		if _, ok := fr.prior[n]; ok {
			fr.overridden[n] = true
		}
	}
}

// checkRoutineConfig checks a CREATE or ALTER FUNCTION's SET clauses
// ("name=value") as ALTER ROLE SET checks its (checkSetting), returning
// them under PostgreSQL's spelling of the names. search_path's value is
// the routine's scope's to read (routine_path.go).
func (s *Session) checkRoutineConfig(config []string) ([]string, error) {
	out := make([]string, 0, len(config))
	for _, item := range config {
		name, value, _ := strings.Cut(item, "=")
		if strings.EqualFold(name, "search_path") {
			out = append(out, item)
			continue
		}
		n, err := s.checkSetting(name, value)
		if err != nil {
			return nil, err
		}
		out = append(out, storedVarName(n)+"="+value)
	}
	return out, nil
}
