package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Constraints in DDL: CREATE TABLE's UNIQUE, FOREIGN KEY and CHECK
// constraints (column and table forms), CREATE UNIQUE INDEX, and ALTER
// TABLE ... ADD | DROP | VALIDATE CONSTRAINT. Names are chosen as
// PostgreSQL chooses them: <table>_<columns>_key for a unique constraint,
// <table>_<columns>_fkey for a foreign key, <table>_<column>_check for a
// check reading one column and <table>_check otherwise, with a number
// appended while the name is taken.

// maxIdentifier is PostgreSQL's NAMEDATALEN - 1: longer generated names are
// cut, as PostgreSQL cuts them.
const maxIdentifier = 63

// constraintBuilder collects the constraints of one CREATE TABLE as the
// binder meets them, and turns them into the descriptor at the end.
type constraintBuilder struct {
	b      *Binder
	t      *catalog.Table
	unique []uniqueDef
	fks    []fkDef
	// excludes are the exclusion constraints: their names and their
	// indexes in parser.ConstraintSyntax.Excludes.
	excludes []excludeDef
}

type excludeDef struct {
	name string
	n    int
}

type uniqueDef struct {
	name     string
	cols     []string
	nnd      bool
	deferral string
}

type fkDef struct {
	name     string
	cols     []string
	ref      *ast.ReferenceDef
	deferral string
}

// column takes a column constraint of column col: UNIQUE or REFERENCES
// (CHECK text comes from the parser's Statement.Columns).
func (cb *constraintBuilder) column(col string, opt *ast.ColumnOption) {
	cs := cb.b.stmt.Constraints
	name := func(word string) string {
		if cs == nil || cs.ColumnNames[col] == nil {
			return ""
		}
		return cs.ColumnNames[col][word]
	}
	deferral := ""
	if cs != nil {
		deferral = cs.ColumnDeferral[col]
	}
	switch opt.Tp {
	case ast.ColumnOptionUniqKey:
		cb.unique = append(cb.unique, uniqueDef{name: name("unique"), cols: []string{col}, nnd: cs != nil && cs.ColumnNullsNotDistinct[col], deferral: deferral})
	case ast.ColumnOptionReference:
		cb.fks = append(cb.fks, fkDef{name: name("references"), cols: []string{col}, ref: opt.Refer, deferral: deferral})
	}
}

// tableConstraint takes the n-th table constraint (UNIQUE or FOREIGN KEY;
// CHECK text comes from Statement.Checks).
func (cb *constraintBuilder) tableConstraint(n int, c *ast.Constraint) error {
	cs := cb.b.stmt.Constraints
	deferral := ""
	if cs != nil {
		deferral = cs.TableDeferral[n]
	}
	switch c.Tp {
	case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
		u := uniqueDef{name: c.Name, nnd: cs != nil && cs.TableNullsNotDistinct[n], deferral: deferral}
		for _, k := range c.Keys {
			if k.Column == nil {
				return unsupported("expressions in UNIQUE constraints are not supported")
			}
			u.cols = append(u.cols, k.Column.Name.O)
		}
		cb.unique = append(cb.unique, u)
	case ast.ConstraintForeignKey:
		f := fkDef{name: c.Name, ref: c.Refer, deferral: deferral}
		for _, k := range c.Keys {
			f.cols = append(f.cols, k.Column.Name.O)
		}
		cb.fks = append(cb.fks, f)
	case ast.ConstraintCheck:
		if x := exclusionMarker(c); x >= 0 {
			cb.excludes = append(cb.excludes, excludeDef{name: c.Name, n: x})
		}
	default:
		return unsupported("table constraint is not supported")
	}
	return nil
}

