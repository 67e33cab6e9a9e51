package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// CREATE TABLE ... PARTITION BY makes a partitioned table and CREATE
// TABLE ... PARTITION OF one of its partitions (catalog/partition.go):
// the partition takes its parent's columns, defaults, CHECK constraints,
// primary key and indexes (as LIKE ... INCLUDING those would), and its
// bound is checked against its siblings' as PostgreSQL checks it.

// partitionParent resolves the parent of CREATE TABLE ... PARTITION OF
// and lends its columns to the new table through a LIKE clause.
func (b *Binder) partitionParent() (*catalog.Table, error) {
	ps := b.stmt.Partition
	if ps == nil || ps.Of == "" {
		return nil, nil
	}
	if len(ps.Inherits) > 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"INHERITS\"")
	}
	parent, err := b.resolveTable(ps.OfSchema, ps.Of, ps.OfPos)
	if err != nil {
		return nil, err
	}
	if !parent.IsPartitioned() {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "%q is not partitioned", ps.Of)
	}
	// On a copy of the statement: a statement may be bound again (a
	// catalog change meanwhile), and must not gain a second clause.
	st := *b.stmt
	st.Like = append([]parser.LikeClause{{Schema: ps.OfSchema, Table: ps.Of, Position: ps.OfPos, Partition: true,
		Including: map[string]bool{"defaults": true, "constraints": true, "indexes": true}}}, b.stmt.Like...)
	b.stmt = &st
	return parent, nil
}

// partitionColumn finds column name of CREATE TABLE ... PARTITION OF
// (parent's columns are t's, the definitions before it earlier) in t: a
// partition's list names its parent's columns to give them options, once
// each, and may not make one generated or an identity column.
func (b *Binder) partitionColumn(t *catalog.Table, name string, earlier []*ast.ColumnDef) (int, error) {
	i := t.ColumnIndex(name)
	if i < 0 || t.Columns[i].Hidden {
		return -1, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
	}
	for _, cd := range earlier {
		if cd.Name.Name.O == name {
			return -1, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", name)
		}
	}
	if ext := b.stmt.Columns[name]; ext != nil {
		if ext.Generated != "" {
			return -1, unsupported("generated columns are not supported on partitions")
		}
		if ext.Identity != nil {
			return -1, unsupported("identity columns are not supported on partitions")
		}
	}
	return i, nil
}

// mergePartitionCheck merges the parent's CHECK ch into the partition
// t's own of the same name, as PostgreSQL's MergeWithExistingConstraint
// does: the same expression (spelling aside) merges, with a NOTICE;
// another, or another kind of constraint, is 42710.
func (b *Binder) mergePartitionCheck(parent *catalog.Table, ch catalog.Check, t *catalog.Table) error {
	i := slices.IndexFunc(t.Checks, func(c catalog.Check) bool { return c.Name == ch.Name })
	same := false
	if i >= 0 {
		var err error
		if same, err = b.sameCheck(parent, ch.SQL, t, t.Checks[i].SQL); err != nil {
			return err
		}
	}
	if !same {
		return pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", ch.Name, t.BareName())
	}
	b.createNotices = append(b.createNotices, pgerr.Notice("merging constraint %q with inherited definition", ch.Name))
	return nil
}

// resolveTable finds a stored table by its possibly qualified name.
func (b *Binder) resolveTable(schema, name string, pos int) (*catalog.Table, error) {
	snap, tempOnly := b.snapFor(schema)
	key := name
	if schema != "" && schema != catalog.PublicSchema && !tempOnly {
		if !b.snap.HasSchema(schema) {
			return nil, errNoSchema(schema, pos)
		}
		key = catalog.QualifiedKey(schema, name)
	}
	t, err := snap.Table(key)
	if err != nil || tempOnly && !t.Temp || t.Virtual != nil {
		shown := name
		if schema != "" {
			shown = schema + "." + name
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", shown).WithPosition(pos)
	}
	return t, nil
}

// errNoSchema is 3F000 for a relation named in a schema that does not
// exist, as PostgreSQL reports it.
func errNoSchema(schema string, pos int) error {
	return pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema).WithPosition(pos)
}

// bindPartitioning applies CREATE TABLE's PARTITION BY and PARTITION OF
// to t, whose columns, keys and indexes are complete; parent is the
// table PARTITION OF names (nil without the clause).
func (b *Binder) bindPartitioning(t *catalog.Table, parent *catalog.Table) error {
	ps := b.stmt.Partition
	if ps == nil {
		return nil
	}
	if ps.Strategy != "" {
		if err := b.partitionKey(t, ps); err != nil {
			return err
		}
	}
	if parent != nil {
		bound, err := b.partitionBound(t, parent, ps.Bound)
		if err != nil {
			return err
		}
		t.Parents, t.Bound = []uint64{parent.ID}, bound
	}
	return nil
}

