package catalog

// WithTables returns a copy of the snapshot in which the given tables
// replace those of their names. The session uses it to plan EXPLAIN with
// hypothetical indexes; the copy is never stored.
func (s *Snapshot) WithTables(ts ...*Table) *Snapshot {
	c := *s
	c.memo = newMemo()
	c.tables = make(map[string]*Table, len(s.tables))
	for n, t := range s.tables {
		c.tables[n] = t
	}
	for _, t := range ts {
		c.tables[t.Name] = t
	}
	return &c
}