// finish adds the collected constraints to the table, whose columns and
// primary key are complete: checks, then unique constraints (their
// indexes), then foreign keys (with the indexes they need to find
// referencing rows).
func (cb *constraintBuilder) finish() error {
	t := cb.t
	var checks []parser.NamedCheck
	for _, c := range t.Columns {
		if ext := cb.b.stmt.Columns[c.Name]; ext != nil {
			checks = append(checks, ext.Checks...)
		}
	}
	checks = append(checks, cb.b.stmt.Checks...)
	for _, c := range checks {
		for _, prev := range t.Checks {
			if c.Name != "" && prev.Name == c.Name {
				return pgerr.New(pgerr.DuplicateObject, "check constraint %q already exists", c.Name)
			}
		}
		ch, _, err := cb.b.newCheck(t, c)
		if err != nil {
			return err
		}
		t.Checks = append(t.Checks, ch)
	}
	for _, x := range cb.excludes {
		ix, err := cb.b.exclusionIndex(t, x.name, x.n)
		if err != nil {
			return err
		}
		ix.State = catalog.StatePublic // the table is empty
		t.Indexes = append(t.Indexes, ix)
	}
	for _, u := range cb.unique {
		ix, err := cb.b.uniqueIndex(t, u.name, u.cols, u.nnd, u.deferral)
		if err != nil {
			return err
		}
		ix.State = catalog.StatePublic // the table is empty
		t.Indexes = append(t.Indexes, ix)
	}
	for _, f := range cb.fks {
		fk, err := cb.b.newForeignKey(t, f.name, f.cols, f.ref)
		if err != nil {
			return err
		}
		setDeferral(fk, f.deferral)
		t.ForeignKeys = append(t.ForeignKeys, *fk)
		if ix := cb.b.referencingIndex(t, fk); ix != nil {
			ix.State = catalog.StatePublic
			t.Indexes = append(t.Indexes, ix)
		}
	}
	return nil
}

// chooseName picks a free name base_suffix, base_suffix1, ... as
// PostgreSQL's ChooseConstraintName does, cutting base so the name fits.
func chooseName(base, suffix string, taken func(string) bool) string {
	for n := 0; ; n++ {
		tail := "_" + suffix
		if n > 0 {
			tail += strconv.Itoa(n)
		}
		head := base
		if len(head)+len(tail) > maxIdentifier {
			head = head[:maxIdentifier-len(tail)]
		}
		if name := head + tail; !taken(name) {
			return name
		}
	}
}

// nameTaken reports whether a constraint or index of t, or (for names that
// become relations, as an index's does) any relation, is called name.
func (b *Binder) nameTaken(t *catalog.Table, relation bool) func(string) bool {
	return func(name string) bool {
		if t.HasConstraint(name) || t.Index(name) != nil {
			return true
		}
		if relation {
			if _, ix := b.snap.FindIndex(name); ix != nil || b.snap.HasRelation(name) || name == t.Name {
				return true
			}
		}
		return false
	}
}

// columnOrdinals resolves constraint column names; what names the
// constraint kind in the error for a missing one.
func columnOrdinals(t *catalog.Table, names []string, what string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		c := t.ColumnIndex(n)
		if c < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q named in key does not exist", n)
		}
		for _, prev := range out[:i] {
			if prev == c {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column %q appears twice in %s constraint", n, what)
			}
		}
		out[i] = c
	}
	return out, nil
}

// uniqueIndex builds the index of a UNIQUE constraint on cols of t (ID
// and state are set by the caller).
func (b *Binder) uniqueIndex(t *catalog.Table, name string, cols []string, nnd bool, deferral string) (*catalog.Index, error) {
	ords, err := columnOrdinals(t, cols, "unique")
	if err != nil {
		return nil, err
	}
	switch {
	case name == "":
		name = chooseName(t.BareName()+"_"+strings.Join(cols, "_"), "key", b.nameTaken(t, true))
	case t.Index(name) != nil || b.snap.HasRelation(name) || name == t.Name:
		return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	case b.nameTaken(t, true)(name):
		if _, ix := b.snap.FindIndex(name); ix != nil {
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
		}
		return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", name, t.Name)
	}
	ix := &catalog.Index{Name: name, Kind: catalog.KindBTree, Shards: t.Shards, Unique: true, NullsNotDistinct: nnd, Constraint: true,
		Deferrable: deferral != "", InitiallyDeferred: deferral == parser.InitiallyDeferred}
	for _, c := range ords {
		if err := catalog.CheckKeyType(t.Columns[c].Type, catalog.KindBTree); err != nil {
			return nil, err
		}
		ix.Columns = append(ix.Columns, catalog.KeyColumn{Column: c})
	}
	if ix.Deferrable {
		// Its check reads every entry of a value: placed by the value,
		// they are in one shard (one request on DynamoDB).
		ix.ShardColumns = len(ix.Columns)
	}
	return ix, nil
}

