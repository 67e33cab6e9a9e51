package executor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/parser"
)

// ALTER TABLE.
//
// All actions of one statement are applied to the table's descriptor in
// one catalog change, so every proxy sees the table before or after, never
// between. None rewrites rows: a column added with a constant default
// keeps it as the value of the rows written before (Column.Missing), a
// dropped column's attribute stays in old rows unread (Table.RetiredAttrs),
// a renamed column keeps its store attribute (Column.Attr), and a type
// change is allowed where the stored values and key encodings of the two
// types are the same (int2/int4/int8, text/varchar, float4/float8).
//
// Changes that make existing rows invalid (SET NOT NULL, ADD COLUMN ...
// NOT NULL, a narrowing type) are published first, so every writer
// enforces them, and then checked against the rows: writers that planned
// with the old schema have finished by then (the Gate in this process,
// twice catalog.SharedStaleness for other proxies). If a row fails, the
// change is undone and the statement fails as PostgreSQL's would.

// alterEffects is what applying the actions left to do outside the
// catalog change.
type alterEffects struct {
	droppedIndexes []*catalog.Index
	droppedSeqs    []*catalog.Sequence
	// dropped are materialized views a DROP COLUMN ... CASCADE dropped.
	dropped []*catalog.Table
	// validate lists columns whose rows must be checked after publishing:
	// NOT NULL, or a narrower type.
	validate []validation
	notices  []*pgerr.Error
	skipped  bool
}

type validation struct {
	column  string
	notNull bool
	typ     *sqltypes.Type // the narrower type rows must cast to unchanged
	undo    func(t *catalog.Table)
	// keep are the partitions an undo leaves alone: they had the NOT
	// NULL of their own before.
	keep map[uint64]bool
}

// AlterTable applies an ALTER TABLE; fn is the session's context for the
// expressions a rewrite evaluates (a USING expression's casts and
// functions).
func (e *Executor) AlterTable(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, fn builtins.Context, notice func(*pgerr.Error)) error {
	if len(at.Actions) == 1 && at.Actions[0].Kind == parser.AlterRenameIndex {
		return e.renameIndex(ctx, cat, at, notice)
	}
	if len(at.Actions) == 1 && at.Actions[0].Kind == parser.AlterAttachIndex {
		// A partition's index is its partitioned table's when it indexes
		// the same keys (catalog.PartitionIndex): the binder checked
		// that it does, so there is nothing to record.
		return nil
	}
	if at.View {
		return e.alterView(ctx, cat, at, notice)
	}
	if len(at.Actions) == 1 && at.Actions[0].Attach != nil {
		return e.attachPartition(ctx, cat, at.Table, at.Actions[0], notice)
	}
	if len(at.Actions) == 1 && at.Actions[0].Kind == parser.AlterDetachPartition {
		if err := e.checkDetachReferences(ctx, cat, at.Table, at.Actions[0].Column); err != nil {
			return err
		}
	}
	if len(at.Actions) == 1 && (at.Actions[0].Kind == parser.AlterPrimaryKey || at.Actions[0].Reshard != nil) {
		return e.rekey(ctx, cat, at)
	}
	if at.Rewrites() {
		return e.retype(ctx, cat, at, fn)
	}
	if len(at.Actions) == 1 && at.Actions[0].Kind == parser.AlterDropColumn {
		if err := e.dropKeyColumn(ctx, cat, at, notice); err != nil {
			return err
		}
	}
	if len(at.Constraints) > 0 {
		return e.alterWithColumnConstraints(ctx, cat, at, notice)
	}
	if len(at.Actions) > 0 && needsEmpty(at) {
		// A default evaluated per row (a SERIAL, nextval(), random())
		// gives every existing row a value of its own: the rows are
		// rewritten (fillcolumn.go).
		empty, err := e.tableEmpty(ctx, cat, at.Table)
		if err != nil {
			return err
		}
		if !empty {
			return e.fillColumns(ctx, cat, at, fn, notice)
		}
	}
	var eff alterEffects
	var final *catalog.Table
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		eff = alterEffects{}
		t, err := s.Table(at.Table)
		if err != nil {
			if at.IfExists {
				eff.skipped = true
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, err
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		var ch catalog.Change
		// A partitioned table's column changes are its partitions' too
		// (every member keeps the root's columns; treeAlter).
		var members []*catalog.Table
		if slices.ContainsFunc(at.Actions, treeAction) && !at.Only {
			for _, m := range s.Descendants(t) {
				members = append(members, m.Clone())
			}
		}
		for i, a := range at.Actions {
			if err := applyAlter(s, nt, a, version, i, &ch, &eff); err != nil {
				return catalog.Change{}, err
			}
			if err := treeAlter(s, members, a, version, i, &ch, &eff); err != nil {
				return catalog.Change{}, err
			}
		}
		if nt.Name != t.Name {
			ch.Delete = append(ch.Delete, t.Name)
		}
		ch.Put = append(ch.Put, nt)
		ch.Put = append(ch.Put, members...)
		final = nt
		return ch, nil
	})
	if eff.skipped {
		notice(pgerr.Notice("relation %q does not exist, skipping", at.Table))
		return nil
	}
	if err != nil {
		return err
	}
	for _, n := range eff.notices {
		notice(n)
	}
	if len(eff.droppedIndexes)+len(eff.droppedSeqs)+len(eff.dropped) > 0 {
		err := e.afterCommit(ctx, cat, fmt.Sprintf("deleting what ALTER TABLE %q dropped", at.Table), func(ctx context.Context, _ *catalog.Catalog) error {
			for _, t := range eff.dropped {
				if err := e.clearTable(ctx, t); err != nil {
					return err
				}
			}
			for _, ix := range eff.droppedIndexes {
				if err := e.clearIndex(ctx, ix); err != nil {
					return err
				}
			}
			return e.dropSequenceState(ctx, eff.droppedSeqs)
		})
		if err != nil {
			return err
		}
	}
	if len(eff.validate) > 0 {
		return e.validateAlter(ctx, cat, final, eff.validate)
	}
	return nil
}

