package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Table inheritance (CREATE TABLE c (...) INHERITS (p)), as far as zproxy
// builds it: c is an ordinary table whose columns start with p's (with
// their NOT NULLs, defaults and CHECK constraints: bound as LIKE p
// INCLUDING DEFAULTS CONSTRAINTS before c's own) and whose Parents hold
// p's ID (pg_inherits). A read of p is p's rows and those of every table
// inheriting from it, each with p's columns (SELECT ... FROM ONLY p reads
// p's alone); writes to c are writes to c. UPDATE and DELETE of p are
// also those of every table inheriting from it (ir.Update.Heirs): the
// statement is bound once more for each, over that table's rows with p's
// columns alone seen in them, tableoid the table's OID; UPDATE ONLY p and
// DELETE FROM ONLY p change p's own rows. What would change the columns
// of either is refused (0A000).

// inheritParents resolves CREATE TABLE ... INHERITS (parent, ...) and
// lends the parents' columns to the new table through LIKE clauses
// before its own columns, merged by name (likeColumns, inheritedColumn).
func (b *Binder) inheritParents(n *ast.CreateTableStmt) ([]*catalog.Table, error) {
	ps := b.stmt.Partition
	if ps == nil || len(ps.Inherits) == 0 || ps.Of != "" {
		return nil, nil
	}
	if ps.Strategy != "" {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot create partitioned table as inheritance child")
	}
	var parents []*catalog.Table
	var likes []parser.LikeClause
	for _, q := range ps.Inherits {
		parent, err := b.resolveTable(q.Schema, q.Name, q.Pos)
		if err != nil {
			return nil, err
		}
		switch {
		case parent.IsPartitioned():
			return nil, pgerr.New(pgerr.WrongObjectType, "cannot inherit from partitioned table %q", parent.BareName())
		case parent.IsPartition():
			return nil, pgerr.New(pgerr.WrongObjectType, "cannot inherit from partition %q", parent.BareName())
		case parent.Matview != nil:
			return nil, pgerr.New(pgerr.WrongObjectType, "inherited relation %q is not a table or foreign table", parent.BareName())
		case parent.Temp && !b.stmt.Temp:
			return nil, pgerr.New(pgerr.WrongObjectType, "cannot inherit from temporary relation %q", parent.BareName())
		case slices.Contains(parents, parent):
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q would be inherited from more than once", parent.BareName())
		}
		parents = append(parents, parent)
		likes = append(likes, parser.LikeClause{Schema: q.Schema, Table: q.Name, Position: q.Pos, Inherit: true,
			Including: map[string]bool{"defaults": true, "constraints": true}})
	}
	st := *b.stmt
	st.Like = append(likes, b.stmt.Like...)
	b.stmt = &st
	return parents, nil
}

// inheritedColumn merges column c, of an INHERITS parent or the table's
// own definition (own), into t's column i of the same name: the types
// must be the same (42804), a NOT NULL of either holds. PostgreSQL says
// so in a NOTICE.
func (b *Binder) inheritedColumn(t *catalog.Table, i int, c catalog.Column, own bool) error {
	have := t.Columns[i]
	if !have.Type.Same(c.Type) {
		msg := "inherited column %q has a type conflict"
		if own {
			msg = "column %q has a type conflict"
		}
		return pgerr.New(pgerr.DatatypeMismatch, msg, c.Name).WithDetail("%s versus %s", have.Type, c.Type)
	}
	t.Columns[i].NotNull = have.NotNull || c.NotNull
	msg := "merging multiple inherited definitions of column %q"
	if own {
		msg = "merging column %q with inherited definition"
	}
	b.createNotices = append(b.createNotices, pgerr.Notice(msg, c.Name))
	return nil
}

// inheritedScan reads t and every table inheriting from it: their rows
// appended (UNION ALL), each with t's columns (a child's are found by
// name; t's hidden row id is NULL in a child's rows).
func (b *Binder) inheritedScan(t *catalog.Table, alias string, heirs []*catalog.Table) ir.Rel {
	own := ir.NewScan(t, alias)
	cols := own.Columns()
	out := b.withTableOID(own, t)
	for _, c := range heirs {
		b.depends(c.Name, c.Temp)
		scan := ir.NewScan(c, alias)
		exprs := make([]ir.Expr, len(cols))
		for i, pc := range t.Columns {
			j := c.ColumnIndex(pc.Name)
			if pc.Hidden || j < 0 {
				exprs[i] = &ir.Const{V: sqltypes.Null, Typ: pc.Type}
				continue
			}
			exprs[i] = &ir.ColRef{Index: j, Name: pc.Name, Typ: pc.Type}
		}
		var r ir.Rel = &ir.Project{Input: scan, Exprs: exprs, Cols: cols}
		r = b.withTableOID(r, c)
		out = &ir.SetOp{Op: ir.Union, All: true, Left: out, Right: r, Cols: out.Columns()}
	}
	return out
}

