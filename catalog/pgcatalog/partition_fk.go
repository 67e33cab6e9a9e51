package pgcatalog

import (
	"github.com/zproxy/zproxy/catalog"
)

// The pg_constraint rows PostgreSQL keeps for foreign keys and partitioned
// tables (catalog/partition_fk.go): a partition's copy of each foreign key
// of the partitioned tables above it (conislocal false, conparentid the
// copy above), and, for a foreign key referencing a partitioned table, a
// copy naming each of its partitions (confrelid the partition, its own
// name: catalog.Snapshot.FKCloneNames). Neither is in the catalog; their
// OIDs are in slots of their own: a partition's inherited keys at
// slotInheritedFK + their place in catalog.Snapshot.InheritedForeignKeys,
// the copies naming a referenced partition at slotFKClone + the key's
// place in that partition's catalog.Snapshot.ReferencedThrough.
const (
	slotInheritedFK = slotForeignKey + 128
	slotFKClone     = slotForeignKey + 192
)

// partitionFK is one such derived foreign-key row.
type partitionFK struct {
	oid, parent uint32
	name        string
	// t is the referencing table, ref the referenced one (a partition,
	// for a copy naming one).
	t, ref *catalog.Table
	fk     *catalog.ForeignKey
}

// partitionFKs lists the derived foreign-key rows of table t (conrelid t).
func (e *Env) partitionFKs(t *catalog.Table) []partitionFK {
	s := e.Snap
	var out []partitionFK
	inh := s.InheritedForeignKeys(t)
	for j, in := range inh {
		ref, err := s.TableByKey(in.FK.RefTable)
		if err != nil {
			continue
		}
		parent := ObjectOID(in.From.ID, slotForeignKey+uint32(in.Index))
		if p := s.Parent(t); p != nil && p != in.From && p.ID != in.From.ID {
			// The copy on t's parent, at the same place in its list less
			// the parent's own keys.
			parent = ObjectOID(p.ID, slotInheritedFK+uint32(j-len(p.ForeignKeys)))
		}
		out = append(out, partitionFK{oid: ObjectOID(t.ID, slotInheritedFK+uint32(j)), parent: parent, name: in.FK.Name, t: t, ref: ref, fk: in.FK})
	}
	for i := range t.ForeignKeys {
		fk := &t.ForeignKeys[i]
		ref, err := s.TableByKey(fk.RefTable)
		if err != nil || !ref.IsPartitioned() {
			continue
		}
		names := s.FKCloneNames(t, fk, ref)
		for _, m := range s.Descendants(ref) {
			name, ok := names[m.ID]
			if !ok {
				continue
			}
			k := e.throughSlot(m, t, fk)
			parent := ObjectOID(t.ID, slotForeignKey+uint32(i))
			if p := s.Parent(m); p != nil && p.ID != ref.ID {
				parent = ObjectOID(p.ID, slotFKClone+uint32(e.throughSlot(p, t, fk)))
			}
			out = append(out, partitionFK{oid: ObjectOID(m.ID, slotFKClone+uint32(k)), parent: parent, name: name, t: t, ref: m, fk: fk})
		}
	}
	return out
}

// throughSlot is the place of t's key fk in m's ReferencedThrough.
func (e *Env) throughSlot(m, t *catalog.Table, fk *catalog.ForeignKey) int {
	for k, r := range e.Snap.ReferencedThrough(m) {
		if r.Child.ID == t.ID && r.FK.Name == fk.Name {
			return k
		}
	}
	return 0
}

// partitionFKRow is the pg_constraint row of a derived foreign key.
func (e *Env) partitionFKRow(p partitionFK) *pgConstraintRow {
	var keys, refKeys []int64
	for _, c := range p.fk.Columns {
		keys = append(keys, int64(attnum(p.t, c)))
	}
	for _, c := range p.fk.RefColumns {
		refKeys = append(refKeys, int64(attnum(p.ref, c)))
	}
	index := ObjectOID(p.ref.ID, slotPKeyIndex)
	if ix, _, ok := p.ref.KeyFor(p.fk.RefColumns); ok && ix != nil {
		index = ObjectOID(ix.ID, 0)
	}
	r := constraintRow(p.oid, p.name, 'f', ObjectOID(p.t.ID, 0), index, keys, "")
	r.Confrelid, r.Confkey = oidV(ObjectOID(p.ref.ID, 0)), int2Array(refKeys)
	r.Conparentid, r.Conislocal, r.Coninhcount, r.Connoinherit = oidV(p.parent), boolV(false), intV(1), boolV(false)
	fkRowOptions(r, p.fk)
	return r
}