// newForeignKey resolves a FOREIGN KEY of t (cols, then REFERENCES ref)
// against the snapshot, or against t itself for a self-reference.
func (b *Binder) newForeignKey(t *catalog.Table, name string, cols []string, ref *ast.ReferenceDef) (*catalog.ForeignKey, error) {
	fk := &catalog.ForeignKey{RefTable: ref.Table.Name.O, OnDelete: fkAction(ref.OnDelete), OnUpdate: fkAction(ref.OnUpdate)}
	qualified := ref.Table.Schema.L != "" && ref.Table.Schema.L != catalog.PublicSchema
	if qualified {
		// A user schema's table, by its key (catalog/schemas.go).
		fk.RefTable = catalog.QualifiedKey(ref.Table.Schema.L, fk.RefTable)
	}
	switch ref.Match {
	case ast.MatchFull:
		fk.MatchFull = true
	case ast.MatchPartial:
		return nil, unsupported("MATCH PARTIAL not yet implemented")
	}
	for _, c := range cols {
		i := t.ColumnIndex(c)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q referenced in foreign key constraint does not exist", c)
		}
		fk.Columns = append(fk.Columns, i)
	}
	parent := t
	if fk.RefTable != t.Name {
		snap := b.snap
		if ref.Table.Schema.L == catalog.PublicSchema {
			snap = snap.Permanent() // public's relations by their bare keys
		}
		lookup := snap.Table
		if qualified {
			lookup = snap.Permanent().TableByKey
		}
		p, err := lookup(fk.RefTable)
		if err == nil {
			fk.RefTable = p.Name // its key
		}
		if err != nil {
			if _, isView := b.snap.StoredView(fk.RefTable); isView {
				return nil, pgerr.New(pgerr.WrongObjectType, "referenced relation %q is not a table", fk.RefTable)
			}
			return nil, err
		}
		if p.IsMatview() {
			return nil, pgerr.New(pgerr.WrongObjectType, "referenced relation %q is not a table", fk.RefTable)
		}
		parent = p
	}
	if parent.Temp != t.Temp {
		if t.Temp {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "constraints on temporary tables may reference only temporary tables")
		}
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "constraints on permanent tables may reference only permanent tables")
	}
	if len(ref.IndexPartSpecifications) == 0 {
		if parent.Columns[parent.PrimaryKey[0].Column].Hidden {
			return nil, pgerr.New(pgerr.InvalidForeignKey, "there is no primary key for referenced table %q", parent.Name)
		}
		for _, k := range parent.PrimaryKey {
			fk.RefColumns = append(fk.RefColumns, k.Column)
		}
	} else {
		for _, part := range ref.IndexPartSpecifications {
			i := parent.ColumnIndex(part.Column.Name.O)
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q referenced in foreign key constraint does not exist", part.Column.Name.O)
			}
			fk.RefColumns = append(fk.RefColumns, i)
		}
	}
	if len(fk.RefColumns) != len(fk.Columns) {
		return nil, pgerr.New(pgerr.InvalidForeignKey, "number of referencing and referenced columns for foreign key disagree")
	}
	if _, _, ok := parent.KeyFor(fk.RefColumns); !ok {
		if parent.DeferrableKeyFor(fk.RefColumns) {
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot use a deferrable unique constraint for referenced table %q", parent.Name)
		}
		return nil, pgerr.New(pgerr.InvalidForeignKey, "there is no unique constraint matching given keys for referenced table %q", parent.Name)
	}
	if name == "" {
		var names []string
		for _, c := range fk.Columns {
			names = append(names, t.Columns[c].Name)
		}
		name = chooseName(t.BareName()+"_"+strings.Join(names, "_"), "fkey", b.nameTaken(t, false))
	} else if b.nameTaken(t, false)(name) {
		return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", name, t.Name)
	}
	fk.Name = name
	for i, c := range fk.Columns {
		ct, pt := t.Columns[c].Type, parent.Columns[fk.RefColumns[i]].Type
		if ct.Kind() != pt.Kind() {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "foreign key constraint %q cannot be implemented", name).
				WithDetail("Key columns %q and %q are of incompatible types: %s and %s.", t.Columns[c].Name, parent.Columns[fk.RefColumns[i]].Name, ct, pt)
		}
	}
	for _, a := range []catalog.FKAction{fk.OnDelete, fk.OnUpdate} {
		if a != catalog.SetNull && a != catalog.SetDefault {
			continue
		}
		for _, c := range fk.Columns {
			if t.IsPKColumn(c) && a == catalog.SetNull {
				// PostgreSQL accepts this and fails at the first delete;
				// zproxy says so at once.
				return nil, pgerr.New(pgerr.InvalidForeignKey, "ON DELETE/UPDATE SET NULL of foreign key %q would set primary-key column %q to null", name, t.Columns[c].Name)
			}
		}
	}
	return fk, nil
}