// writeHeirs are the tables an UPDATE or DELETE of t also changes: those
// inheriting from it, none for UPDATE ONLY and DELETE FROM ONLY.
func (b *Binder) writeHeirs(t *catalog.Table) []*catalog.Table {
	if b.stmt.TargetOnly {
		return nil
	}
	heirs := b.snap.Inheritors(t)
	for _, h := range heirs {
		b.depends(h.Name, h.Temp)
	}
	return heirs
}

// heirColumns are the columns of heir's rows as a write of parent sees
// them (cols, heir's own): those parent has, and the rest hidden and
// nameless, so neither a name nor * finds them; order is the order *
// lists them in, parent's (a second parent's columns need not come in
// its order in the heir).
func heirColumns(heir, parent *catalog.Table, cols []ir.Column) (out []ir.Column, order []int) {
	out = slices.Clone(cols)
	for _, pc := range parent.Columns {
		if j := heir.ColumnIndex(pc.Name); j >= 0 && !pc.Hidden {
			order = append(order, j)
		}
	}
	for i, c := range heir.Columns {
		if j := parent.ColumnIndex(c.Name); j < 0 || parent.Columns[j].Hidden || c.Hidden {
			out[i].Name, out[i].Hidden = "", true
			order = append(order, i)
		}
	}
	return out, order
}

// inTxn is c, made to run the write in a transaction of its own (the
// writes of a table and its heirs commit together).
func inTxn(c *ir.Constraints) *ir.Constraints {
	if c == nil {
		c = &ir.Constraints{Tables: map[string]*ir.TableConstraints{}}
	}
	c.Txn = true
	return c
}

// targetTableOID gives it, the FROM item of a write's target t, the
// system column tableoid when the statement names it: t's OID (a
// binding of an UPDATE or DELETE reads the rows of one table, inherit.go)
// or, of a partitioned t, the OID of the leaf the row routes to.
func (b *Binder) targetTableOID(it *fromItem, t *catalog.Table) {
	if !b.wantsTableOID() {
		return
	}
	var e ir.Expr = tableOIDConst(t)
	if ps := b.snap.PartitionSet(t); ps != nil {
		oids := map[uint64]sqltypes.Value{}
		for _, leaf := range ps.Leaves() {
			oids[leaf.ID] = sqltypes.NewOID(pgcatalog.ObjectOID(leaf.ID, 0))
		}
		e = ir.NewPartitionOID(ps, it.offset, oids)
	}
	it.system = map[string]ir.Expr{tableOIDColumn.Name: e}
}

// tableOIDConst is the value of tableoid in the rows of table t.
func tableOIDConst(t *catalog.Table) ir.Expr {
	return &ir.Const{V: sqltypes.NewOID(pgcatalog.ObjectOID(t.ID, 0)), Typ: sqltypes.TypeOid}
}

// tableOIDColumn is the system column tableoid: the OID of the table a
// row is stored in (a partition's, a child's).
var tableOIDColumn = ir.Column{Name: "tableoid", Type: sqltypes.TypeOid, Col: -1, Hidden: true}

// wantsTableOID reports whether the statement names tableoid, so the
// stored tables it reads carry the column (reads that do not name it
// keep their plain scans).
func (b *Binder) wantsTableOID() bool {
	return b.stmt != nil && strings.Contains(strings.ToLower(b.stmt.Text), "tableoid")
}

// withTableOID appends to r, rows of table t, the hidden column
// tableoid when the statement names it.
func (b *Binder) withTableOID(r ir.Rel, t *catalog.Table) ir.Rel {
	if !b.wantsTableOID() {
		return r
	}
	cols := r.Columns()
	exprs := make([]ir.Expr, len(cols), len(cols)+1)
	for i, c := range cols {
		exprs[i] = &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}
	}
	exprs = append(exprs, tableOIDConst(t))
	return &ir.Project{Input: r, Exprs: exprs, Cols: append(cols[:len(cols):len(cols)], tableOIDColumn)}
}

// inheritanceAlter refuses an ALTER TABLE action on a table of an
// inheritance tree: zproxy does not carry column or constraint changes
// through one.
func inheritanceAlter(snap *catalog.Snapshot, t *catalog.Table, action string) error {
	if !t.Inherits() && len(snap.Inheritors(t)) == 0 {
		return nil
	}
	return unsupported("ALTER TABLE (%s) of a table in an inheritance tree is not supported", strings.ReplaceAll(action, "_", " "))
}
