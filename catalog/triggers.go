package catalog

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
