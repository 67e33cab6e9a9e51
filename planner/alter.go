package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

func bindAlter(snap *catalog.Snapshot, stmt *parser.Statement) (ir.Statement, error) {
	st := stmt.Alter
	at := &ir.AlterTable{Table: st.Table, IfExists: st.IfExists, Only: st.Only}
	if stmt.Matview {
		at.Tag = "ALTER MATERIALIZED VIEW"
	}
	if len(st.Actions) == 1 && st.Actions[0].Kind == parser.AlterRenameIndex {
		at.Actions = []ir.AlterAction{{AlterAction: st.Actions[0]}}
		return at, nil
	}
	if len(st.Actions) == 1 && st.Actions[0].Kind == parser.AlterAttachIndex {
		at.Tag = "ALTER INDEX"
		at.Actions = []ir.AlterAction{{AlterAction: st.Actions[0]}}
		return at, bindAttachIndex(snap, st.Table, st.Actions[0].Column)
	}
	if stmt.AlterView {
		at.Tag = "ALTER VIEW"
	}
	t, err := snap.Table(st.Table)
	if err == nil && stmt.AlterView {
		return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a view", st.Table)
	}
	if err != nil {
		if v, isView := snap.StoredView(st.Table); isView {
			// ALTER VIEW, or ALTER TABLE as PostgreSQL also takes it
			// (pg_dump's ALTER TABLE ONLY v ALTER COLUMN c SET DEFAULT).
			return bindAlterView(snap, stmt, at, v)
		}
		if _, isSeq := snap.Sequence(st.Table); isSeq && !stmt.Matview && !stmt.AlterView && len(st.Actions) == 1 && st.Actions[0].Kind == parser.AlterRenameTable {
			// ALTER TABLE naming a sequence: PostgreSQL renames or moves
			// it as ALTER SEQUENCE does.
			a := st.Actions[0]
			return &ir.AlterSequence{Name: st.Table, RenameTo: a.NewName, SetSchema: a.SetSchema, Tag: "ALTER TABLE"}, nil
		}
		if st.IfExists {
			return at, nil // the executor reports the NOTICE
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", st.Table).WithPosition(st.Pos)
	}
	if err := matviewAlter(t, stmt.Matview, st.Actions); err != nil {
		return nil, err
	}
	if len(st.Actions) == 1 && st.Actions[0].SetSchema {
		// SET SCHEMA is a rename to the key in the new schema (the only
		// action, qualifySpecial made NewName that key): a temporary
		// table stays in pg_temp, and a table already in the schema is
		// left alone, as PostgreSQL does.
		if catalog.IsTempID(t.ID) {
			return nil, errTempMove()
		}
		if st.Actions[0].NewName == t.Name {
			return at, nil
		}
	}
	if len(st.Actions) == 1 && partitionKeyRestated(snap, t, st.Only, st.Actions[0]) {
		return at, nil // nothing to do: the partition has the key
	}
	for _, a := range st.Actions {
		if a.Kind == parser.AlterDetachPartition {
			if !t.IsPartitioned() {
				return nil, pgerr.New(pgerr.WrongObjectType, "table %q is not partitioned", st.Table)
			}
			p, err := snap.Table(a.Column)
			if err != nil {
				return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", a.Column)
			}
			if p.Bound == nil || p.Parents[0] != t.ID {
				return nil, pgerr.New(pgerr.UndefinedTable, "relation %q is not a partition of relation %q", a.Column, st.Table)
			}
			if len(st.Actions) > 1 {
				return nil, pgerr.New(pgerr.SyntaxError, "DETACH PARTITION must be the only action of ALTER TABLE")
			}
			continue
		}
		if a.Kind != parser.AlterRenameTable && a.Kind != parser.AlterAttachPartition {
			if err := inheritanceAlter(snap, t, string(a.Kind)); err != nil {
				return nil, err
			}
			if err := partitionOnly(snap, t, st.Only, a); err != nil {
				return nil, err
			}
			if err := partitionAlter(snap, t, a); err != nil {
				return nil, err
			}
		}
	}

	if ra, ok, err := bindReshard(t, st.Actions); ok {
		if err != nil {
			return nil, err
		}
		at.Actions = []ir.AlterAction{*ra}
		return at, nil
	}
	b := &Binder{snap: snap, stmt: stmt}
	for _, a := range st.Actions {
		ba := ir.AlterAction{AlterAction: a}
		switch a.Kind {
		case parser.AlterAddColumn:
			if err := b.bindAddColumn(t, &ba); err != nil {
				return nil, err
			}
		case parser.AlterPrimaryKey:
			if err := bindPrimaryKey(t, &ba); err != nil {
				return nil, err
			}
			if t.IsPartitioned() {
				probe := *t
				probe.PrimaryKey = nil
				for _, k := range ba.Key {
					probe.PrimaryKey = append(probe.PrimaryKey, catalog.KeyColumn{Column: t.ColumnIndex(k.Column)})
				}
				if err := checkUniqueKeys(&probe); err != nil {
					return nil, err
				}
			}
		case parser.AlterSetDefault:
			i := t.ColumnIndex(a.Column)
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column, t.Name)
			}
			if t.Columns[i].Identity != "" {
				return nil, pgerr.New(pgerr.SyntaxError, "column %q of relation %q is an identity column", a.Column, t.Name).
					WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.")
			}
			c := t.Columns[i]
			for _, o := range st.Actions {
				// The default is the column's as the statement leaves it
				// (PostgreSQL changes types before it sets defaults).
				if o.Kind == parser.AlterColumnType && o.Column == a.Column {
					c.Type = o.Type
				}
			}
			e, err := b.bindDefault(c, a.Default)
			if err != nil {
				return nil, err
			}
			ba.DefaultSequence = snap.Resolve(nextvalTarget(snap, e))
		case parser.AlterAddIdentity:
			if err := b.bindAddIdentity(t, &ba); err != nil {
				return nil, err
			}
		case parser.AlterColumnType:
			if err := b.bindColumnType(t, &ba); err != nil {
				return nil, err
			}
		case parser.AlterAttachPartition:
			if ba.Attach, err = b.bindAttach(t, a, len(st.Actions)); err != nil {
				return nil, err
			}
		}
		at.Actions = append(at.Actions, ba)
	}
	if at.Rewrites() {
		if err := b.bindRewrite(t, at); err != nil {
			return nil, err
		}
	}
	if at.Constraints, err = b.columnConstraints(t, at); err != nil {
		return nil, err
	}
	if len(at.Constraints) > 0 && t.IsPartitioned() {
		return nil, unsupported("constraints in ADD COLUMN of a partitioned table are not supported")
	}
	return at, nil
}

