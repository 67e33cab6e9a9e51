package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Partitioned tables and partitions (catalog/partition.go) in the
// system catalogs: pg_class's relkind 'p', relispartition and
// relpartbound, pg_partitioned_table, pg_inherits, and the functions
// that read them (pg_get_partkeydef, pg_partition_tree,
// pg_partition_root, pg_partition_ancestors).

// partitionClass fills the partitioning columns of a table's pg_class
// row: relispartition, relpartbound (the bound's text, which pg_get_expr
// prints as it is) and relhassubclass.
func partitionClass(e *objects, o *object, r *pgClassRow) {
	t := o.table
	if t.Bound != nil {
		r.Relispartition = boolV(true)
		r.Relpartbound = textV(catalog.BoundSQL(e.tableByID(t.Parents[0]), t.Bound))
	}
	r.Relhassubclass = boolV(e.hasChildren[t.ID])
}

// indexParentOf returns the object of the partitioned table's index a
// partition's index is a partition of (the parent's index it is a copy
// of, which PostgreSQL records in pg_inherits), or nil.
func (os *objects) indexParentOf(o *object) *object {
	if o == nil || !o.isIndex() || o.table.Bound == nil {
		return nil
	}
	p := os.tableByID(o.table.Parents[0])
	if p == nil {
		return nil
	}
	if o.index == nil {
		if hasRowID(p) {
			return nil
		}
		return os.byOID[ObjectOID(p.ID, slotPKeyIndex)]
	}
	for _, ix := range p.Indexes {
		if ix.SameKeys(o.index) {
			return os.byOID[ObjectOID(ix.ID, 0)]
		}
	}
	return nil
}

// indexPartitionClass fills an index's pg_class partitioning columns.
func indexPartitionClass(e *objects, o *object, r *pgClassRow) {
	r.Relispartition = boolV(e.indexParentOf(o) != nil)
	if o.kind == 'I' {
		for _, c := range e.list {
			if e.indexParentOf(c) == o {
				r.Relhassubclass = boolV(true)
				break
			}
		}
	}
}

// tableByID returns the table of the given ID among the objects, or nil.
func (os *objects) tableByID(id uint64) *catalog.Table {
	if o := os.byOID[ObjectOID(id, 0)]; o != nil {
		return o.table
	}
	return nil
}

// partitionKeyDef is pg_get_partkeydef's text: "RANGE (a, b)".
func partitionKeyDef(t *catalog.Table) string {
	cols := make([]string, len(t.Partitioning.Columns))
	for i, c := range t.Partitioning.Columns {
		cols[i] = sqltypes.QuoteIdent(t.Columns[c].Name)
	}
	return strings.ToUpper(t.Partitioning.Strategy) + " (" + strings.Join(cols, ", ") + ")"
}

// parentOf returns the object of a table's parent (the partitioned
// table of a partition, the first parent of an inheriting table), or
// nil.
func (os *objects) parentOf(o *object) *object {
	if o == nil || o.table == nil || o.isIndex() || len(o.table.Parents) == 0 {
		return nil
	}
	return os.byOID[ObjectOID(o.table.Parents[0], 0)]
}

// childrenOf returns the objects of the tables whose first parent is o.
func (os *objects) childrenOf(o *object) []*object {
	var out []*object
	for _, c := range os.list {
		if c.table != nil && !c.isIndex() && c.rel == nil && len(c.table.Parents) > 0 && c.table.Parents[0] == o.table.ID {
			out = append(out, c)
		}
	}
	return out
}

