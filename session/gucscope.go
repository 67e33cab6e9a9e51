package session

// Settings in transaction blocks, as PostgreSQL scopes them (guc.c's
// AtEOXact_GUC): a SET inside a block lasts if the block commits and is
// undone if it rolls back; SET LOCAL (and set_config(..., true)) lasts
// until the block ends either way; ROLLBACK TO a savepoint undoes what
// was set after it, and RELEASE hands the savepoint's changes to the level
// around it. Each level of the block (the block itself, then one per open
// savepoint) keeps, for every parameter it changed, the value before its
// first change there and the last value a plain SET gave it.

// gucSave is one parameter's record at one level.
type gucSave struct {
	prior      string // the value when this level first changed it
	sessionSet bool   // a plain SET (not LOCAL) changed it at this level
	sessionVal string // that SET's value
}

// gucLevel returns the record map of the innermost level, making the
// levels the block's savepoints need.
func (s *Session) gucLevel() map[string]*gucSave {
	for len(s.gucLevels) < len(s.savepoints)+1 {
		s.gucLevels = append(s.gucLevels, map[string]*gucSave{})
	}
	return s.gucLevels[len(s.savepoints)]
}

// gucChanging records parameter n's value before a change in the block.
func (s *Session) gucChanging(n string) {
	lv := s.gucLevel()
	if lv[n] == nil {
		lv[n] = &gucSave{prior: s.varValue(n)}
	}
}

// gucChanged records a plain SET's new value, which a commit keeps.
func (s *Session) gucChanged(n string, local bool) {
	if !local {
		g := s.gucLevel()[n]
		g.sessionSet, g.sessionVal = true, s.varValue(n)
	}
}

// gucRollbackTo undoes the changes of the levels from depth on (depth 0:
// the whole block), innermost first, and forgets them.
func (s *Session) gucRollbackTo(depth int) {
	for i := len(s.gucLevels) - 1; i >= depth; i-- {
		for n, g := range s.gucLevels[i] {
			_ = s.restoreVar(n, g.prior)
		}
	}
	if depth < len(s.gucLevels) {
		s.gucLevels = s.gucLevels[:depth]
	}
}

// gucRelease merges the levels from depth on into the level below (a
// RELEASE of the savepoint that opened level depth).
func (s *Session) gucRelease(depth int) {
	if depth < 1 || depth >= len(s.gucLevels) {
		return
	}
	into := s.gucLevels[depth-1]
	for _, lv := range s.gucLevels[depth:] {
		for n, g := range lv {
			have := into[n]
			if have == nil {
				into[n] = g
				continue
			}
			if g.sessionSet {
				have.sessionSet, have.sessionVal = true, g.sessionVal
			}
		}
	}
	s.gucLevels = s.gucLevels[:depth]
}

// gucCommit ends the block's scope on COMMIT: a plain SET's value stays,
// a LOCAL one goes back to the value before the block (or before the
// block's last plain SET of it).
func (s *Session) gucCommit() {
	s.gucRelease(1)
	if len(s.gucLevels) > 0 {
		for n, g := range s.gucLevels[0] {
			final := g.prior
			if g.sessionSet {
				final = g.sessionVal
			}
			if s.varValue(n) != final {
				_ = s.restoreVar(n, final)
			}
		}
	}
	s.gucLevels = nil
}

// restoreVar puts back a value the parameter had, applying it as SET does
// (the time zone's location, ParameterStatus to the client) without
// recording it.
func (s *Session) restoreVar(n, value string) error {
	if isRoleVar(n) {
		s.restoreRoleVar(n, value)
		return nil
	}
	return s.setVar(n, value, false)
}

// gucRestore is a parameter's value to put back.
type gucRestore struct{ name, value string }

// endStatementTxn ends the transaction of a statement run outside a
// block: its transaction-scoped advisory locks go, and so do the values
// set_config(..., true) gave for its duration, last first.
func (s *Session) endStatementTxn() {
	s.releaseXactLocks(0)
	for i := len(s.statementLocals) - 1; i >= 0; i-- {
		r := s.statementLocals[i]
		_ = s.restoreVar(r.name, r.value)
	}
	s.statementLocals = s.statementLocals[:0]
}