func fkAction(opt any) catalog.FKAction {
	var r ast.ReferOptionType
	switch o := opt.(type) {
	case *ast.OnDeleteOpt:
		if o != nil {
			r = o.ReferOpt
		}
	case *ast.OnUpdateOpt:
		if o != nil {
			r = o.ReferOpt
		}
	}
	switch r {
	case ast.ReferOptionRestrict:
		return catalog.Restrict
	case ast.ReferOptionCascade:
		return catalog.Cascade
	case ast.ReferOptionSetNull:
		return catalog.SetNull
	case ast.ReferOptionSetDefault:
		return catalog.SetDefault
	}
	return catalog.NoAction
}

// referencingIndex returns the index a foreign key needs so that deleting
// or rekeying a referenced row finds the rows referencing it with a range
// read: none when the primary key or an index of t already leads with the
// key's columns (in any order); else a btree index on them, named as
// CockroachDB names its automatic foreign-key indexes
// (<table>_auto_index_<constraint>). ID and state are set by the caller.
func (b *Binder) referencingIndex(t *catalog.Table, fk *catalog.ForeignKey) *catalog.Index {
	if catalog.LeadsWith(t.PrimaryKey, fk.Columns) {
		return nil
	}
	for _, ix := range t.Indexes {
		if ix.Kind == catalog.KindBTree && !ix.Partial() && catalog.LeadsWith(ix.Columns, fk.Columns) {
			return nil
		}
	}
	name := t.Name + "_auto_index_" + fk.Name
	if b.nameTaken(t, true)(name) {
		name = chooseName(name, "1", b.nameTaken(t, true))
	}
	ix := &catalog.Index{Name: name, Kind: catalog.KindBTree, Shards: t.Shards, Auto: true}
	for _, c := range fk.Columns {
		ix.Columns = append(ix.Columns, catalog.KeyColumn{Column: c})
	}
	return ix
}

// newCheck makes a CHECK constraint of t from its text, binding it to
// validate it (and to return it bound).
func (b *Binder) newCheck(t *catalog.Table, c parser.NamedCheck) (catalog.Check, ir.Expr, error) {
	name, sql := c.Name, c.SQL
	e, cols, err := b.bindCheckAt(t, sql, c.Offset)
	if err != nil {
		return catalog.Check{}, nil, err
	}
	if name == "" {
		_, base := catalog.SplitName(t.Name) // named bare, as its table
		if len(cols) == 1 {
			base += "_" + t.Columns[cols[0]].Name
		}
		name = chooseName(base, "check", b.nameTaken(t, false))
	} else if b.nameTaken(t, false)(name) {
		return catalog.Check{}, nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", name, t.Name)
	}
	return catalog.Check{Name: name, SQL: sql}, e, nil
}