// treeAlter applies action a of an ALTER TABLE of a partitioned table
// to the members of its tree (clones): the column actions, which keep
// their columns the root's (the binder refused the others). Their
// effects join eff but for the rows to check, which validateAlter finds
// by the root's.
func treeAlter(s *catalog.Snapshot, members []*catalog.Table, a ir.AlterAction, version uint64, n int, ch *catalog.Change, eff *alterEffects) error {
	if !treeAction(a) {
		return nil
	}
	// The root's SERIAL sequence serves its partitions' column too.
	a.NewSequence = nil
	if v := lastValidation(eff); a.Kind == parser.AlterSetNotNull && v != nil && v.notNull && v.column == a.Column {
		for _, m := range members {
			if i := m.ColumnIndex(a.Column); i >= 0 && m.Columns[i].NotNull {
				if v.keep == nil {
					v.keep = map[uint64]bool{}
				}
				v.keep[m.ID] = true
			}
		}
	}
	for _, m := range members {
		var meff alterEffects
		if err := applyAlter(s, m, a, version, n, ch, &meff); err != nil {
			return err
		}
		eff.droppedIndexes = append(eff.droppedIndexes, meff.droppedIndexes...)
		eff.droppedSeqs = append(eff.droppedSeqs, meff.droppedSeqs...)
		eff.dropped = append(eff.dropped, meff.dropped...)
	}
	return nil
}

// lastValidation returns the latest row check the actions asked for, or
// nil.
func lastValidation(eff *alterEffects) *validation {
	if len(eff.validate) == 0 {
		return nil
	}
	return &eff.validate[len(eff.validate)-1]
}

// treeAction reports whether a partitioned table's action a is its
// partitions' too.
func treeAction(a ir.AlterAction) bool {
	switch a.Kind {
	case parser.AlterAddColumn, parser.AlterDropColumn, parser.AlterRenameColumn, parser.AlterSetDefault,
		parser.AlterDropDefault, parser.AlterSetNotNull, parser.AlterDropNotNull, parser.AlterColumnType:
		return true
	}
	return false
}

func needsEmpty(at *ir.AlterTable) bool {
	for _, a := range at.Actions {
		if a.Kind == parser.AlterAddColumn && a.Volatile {
			return true
		}
	}
	return false
}

// missingColumn is ALTER's error for an action on a column the relation
// does not have: RENAME COLUMN's (renameatt) names no relation.
func missingColumn(a parser.AlterAction, relation string) error {
	if a.Kind == parser.AlterRenameColumn {
		return pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", a.Column)
	}
	return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column, relation)
}