// partitionKey checks PARTITION BY's key and makes t a partitioned
// table.
func (b *Binder) partitionKey(t *catalog.Table, ps *parser.PartitionSyntax) error {
	if t.Temp && !b.stmt.Temp {
		return unsupported("temporary partitioned tables are not supported")
	}
	if t.TTL != nil {
		return unsupported("row expiry (ttl) on a partitioned table is not supported")
	}
	p := &catalog.Partitioning{Strategy: ps.Strategy}
	if ps.Strategy == "list" && len(ps.KeyColumns) > 1 {
		return pgerr.New(pgerr.InvalidObjectDefinition, "cannot use \"list\" partition strategy with more than one column")
	}
	for k, name := range ps.KeyColumns {
		i, typ := -1, sqltypes.Type{}
		text := ""
		if k < len(ps.KeyExprs) && ps.KeyExprs[k].SQL != "" {
			e, err := b.bindPartitionExpr(t, ps.KeyExprs[k].SQL)
			if err != nil {
				return err
			}
			if cr, ok := e.(*ir.ColRef); ok {
				// An expression that is a column reference is the column,
				// as PostgreSQL takes PARTITION BY RANGE ((a)).
				i, typ = cr.Index, t.Columns[cr.Index].Type
			} else {
				typ = e.Type()
				if typ.ID == sqltypes.Unknown {
					if e, err = b.coerceTo(e, sqltypes.TypeText, false); err != nil {
						return err
					}
					typ = sqltypes.TypeText
				}
				text = b.storedPartitionText(t, e, ps.KeyExprs[k].SQL)
				for _, c := range ir.Columns(e) {
					if !slices.Contains(p.ExprColumns, c) {
						p.ExprColumns = append(p.ExprColumns, c)
					}
				}
			}
		} else {
			if systemColumns[name] {
				return pgerr.New(pgerr.InvalidObjectDefinition, "cannot use system column %q in partition key", name).WithPosition(ps.KeyPos)
			}
			i = t.ColumnIndex(name)
			if i < 0 || t.Columns[i].Hidden {
				return pgerr.New(pgerr.UndefinedColumn, "column %q named in partition key does not exist", name).WithPosition(ps.KeyPos)
			}
			typ = t.Columns[i].Type
		}
		if ps.Strategy == "hash" && !catalog.HashPartitionable(typ) {
			return unsupported("hash partitioning by a key of type %s is not supported", typ)
		}
		if err := catalog.CheckKeyEncodable(typ); err != nil {
			return err
		}
		p.Columns = append(p.Columns, i)
		p.Exprs = append(p.Exprs, text)
		p.ExprTypes = append(p.ExprTypes, typ)
	}
	if !p.HasExprs() {
		p.Exprs, p.ExprTypes = nil, nil
	}
	t.Partitioning = p
	return checkUniqueKeys(t)
}

// checkUniqueKeys refuses a primary key or unique constraint of a
// partitioned table that lacks a partition key column: a partition can
// only enforce uniqueness within itself.
func checkUniqueKeys(t *catalog.Table) error {
	if t.Partitioning == nil {
		return nil
	}
	lacks := func(kind string, cols []int) error {
		for _, c := range t.Partitioning.Columns {
			if c < 0 {
				// PostgreSQL cannot prove uniqueness of an expression's
				// value (and calls a unique index UNIQUE here).
				kind = strings.TrimSuffix(kind, " INDEX")
				return pgerr.New(pgerr.FeatureNotSupported, "unsupported %s constraint with partition key definition", kind).
					WithDetail("%s constraints cannot be used when partition keys include expressions.", kind)
			}
			if !slices.Contains(cols, c) {
				return pgerr.New(pgerr.FeatureNotSupported, "unique constraint on partitioned table must include all partitioning columns").
					WithDetail("%s constraint on table %q lacks column %q which is part of the partition key.", kind, t.Name, t.Columns[c].Name)
			}
		}
		return nil
	}
	if hiddenKey := t.RowIDKeyed(); !hiddenKey {
		var cols []int
		for _, k := range t.PrimaryKey {
			cols = append(cols, k.Column)
		}
		if err := lacks("PRIMARY KEY", cols); err != nil {
			return err
		}
	}
	for _, ix := range t.Indexes {
		if !ix.Unique {
			continue
		}
		var cols []int
		for _, k := range ix.Columns {
			cols = append(cols, k.Column)
		}
		kind := "UNIQUE"
		if !ix.Constraint {
			kind = "UNIQUE INDEX"
		}
		if err := lacks(kind, cols); err != nil {
			return err
		}
	}
	return nil
}

