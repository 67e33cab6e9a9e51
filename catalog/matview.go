package catalog

import "slices"

// Materialized views.
//
// A materialized view is a table whose rows are its query's result as of
// its last REFRESH: Table.Matview keeps the query's text (bound again at
// every REFRESH, as a view's is wherever it is read), the relations it
// reads and whether it holds rows at all. Everything else is the table's:
// its rows and indexes are stored and read as any table's, and REFRESH
// replaces them in one transaction (executor.RefreshMatview).

// Matview is what makes a table a materialized view.
type Matview struct {
	// SQL is the query's text as written.
	SQL string `json:"sql"`
	// Depends names the tables, views and materialized views the query
	// reads: they cannot be dropped while the materialized view exists.
	Depends []string `json:"depends,omitempty"`
	// Populated is false after CREATE ... WITH NO DATA and REFRESH ...
	// WITH NO DATA: reading the view is then an error (55000), as in
	// PostgreSQL.
	Populated bool `json:"populated,omitempty"`
	// Path is the search path the query was created under (see
	// View.Path).
	Path []string `json:"path,omitempty"`
	// Stars are what the query's stars named at CREATE (see View.Stars):
	// REFRESH expands them to those columns again.
	Stars []ViewStar `json:"stars,omitempty"`
}

// IsMatview reports whether t is a materialized view.
func (t *Table) IsMatview() bool { return t != nil && t.Matview != nil }

// KindName is the table's kind as PostgreSQL's messages name it: "table"
// or "materialized view".
func (t *Table) KindName() string {
	if t.IsMatview() {
		return "materialized view"
	}
	return "table"
}

// Dependent is a relation whose query reads another: a view or a
// materialized view (Table set).
type Dependent struct {
	Name string
	// Matview is the materialized view's table; nil for a view.
	Matview *Table
}

// Kind is the dependent's kind as PostgreSQL's messages name it.
func (d Dependent) Kind() string {
	if d.Matview != nil {
		return "materialized view"
	}
	return "view"
}

// DependentsOf lists the views and materialized views whose queries read
// the relation name, directly, sorted by name within each kind (views
// first).
func (s *Snapshot) DependentsOf(name string) []Dependent {
	var out []Dependent
	for _, v := range s.Views() {
		if v.Name != name && slices.Contains(v.Depends, name) {
			out = append(out, Dependent{Name: v.Name})
		}
	}
	for _, t := range s.Tables() {
		if t.Matview != nil && t.Name != name && slices.Contains(t.Matview.Depends, name) {
			out = append(out, Dependent{Name: t.Name, Matview: t})
		}
	}
	return out
}

// DependentsClosure lists every view and materialized view that reads the
// relation name, directly or through others, each once, nearest first.
func (s *Snapshot) DependentsClosure(name string) []Dependent {
	var out []Dependent
	seen := map[string]bool{name: true}
	queue := []string{name}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, d := range s.DependentsOf(cur) {
			if !seen[d.Name] {
				seen[d.Name] = true
				out = append(out, d)
				queue = append(queue, d.Name)
			}
		}
	}
	return out
}