// bindPrimaryKey checks a primary-key change against the table.
func bindPrimaryKey(t *catalog.Table, a *ir.AlterAction) error {
	hidden := t.RowIDKeyed()
	if a.DropConstraint != "" && a.DropConstraint != t.PrimaryKeyName() {
		return pgerr.New(pgerr.FeatureNotSupported, "a statement that changes the primary key may drop only the key's constraint %q", t.PrimaryKeyName())
	}
	seen := map[int]bool{}
	for _, p := range a.Key {
		i := t.ColumnIndex(p.Column)
		if i < 0 || t.Columns[i].Hidden {
			return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", p.Column, t.Name)
		}
		if seen[i] {
			return pgerr.New(pgerr.DuplicateColumn, "column %q appears twice in primary key constraint", p.Column)
		}
		seen[i] = true
		switch t.Columns[i].Type.Kind() {
		case sqltypes.KindJSON, sqltypes.KindJSONB:
			return pgerr.New(pgerr.FeatureNotSupported, "column %q of type %s cannot be part of a key", p.Column, t.Columns[i].Type)
		}
	}
	if !hidden && !a.ReplaceKey {
		return pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table %q are not allowed", t.Name)
	}
	return nil
}

// bindAddColumn builds ADD COLUMN's column as CREATE TABLE would, and
// decides how existing rows get its default.
func (b *Binder) bindAddColumn(t *catalog.Table, a *ir.AlterAction) error {
	cd := a.ColumnDef
	name := cd.Name.Name.O
	typ, err := parser.ColumnType(cd.Tp)
	if err != nil {
		return err
	}
	if a.Extras != nil && a.Extras.TypeName != "" {
		if typ, err = columnExtrasType(b.snap, a.Extras); err != nil {
			return err
		}
	}
	col := catalog.Column{Name: name, Type: typ}
	for _, opt := range cd.Options {
		switch opt.Tp {
		case ast.ColumnOptionNotNull:
			col.NotNull = true
		case ast.ColumnOptionNull:
		default:
			if isColumnConstraint(opt) {
				continue
			}
			return unsupported("this column constraint is not supported in ADD COLUMN")
		}
	}
	if a.Extras != nil && a.Extras.Generated != "" {
		// PostgreSQL computes it for every existing row (a table rewrite).
		return pgerr.New(pgerr.FeatureNotSupported, "ADD COLUMN ... GENERATED ALWAYS AS (...) STORED is not supported: it would rewrite every row of the table").
			WithHint("Create a new table with the column and copy the rows.")
	}
	// The column's generators, as CREATE TABLE makes them.
	one := &catalog.Table{Name: t.Name, Columns: []catalog.Column{col}}
	sub := &Binder{snap: b.snap, stmt: &parser.Statement{Columns: map[string]*parser.ColumnExtras{}}}
	if a.Extras != nil {
		sub.stmt.Columns[name] = a.Extras
	}
	seqs, err := sub.columnGenerators(one)
	if err != nil {
		return err
	}
	col = one.Columns[0]
	def := col.Default
	if def == "" && col.Type.IsDomain() && col.Identity == "" {
		// The rows already there take the domain's default (or NULL),
		// which must pass the domain's constraints.
		if def = col.Type.Domain.Default; def == "" {
			if err := sqltypes.CheckDomain(col.Type, sqltypes.Null, true); err != nil {
				return err
			}
		}
	}
	if len(seqs) > 0 {
		a.NewSequence = seqs[0]
		a.Volatile = true
	} else if def != "" {
		e, err := b.bindDefault(col, def)
		if err != nil {
			return err
		}
		if hasVolatile(e) {
			a.Volatile, a.Fill = true, e
		} else {
			// A constant (or stable: now()) default is evaluated once, now,
			// for the rows already there.
			v, err := e.Eval(&ir.EvalContext{}, nil)
			if err != nil {
				return err
			}
			if !v.IsNull() {
				col.Missing = string(sqltypes.AppendTextAs(nil, col.Type, v))
			}
		}
	}
	a.NewColumn = &col
	return nil
}