// bindCheck binds a check expression over a row of t; it returns the
// expression and the distinct columns it reads. A check may call any
// function, but not read other rows: subqueries, aggregates, window
// functions and parameters are refused as PostgreSQL refuses them.
func (b *Binder) bindCheck(t *catalog.Table, sql string) (ir.Expr, []int, error) {
	return b.bindCheckAt(t, sql, 0)
}

// bindCheckAt is bindCheck of a check the client wrote at byte offset of
// the statement's query string (parser.NamedCheck.Offset; 0 for a
// stored one): its errors point there.
func (b *Binder) bindCheckAt(t *catalog.Table, sql string, offset int) (ir.Expr, []int, error) {
	sub, node, err := b.parseStoredExprAt(sql, "", offset)
	if err != nil {
		return nil, nil, err
	}
	sc := &scope{items: []*fromItem{tableItem(t, t.Name, 0)}}
	e, err := sub.bindBool(sc, node, "CHECK")
	if pe, ok := err.(*pgerr.Error); ok && offset == 0 {
		// A position in the check's own text means nothing to the
		// client.
		pe.WithPosition(0)
	}
	if err != nil {
		return nil, nil, err
	}
	var cols []int
	seen := map[int]bool{}
	ir.Walk(e, func(x ir.Expr) {
		if c, ok := x.(*ir.ColRef); ok && !seen[c.Index] {
			seen[c.Index] = true
			cols = append(cols, c.Index)
		}
	})
	return e, cols, nil
}

// parseStoredExpr parses an expression a schema object keeps as text (a
// CHECK, a generated column, an index expression or predicate), refusing
// parameters and what checkRefuser refuses there (where, as it names it),
// and returns it with the binder to bind it with.
func (b *Binder) parseStoredExpr(sql, where string) (*Binder, ast.ExprNode, error) {
	return b.parseStoredExprAt(sql, where, 0)
}

// parseStoredExprAt is parseStoredExpr of an expression the client wrote
// at byte offset (> 0) of the statement's query string, whose errors
// point into the client's text (0: a stored one, whose errors point into
// its own).
func (b *Binder) parseStoredExprAt(sql, where string, offset int) (*Binder, ast.ExprNode, error) {
	stmt, node, err := parser.ParseExpression("(" + sql + ")")
	if err != nil {
		return nil, nil, err
	}
	within := offset > 0 && b.stmt != nil
	if within {
		stmt.Within(b.stmt, offset-len("("))
	}
	if stmt.NumParams > 0 {
		return nil, nil, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $1")
	}
	var refused error
	refuser := &checkRefuser{err: &refused, where: where}
	node.Accept(refuser)
	if refused != nil {
		if pe, ok := refused.(*pgerr.Error); ok && refuser.at != nil && within {
			// At the call PostgreSQL's parser refuses there.
			refused = pe.WithPosition(stmt.Position(refuser.at.OriginTextPosition()))
		}
		return nil, nil, refused
	}
	snap := b.snap.IgnoringUsage()
	if err := qualifyStored(snap, node); err != nil {
		return nil, nil, err
	}
	return &Binder{snap: snap, stmt: stmt, loc: b.loc, style: b.style}, node, nil
}

// checkRefuser finds what an expression a table keeps may not contain: a
// CHECK constraint's or a generated column's (where names it in
// PostgreSQL's messages: "check constraint", "column generation
// expression"; PostgreSQL's plural is the same with an s).
type checkRefuser struct {
	err   *error
	where string
	// at is the call or subquery refused, where the error points.
	at ast.Node
}