// partitionBound binds a partition's bound against its parent's key and
// checks it against the bounds of the parent's other partitions.
func (b *Binder) partitionBound(t, parent *catalog.Table, bs *parser.BoundSyntax) (*catalog.PartitionBound, error) {
	p := parent.Partitioning
	if bs.Default {
		if p.Strategy == "hash" {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "a hash-partitioned table may not have a default partition")
		}
		for _, c := range b.snap.Children(parent) {
			if c.Bound != nil && c.Bound.Default {
				return nil, pgerr.New(pgerr.InvalidObjectDefinition, "partition %q conflicts with existing default partition %q", t.Name, c.Name).WithPosition(bs.Pos)
			}
		}
		return &catalog.PartitionBound{Default: true}, nil
	}
	if bs.Strategy != p.Strategy {
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "invalid bound specification for a %s partition", p.Strategy).WithPosition(bs.Pos)
	}
	nb := &catalog.PartitionBound{}
	var err error
	switch p.Strategy {
	case "list":
		typ := parent.PartitionKeyType(0)
		for _, e := range bs.In {
			v, err := b.boundValue(parent, typ, e)
			if err != nil {
				return nil, err
			}
			if !slices.Contains(nb.In, v) {
				nb.In = append(nb.In, v)
			}
		}
	case "range":
		if nb.From, err = b.rangeBound(parent, bs.From); err != nil {
			return nil, err
		}
		if nb.To, err = b.rangeBound(parent, bs.To); err != nil {
			return nil, err
		}
		if c, err := compareBounds(parent, nb.From, nb.To); err != nil {
			return nil, err
		} else if c >= 0 {
			return nil, pgerr.New(pgerr.InvalidObjectDefinition, "empty range bound specified for partition %q", t.Name).
				WithDetail("Specified lower bound %s is greater than or equal to upper bound %s.", catalog.BoundList(parent, nb.From), catalog.BoundList(parent, nb.To)).WithPosition(bs.From[0].Pos)
		}
	case "hash":
		if bs.Modulus <= 0 {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "modulus for hash partition must be an integer value greater than zero")
		}
		if bs.Remainder < 0 {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "remainder for hash partition must be an integer value greater than or equal to zero")
		}
		if bs.Remainder >= bs.Modulus {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "remainder for hash partition must be less than modulus")
		}
		nb.Modulus, nb.Remainder = bs.Modulus, bs.Remainder
	}
	return nb, b.checkOverlap(t, parent, nb, bs)
}

// rangeBound binds one side of a range bound: after a MINVALUE every
// value must be MINVALUE, and after a MAXVALUE MAXVALUE.
func (b *Binder) rangeBound(parent *catalog.Table, es []parser.BoundExpr) ([]catalog.BoundValue, error) {
	p := parent.Partitioning
	if len(es) > len(p.Columns) {
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "too many values in partition bound specification").WithPosition(es[len(p.Columns)].Pos)
	}
	if len(es) < len(p.Columns) {
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "too few values in partition bound specification").WithPosition(es[0].Pos)
	}
	var out []catalog.BoundValue
	inf := 0
	for i, e := range es {
		if inf != 0 && e.Inf != inf {
			word := map[int]string{-1: "MINVALUE", 1: "MAXVALUE"}[inf]
			return nil, pgerr.New(pgerr.DatatypeMismatch, "every bound following %s must also be %s", word, word).WithPosition(e.Pos)
		}
		if e.Inf != 0 {
			inf = e.Inf
			out = append(out, catalog.BoundValue{Inf: e.Inf})
			continue
		}
		v, err := b.boundValue(parent, parent.PartitionKeyType(i), e)
		if err != nil {
			return nil, err
		}
		if v.Null {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "cannot specify NULL in range bound").WithPosition(e.Pos)
		}
		out = append(out, v)
	}
	return out, nil
}

// boundValue evaluates one bound expression as a value of the key
// column's type: a constant expression without column references.
func (b *Binder) boundValue(parent *catalog.Table, typ sqltypes.Type, e parser.BoundExpr) (catalog.BoundValue, error) {
	stmt, node, err := parser.ParseExpression(e.Text)
	if err != nil {
		return catalog.BoundValue{}, err
	}
	var bad boundChecker
	node.Accept(&bad)
	if bad.err != nil {
		return catalog.BoundValue{}, bad.err.WithPosition(e.Pos)
	}
	sub := &Binder{snap: b.snap, stmt: stmt, loc: b.loc, style: b.style}
	x, err := sub.bindExpr(env{}.newScope(), node)
	if err != nil {
		return catalog.BoundValue{}, err
	}
	if x, err = sub.coerceTo(x, typ, true); err != nil {
		return catalog.BoundValue{}, err
	}
	v, err := x.Eval(&ir.EvalContext{}, nil)
	if err != nil {
		return catalog.BoundValue{}, err
	}
	if v.IsNull() {
		return catalog.BoundValue{Null: true}, nil
	}
	return catalog.BoundValue{Text: string(sqltypes.AppendTextAs(nil, typ, v))}, nil
}

// boundChecker finds what a partition bound expression may not contain.
type boundChecker struct{ err *pgerr.Error }

func (v *boundChecker) Enter(n ast.Node) (ast.Node, bool) {
	if v.err != nil {
		return n, true
	}
	switch n.(type) {
	case *ast.ColumnNameExpr:
		v.err = pgerr.New(pgerr.FeatureNotSupported, "cannot use column reference in partition bound expression")
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
		v.err = pgerr.New(pgerr.FeatureNotSupported, "cannot use subquery in partition bound")
	case *ast.AggregateFuncExpr:
		v.err = pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in partition bound")
	}
	return n, v.err != nil
}

