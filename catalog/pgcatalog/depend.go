package pgcatalog

import (
	"github.com/zproxy/zproxy/catalog"
)

// Dependencies between user objects, as PostgreSQL records them in
// pg_depend: pg_dump orders what it dumps by them (a sequence before the
// default that calls it, a table before the view that reads it) and reads
// a sequence's OWNED BY from them.

// Catalog OIDs of the relations pg_depend's classid and refclassid name.
const (
	pgAttrdefOID       = 2604
	pgRewriteOID       = 2618
	pgCastClassOID     = 2605
	pgOperatorClassOID = 2617
)

// slotRewrite is the slot of a view's _RETURN rule (its pg_rewrite row).
const slotRewrite = 1

func init() {
	generate("pg_catalog.pg_depend", func(e *Env) []row {
		out := e.extensionDepends()
		if e.Snap == nil {
			return out
		}
		dep := func(classid, objid uint32, objsub int, refclassid, refobjid uint32, refsub int, deptype byte) {
			out = append(out, &pgDependRow{Classid: oidV(classid), Objid: oidV(objid), Objsubid: intV(int64(objsub)),
				Refclassid: oidV(refclassid), Refobjid: oidV(refobjid), Refobjsubid: intV(int64(refsub)), Deptype: charV(deptype)})
		}
		os := e.objects()
		for _, o := range os.list {
			switch {
			case o.table != nil && o.table.Virtual == nil && !o.isIndex():
				t := o.table
				for _, c := range o.cols {
					if c.deflt == "" {
						continue
					}
					def := ObjectOID(t.ID, slotAttrDef+uint32(c.ordinal))
					dep(pgAttrdefOID, def, 0, pgClassOID, o.oid, attnum(t, c.ordinal), 'a')
					if seqName := t.Columns[c.ordinal].Sequence; seqName != "" {
						if q := os.keys[seqName]; q != nil && q.seq != nil {
							dep(pgAttrdefOID, def, 0, pgClassOID, q.oid, 0, 'n')
						}
					}
				}
				// A foreign key depends on its own columns, on the
				// referenced columns and on the unique index it checks
				// against: pg_restore -j adds it only once the referenced
				// table's data is in (without these rows it raced the
				// referenced table's COPY).
				for i := range t.ForeignKeys {
					r := e.foreignKeyRow(t, i)
					if r == nil {
						continue
					}
					fk, con := &t.ForeignKeys[i], uint32(r.Oid.I)
					for _, c := range fk.Columns {
						dep(pgConstraintOID, con, 0, pgClassOID, o.oid, attnum(t, c), 'a')
					}
					if ref, err := e.Snap.TableByKey(fk.RefTable); err == nil {
						for _, c := range fk.RefColumns {
							dep(pgConstraintOID, con, 0, pgClassOID, uint32(r.Confrelid.I), attnum(ref, c), 'n')
						}
					}
					dep(pgConstraintOID, con, 0, pgClassOID, uint32(r.Conindid.I), 0, 'n')
				}
			case o.isIndex() && o.index == nil && o.table != nil:
				// A primary key's index belongs to its constraint, as a
				// unique constraint's does: pg_dump follows a foreign
				// key's dependency on the index to the constraint, so
				// pg_restore -j adds the key after it.
				dep(pgClassOID, o.oid, 0, pgConstraintOID, ObjectOID(o.table.ID, slotPKey), 0, 'i')
			case o.isIndex() && o.index != nil && o.table != nil:
				e.indexDepends(o, dep)
			case o.seq != nil && o.seq.OwnedBy != "":
				table, column, _ := catalog.SplitOwnedBy(o.seq.OwnedBy)
				owner := os.keys[table]
				if owner == nil || owner.table == nil {
					continue
				}
				i := owner.table.ColumnIndex(column)
				if i < 0 {
					continue
				}
				kind := byte('a')
				if owner.table.Columns[i].Identity != "" {
					kind = 'i'
				}
				dep(pgClassOID, o.oid, 0, pgClassOID, owner.oid, attnum(owner.table, i), kind)
			}
			if rule := o.rule(); rule != 0 {
				dep(pgRewriteOID, rule, 0, pgClassOID, o.oid, 0, 'i')
				for _, name := range o.dependsOn() {
					if r := os.keys[name]; r != nil && r.oid != o.oid {
						dep(pgRewriteOID, rule, 0, pgClassOID, r.oid, 0, 'n')
					}
				}
			}
		}
		// A table's constraint depends on its columns (conkey), a CHECK
		// also through its expression ('n'), as PostgreSQL's
		// CreateConstraintEntry and recordDependencyOnSingleRelExpr
		// record them. (A foreign key's rows are above.)
		for _, r := range generators["pg_catalog.pg_constraint"](e) {
			c := r.(*pgConstraintRow)
			kind := c.Contype.S
			if c.Conrelid.I == 0 || c.Conkey.IsNull() || kind != "p" && kind != "u" && kind != "c" && kind != "x" {
				continue
			}
			for _, k := range c.Conkey.Array().Elems {
				if k.I == 0 {
					continue // an expression's key
				}
				if kind == "c" {
					dep(pgConstraintOID, uint32(c.Oid.I), 0, pgClassOID, uint32(c.Conrelid.I), int(k.I), 'n')
				}
				dep(pgConstraintOID, uint32(c.Oid.I), 0, pgClassOID, uint32(c.Conrelid.I), int(k.I), 'a')
			}
		}
		// A cast and an operator depend on their user-defined function
		// (pg_dump dumps casts before functions unless told).
		for _, c := range e.Snap.Casts() {
			if c.Func.OID != 0 {
				dep(pgCastClassOID, c.OID, 0, pgProcOID, c.Func.OID, 0, 'n')
			}
		}
		for _, o := range e.Snap.AllOperators() {
			if o.Func.OID != 0 {
				dep(pgOperatorClassOID, o.OID, 0, pgProcOID, o.Func.OID, 0, 'n')
			}
		}
		return out
	})
	generate("pg_catalog.pg_rewrite", func(e *Env) []row {
		var out []row
		for _, o := range e.objects().list {
			if rule := o.rule(); rule != 0 {
				def, _ := o.definition()
				out = append(out, &pgRewriteRow{Oid: oidV(rule), Rulename: nameV("_RETURN"), EvClass: oidV(o.oid),
					EvType: charV('1'), EvEnabled: charV('O'), IsInstead: boolV(true), EvQual: textV("<>"), EvAction: textV(def)})
			}
		}
		return out
	})
}