// applyAlter applies one action to nt (a clone of the table as the
// change's snapshot s has it).
func applyAlter(s *catalog.Snapshot, nt *catalog.Table, a ir.AlterAction, version uint64, n int, ch *catalog.Change, eff *alterEffects) error {
	col := func() (int, error) {
		i := nt.ColumnIndex(a.Column)
		if i < 0 || nt.Columns[i].Hidden && a.Kind != parser.AlterRenameColumn {
			return -1, missingColumn(a.AlterAction, nt.Name)
		}
		return i, nil
	}
	switch a.Kind {
	case parser.AlterDetachPartition:
		return detachPartition(s, nt, a.Column, ch)
	case parser.AlterAddColumn:
		c := *a.NewColumn
		if nt.ColumnIndex(c.Name) >= 0 {
			if a.IfNotExists {
				eff.notices = append(eff.notices, pgerr.Notice("column %q of relation %q already exists, skipping", c.Name, nt.Name))
				return nil
			}
			return pgerr.New(pgerr.DuplicateColumn, "column %q of relation %q already exists", c.Name, nt.Name)
		}
		if strings.HasPrefix(c.Name, catalog.ReservedPrefix) || strings.HasPrefix(c.Name, "~") {
			return pgerr.New(pgerr.ReservedName, "column name %q is reserved: names starting with %q or \"~\" belong to zproxy", c.Name, catalog.ReservedPrefix)
		}
		if attrInUse(nt, c.Name) {
			c.Attr = fmt.Sprintf("%s%s@%d", catalog.ReservedPrefix, c.Name, version)
		}
		if a.NewSequence != nil {
			q := *a.NewSequence
			if s.HasRelation(q.Name) {
				return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", q.Name)
			}
			q.ID = catalog.ObjectID(version, n)
			q.Owner = nt.Owner
			ch.PutSequences = append(ch.PutSequences, &q)
		}
		nt.Columns = append(nt.Columns, c)
		if c.NotNull && c.Missing == "" {
			name := c.Name
			eff.validate = append(eff.validate, validation{column: name, notNull: true, undo: func(t *catalog.Table) {
				if i := t.ColumnIndex(name); i >= 0 {
					t.Columns = slices.Delete(t.Columns, i, i+1)
				}
			}})
		}
	case parser.AlterAddIdentity:
		i, err := col()
		if err != nil {
			return err
		}
		q := *a.NewSequence
		if s.HasRelation(q.Name) {
			return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", q.Name)
		}
		q.ID = catalog.ObjectID(version, n)
		q.Owner = nt.Owner
		ch.PutSequences = append(ch.PutSequences, &q)
		nt.Columns[i].Identity, nt.Columns[i].Sequence = "by default", q.Name
		if a.Identity.Always {
			nt.Columns[i].Identity = "always"
		}
	case parser.AlterDropColumn:
		i := nt.ColumnIndex(a.Column)
		if i < 0 || nt.Columns[i].Hidden {
			if a.IfExists {
				eff.notices = append(eff.notices, pgerr.Notice("column %q of relation %q does not exist, skipping", a.Column, nt.Name))
				return nil
			}
			return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column, nt.Name)
		}
		return dropColumn(s, nt, i, a.Cascade, ch, eff)
	case parser.AlterRenameColumn:
		i, err := col()
		if err != nil {
			return err
		}
		if nt.ColumnIndex(a.NewName) >= 0 {
			return pgerr.New(pgerr.DuplicateColumn, "column %q of relation %q already exists", a.NewName, nt.Name)
		}
		if err := noTextDependents(s, nt, "rename column "+a.Column); err != nil {
			return err
		}
		if err := renameCheckColumn(nt, a.Column, a.NewName); err != nil {
			return err
		}
		if err := renamePartitionKeyColumn(nt, a.Column, a.NewName); err != nil {
			return err
		}
		renamed, err := renameIndexColumn(nt, a.Column, a.NewName)
		if err != nil {
			return err
		}
		c := &nt.Columns[i]
		c.Attr = c.AttrName()
		c.Name = a.NewName
		if err := deparsePartitionKey(nt); err != nil {
			return err
		}
		// Their text as PostgreSQL prints it with the new name.
		if err := rebindIndexTexts(nt, renamed, false, func(why string) error {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q: %s", a.Column, why)
		}); err != nil {
			return err
		}
		if nt.TTL != nil && nt.TTL.Column == a.Column {
			nt.TTL.Column = a.NewName
		}
		renameOwner(s, nt.Name+"."+a.Column, nt.Name+"."+a.NewName, ch)
	case parser.AlterRenameTable:
		if s.HasRelation(a.NewName) {
			if a.SetSchema {
				return errExistsInSchema(a.NewName)
			}
			return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", a.NewName)
		}
		what := "rename table " + nt.Name
		if a.SetSchema {
			what = "move table " + nt.Name + " to another schema"
		}
		if err := noTextDependents(s, nt, what); err != nil {
			return err
		}
		if a.SetSchema {
			if err := moveOwnedSequences(s, nt, a.NewName, ch); err != nil {
				return err
			}
		} else {
			for _, c := range nt.Columns {
				renameOwner(s, nt.Name+"."+c.Name, a.NewName+"."+c.Name, ch)
			}
		}
		if err := renameReferences(s, nt, nt.Name, a.NewName, ch); err != nil {
			return err
		}
		nt.Name = a.NewName
	case parser.AlterSetDefault:
		i, err := col()
		if err != nil {
			return err
		}
		nt.Columns[i].Default = a.Default
		nt.Columns[i].Sequence = a.DefaultSequence
	case parser.AlterDropDefault:
		i, err := col()
		if err != nil {
			return err
		}
		if nt.Columns[i].Identity == "" {
			nt.Columns[i].Default, nt.Columns[i].Sequence = "", ""
		}
	case parser.AlterSetNotNull:
		i, err := col()
		if err != nil {
			return err
		}
		if !nt.Columns[i].NotNull {
			nt.Columns[i].NotNull = true
			name := a.Column
			eff.validate = append(eff.validate, validation{column: name, notNull: true, undo: func(t *catalog.Table) {
				if i := t.ColumnIndex(name); i >= 0 {
					t.Columns[i].NotNull = false
				}
			}})
		}
	case parser.AlterDropNotNull:
		i, err := col()
		if err != nil {
			return err
		}
		if nt.IsPKColumn(i) {
			return pgerr.New(pgerr.InvalidTableDefinition, "column %q is in a primary key", a.Column)
		}
		if nt.Columns[i].Identity != "" {
			return pgerr.New(pgerr.InvalidTableDefinition, "column %q of relation %q is an identity column", a.Column, nt.Name)
		}
		nt.Columns[i].NotNull = false
	case parser.AlterColumnType:
		i, err := col()
		if err != nil {
			return err
		}
		return alterType(nt, i, a, eff)
	case parser.AlterSetOptions, parser.AlterResetOptions:
		return alterOptions(nt, a)
	}
	return nil
}

// attrInUse reports whether a store attribute name is taken by a column
// or was by a dropped one.
func attrInUse(t *catalog.Table, name string) bool {
	for _, c := range t.Columns {
		if c.AttrName() == name {
			return true
		}
	}
	return slices.Contains(t.RetiredAttrs, name)
}

