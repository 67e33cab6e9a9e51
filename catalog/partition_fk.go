package catalog

import "strconv"

// Foreign keys and partitioned tables. A foreign key declared on a
// partitioned table is every partition's, present and future, without a
// copy in each partition's descriptor: a partition's foreign keys are its
// own and those of the partitioned tables above it (InheritedForeignKeys),
// with the same columns (every member of a tree has the root's columns in
// the root's order). A foreign key referencing a partitioned table
// references the rows of its partitions: its referenced columns are a
// unique key of the partitioned table, which includes the partition key,
// so the referenced values route to the one leaf that may hold the row,
// and that leaf has its copy of the key. PostgreSQL represents both with
// pg_constraint rows of their own (conparentid); the catalog relations
// derive those rows from these functions.

// InheritedFK is a foreign key a partition has from a partitioned table
// above it.
type InheritedFK struct {
	FK *ForeignKey
	// From is the partitioned table that declares it.
	From *Table
	// Index is the FK's place in From.ForeignKeys.
	Index int
}

// PartitionAncestors returns the partitioned tables above t, nearest
// first (none when t is no partition).
func (s *Snapshot) PartitionAncestors(t *Table) []*Table {
	var out []*Table
	for p := s.Parent(t); p != nil; p = s.Parent(p) {
		out = append(out, p)
	}
	return out
}

// InheritedForeignKeys returns the foreign keys t has from the partitioned
// tables above it, the nearest table's first.
func (s *Snapshot) InheritedForeignKeys(t *Table) []InheritedFK {
	var out []InheritedFK
	for _, a := range s.PartitionAncestors(t) {
		for i := range a.ForeignKeys {
			out = append(out, InheritedFK{FK: &a.ForeignKeys[i], From: a, Index: i})
		}
	}
	return out
}

// AllForeignKeys returns t's foreign keys: its own, then those it has
// from the partitioned tables above it.
func (s *Snapshot) AllForeignKeys(t *Table) []*ForeignKey {
	var out []*ForeignKey
	for i := range t.ForeignKeys {
		out = append(out, &t.ForeignKeys[i])
	}
	for _, in := range s.InheritedForeignKeys(t) {
		out = append(out, in.FK)
	}
	return out
}

// PartitionReference is a foreign key referencing a partitioned table
// above a partition, seen from that partition.
type PartitionReference struct {
	Reference
	// Via is the partitioned table the key references.
	Via *Table
}

// ReferencedThrough lists the foreign keys that reference the partitioned
// tables above t (declared on tables that are not partitions themselves:
// a partition's keys are its parent's, whose rows it holds), nearest
// table first.
func (s *Snapshot) ReferencedThrough(t *Table) []PartitionReference {
	var out []PartitionReference
	for _, a := range s.PartitionAncestors(t) {
		for _, r := range s.ReferencedBy(a.Name) {
			out = append(out, PartitionReference{Reference: r, Via: a})
		}
	}
	return out
}

// FKCloneNames returns the names PostgreSQL gives the copies of child's
// foreign key fk on the members of the partitioned table ref it
// references (its pg_constraint rows with confrelid a partition), by
// member ID: ChooseConstraintName's <table>_<columns>_fkey, numbered
// past the names the child's constraints take, in the order the
// partitions were created.
func (s *Snapshot) FKCloneNames(child *Table, fk *ForeignKey, ref *Table) map[uint64]string {
	out := map[uint64]string{}
	if !ref.IsPartitioned() {
		return out
	}
	base := child.BareName()
	for _, c := range fk.Columns {
		base += "_" + child.Columns[c].Name
	}
	used := map[string]bool{}
	for _, c := range child.Constraints() {
		used[c.Name] = true
	}
	n := 0
	for _, m := range s.Descendants(ref) {
		if m.Bound == nil {
			continue
		}
		for ; ; n++ {
			tail := "_fkey"
			if n > 0 {
				tail += strconv.Itoa(n)
			}
			head := base
			if len(head)+len(tail) > 63 {
				head = head[:63-len(tail)]
			}
			if name := head + tail; !used[name] {
				used[name] = true
				out[m.ID] = name
				break
			}
		}
	}
	return out
}