func (v *boundChecker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// compareBounds compares two range bounds value by value (MINVALUE
// below and MAXVALUE above every value).
func compareBounds(parent *catalog.Table, a, b []catalog.BoundValue) (int, error) {
	for i := range a {
		switch {
		case a[i].Inf != 0 || b[i].Inf != 0:
			if a[i].Inf != b[i].Inf {
				return a[i].Inf - b[i].Inf, nil
			}
			return 0, nil // both MINVALUE or both MAXVALUE: the rest follow
		}
		typ := parent.PartitionKeyType(i)
		av, err := a[i].Value(typ)
		if err != nil {
			return 0, err
		}
		bv, err := b[i].Value(typ)
		if err != nil {
			return 0, err
		}
		if c := sqltypes.Compare(av, bv); c != 0 {
			return c, nil
		}
	}
	return 0, nil
}

// checkOverlap refuses a bound that takes rows another partition of
// parent takes (PostgreSQL's check_new_partition_bound).
func (b *Binder) checkOverlap(t, parent *catalog.Table, nb *catalog.PartitionBound, bs *parser.BoundSyntax) error {
	overlap := func(other string, pos int) error {
		return pgerr.New(pgerr.InvalidObjectDefinition, "partition %q would overlap partition %q", t.Name, other).WithPosition(pos)
	}
	for _, c := range b.snap.Children(parent) {
		ob := c.Bound
		if ob == nil || ob.Default {
			continue
		}
		switch parent.Partitioning.Strategy {
		case "list":
			for i, v := range nb.In {
				if slices.Contains(ob.In, v) {
					return overlap(c.Name, bs.In[min(i, len(bs.In)-1)].Pos)
				}
			}
		case "range":
			// [from, to) meets [ofrom, oto) unless to <= ofrom or oto <= from.
			c1, err := compareBounds(parent, nb.To, ob.From)
			if err != nil {
				return err
			}
			c2, err := compareBounds(parent, ob.To, nb.From)
			if err != nil {
				return err
			}
			if c1 > 0 && c2 > 0 {
				return overlap(c.Name, bs.From[0].Pos)
			}
		case "hash":
			lo, hi := nb, ob
			if lo.Modulus > hi.Modulus {
				lo, hi = hi, lo
			}
			if hi.Modulus%lo.Modulus != 0 {
				return pgerr.New(pgerr.InvalidObjectDefinition, "every hash partition modulus must be a factor of the next larger modulus").
					WithDetail("%s", hashModulusDetail(nb, ob, c.Name))
			}
			if hi.Remainder%lo.Modulus == lo.Remainder {
				return overlap(c.Name, bs.Pos)
			}
		}
	}
	return nil
}

// hashModulusDetail is the detail of PostgreSQL's refusal of a hash
// modulus that does not divide (or is not divided by) a sibling's.
func hashModulusDetail(nb, ob *catalog.PartitionBound, other string) string {
	if nb.Modulus < ob.Modulus {
		return fmt.Sprintf("The new modulus %d is not a factor of %d, the modulus of existing partition %q.", nb.Modulus, ob.Modulus, other)
	}
	return fmt.Sprintf("The new modulus %d is not divisible by %d, the modulus of existing partition %q.", nb.Modulus, ob.Modulus, other)
}

// partitionedScan reads a partitioned table: its leaf partitions' rows,
// one scan each, appended (UNION ALL), with the parent's columns. A
// partitioned table without partitions has no rows.
func (b *Binder) partitionedScan(t *catalog.Table, alias string, oid bool) ir.Rel {
	cols := ir.NewScan(t, alias).Columns()
	if oid {
		cols = append(cols, tableOIDColumn)
	}
	var out ir.Rel
	ps := b.snap.PartitionSet(t)
	for _, leaf := range ps.Leaves() {
		b.depends(leaf.Name, leaf.Temp)
		scan := ir.NewScan(leaf, alias)
		scan.Partitions = ps
		var s ir.Rel = scan
		if oid {
			s = b.withTableOID(scan, leaf)
		}
		if out == nil {
			out = s
			continue
		}
		out = &ir.SetOp{Op: ir.Union, All: true, Left: out, Right: s, Cols: cols}
	}
	if out == nil {
		return &ir.Values{Cols: cols}
	}
	if _, ok := out.(*ir.SetOp); !ok {
		// One partition: its scan, under the parent's columns.
		exprs := make([]ir.Expr, len(cols))
		for i, c := range cols {
			exprs[i] = &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}
		}
		out = &ir.Project{Input: out, Exprs: exprs, Cols: cols}
	}
	return out
}

// partitionIndexes gives CREATE INDEX on a partitioned table the same
// index on each of its partitions (as PostgreSQL does), named for the
// partition; a unique one must include the partition key.
func (b *Binder) partitionIndexes(t *catalog.Table, ci *ir.CreateIndex) error {
	ps := b.snap.PartitionSet(t)
	if ps == nil {
		return nil
	}
	// A layout aligned to the data is each partition's own, from its rows
	// (a gist index's default): the partitioned table's index holds none.
	align := ci.AlignToData
	ci.AlignToData = false
	if ci.Index.Unique {
		probe := *t
		probe.Indexes = []*catalog.Index{ci.Index}
		if err := checkUniqueKeys(&probe); err != nil {
			return err
		}
	}
	if b.stmt != nil && b.stmt.IndexOnly {
		// CREATE INDEX ... ON ONLY: the partitions' indexes are made
		// on their own and attached (ALTER INDEX ... ATTACH PARTITION),
		// as pg_dump restores them.
		return nil
	}
	for _, m := range ps.Members {
		pix, err := b.copyIndex(t, m, ci.Index)
		if err != nil {
			return err
		}
		ci.Partitions = append(ci.Partitions, &ir.CreateIndex{Table: m.Name, Index: pix, AlignToData: align})
	}
	return nil
}