// dropColumn drops column i: indexes on it and CHECK constraints reading
// it go too (as in PostgreSQL), views reading the table need CASCADE, and
// a primary-key column cannot go (it is the rows' store key).
func dropColumn(s *catalog.Snapshot, nt *catalog.Table, i int, cascade bool, ch *catalog.Change, eff *alterEffects) error {
	c := nt.Columns[i]
	if nt.TTL != nil && nt.TTL.Column == c.Name {
		return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop column %q: the table's rows expire by it (ttl_column)", c.Name).
			WithHint("ALTER TABLE %s RESET (ttl) first.", nt.Name)
	}
	if nt.IsPKColumn(i) {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot drop column %q: it is part of the primary key of %q, which keys the table's rows in the store", c.Name, nt.Name).
			WithHint("Create a new table with the key you want and copy the rows.")
	}
	visible := 0
	for _, x := range nt.Columns {
		if !x.Hidden {
			visible++
		}
	}
	if visible == 1 {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot drop the only column of table %q", nt.Name)
	}
	for _, g := range nt.Columns {
		if g.Generated != "" && g.Name != c.Name && slices.Contains(exprColumns(g.Generated), c.Name) {
			if cascade {
				// PostgreSQL drops the generated column too.
				return pgerr.New(pgerr.FeatureNotSupported, "DROP COLUMN ... CASCADE cannot drop the generated column %s of table %s that depends on column %s", g.Name, nt.Name, c.Name).
					WithHint("Drop the generated column first.")
			}
			return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop column %s of table %s because other objects depend on it", c.Name, nt.Name).
				WithDetail("column %s of table %s depends on column %s of table %s", g.Name, nt.Name, c.Name, nt.Name).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
	}
	if views := s.DependentsClosure(nt.Name); len(views) > 0 {
		if !cascade {
			return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop column %s of table %s because other objects depend on it", c.Name, nt.Name).
				WithDetail("%s %s depends on table %s", views[0].Kind(), views[0].Name, nt.Name).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		matviews, objects := dropDependents(s, nt.Name, ch)
		eff.dropped = append(eff.dropped, matviews...)
		for _, o := range objects {
			eff.notices = append(eff.notices, pgerr.Notice("drop cascades to %s", o))
		}
	}
	// So do its foreign keys (constraints_ddl.go).
	fkNotices, err := dropColumnKeys(s, nt, i, cascade, ch)
	if err != nil {
		return err
	}
	eff.notices = append(eff.notices, fkNotices...)
	// Indexes on the column go with it, as do those whose expressions or
	// predicate read it.
	var keep []*catalog.Index
	for _, ix := range nt.Indexes {
		uses := slices.Contains(ix.Include, i) || indexReads(ix, c.Name)
		for _, k := range ix.Columns {
			uses = uses || k.Column == i
		}
		if uses {
			eff.droppedIndexes = append(eff.droppedIndexes, ix)
			continue
		}
		// A covering index stops storing it: its definition never named
		// it. The entries' copies are left, unread (the column's
		// attribute is retired with it).
		ix.Stored = slices.DeleteFunc(ix.Stored, func(c int) bool { return c == i })
		keep = append(keep, ix)
	}
	nt.Indexes = keep
	var checks []catalog.Check
	for _, k := range nt.Checks {
		if !slices.Contains(exprColumns(k.SQL), c.Name) {
			checks = append(checks, k)
		}
	}
	nt.Checks = checks
	// Its owned sequence goes too.
	for _, q := range s.Sequences() {
		if q.OwnedBy == nt.Name+"."+c.Name {
			ch.DeleteSequences = append(ch.DeleteSequences, q.Name)
			eff.droppedSeqs = append(eff.droppedSeqs, q)
		}
	}
	nt.RemoveColumn(i)
	return nil
}

// exprColumns lists the column names an expression's text refers to, as
// the catalog spells them (a quoted name keeps its case).
func exprColumns(text string) []string {
	_, node, err := parser.ParseExpression(text)
	if err != nil {
		return nil
	}
	var f columnFinder
	node.Accept(&f)
	return f.names
}

// indexReads reports whether ix's expressions or predicate read the named
// column.
func indexReads(ix *catalog.Index, column string) bool {
	if slices.Contains(exprColumns(ix.Predicate), column) {
		return true
	}
	for _, k := range ix.Columns {
		if k.Column < 0 && slices.Contains(exprColumns(k.Expr), column) {
			return true
		}
	}
	return false
}

type columnFinder struct{ names []string }

func (v *columnFinder) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnNameExpr); ok {
		v.names = append(v.names, c.Name.Name.O)
	}
	return n, false
}

func (v *columnFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// noTextDependents refuses renames under stored views: a view keeps its
// query's text, which would still name the old table or column.
func noTextDependents(s *catalog.Snapshot, t *catalog.Table, what string) error {
	if views := s.DependentsClosure(t.Name); len(views) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot %s: %s %s reads table %s and keeps its query as text", what, views[0].Kind(), views[0].Name, t.Name).
			WithHint("Drop the view, rename, and create the view again.")
	}
	return nil
}

// renameOwner points sequences owned by table.column "from" at "to".
func renameOwner(s *catalog.Snapshot, from, to string, ch *catalog.Change) {
	for _, q := range s.Sequences() {
		if q.OwnedBy == from {
			c := *q
			c.OwnedBy = to
			ch.PutSequences = append(ch.PutSequences, &c)
		}
	}
}