// partitionMember finds the relation a pg_partition_* function is
// given: a partitioned table or a partition (o is nil for anything
// else, of which the functions know nothing).
func partitionMember(ctx *Context, rel sqltypes.Value) (*Env, *objects, *object, error) {
	e, err := needEnv(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	os := e.objects()
	o := os.byOID[uint32(rel.I)]
	if o == nil || o.table == nil || o.isIndex() || o.table.Bound == nil && o.kind != 'p' {
		return e, os, nil, nil
	}
	return e, os, o, nil
}

func init() {
	generate("pg_catalog.pg_partitioned_table", func(e *Env) []row {
		var out []row
		os := e.objects()
		for _, o := range os.list {
			if o.kind != 'p' {
				continue
			}
			t := o.table
			p := t.Partitioning
			var attnums, classes, colls []int64
			for _, c := range p.Columns {
				typ := t.Columns[c].Type
				attnums = append(attnums, int64(attnum(t, c)))
				// zproxy lists btree classes only: a hash key shows its
				// type's btree class.
				classes = append(classes, int64(keyOpclass(catalog.KindBTree, typ, "")))
				colls = append(colls, int64(collationOf(typ)))
			}
			def := uint32(0)
			for _, c := range os.childrenOf(o) {
				if c.table.Bound != nil && c.table.Bound.Default {
					def = c.oid
				}
			}
			out = append(out, &pgPartitionedTableRow{Partrelid: oidV(o.oid), Partstrat: charV(p.Strategy[0]), Partnatts: intV(int64(len(p.Columns))),
				Partdefid: oidV(def), Partattrs: vector(sqltypes.TypeInt2Vector, attnums), Partclass: vector(sqltypes.TypeOidVector, classes),
				Partcollation: vector(sqltypes.TypeOidVector, colls), Partexprs: nullV})
		}
		return out
	})
	generate("pg_catalog.pg_inherits", func(e *Env) []row {
		var out []row
		os := e.objects()
		for _, o := range os.list {
			if o.table == nil || o.rel != nil {
				continue
			}
			if o.isIndex() {
				if p := os.indexParentOf(o); p != nil {
					out = append(out, &pgInheritsRow{Inhrelid: oidV(o.oid), Inhparent: oidV(p.oid), Inhseqno: intV(1)})
				}
				continue
			}
			for i, p := range o.table.Parents {
				out = append(out, &pgInheritsRow{Inhrelid: oidV(o.oid), Inhparent: oidV(ObjectOID(p, 0)), Inhseqno: intV(int64(i + 1))})
			}
		}
		return out
	})

	Register("pg_get_partkeydef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		o := e.objects().byOID[uint32(a[0].I)]
		if o == nil || o.kind != 'p' {
			return sqltypes.Null, nil
		}
		return textV(partitionKeyDef(o.table)), nil
	}))

	// pg_get_partition_constraintdef prints a partition's implicit
	// constraint (psql's \d+ shows it); NULL where zproxy does not spell
	// it (multi-column range keys, sub-partitions).
	Register("pg_get_partition_constraintdef", fn("", []Param{oidP}, sqltypes.TypeText, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		os := e.objects()
		o := os.byOID[uint32(a[0].I)]
		p := os.parentOf(o)
		if o == nil || p == nil || o.table.Bound == nil {
			return sqltypes.Null, nil
		}
		var siblings []*catalog.Table
		for _, c := range os.childrenOf(p) {
			siblings = append(siblings, c.table)
		}
		if def, ok := catalog.ConstraintSQL(p.table, o.table, siblings, p.oid); ok {
			return textV(def), nil
		}
		return sqltypes.Null, nil
	}))

	regclass := func(e *Env, o *object) sqltypes.Value {
		return sqltypes.NewReg(o.oid, e.RegName(sqltypes.TypeRegClass, o.oid))
	}
	// pg_partition_ancestors lists a partition and the tables above it,
	// nearest first; a table that is no partition has none (not even
	// itself).
	Register("pg_partition_ancestors", Overload{Params: []Param{T(sqltypes.TypeRegClass)}, Result: Returns(sqltypes.TypeRegClass), Volatility: Volatile,
		// Its OUT parameter names the column (psql's \d reads relid).
		Set: &SetFunc{Columns: []SetColumn{{Name: "relid", Type: sqltypes.TypeRegClass}}, Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
			e, os, o, err := partitionMember(ctx, a[0])
			if err != nil || o == nil {
				return Table(nil), err
			}
			var rows [][]sqltypes.Value
			for ; o != nil; o = os.parentOf(o) {
				rows = append(rows, []sqltypes.Value{regclass(e, o)})
				if o.table.Bound == nil {
					break
				}
			}
			return Table(rows), nil
		}}})
	Register("pg_partition_root", fn("", []Param{T(sqltypes.TypeRegClass)}, sqltypes.TypeRegClass, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, os, o, err := partitionMember(ctx, a[0])
		if err != nil || o == nil {
			return sqltypes.Null, err
		}
		for o.table.Bound != nil {
			p := os.parentOf(o)
			if p == nil {
				break
			}
			o = p
		}
		return regclass(e, o), nil
	}))
	// pg_partition_tree lists a partitioned table (or partition) and
	// everything below it, with each one's parent, leafness and depth.
	Register("pg_partition_tree", Overload{Params: []Param{T(sqltypes.TypeRegClass)}, Result: Returns(sqltypes.TypeRegClass), ResultPseudo: Record, Volatility: Volatile,
		Set: &SetFunc{Columns: []SetColumn{{Name: "relid", Type: sqltypes.TypeRegClass}, {Name: "parentrelid", Type: sqltypes.TypeRegClass},
			{Name: "isleaf", Type: sqltypes.TypeBool}, {Name: "level", Type: sqltypes.TypeInt4}},
			Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
				e, os, o, err := partitionMember(ctx, a[0])
				if err != nil || o == nil {
					return Table(nil), err
				}
				var rows [][]sqltypes.Value
				var walk func(o *object, level int64)
				walk = func(o *object, level int64) {
					parent := nullV
					if p := os.parentOf(o); p != nil && o.table.Bound != nil {
						parent = regclass(e, p)
					}
					rows = append(rows, []sqltypes.Value{regclass(e, o), parent, boolV(o.kind != 'p'), intV(level)})
					if o.kind == 'p' {
						for _, c := range os.childrenOf(o) {
							walk(c, level+1)
						}
					}
				}
				walk(o, 0)
				return Table(rows), nil
			}}})
}
