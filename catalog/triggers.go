package catalog

import "slices"

// Trigger is a trigger of a table (CREATE TRIGGER), kept in the table's
// descriptor: it is versioned, shared and undone by ROLLBACK with it.
type Trigger struct {
	Name string `json:"name"`
	OID  uint32 `json:"oid"`
	// Comment is COMMENT ON TRIGGER's text.
	Comment string `json:"comment,omitempty"`
	// Function is the OID of the trigger function it executes, and Args
	// the arguments written after its name (TG_ARGV).
	Function uint32   `json:"function"`
	Args     []string `json:"args,omitempty"`
	// Timing is "BEFORE", "AFTER" or "INSTEAD OF"; Events the events
	// ("INSERT", "UPDATE", "DELETE", "TRUNCATE") in pg_trigger's order;
	// Columns UPDATE OF's columns.
	Timing  string   `json:"timing"`
	Events  []string `json:"events"`
	Columns []string `json:"columns,omitempty"`
	// Row: FOR EACH ROW (else FOR EACH STATEMENT).
	Row bool `json:"row,omitempty"`
	// When is the WHEN condition's text ("" for none).
	When string `json:"when,omitempty"`
	// Disabled is ALTER TABLE ... DISABLE TRIGGER.
	Disabled bool `json:"disabled,omitempty"`
	// OldTable and NewTable name REFERENCING's transition tables.
	OldTable string `json:"old_table,omitempty"`
	NewTable string `json:"new_table,omitempty"`
	// Constraint marks CREATE CONSTRAINT TRIGGER, whose constraint (of
	// the trigger's name, for SET CONSTRAINTS) has ConstraintOID;
	// ConstrTable is its FROM table; Deferrable and InitiallyDeferred its
	// options.
	Constraint        bool   `json:"constraint,omitempty"`
	ConstraintOID     uint32 `json:"constraint_oid,omitempty"`
	ConstrTable       string `json:"constr_table,omitempty"`
	Deferrable        bool   `json:"deferrable,omitempty"`
	InitiallyDeferred bool   `json:"initially_deferred,omitempty"`
	// ParentOID is, for a partition's clone of a partitioned table's row
	// trigger (ClonedTriggers), the OID of the trigger it is the clone of
	// (pg_trigger.tgparentid); 0 for a relation's own trigger.
	ParentOID uint32 `json:"-"`
}

// HasEvent reports whether the trigger fires on event (enabled or not).
func (tg *Trigger) HasEvent(event string) bool {
	for _, e := range tg.Events {
		if e == event {
			return true
		}
	}
	return false
}

// Fires reports whether the trigger fires for event at timing and level.
func (tg *Trigger) Fires(timing, event string, row bool) bool {
	return !tg.Disabled && tg.Timing == timing && tg.Row == row && tg.HasEvent(event)
}

// HasTriggers reports whether the table has an enabled trigger for event.
func (t *Table) HasTriggers(event string) bool {
	return hasTriggers(t.Triggers, event)
}

// InsteadOf reports whether the view has an enabled INSTEAD OF trigger
// for event (a write through it runs the trigger instead).
func (v *View) InsteadOf(event string) bool {
	for _, tg := range v.Triggers {
		if tg.Fires("INSTEAD OF", event, true) {
			return true
		}
	}
	return false
}

func hasTriggers(tgs []*Trigger, event string) bool {
	for _, tg := range tgs {
		if !tg.Disabled && tg.HasEvent(event) {
			return true
		}
	}
	return false
}

// FindTrigger returns the trigger of that name among tgs (a table's or
// a view's) and its index, or nil and -1.
func FindTrigger(tgs []*Trigger, name string) (*Trigger, int) {
	for i, tg := range tgs {
		if tg.Name == name {
			return tg, i
		}
	}
	return nil, -1
}

// ClonedTriggers are a partition's clones of the row triggers of the
// partitioned tables above it. PostgreSQL clones such a trigger onto
// every partition, present and future; zproxy keeps the trigger the
// partitioned table's only and derives the clones from it, so they
// follow it (DROP, RENAME, ENABLE, ATTACH, DETACH) with nothing to keep
// in step. A clone's OID is its trigger's plus the partition's place
// among the partitioned table's descendants (trigger OIDs are 1,024
// apart); its ParentOID is the clone's one level up (or the trigger's).
func (s *Snapshot) ClonedTriggers(t *Table) []*Trigger {
	var out []*Trigger
	for p := s.Parent(t); p != nil; p = s.Parent(p) {
		for _, tg := range p.Triggers {
			if !tg.Row {
				continue
			}
			c := *tg
			c.Comment = ""
			c.OID = s.cloneOID(p, tg, t)
			c.ParentOID = s.cloneOID(p, tg, s.Parent(t))
			if slices.Contains(t.DisabledClones, tg.Name) {
				c.Disabled = true
			}
			out = append(out, &c)
		}
	}
	return out
}

// cloneOID is the OID of the clone of top's trigger tg on d, a partition
// below top (d == top: the trigger's own OID).
func (s *Snapshot) cloneOID(top *Table, tg *Trigger, d *Table) uint32 {
	if d == nil || d.ID == top.ID {
		return tg.OID
	}
	n := uint32(0)
	var walk func(t *Table) bool
	walk = func(t *Table) bool {
		for _, c := range s.Children(t) {
			n++
			if c.ID == d.ID || walk(c) {
				return true
			}
		}
		return false
	}
	walk(top)
	return tg.OID + 1 + n
}

// WithClonedTriggers is the table a write to t fires the row triggers
// of: t itself, or for a partition under partitioned tables with row
// triggers a copy of it whose triggers are its own and its clones of
// theirs, as PostgreSQL fires them for rows written to the partition
// directly.
func (s *Snapshot) WithClonedTriggers(t *Table) *Table {
	if t == nil || !t.IsPartition() {
		return t
	}
	clones := s.ClonedTriggers(t)
	if len(clones) == 0 {
		return t
	}
	c := *t
	c.Triggers = append(slices.Clip(t.Triggers), clones...)
	return &c
}