// indexDepends records index o's dependencies, as PostgreSQL's
// index_create does: a constraint's index (unique, exclusion) belongs to
// its constraint ('i'); another depends on each column it keys or
// includes, or on the whole table when it has none; and any index on the
// columns its expressions and its predicate read ('a' on its own table).
// pg_dump and ALTER TABLE ... DROP COLUMN read them per column.
func (e *Env) indexDepends(o *object, dep func(classid, objid uint32, objsub int, refclassid, refobjid uint32, refsub int, deptype byte)) {
	t, ix := o.table, o.index
	table := ObjectOID(t.ID, 0)
	// The keys as declared, as pg_index's indkey shows them (a gist
	// index's stored keys are of its own making).
	keys, exprs := ix.DeclaredColumns(), false
	if ix.Constraint {
		dep(pgClassOID, o.oid, 0, pgConstraintOID, ObjectOID(ix.ID, slotPKey), 0, 'i')
	}
	simple := false
	for _, k := range keys {
		exprs = exprs || k.Column < 0
		if k.Column >= 0 && !ix.Constraint {
			dep(pgClassOID, o.oid, 0, pgClassOID, table, attnum(t, k.Column), 'a')
			simple = true
		}
	}
	if !ix.Constraint {
		for _, c := range ix.Include {
			dep(pgClassOID, o.oid, 0, pgClassOID, table, attnum(t, c), 'a')
			simple = true
		}
		if !simple {
			dep(pgClassOID, o.oid, 0, pgClassOID, table, 0, 'a')
		}
	}
	if exprs {
		for _, c := range ix.ExprColumns {
			dep(pgClassOID, o.oid, 0, pgClassOID, table, attnum(t, c), 'a')
		}
	}
	if ix.Predicate != "" && CheckColumns != nil {
		for _, c := range CheckColumns(e.Snap, t, ix.Predicate) {
			dep(pgClassOID, o.oid, 0, pgClassOID, table, attnum(t, c), 'a')
		}
	}
}