// alterType changes a column's type. Where the binder found that no
// stored value or key changes (a.Convert nil), the two types store and
// order values alike, and a narrower type is checked against the rows
// after publishing. Otherwise nt is the table's future layout, into which
// retype.go rewrites every row and entry: the column takes the type, and
// the indexes that compute keys from it bind their texts for it.
func alterType(nt *catalog.Table, i int, a ir.AlterAction, eff *alterEffects) error {
	c := &nt.Columns[i]
	from, to := c.Type, a.Type
	refuse := func(why string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot change column %q from %s to %s: %s", c.Name, from, to, why).
			WithHint("Add a new column of the new type, UPDATE it from the old one, and drop the old one.")
	}
	if a.Convert != nil {
		c.Type = to
		// Every row is written anew with the column's value.
		c.Missing = ""
		var rebind []*catalog.Index
		for _, ix := range nt.Indexes {
			if !indexReads(ix, c.Name) {
				continue
			}
			if ix.Kind == catalog.KindZOrder || ix.Inverted() {
				// (The binder refused the column as a key of either.)
				return refuse(fmt.Sprintf("index %q computes its addresses or tokens from it", ix.Name))
			}
			rebind = append(rebind, ix)
		}
		return rebindIndexTexts(nt, rebind, true, refuse)
	}
	if from == to {
		return nil
	}
	if ix := nt.TypeShapedIndex(i); ix != nil {
		if ix.Inverted() {
			return refuse(fmt.Sprintf("gin index %q computes its tokens from it", ix.Name))
		}
		return refuse(fmt.Sprintf("it is an attribute of Z-order index %q, whose addresses depend on the type", ix.Name))
	}
	var rebind []*catalog.Index
	for _, ix := range nt.Indexes {
		if indexReads(ix, c.Name) {
			if ix.Kind == catalog.KindZOrder {
				return refuse(fmt.Sprintf("Z-order index %q computes its addresses from it", ix.Name))
			}
			rebind = append(rebind, ix)
		}
	}
	if c.Missing != "" {
		if _, err := sqltypes.ParseText(to, c.Missing); err != nil {
			return err
		}
	}
	old := *c
	c.Type = to
	if err := rebindIndexTexts(nt, rebind, false, refuse); err != nil {
		return err
	}
	t := to
	eff.validate = append(eff.validate, validation{column: c.Name, typ: &t, undo: func(t *catalog.Table) {
		if j := t.ColumnIndex(old.Name); j >= 0 {
			t.Columns[j].Type = old.Type
		}
	}})
	return nil
}

// rebindIndexTexts binds again the expressions and predicates of indexes
// that read a column whose type changed, and keeps their deparsed text as
// PostgreSQL prints the rebuilt index (lower(v) becomes lower((v)::text)
// when v becomes varchar). The values are unchanged, since the two types
// store values alike, so are the entries, as long as each key keeps its
// kind; an index whose keys would change kind is refused, unless its
// entries are all written anew (rewritten: the key must then be one an
// index can hold, as CREATE INDEX checks).
func rebindIndexTexts(nt *catalog.Table, ixs []*catalog.Index, rewritten bool, refuse func(string) error) error {
	for _, ix := range ixs {
		bound, err := ir.BindIndex(nt, ix)
		if err != nil {
			if pe := pgerr.As(err); pe != nil {
				// A position in the index's stored text means nothing
				// to the client, whose statement does not hold it.
				pe.WithPosition(0)
			}
			return err
		}
		for j := range ix.Columns {
			k := &ix.Columns[j]
			e := bound.Keys[j]
			if e == nil {
				continue
			}
			typ := e.Type()
			if rewritten && ix.Kind == catalog.KindBTree {
				if err := catalog.CheckKeyEncodable(typ); err != nil {
					return err
				}
			} else if k.ExprType != nil && typ.Kind() != k.ExprType.Kind() {
				return refuse(fmt.Sprintf("the keys of index %q would change type", ix.Name))
			}
			if text, ok := ir.Deparse(e); ok {
				k.Expr = text
			}
			k.ExprType = &typ
		}
		if bound.Pred != nil {
			if text, ok := ir.Deparse(bound.Pred); ok {
				ix.Predicate = text
			}
		}
	}
	return nil
}

// alterOptions applies SET (...) / RESET (...) storage options: the TTL
// may change; shards and mutability decide where and how rows are stored
// and cannot.
func alterOptions(nt *catalog.Table, a ir.AlterAction) error {
	var keys []string
	for _, k := range a.Reset {
		// RESET of any other name is a no-op, as in PostgreSQL (which
		// accepts any name there): zproxy keeps none of PostgreSQL's
		// storage parameters (CREATE TABLE ... WITH checks fillfactor
		// and keeps nothing), so none is set.
		if catalog.ZproxyTableOption(k) {
			keys = append(keys, k)
		}
	}
	for k := range a.Options {
		keys = append(keys, k)
	}
	for _, k := range keys {
		switch k {
		case "ttl", "ttl_column":
		case "shards", "mutability":
			return pgerr.New(pgerr.FeatureNotSupported, "cannot change %q of an existing table: it decides where and how its rows are stored", k)
		default:
			return pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter %q", k)
		}
	}
	if a.Kind == parser.AlterResetOptions {
		if slices.Contains(a.Reset, "ttl") {
			nt.TTL = nil
		} else if slices.Contains(a.Reset, "ttl_column") && nt.TTL != nil {
			return pgerr.New(pgerr.InvalidParameterValue, "\"ttl_column\" cannot be reset while \"ttl\" is set")
		}
		return nil
	}
	interval, column := a.Options["ttl"], a.Options["ttl_column"]
	if interval == "" && column == "" {
		return nil
	}
	if nt.TTL != nil {
		if interval == "" {
			interval = nt.TTL.Interval
		}
		if column == "" {
			column = nt.TTL.Column
		}
	}
	if interval == "" {
		return pgerr.New(pgerr.InvalidParameterValue, "\"ttl_column\" needs \"ttl\"")
	}
	ttl, err := catalog.NewTTL(nt, interval, column)
	if err != nil {
		return err
	}
	nt.TTL = ttl
	return nil
}

