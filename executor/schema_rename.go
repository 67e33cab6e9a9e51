package executor

import (
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// RenameSchemaObjects adds to ch what ALTER SCHEMA from RENAME TO to does
// to everything keyed by the schema's name: relations are keyed by their
// qualified names (catalog/schemas.go), so each table, materialized view
// and sequence of the schema moves to its new key with its ID (its rows,
// grants and statistics stay where they are); the foreign keys that
// reference a moved table, the columns that draw from a moved sequence
// (their nextval default's text with them) and the sequences owned by a
// moved table's columns follow; the roles' grants on the schema move to
// the new name. A stored view keeps its query as text, as ALTER TABLE
// RENAME's refusal explains: a schema whose relations a view reads, or
// that holds a view, is refused with 0A000 rather than left with views
// naming what no longer exists. The schema descriptor itself is the
// caller's.
func RenameSchemaObjects(s *catalog.Snapshot, from, to string, ch *catalog.Change) error {
	tables, views, seqs := s.SchemaObjects(from)
	refuse := func(what string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename schema %s: %s keeps its query as text", from, what).
			WithHint("Drop the view, rename the schema, and create the view again.")
	}
	if len(views) > 0 {
		return refuse("view " + views[0])
	}
	moved := func(key string) string {
		_, name := catalog.SplitName(key)
		return catalog.QualifiedKey(to, name)
	}
	movedTables := map[string]string{}
	for _, k := range tables {
		t, err := s.Table(k)
		if err != nil {
			return err
		}
		if t.IsMatview() {
			return refuse("materialized view " + k)
		}
		if err := noTextDependents(s, t, "rename schema "+from); err != nil {
			return err
		}
		if err := notRewriting(t); err != nil {
			return err
		}
		movedTables[k] = moved(k)
	}
	movedSeqs := map[string]string{}
	for _, k := range seqs {
		movedSeqs[k] = moved(k)
	}
	// Every table whose descriptor names a moved table or sequence.
	for _, t := range s.Tables() {
		newKey, inSchema := movedTables[t.Name]
		var nt *catalog.Table
		clone := func() *catalog.Table {
			if nt == nil {
				nt = t.Clone()
			}
			return nt
		}
		if inSchema {
			clone().Name = newKey
		}
		for i, fk := range t.ForeignKeys {
			if to, ok := movedTables[fk.RefTable]; ok {
				clone().ForeignKeys[i].RefTable = to
			}
		}
		if drawsFrom(t, movedSeqs) {
			followSequences(clone(), movedSeqs)
		}
		if nt == nil {
			continue
		}
		if err := notRewriting(t); err != nil {
			return err
		}
		ch.Put = append(ch.Put, nt)
		if inSchema {
			ch.Delete = append(ch.Delete, t.Name)
		}
	}
	// Sequences: those of the schema move; any owned by a moved table's
	// column ("table.column") follows its table.
	for _, q := range s.Sequences() {
		newKey, inSchema := movedSeqs[q.Name]
		owner := ""
		if i := strings.LastIndexByte(q.OwnedBy, '.'); i > 0 {
			if to, ok := movedTables[q.OwnedBy[:i]]; ok {
				owner = to + q.OwnedBy[i:]
			}
		}
		if !inSchema && owner == "" {
			continue
		}
		c := *q
		if inSchema {
			c.Name = newKey
			ch.DeleteSequences = append(ch.DeleteSequences, q.Name)
		}
		if owner != "" {
			c.OwnedBy = owner
		}
		ch.PutSequences = append(ch.PutSequences, &c)
	}
	// Types, routines and operators are keyed like relations: they move to their
	// new keys with their OIDs, so the columns, domains and functions that
	// use a type (by OID) follow it.
	for _, k := range s.SchemaTypes(from) {
		u, _ := s.UserTypeByKey(k)
		ch.PutTypes = append(ch.PutTypes, renamedType(u, moved(k)))
		ch.DeleteTypes = append(ch.DeleteTypes, k)
	}
	for _, f := range s.SchemaFunctions(from) {
		c := f.Clone()
		c.Name = moved(f.Name)
		ch.PutFunctions = append(ch.PutFunctions, c)
	}
	for _, o := range s.SchemaOperators(from) {
		c := *o
		c.Name = moved(o.Name)
		ch.PutOperators = append(ch.PutOperators, &c)
	}
	for _, r := range s.Roles() {
		if p, ok := r.Schemas[from]; ok {
			c := r.Clone()
			delete(c.Schemas, from)
			c.Schemas[to] = p
			ch.PutRoles = append(ch.PutRoles, c)
		}
	}
	return nil
}

// errExistsInSchema is SET SCHEMA's error when the schema has a relation
// of the moved one's name (key: that relation's key).
func errExistsInSchema(key string) error {
	sc, name := catalog.SplitName(key)
	if sc == "" {
		sc = catalog.PublicSchema
	}
	return pgerr.New(pgerr.DuplicateTable, "relation %q already exists in schema %q", name, sc)
}

// moveOwnedSequences adds to ch what ALTER TABLE nt SET SCHEMA does to
// the sequences nt's columns own (SERIAL and identity columns): as in
// PostgreSQL they move with the table, to newKey's schema, keeping their
// IDs (so their values), and every column drawing from one, nt's first,
// follows it with its nextval default's text. nt is the table's clone
// under its old name, which the caller puts.
func moveOwnedSequences(s *catalog.Snapshot, nt *catalog.Table, newKey string, ch *catalog.Change) error {
	schema, _ := catalog.SplitName(newKey)
	if schema == "" {
		schema = catalog.PublicSchema
	}
	moved := map[string]string{}
	for _, q := range s.Sequences() {
		i := strings.LastIndexByte(q.OwnedBy, '.')
		if i <= 0 || q.OwnedBy[:i] != nt.Name {
			continue
		}
		_, name := catalog.SplitName(q.Name)
		to := catalog.QualifiedKey(schema, name)
		if s.HasRelation(to) {
			return errExistsInSchema(to)
		}
		c := *q
		c.Name, c.OwnedBy = to, newKey+q.OwnedBy[i:]
		ch.PutSequences = append(ch.PutSequences, &c)
		ch.DeleteSequences = append(ch.DeleteSequences, q.Name)
		moved[q.Name] = to
	}
	if len(moved) == 0 {
		return nil
	}
	followSequences(nt, moved)
	for _, t := range s.Tables() {
		if t.Name == nt.Name || !drawsFrom(t, moved) {
			continue
		}
		if err := notRewriting(t); err != nil {
			return err
		}
		pt, err := putTable(s, ch, t.Name)
		if err != nil {
			return err
		}
		followSequences(pt, moved)
	}
	return nil
}

// drawsFrom reports whether a column of t draws from a sequence moved
// (old key to new).
func drawsFrom(t *catalog.Table, moved map[string]string) bool {
	return slices.ContainsFunc(t.Columns, func(c catalog.Column) bool { return moved[c.Sequence] != "" })
}

// followSequences points t's columns that draw from a moved sequence at
// its new key, their nextval default's text with them. The text names
// the sequence as it was written, resolved through the creating
// session's search_path (nextval('s')) or by its key: either becomes the
// new key, which the moved sequence is found by whatever the path.
func followSequences(t *catalog.Table, moved map[string]string) {
	for i, c := range t.Columns {
		to, ok := moved[c.Sequence]
		if !ok {
			continue
		}
		sc, name := catalog.SplitName(c.Sequence)
		if sc == "" {
			sc = catalog.PublicSchema
		}
		d := c.Default
		for _, from := range []string{c.Sequence, name, sc + "." + name} {
			d = strings.ReplaceAll(d, quoteLiteral(from), quoteLiteral(to))
		}
		t.Columns[i].Sequence, t.Columns[i].Default = to, d
	}
}