// partitionAlter checks an ALTER TABLE action on a partitioned table or
// a partition. Column actions on a partitioned table are its partitions'
// too (the executor applies them down the tree); on a partition, those
// that would make its columns differ from its parent's are refused as
// PostgreSQL refuses them; other actions zproxy does not carry through a
// tree are refused (0A000).
func partitionAlter(snap *catalog.Snapshot, t *catalog.Table, a parser.AlterAction) error {
	if !t.IsPartitioned() && !t.IsPartition() {
		return nil
	}
	i := t.ColumnIndex(a.Column)
	if i >= 0 && t.Columns[i].Hidden {
		i = -1
	}
	// keyOf names the member of t's tree whose partition key has column
	// i ("" for none).
	keyOf := func() string {
		for _, m := range append([]*catalog.Table{t}, snap.Descendants(t)...) {
			if m.IsPartitioned() && m.PartitionKeyReads(i) {
				return m.BareName()
			}
		}
		return ""
	}
	inherited := t.IsPartition() && i >= 0
	switch a.Kind {
	case parser.AlterAddColumn:
		if t.IsPartition() {
			return pgerr.New(pgerr.WrongObjectType, "cannot add column to a partition")
		}
		return nil
	case parser.AlterDropColumn, parser.AlterColumnType:
		verb := map[parser.AlterKind]string{parser.AlterDropColumn: "drop", parser.AlterColumnType: "alter"}[a.Kind]
		if inherited {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot %s inherited column %q", verb, a.Column)
		}
		if rel := keyOf(); rel != "" {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot %s column %q because it is part of the partition key of relation %q", verb, a.Column, rel)
		}
		// ALTER COLUMN TYPE changes every member's column (the rows the
		// new type must take are checked in every leaf).
		return nil
	case parser.AlterRenameColumn:
		if inherited {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot rename inherited column %q", a.Column)
		}
		return nil
	case parser.AlterDropNotNull:
		if p := snap.Parent(t); inherited && p != nil {
			if j := p.ColumnIndex(a.Column); j >= 0 && p.Columns[j].NotNull {
				return pgerr.New(pgerr.InvalidTableDefinition, "column %q is marked NOT NULL in parent table", a.Column)
			}
		}
		if t.IsPartitioned() && t.Partitioning.Strategy == "range" && slices.Contains(t.Partitioning.Columns, i) {
			return pgerr.New(pgerr.InvalidTableDefinition, "column %q is in range partition key", a.Column)
		}
		return nil
	case parser.AlterSetDefault, parser.AlterDropDefault, parser.AlterSetNotNull:
		return nil
	case parser.AlterSetOptions, parser.AlterResetOptions:
		// PostgreSQL's storage parameters are no zproxy table's (SET is
		// 22023, as for any table; a partitioned table has none in
		// PostgreSQL either, and RESET of one is a no-op, as there);
		// zproxy's own (ttl, shards) are not carried through a tree.
		if a.Kind == parser.AlterResetOptions {
			return nil
		}
		for _, k := range a.OptionOrder {
			if !catalog.ZproxyTableOption(k) {
				return pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter %q", k)
			}
		}
	case parser.AlterAddIdentity:
		// PostgreSQL 15's identity is the one table's, not its
		// partitions': rows inserted through a partitioned table draw
		// from its sequence, rows inserted into a partition from the
		// partition's own, if it has one.
		return nil
	case parser.AlterPrimaryKey:
		// ADD PRIMARY KEY of a partitioned table without one: every
		// member gets it (executor rekeyTree); bindAlter checks that it
		// includes the partition key.
		if t.IsPartitioned() && !t.IsPartition() && t.RowIDKeyed() && a.DropConstraint == "" {
			return nil
		}
		if t.IsPartition() && !t.RowIDKeyed() && a.DropConstraint == "" && !a.ReplaceKey {
			return pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table %q are not allowed", t.BareName())
		}
		if t.IsPartition() {
			return unsupported("ALTER TABLE ADD PRIMARY KEY of a partition is not supported: add it to the partitioned table")
		}
		return unsupported("changing the primary key of a partitioned table is not supported")
	}
	what := strings.ReplaceAll(string(a.Kind), "_", " ")
	return unsupported("ALTER TABLE (%s) of a partitioned table or a partition is not supported", what)
}