// hasVolatile reports whether e calls a volatile function.
func hasVolatile(e ir.Expr) bool {
	found := false
	ir.Walk(e, func(x ir.Expr) {
		if f, ok := x.(*ir.Func); ok && f.Volatile {
			found = true
		}
	})
	return found
}

func bindTruncate(snap *catalog.Snapshot, st *parser.TruncateStatement) (ir.Statement, error) {
	tr := &ir.Truncate{RestartIdentity: st.RestartIdentity, Cascade: st.Cascade}
	seen := map[string]bool{}
	for i, name := range st.Tables {
		t, err := snap.Table(name)
		if err != nil {
			if _, isView := snap.StoredView(name); isView {
				return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a table", name)
			}
			if err := truncateComputed(name); err != nil {
				return nil, err
			}
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name).WithPosition(st.Pos)
		}
		if t.IsMatview() {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a table", name)
		}
		// TRUNCATE of a partitioned table truncates its partitions, of
		// a table others inherit from theirs; TRUNCATE ONLY of the
		// latter its own rows.
		members := append([]*catalog.Table{t}, snap.Descendants(t)...)
		if i < len(st.Only) && st.Only[i] {
			if t.IsPartitioned() {
				return nil, pgerr.New(pgerr.WrongObjectType, "cannot truncate only a partitioned table").
					WithHint("Do not specify the ONLY keyword, or use TRUNCATE ONLY on the partitions directly.")
			}
			members = members[:1]
		}
		for _, m := range members {
			if !seen[m.Name] {
				seen[m.Name] = true
				tr.Tables = append(tr.Tables, m)
			}
		}
	}
	return tr, nil
}