// validateAlter checks the rows against a published change and undoes it
// if one fails.
func (e *Executor) validateAlter(ctx context.Context, cat *catalog.Catalog, t *catalog.Table, checks []validation) error {
	if cat.InBlock() {
		// The rows the block sees; the block fails if one fails, so there
		// is nothing to undo. Other sessions' rows are checked after the
		// commit (ddlblock.go).
		tables := []*catalog.Table{t}
		if snap, err := cat.Snapshot(ctx); err == nil && snap.PartitionSet(t) != nil {
			tables = snap.PartitionSet(t).Leaves()
		}
		for _, tbl := range tables {
			if err := e.checkRows(ctx, e.rowsOf(ctx, cat, tbl), tbl, checks); err != nil {
				return err
			}
		}
		if !sharedTable(cat, t) {
			return nil
		}
		id := t.ID
		return e.afterCommit(ctx, cat, fmt.Sprintf("checking the rows of table %q", t.Name), func(ctx context.Context, cat *catalog.Catalog) error {
			snap, err := cat.Snapshot(ctx)
			if err != nil {
				return err
			}
			if cur := snap.TableByID(id); cur != nil {
				return e.validateAlter(ctx, cat, cur, checks)
			}
			return nil
		})
	}
	// Writers that planned with the old schema finish first.
	if err := e.outwaitWriters(ctx, cat); err != nil {
		return err
	}
	// A partitioned table's rows are its leaves'.
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	tables := []*catalog.Table{t}
	if ps := snap.PartitionSet(t); ps != nil {
		tables = ps.Leaves()
	}
	for _, tbl := range tables {
		if err = e.checkRows(ctx, e.Store, tbl, checks); err != nil {
			break
		}
	}
	if err == nil {
		return nil
	}
	_, uerr := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		cur, err := s.Table(t.Name)
		if err != nil {
			return catalog.Change{}, err
		}
		var ch catalog.Change
		for _, m := range append([]*catalog.Table{cur}, s.Descendants(cur)...) {
			nt := m.Clone()
			for _, v := range checks {
				if !v.keep[m.ID] {
					v.undo(nt)
				}
			}
			ch.Put = append(ch.Put, nt)
		}
		return ch, nil
	})
	if uerr != nil {
		return errors.Join(err, uerr)
	}
	return err
}

// checkRows checks every row of t that r sees against checks.
func (e *Executor) checkRows(ctx context.Context, r kv.ReadWriter, t *catalog.Table, checks []validation) error {
	var failed error
	err := e.forEachRow(ctx, r, t, func(row []sqltypes.Value) bool {
		for _, v := range checks {
			i := t.ColumnIndex(v.column)
			if i < 0 {
				continue
			}
			switch {
			case v.notNull && row[i].IsNull():
				failed = pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", v.column, t.Name)
			case v.typ != nil && !row[i].IsNull():
				c, err := sqltypes.Cast(row[i], *v.typ)
				if err == nil && sqltypes.Compare(c, row[i]) != 0 {
					err = pgerr.New(pgerr.FeatureNotSupported, "column %q holds %s, which %s would change", v.column, sqltypes.FormatText(row[i]), v.typ)
				}
				failed = err
			}
			if failed != nil {
				return false
			}
		}
		return true
	})
	if err == nil {
		err = failed
	}
	return err
}

// forEachRow reads every row of t (consistently) through r, until fn
// returns false.
func (e *Executor) forEachRow(ctx context.Context, r kv.ReadWriter, t *catalog.Table, fn func(row []sqltypes.Value) bool) error {
	row := make([]sqltypes.Value, len(t.Columns))
	for sh := 0; sh < t.Shards; sh++ {
		it := r.Scan(ctx, kv.ScanRequest{Partition: t.Partition(sh), Consistent: true})
		for it.Next() {
			if err := t.DecodeRow(it.Item().Attrs, row); err != nil {
				it.Close()
				return err
			}
			if !fn(row) {
				it.Close()
				return nil
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return ClassifyError(err)
		}
	}
	return nil
}

// tableEmpty reports whether the named table has no rows.
func (e *Executor) tableEmpty(ctx context.Context, cat *catalog.Catalog, name string) (bool, error) {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return false, err
	}
	t, err := snap.Table(name)
	if err != nil {
		return true, nil // the change reports it
	}
	tables := []*catalog.Table{t}
	if ps := snap.PartitionSet(t); ps != nil {
		tables = ps.Leaves()
	}
	empty := true
	for _, tbl := range tables {
		if err := e.forEachRow(ctx, e.rowsOf(ctx, cat, tbl), tbl, func([]sqltypes.Value) bool { empty = false; return false }); err != nil || !empty {
			return empty, err
		}
	}
	return empty, nil
}

