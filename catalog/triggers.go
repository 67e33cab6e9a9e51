package catalog

// Trigger is a trigger of a table (CREATE TRIGGER), kept in the table's
// descriptor: it is versioned, shared and undone by ROLLBACK with it.
type Trigger struct {
	Name string `json:"name"`
	OID  uint32 `json:"oid"`
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
}

// Fires reports whether the trigger fires for event at timing and level.
func (tg *Trigger) Fires(timing, event string, row bool) bool {
	if tg.Disabled || tg.Timing != timing || tg.Row != row {
		return false
	}
	for _, e := range tg.Events {
		if e == event {
			return true
		}
	}
	return false
}

// HasTriggers reports whether the table has an enabled trigger for event.
func (t *Table) HasTriggers(event string) bool {
	for _, tg := range t.Triggers {
		if !tg.Disabled {
			for _, e := range tg.Events {
				if e == event {
					return true
				}
			}
		}
	}
	return false
}

// Trigger returns the table's trigger of that name.
func (t *Table) Trigger(name string) (*Trigger, int) {
	for i, tg := range t.Triggers {
		if tg.Name == name {
			return tg, i
		}
	}
	return nil, -1
}