// partitionConstraint checks a constraint action on a partitioned table
// or a partition: a CHECK constraint of a partitioned table is its
// partitions' too (the executor adds and drops it down the tree), so a
// partition cannot drop one it has from its parent; a partition may have
// checks of its own. Other constraint changes are refused (0A000).
func (b *Binder) partitionConstraint(t *catalog.Table, spec *ast.AlterTableSpec) error {
	if err := inheritanceAlter(b.snap, t, "constraint"); err != nil {
		return err
	}
	if !t.IsPartitioned() && !t.IsPartition() {
		return nil
	}
	isUnique := func(c *ast.Constraint) bool {
		return c.Tp == ast.ConstraintUniq || c.Tp == ast.ConstraintUniqKey || c.Tp == ast.ConstraintUniqIndex
	}
	if b.onlyPartitioned(t) {
		// ALTER TABLE ONLY of a partitioned table with partitions.
		switch {
		case spec.Tp == ast.AlterTableAddConstraint && spec.Constraint.Tp == ast.ConstraintCheck && exclusionMarker(spec.Constraint) < 0:
			return pgerr.New(pgerr.InvalidTableDefinition, "constraint must be added to child tables too")
		case spec.Tp == ast.AlterTableAddConstraint && spec.Constraint.Tp == ast.ConstraintForeignKey:
			return pgerr.New(pgerr.WrongObjectType, "cannot use ONLY for foreign key on partitioned table %q referencing relation %q",
				t.BareName(), spec.Constraint.Refer.Table.Name.O)
		case spec.Tp == ast.AlterTableDropCheck && slices.ContainsFunc(t.Checks, func(c catalog.Check) bool { return c.Name == spec.Constraint.Name }):
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot remove constraint from only the partitioned table when partitions exist")
		}
	}
	switch {
	case spec.Tp == ast.AlterTableAddConstraint && t.IsPartition() && !t.IsPartitioned() && isUnique(spec.Constraint):
		// A partition's own unique constraint, or pg_dump's copy of its
		// parent's, which ALTER INDEX ... ATTACH PARTITION attaches.
		return nil
	case spec.Tp == ast.AlterTableAddConstraint && spec.Constraint.Tp == ast.ConstraintCheck && exclusionMarker(spec.Constraint) < 0:
		return nil
	case spec.Tp == ast.AlterTableAddConstraint && t.IsPartitioned() && isUnique(spec.Constraint):
		return nil // one on each partition (bindAddConstraint)
	case spec.Tp == ast.AlterTableAddConstraint && spec.Constraint.Tp == ast.ConstraintForeignKey:
		return nil // a partitioned table's is its partitions' (catalog/partition_fk.go)
	case spec.Tp == ast.AlterTableDropCheck:
		name := spec.Constraint.Name
		for _, in := range b.snap.InheritedForeignKeys(t) {
			if in.FK.Name == name {
				return pgerr.New(pgerr.InvalidTableDefinition, "cannot drop inherited constraint %q of relation %q", name, t.BareName())
			}
		}
		if slices.ContainsFunc(t.ForeignKeys, func(fk catalog.ForeignKey) bool { return fk.Name == name }) {
			return nil
		}
		if p := b.snap.Parent(t); p != nil && slices.ContainsFunc(p.Checks, func(c catalog.Check) bool { return c.Name == name }) {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot drop inherited constraint %q of relation %q", name, t.BareName())
		}
		if slices.ContainsFunc(t.Checks, func(c catalog.Check) bool { return c.Name == name }) {
			return nil
		}
	}
	return unsupported("ALTER TABLE (constraint) of a partitioned table or a partition is not supported")
}

// systemColumns are PostgreSQL's system columns, which a partition key
// may not use.
var systemColumns = map[string]bool{"tableoid": true, "ctid": true, "xmin": true, "xmax": true, "cmin": true, "cmax": true}

// bindPartitionExpr binds an expression part of PARTITION BY's key over a
// row of t, refusing what PostgreSQL refuses there (ComputePartitionAttrs):
// aggregates, window and set-returning functions, subqueries, system
// columns, functions that are not immutable and constant expressions.
func (b *Binder) bindPartitionExpr(t *catalog.Table, sql string) (ir.Expr, error) {
	const where = "partition key expression"
	sub, node, err := b.parseStoredExpr(sql, where)
	if err != nil {
		return nil, err
	}
	var sys systemColumnFinder
	node.Accept(&sys)
	if sys.found {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "partition key expressions cannot contain system column references")
	}
	sc := &scope{items: []*fromItem{tableItem(t, t.Name, 0)}}
	e, err := sub.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	if _, ok := e.(*ir.ColRef); ok {
		return e, nil
	}
	if !immutableExpr(e) {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "functions in %s must be marked IMMUTABLE", where)
	}
	if len(ir.Columns(e)) == 0 {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "cannot use constant expression as partition key")
	}
	return e, nil
}

// systemColumnFinder finds a reference to a system column.
type systemColumnFinder struct{ found bool }

func (v *systemColumnFinder) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnNameExpr); ok && c.Name.Table.L == "" && systemColumns[c.Name.Name.L] {
		v.found = true
	}
	return n, v.found
}