func (v *checkRefuser) Enter(n ast.Node) (ast.Node, bool) {
	if *v.err != nil {
		return n, true
	}
	where := v.where
	if where == "" {
		where = "check constraint"
	}
	switch x := n.(type) {
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
		*v.err, v.at = pgerr.New(pgerr.FeatureNotSupported, "cannot use subquery in %s", where), n
	case *ast.AggregateFuncExpr:
		*v.err, v.at = pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in %ss", where), x
	case *ast.WindowFuncExpr:
		*v.err, v.at = pgerr.New(pgerr.WindowingError, "window functions are not allowed in %ss", where), x
	case *ast.FuncCallExpr:
		if x.FnName.L == "generate_series" || x.FnName.L == "unnest" {
			*v.err, v.at = pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in %ss", where), x
		}
	}
	return n, *v.err != nil
}

func (v *checkRefuser) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// bindUniqueIndex makes CREATE UNIQUE INDEX's index unique: btree only
// (a Z-order address is no key), as PostgreSQL's hash and gist refuse.
func bindUniqueIndex(ix *catalog.Index, nnd bool) error {
	if ix.Kind != catalog.KindBTree {
		return pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support unique indexes", string(ix.Kind))
	}
	ix.Unique, ix.NullsNotDistinct = true, nnd
	return nil
}

// ---- ALTER TABLE ----

// bindAlterConstraint binds an ALTER TABLE whose one action adds, drops,
// validates or renames a constraint.
func (b *Binder) bindAlterConstraint(n *ast.AlterTableStmt) (ir.Statement, error) {
	if len(n.Specs) != 1 {
		return nil, unsupported("ALTER TABLE with several actions is not supported: run them one at a time")
	}
	if s := n.Table.Schema.L; s != "" && s != "public" {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", n.Table.Schema.O+"."+n.Table.Name.O)
	}
	t, err := b.snap.Table(tableKey(n.Table))
	if err != nil {
		if cs := b.stmt.Constraints; cs != nil && cs.TableIfExists && pgerr.CodeOf(err) == pgerr.UndefinedTable {
			return &ir.AlterTable{Table: n.Table.Name.O, IfExists: true}, nil // the executor's NOTICE
		}
		return nil, err
	}
	if err := b.partitionConstraint(t, n.Specs[0]); err != nil {
		return nil, err
	}
	if err := writable(t); err != nil {
		return nil, err
	}
	var syn parser.AlterSpecSyntax
	if cs := b.stmt.Constraints; cs != nil && len(cs.Specs) > 0 {
		syn = cs.Specs[0]
	}
	spec := n.Specs[0]
	switch spec.Tp {
	case ast.AlterTableAddConstraint:
		return b.bindAddConstraint(t, spec.Constraint, syn)
	case ast.AlterTableRenameIndex:
		if syn.RenameConstraint {
			return &ir.RenameConstraint{Table: t.Name, From: spec.FromKey.O, To: spec.ToKey.O}, nil
		}
	case ast.AlterTableDropCheck:
		return &ir.DropConstraint{Table: t.Name, Name: spec.Constraint.Name, IfExists: syn.IfExists, Cascade: syn.Cascade}, nil
	case ast.AlterTableAlterCheck:
		if !syn.Validate {
			return nil, unsupported("ALTER CONSTRAINT is not supported")
		}
		v := &ir.ValidateConstraint{Table: t.Name, Name: spec.Constraint.Name}
		for _, c := range t.Checks {
			if c.Name == v.Name {
				if v.CheckExpr, _, err = b.bindCheck(t, c.SQL); err != nil {
					return nil, err
				}
			}
		}
		return v, nil
	}
	return nil, unsupported("this ALTER TABLE action is not supported")
}