// renameIndex is ALTER INDEX ... RENAME TO.
func (e *Executor) renameIndex(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, notice func(*pgerr.Error)) error {
	to := at.Actions[0].NewName
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, ix := s.FindIndex(at.Table)
		if ix == nil {
			if t := s.TableByKeyName(s.Resolve(at.Table)); t != nil {
				// The primary key's index: its constraint is renamed too.
				nt := t.Clone()
				if err := renamePrimaryKey(s, nt, to); err != nil {
					return catalog.Change{}, err
				}
				return catalog.Change{Put: []*catalog.Table{nt}}, nil
			}
			if at.IfExists {
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", at.Table)
		}
		if s.HasRelation(to) {
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", to)
		}
		if _, ok := s.UserTypeByKey(to); ok {
			return catalog.Change{}, pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", to)
		}
		if other, _ := s.FindIndex(to); other != nil || s.TableByKeyName(s.Resolve(to)) != nil {
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", to)
		}
		nt := t.Clone()
		nt.Index(ix.Name).Name = to // at.Table may be qualified (public.i)
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if errors.Is(err, errSkip) {
		notice(pgerr.Notice("relation %q does not exist, skipping", at.Table))
		return nil
	}
	return err
}

// Truncate empties tables: each gets new store IDs for its rows and
// indexes in one catalog change (every proxy sees all the rows or none),
// then the old partitions are deleted once writers that planned with the
// old IDs are done. RESTART IDENTITY resets the tables' owned sequences.
func (e *Executor) Truncate(ctx context.Context, cat *catalog.Catalog, tr *ir.Truncate) error {
	var old []*catalog.Table
	var owned []*catalog.Sequence
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		old, owned = nil, nil
		var ch catalog.Change
		next := objectIDs(version, "cannot truncate more than %d tables and indexes at once")
		truncated, err := truncatedWith(s, tr.Tables, tr.Cascade)
		if err != nil {
			return ch, err
		}
		for _, want := range truncated {
			t, err := s.Table(want.Name)
			if err != nil {
				return ch, err
			}
			if err := notRewriting(t); err != nil {
				return ch, err
			}
			nt, err := freshPartitions(t, "truncate", next)
			if err != nil {
				return ch, err
			}
			old = append(old, t)
			ch.Put = append(ch.Put, nt)
			for _, q := range s.Sequences() {
				if tbl, _, _ := catalog.SplitOwnedBy(q.OwnedBy); tr.RestartIdentity && tbl == t.Name {
					owned = append(owned, q)
				}
			}
		}
		return ch, nil
	})
	if err != nil {
		return err
	}
	return e.afterCommit(ctx, cat, "deleting the truncated rows", func(ctx context.Context, cat *catalog.Catalog) error {
		for _, q := range owned {
			if err := e.Setval(ctx, q, q.Start, false); err != nil {
				return err
			}
		}
		// Writers that planned with the old IDs finish before the old
		// rows go.
		if err := e.waitForWriters(ctx, cat); err != nil {
			return err
		}
		for _, t := range old {
			if err := e.clearTable(ctx, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// objectIDs hands out the object IDs of one catalog change (version's),
// failing with tooMany (a format taking the limit) past the limit.
func objectIDs(version uint64, tooMany string) func() (uint64, error) {
	n := 0
	return func() (uint64, error) {
		if n >= catalog.MaxObjectsPerChange {
			return 0, pgerr.New(pgerr.ProgramLimitExceeded, tooMany, catalog.MaxObjectsPerChange)
		}
		n++
		return catalog.ObjectID(version, n-1), nil
	}
}

// freshPartitions returns a copy of t whose rows and index entries are
// stored under new IDs taken from next: empty partitions, the old ones
// left for the caller to delete once the change is committed. verb names
// the statement in its error.
func freshPartitions(t *catalog.Table, verb string, next func() (uint64, error)) (*catalog.Table, error) {
	nt := t.Clone()
	var err error
	if nt.DataID, err = next(); err != nil {
		return nil, err
	}
	for _, ix := range nt.Indexes {
		if ix.State == catalog.StateBuilding {
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot %s %q while its index %q is being built", verb, t.Name, ix.Name)
		}
		if ix.ID, err = next(); err != nil {
			return nil, err
		}
	}
	return nt, nil
}

// sweepBatch is how many expired rows one atomic delete of the sweeper
// removes.
const sweepBatch = 256

// SweepExpired deletes the expired rows of every table with a TTL, with
// their index entries, in atomic batches conditional on the rows' versions
// (a row rewritten meanwhile is left for the next sweep). Queries never see
// expired rows whether or not they are swept (see optimizer/ttl.go); the
// sweep reclaims their space. On DynamoDB the store's own TTL does this at
// no write cost, so the engine runs the sweeper on exclusive stores only.
func (e *Executor) SweepExpired(ctx context.Context, cat *catalog.Catalog, now time.Time) (int, error) {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return 0, err
	}
	ec := e.newExecCtx(ctx, nil, RunOptions{})
	deleted := 0
	for _, t := range snap.Tables() {
		if t.TTL == nil || t.Rewrite != nil {
			continue
		}
		w := &writeSet{t: t}
		flush := func() error {
			if len(w.changes) == 0 {
				return nil
			}
			e.Gate.RLock()
			err := ec.commit(ctx, w, nil)
			e.Gate.RUnlock()
			var ce *conflictError
			switch {
			case errors.As(err, &ce):
				// A row changed since it was read: the next sweep decides.
			case err != nil:
				return err
			default:
				deleted += len(w.changes)
			}
			w = &writeSet{t: t}
			return nil
		}
		for sh := 0; sh < t.Shards; sh++ {
			it := e.Store.Scan(ctx, kv.ScanRequest{Partition: t.Partition(sh), Consistent: true})
			for it.Next() {
				row := make([]sqltypes.Value, len(t.Columns))
				item := it.Item()
				if err := t.DecodeRow(item.Attrs, row); err != nil {
					it.Close()
					return deleted, err
				}
				if !t.Expired(row, now) {
					continue
				}
				w.add(change{old: row, oldVersion: catalog.RowVersion(item.Attrs)})
				if len(w.changes) >= sweepBatch {
					if err := flush(); err != nil {
						it.Close()
						return deleted, err
					}
				}
			}
			err := it.Err()
			it.Close()
			if err != nil {
				return deleted, ClassifyError(err)
			}
		}
		if err := flush(); err != nil {
			return deleted, err
		}
	}
	return deleted, nil
}

// rekeyWhat names a change that moves every row (rekey) in messages.
func rekeyWhat(a ir.AlterAction) string {
	if a.Reshard != nil {
		return "ALTER TABLE that changes a table's shards"
	}
	return "ALTER TABLE that changes a table's primary key"
}

// alterView is ALTER VIEW (or ALTER TABLE) on a stored view: RENAME (its
// name, or one of its column names), SET SCHEMA, a column's SET/DROP
// DEFAULT, SET/RESET of its options. A view keeps its query as text, so
// one that other views or materialized views read is refused, as a table
// they read is (noTextDependents).
func (e *Executor) alterView(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, notice func(*pgerr.Error)) error {
	a := at.Actions[0]
	skipped := false
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		skipped = false
		v, ok := s.StoredView(at.Table)
		if !ok {
			if at.IfExists {
				skipped = true
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", at.Table)
		}
		// Renames are the only actions that change what a dependent's
		// text names.
		renames := a.Kind == parser.AlterRenameTable || a.Kind == parser.AlterRenameColumn
		if deps := s.DependentsClosure(v.Name); len(deps) > 0 && renames {
			return catalog.Change{}, pgerr.New(pgerr.FeatureNotSupported, "cannot rename view %s: %s %s reads it and keeps its query as text", v.Name, deps[0].Kind(), deps[0].Name).
				WithHint("Drop the view, rename, and create the view again.")
		}
		nv := *v
		nv.Columns = slices.Clone(v.Columns)
		nv.Defaults = slices.Clone(v.Defaults)
		var ch catalog.Change
		for _, a := range at.Actions {
			if err := alterViewAction(s, v, &nv, a.AlterAction, &ch); err != nil {
				return catalog.Change{}, err
			}
		}
		ch.PutViews = []*catalog.View{&nv}
		return ch, nil
	})
	if skipped {
		notice(pgerr.Notice("relation %q does not exist, skipping", at.Table))
		return nil
	}
	return err
}

// alterViewAction applies one action of ALTER VIEW to nv, the view v
// becomes.
func alterViewAction(s *catalog.Snapshot, v, nv *catalog.View, a parser.AlterAction, ch *catalog.Change) error {
	col := func() (int, error) {
		i := slices.Index(nv.Columns, a.Column)
		if i < 0 {
			return 0, missingColumn(a, v.Name)
		}
		if nv.Defaults == nil {
			nv.Defaults = make([]string, len(nv.Columns))
		}
		return i, nil
	}
	switch a.Kind {
	case parser.AlterSetDefault:
		i, err := col()
		if err != nil {
			return err
		}
		nv.Defaults[i] = a.Default
	case parser.AlterDropDefault:
		i, err := col()
		if err != nil {
			return err
		}
		nv.Defaults[i] = ""
		if !slices.ContainsFunc(nv.Defaults, func(d string) bool { return d != "" }) {
			nv.Defaults = nil
		}
	case parser.AlterSetOptions:
		nv.Options = nv.WithOptions(a.Options, a.OptionOrder, nil)
	case parser.AlterResetOptions:
		nv.Options = nv.WithOptions(nil, nil, a.Reset)
	}
	return renameViewAction(s, v, nv, a, ch)
}

// renameViewAction applies RENAME [COLUMN] and SET SCHEMA to nv.
func renameViewAction(s *catalog.Snapshot, v, nv *catalog.View, a parser.AlterAction, ch *catalog.Change) error {
	switch a.Kind {
	case parser.AlterRenameTable:
		if s.HasRelation(a.NewName) {
			if a.SetSchema {
				return errExistsInSchema(a.NewName)
			}
			return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", a.NewName)
		}
		nv.Name = a.NewName
		ch.DeleteViews = []string{v.Name}
	case parser.AlterRenameColumn:
		i := slices.Index(nv.Columns, a.Column)
		if i < 0 {
			return pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", a.Column)
		}
		if slices.Contains(nv.Columns, a.NewName) {
			return pgerr.New(pgerr.DuplicateColumn, "column %q of relation %q already exists", a.NewName, v.Name)
		}
		nv.Columns[i] = a.NewName
	}
	return nil
}