func (v *systemColumnFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// storedPartitionText is the text a partition key keeps for its bound
// expression e: the deparsed form, as pg_get_partkeydef prints it, when
// it binds back to an expression of the same type, else the text as
// written. Every routing binds the stored text again.
func (b *Binder) storedPartitionText(t *catalog.Table, e ir.Expr, written string) string {
	text, ok := ir.Deparse(e)
	if ok {
		again, err := b.bindPartitionExpr(t, text)
		ok = err == nil && again.Type() == e.Type()
	}
	if !ok {
		return strings.TrimSpace(written)
	}
	return text
}

func init() { ir.PartitionExprBinder = bindPartitionText }

// bindPartitionText binds expression part i of t's partition key from
// its stored text (ir.BindPartitionExpr), as its type. The text is
// deparsed (constants typed), so no session setting changes what it
// binds to.
func bindPartitionText(t *catalog.Table, i int) (ir.Expr, error) {
	b := &Binder{snap: &catalog.Snapshot{}, loc: time.UTC}
	e, err := b.bindPartitionExpr(t, t.Partitioning.Exprs[i])
	if err != nil {
		return nil, err
	}
	return b.coerceTo(e, t.Partitioning.ExprTypes[i], false)
}

// findIndexOrKey finds the index named name, or the primary key's index
// (named t_pkey, and nil as catalog.PartitionIndex takes it): the table
// is nil when there is none.
func findIndexOrKey(snap *catalog.Snapshot, name string) (*catalog.Table, *catalog.Index) {
	if t, ix := snap.FindIndex(name); ix != nil {
		return t, ix
	}
	if tn, ok := strings.CutSuffix(name, "_pkey"); ok {
		if t, err := snap.Table(tn); err == nil && !t.RowIDKeyed() {
			return t, nil
		}
	}
	return nil, nil
}

// bindAttachIndex checks ALTER INDEX parent ATTACH PARTITION child as
// PostgreSQL does: child must be an index of a partition of parent's
// partitioned table indexing the same keys, and the one of that
// partition matching parent (zproxy links a partition's index to its
// partitioned table's by their keys, so a second matching index of the
// partition is "another index already attached").
func bindAttachIndex(snap *catalog.Snapshot, parent, child string) error {
	notIndex := func(name string, code pgerr.Code) error {
		if _, err := snap.Table(name); err == nil {
			return pgerr.New(code, "%q is not an index", name)
		}
		if _, isView := snap.StoredView(name); isView {
			return pgerr.New(code, "%q is not an index", name)
		}
		return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	pt, pix := findIndexOrKey(snap, parent)
	if pt == nil {
		return notIndex(parent, pgerr.WrongObjectType)
	}
	_, pname := catalog.SplitName(parent)
	if !pt.IsPartitioned() {
		return pgerr.New(pgerr.WrongObjectType, "ALTER action ATTACH PARTITION cannot be performed on relation %q", pname).
			WithDetail("This operation is not supported for indexes.")
	}
	ct, cix := findIndexOrKey(snap, child)
	if ct == nil {
		return notIndex(child, pgerr.InvalidObjectDefinition)
	}
	_, cname := catalog.SplitName(child)
	refuse := func(code pgerr.Code, detail string, args ...any) error {
		return pgerr.New(code, "cannot attach index %q as a partition of index %q", cname, pname).WithDetail(detail, args...)
	}
	if ct.Bound == nil || ct.Parents[0] != pt.ID {
		return refuse(pgerr.ObjectNotInPrerequisiteState, "Index %q is not an index on any partition of table %q.", cname, pt.BareName())
	}
	if cix == nil || pix == nil {
		if cix != pix {
			return refuse(pgerr.InvalidObjectDefinition, "The index definitions do not match.")
		}
		return nil // the partition's primary key is its parent's
	}
	if !pix.SameKeys(cix) {
		if slices.ContainsFunc(pt.Indexes, cix.SameKeys) {
			return refuse(pgerr.ObjectNotInPrerequisiteState, "Index %q is already attached to another index.", cname)
		}
		return refuse(pgerr.InvalidObjectDefinition, "The index definitions do not match.")
	}
	if ix, _ := catalog.PartitionIndex(ct, pix); ix != cix {
		return refuse(pgerr.ObjectNotInPrerequisiteState, "Another index is already attached for partition %q.", ct.BareName())
	}
	return nil
}

// partitionOnly checks an action of ALTER TABLE ONLY t: on a partitioned
// table with partitions, PostgreSQL refuses the column and constraint
// changes its partitions must share (42P16), and takes SET / DROP
// DEFAULT and ADD PRIMARY KEY (pg_dump's ALTER TABLE ONLY parent ADD
// CONSTRAINT ... PRIMARY KEY) when the partitions' key columns are NOT
// NULL already. zproxy gives the key to the whole tree at once (every
// member is keyed alike), so a partition has it before pg_dump's ALTER
// TABLE ONLY partition ADD PRIMARY KEY restates it (partitionKeyRestated).
func partitionOnly(snap *catalog.Snapshot, t *catalog.Table, only bool, a parser.AlterAction) error {
	if !only || !t.IsPartitioned() || len(snap.Children(t)) == 0 {
		return nil
	}
	bad := func(format string, args ...any) error {
		return pgerr.New(pgerr.InvalidTableDefinition, format, args...)
	}
	switch a.Kind {
	case parser.AlterAddColumn:
		return bad("column must be added to child tables too")
	case parser.AlterDropColumn:
		return bad("cannot drop column from only the partitioned table when partitions exist")
	case parser.AlterRenameColumn:
		return bad("inherited column %q must be renamed in child tables too", a.Column)
	case parser.AlterColumnType:
		return bad("type of inherited column %q must be changed in child tables too", a.Column)
	case parser.AlterSetNotNull:
		return bad("constraint must be added to child tables too")
	case parser.AlterDropNotNull:
		return bad("cannot remove constraint from only the partitioned table when partitions exist")
	case parser.AlterPrimaryKey:
		for _, m := range snap.Descendants(t) {
			for _, k := range a.Key {
				if i := m.ColumnIndex(k.Column); i >= 0 && !m.Columns[i].NotNull {
					return bad("constraint must be added to child tables too")
				}
			}
		}
	}
	return nil
}

// partitionKeyRestated reports whether a is ALTER TABLE ONLY p ADD
// [CONSTRAINT p_pkey] PRIMARY KEY (cols) of a partition p that has that
// key from its parent already: pg_dump writes it after ALTER TABLE ONLY
// parent ADD PRIMARY KEY, which gave every partition the key in zproxy
// (partitionOnly). Without ONLY it is PostgreSQL's 42P16 (multiple
// primary keys), which partitionAlter reports.
func partitionKeyRestated(snap *catalog.Snapshot, t *catalog.Table, only bool, a parser.AlterAction) bool {
	if !only || !t.IsPartition() || a.Kind != parser.AlterPrimaryKey || a.ReplaceKey || a.DropConstraint != "" ||
		t.RowIDKeyed() || len(a.Key) != len(t.PrimaryKey) {
		return false
	}
	if a.KeyName != "" && a.KeyName != t.PrimaryKeyName() {
		return false
	}
	for i, k := range a.Key {
		if t.ColumnIndex(k.Column) != t.PrimaryKey[i].Column || k.Desc != t.PrimaryKey[i].Desc {
			return false
		}
	}
	return true
}

// onlyPartitioned reports whether the statement is ALTER TABLE ONLY t of
// a partitioned table t with partitions: a constraint it adds is not
// theirs (a UNIQUE one's index is not built on them: pg_dump adds each
// partition's and attaches it).
func (b *Binder) onlyPartitioned(t *catalog.Table) bool {
	cs := b.stmt.Constraints
	return cs != nil && cs.TableOnly && t.IsPartitioned() && len(b.snap.Children(t)) > 0
}

// partitionTrigger checks DROP TRIGGER and ALTER TABLE ... ENABLE |
// DISABLE TRIGGER against a partition tree. PostgreSQL clones a
// partitioned table's row triggers onto its partitions, each clone
// enabled or disabled on its own; zproxy keeps them the partitioned
// table's and derives the clones (catalog.ClonedTriggers), so what would
// act on one partition's clone by name, or on the partitioned table
// without its clones (ONLY), is refused (0A000), and dropping a clone is
// PostgreSQL's 2BP01.
func partitionTrigger(snap *catalog.Snapshot, t *catalog.Table, ts *parser.TriggerStatement) error {
	// rowTrigger reports whether m has the row trigger named (any, for
	// ALL or USER).
	rowTrigger := func(m *catalog.Table, name string) bool {
		if name == "" {
			return slices.ContainsFunc(m.Triggers, func(tg *catalog.Trigger) bool { return tg.Row })
		}
		tg, _ := catalog.FindTrigger(m.Triggers, name)
		return tg != nil && tg.Row
	}
	if ts.Action == parser.TriggerEnable && ts.Only && t.IsPartitioned() && len(snap.Children(t)) > 0 && rowTrigger(t, ts.Name) {
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE ONLY ... ENABLE | DISABLE TRIGGER of a partitioned table's row triggers is not supported").
			WithHint("zproxy's row triggers of a partitioned table are its partitions' too: leave out ONLY.")
	}
	if ts.Name == "" {
		// ENABLE | DISABLE TRIGGER ALL | USER of a partition acts on its
		// own triggers and its clones (Table.DisabledClones): pg_dump
		// --disable-triggers writes it around each table's rows.
		return nil
	}
	if tg, _ := catalog.FindTrigger(t.Triggers, ts.Name); tg != nil {
		return nil // the partition's own
	}
	for p := snap.Parent(t); p != nil; p = snap.Parent(p) {
		if !rowTrigger(p, ts.Name) {
			continue
		}
		switch ts.Action {
		case parser.TriggerDrop:
			return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop trigger %s on table %s because trigger %s on table %s requires it",
				ts.Name, t.BareName(), ts.Name, p.BareName()).
				WithHint("You can drop trigger %s on table %s instead.", ts.Name, p.BareName())
		case parser.TriggerEnable:
			return pgerr.New(pgerr.FeatureNotSupported, "enabling or disabling a partitioned table's row triggers for one partition is not supported").
				WithHint("zproxy's row triggers of %q are its partitions' too: enable or disable them on it.", p.BareName())
		}
		return nil
	}
	return nil
}