func (b *Binder) bindAddConstraint(t *catalog.Table, c *ast.Constraint, syn parser.AlterSpecSyntax) (ir.Statement, error) {
	add := &ir.AddConstraint{Table: t.Name, NotValid: syn.NotValid}
	switch c.Tp {
	case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
		if syn.NotValid {
			return nil, unsupported("UNIQUE constraints cannot be marked NOT VALID")
		}
		var cols []string
		for _, k := range c.Keys {
			if k.Column == nil {
				return nil, unsupported("expressions in UNIQUE constraints are not supported")
			}
			cols = append(cols, k.Column.Name.O)
		}
		ix, err := b.uniqueIndex(t, c.Name, cols, syn.NullsNotDistinct, syn.Deferral)
		if err != nil {
			return nil, err
		}
		add.Unique = ix
		if t.IsPartitioned() {
			// Each partition's copy enforces it; with the partition key
			// among its columns (partitionIndexes checks), uniqueness in
			// each partition is uniqueness in the table.
			if ix.Deferrable {
				return nil, unsupported("DEFERRABLE unique constraints on a partitioned table are not supported")
			}
			ci := &ir.CreateIndex{Table: t.Name, Index: ix}
			if err := b.partitionIndexes(t, ci); err != nil {
				return nil, err
			}
			if !b.onlyPartitioned(t) {
				add.UniquePartitions = ci.Partitions
			}
		}
	case ast.ConstraintForeignKey:
		var cols []string
		for _, k := range c.Keys {
			cols = append(cols, k.Column.Name.O)
		}
		fk, err := b.newForeignKey(t, c.Name, cols, c.Refer)
		if err != nil {
			return nil, err
		}
		setDeferral(fk, syn.Deferral)
		add.FK, add.AutoIndex = fk, b.referencingIndex(t, fk)
		if add.AutoIndex != nil && t.IsPartitioned() {
			// Each partition's copy finds its referencing rows.
			ci := &ir.CreateIndex{Table: t.Name, Index: add.AutoIndex}
			if err := b.partitionIndexes(t, ci); err != nil {
				return nil, err
			}
			add.AutoIndexPartitions = ci.Partitions
		}
	case ast.ConstraintCheck:
		if x := exclusionMarker(c); x >= 0 {
			if syn.NotValid {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "EXCLUDE constraints cannot be marked NOT VALID")
			}
			ix, err := b.exclusionIndex(t, c.Name, x)
			if err != nil {
				return nil, err
			}
			bx, err := b.bindExclusion(t, ix)
			if err != nil {
				return nil, err
			}
			add.Exclusion = &bx
			break
		}
		if len(b.stmt.Checks) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"check\"")
		}
		// (At no offset: PostgreSQL's ALTER TABLE binds the check apart
		// from the statement's text, and its errors have no position.)
		ch, e, err := b.newCheck(t, parser.NamedCheck{Name: c.Name, SQL: b.stmt.Checks[0].SQL})
		if err != nil {
			return nil, err
		}
		add.Check, add.CheckExpr = &ch, e
	case ast.ConstraintPrimaryKey:
		return nil, unsupported("ALTER TABLE ... ADD PRIMARY KEY is not supported")
	default:
		return nil, unsupported("this constraint type is not supported")
	}
	return add, nil
}

// setDeferral records a foreign key's DEFERRABLE clause.
func setDeferral(fk *catalog.ForeignKey, deferral string) {
	fk.Deferrable = deferral != ""
	fk.InitiallyDeferred = deferral == parser.InitiallyDeferred
}

func (b *Binder) bindSetConstraints(va *ast.VariableAssignment) (ir.Statement, error) {
	v, ok := va.Value.(*driver.ValueExpr)
	if !ok {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in SET CONSTRAINTS")
	}
	names, mode, _ := strings.Cut(v.GetString(), " ")
	st := &ir.SetConstraints{Immediate: mode == "immediate"}
	if names == "all" {
		return st, nil
	}
	for _, name := range strings.Split(names, ",") {
		found, err := constraintTriggerNamed(b.snap, name)
		if err != nil {
			return nil, err
		}
		for _, t := range b.snap.Tables() {
			for _, c := range t.Constraints() {
				if c.Name != name {
					continue
				}
				found = true
				deferrable := c.FK != nil && c.FK.Deferrable || c.Index != nil && (c.Index.Deferrable || c.Index.Exclusion != nil && c.Index.Exclusion.Deferrable)
				if !deferrable {
					return nil, pgerr.New(pgerr.WrongObjectType, "constraint %q is not deferrable", name)
				}
			}
		}
		if !found {
			return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q does not exist", name)
		}
		st.Names = append(st.Names, name)
	}
	return st, nil
}