// truncateComputed is the error of TRUNCATE of a relation zproxy
// computes, nil when name is none: PostgreSQL's for a view or a system
// catalog (which not even a superuser may truncate), else that of any
// write to a computed table (ComputedWriteError).
func truncateComputed(name string) error {
	schema, bare := "", name
	if strings.Contains(name, ".") {
		schema, bare = catalog.SplitName(name)
	}
	r := pgcatalog.Find(schema, bare)
	switch {
	case r == nil:
		return nil
	case !r.IsTable():
		return pgerr.New(pgerr.WrongObjectType, "%q is not a table", bare)
	case r.Schema == "pg_catalog":
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied: %q is a system catalog", bare)
	}
	return &ComputedWriteError{Relation: bare, Err: pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot change relation %q", bare)}
}

// bindReindex resolves REINDEX's indexes: the one named, a table's, or
// every table's of a SCHEMA or the DATABASE. The primary key is the
// table's own order, not an index, so a table has only its secondary
// indexes to rebuild; the system catalogs are computed and have none.
func bindReindex(snap *catalog.Snapshot, st *parser.ReindexStatement) (ir.Statement, error) {
	x := &ir.Reindex{Object: st.Kind, Concurrently: st.Concurrently, Verbose: st.Verbose}
	addTable := func(t *catalog.Table) {
		x.Tables = append(x.Tables, t)
		for _, ix := range t.Indexes {
			if ix.State == catalog.StatePublic {
				x.Targets = append(x.Targets, ir.ReindexTarget{Table: t, Index: ix})
			}
		}
	}
	switch st.Kind {
	case "index":
		t, ix := snap.FindIndex(st.Name)
		if ix == nil {
			if snap.HasRelation(st.Name) {
				return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an index", st.Name)
			}
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", st.Name).WithPosition(st.Pos)
		}
		x.Tables = []*catalog.Table{t}
		x.Targets = []ir.ReindexTarget{{Table: t, Index: ix}}
	case "table":
		t, err := snap.Table(st.Name)
		if err != nil {
			if _, ix := snap.FindIndex(st.Name); ix != nil || snap.HasRelation(st.Name) {
				return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table or materialized view", st.Name)
			}
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", st.Name).WithPosition(st.Pos)
		}
		addTable(t)
	case "schema":
		switch {
		case snap.HasSchema(st.Name):
			for _, t := range snap.Tables() {
				if schema, _ := catalog.SplitName(t.Name); schema == st.Name {
					addTable(t)
				}
			}
		case st.Name == "pg_catalog", st.Name == "information_schema":
		default:
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", st.Name).WithPosition(st.Pos)
		}
	case "database":
		x.Database = st.Name
		for _, t := range snap.Tables() {
			addTable(t)
		}
	case "system":
		x.Database = st.Name
	}
	return x, nil
}

// bindLock resolves LOCK's relations: tables and views (PostgreSQL also
// locks a view's base tables, which zproxy's view queries read at their
// own snapshot).
func bindLock(snap *catalog.Snapshot, st *parser.LockStatement) (ir.Statement, error) {
	l := &ir.Lock{Mode: st.Mode, NoWait: st.NoWait}
	for _, name := range st.Tables {
		if t, err := snap.Table(name); err == nil {
			l.Tables = append(l.Tables, t)
			continue
		}
		if v, ok := snap.StoredView(name); ok {
			l.Views = append(l.Views, v)
			continue
		}
		if _, ok := snap.Sequence(name); ok {
			return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table or view", name)
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name).WithPosition(st.Pos)
	}
	return l, nil
}

// bindOwner resolves ALTER ... OWNER TO's relation. ALTER TABLE may name a
// table, view or sequence; ALTER SEQUENCE and ALTER VIEW only their kind
// (42809), as in PostgreSQL.
func bindOwner(snap *catalog.Snapshot, st *parser.OwnerStatement) (ir.Statement, error) {
	a := &ir.AlterOwner{Role: st.Role, Tag: "ALTER " + strings.ToUpper(st.Kind)}
	if st.Kind == "large object" {
		oid, err := strconv.ParseUint(st.Name, 10, 32)
		if err != nil || oid == 0 {
			return nil, pgerr.New(pgerr.UndefinedObject, "large object %s does not exist", st.Name).WithPosition(st.Pos)
		}
		a.LargeObject = uint32(oid)
		return a, nil
	}
	t, terr := snap.Table(st.Name)
	v, isView := snap.StoredView(st.Name)
	q, isSeq := snap.Sequence(st.Name)
	switch {
	case terr == nil && (st.Kind == "table" || st.Kind == "materialized view" && t.IsMatview()):
		a.Table = t
	case isView && st.Kind != "sequence":
		a.View = v
	case isSeq && st.Kind != "view":
		a.Sequence = q
	case terr == nil || isView || isSeq:
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a %s", st.Name, st.Kind)
	case st.IfExists:
		a.Missing, a.Tag = st.Name, "ALTER "+strings.ToUpper(st.Kind)
		return a, nil
	default:
		return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", st.Name).WithPosition(st.Pos)
	}
	return a, nil
}

// bindAddIdentity binds ALTER COLUMN ... ADD GENERATED AS IDENTITY: the
// column must be a NOT NULL integer without a default or identity, and
// gets an owned sequence (named by SEQUENCE NAME, else as CREATE TABLE
// would name it), as in PostgreSQL.
func (b *Binder) bindAddIdentity(t *catalog.Table, ba *ir.AlterAction) error {
	a := ba.AlterAction
	i := t.ColumnIndex(a.Column)
	if i < 0 || t.Columns[i].Hidden {
		return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a.Column, t.Name)
	}
	c := t.Columns[i]
	switch {
	case !c.NotNull:
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "column \"%s\" of relation \"%s\" must be declared NOT NULL before identity can be added", c.Name, t.Name)
	case c.Identity != "":
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "column \"%s\" of relation \"%s\" is already an identity column", c.Name, t.Name)
	case c.Default != "":
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "column \"%s\" of relation \"%s\" already has a default value", c.Name, t.Name)
	}
	typeName := map[sqltypes.TypeID]string{sqltypes.Int2: "smallint", sqltypes.Int4: "integer", sqltypes.Int8: "bigint"}[c.Type.ID]
	if typeName == "" {
		return pgerr.New(pgerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
	}
	opts, err := parser.ParseSequenceOptions(a.Identity.Options)
	if err != nil {
		return err
	}
	if opts.Type == "" {
		opts.Type = typeName
	}
	// SEQUENCE NAME creates a sequence: public.s is keyed s.
	name := opts.Name
	if name != "" {
		name = catalog.QualifiedKey(catalog.SplitName(name))
	}
	if name == "" {
		name = chooseName(t.Name+"_"+c.Name, "seq", func(n string) bool { return b.snap.HasRelation(n) })
	}
	seq, err := ir.NewSequence(name, opts)
	if err != nil {
		return err
	}
	seq.OwnedBy = t.Name + "." + c.Name
	ba.NewSequence = seq
	return nil
}
