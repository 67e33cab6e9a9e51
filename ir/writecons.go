package ir

import (
	"github.com/zproxy/zproxy/catalog"
)

// Constraints is what a write statement enforces beyond NOT NULL, the
// primary key and unique indexes (which its write conditions enforce): the
// CHECK constraints and foreign keys of every table it may write, which
// are its target and the tables its foreign keys' actions reach.
type Constraints struct {
	// Tables maps each such table's name to its constraints.
	Tables map[string]*TableConstraints
	// Txn: the statement checks or acts on foreign keys, so it runs in a
	// transaction even outside a transaction block (one of its own): its
	// reads of referenced and referencing rows and its writes then commit
	// together or not at all.
	Txn bool
	// Partitions is set when the target is a partitioned table: the rows
	// are written to (and read from) its partitions (catalog/partition.go).
	Partitions *catalog.PartitionSet
}

// TableConstraints are the constraints writes to one table enforce.
type TableConstraints struct {
	Table *catalog.Table
	// Checks are bound over a row of the table, in name order (the order
	// PostgreSQL evaluates them in, so the same one fails first).
	Checks []BoundCheck
	// Outgoing are the table's foreign keys, with the referenced tables.
	Outgoing []OutgoingFK
	// Incoming are the foreign keys referencing the table, with the
	// referencing tables.
	Incoming []IncomingFK
	// Defaults are the column defaults, for ON DELETE/UPDATE SET DEFAULT
	// (nil unless an incoming key sets them).
	Defaults []Expr
	// Generated are the table's generated columns, each expression bound
	// over a row of the table: every row written gets them computed.
	Generated []BoundGenerated
	// Exclusions are the table's exclusion constraints, checked on every
	// row an INSERT or UPDATE writes.
	Exclusions []BoundExclusion
	// PartitionOf, set when the table is a partition written directly,
	// is the partition tree's root set: a row the table takes must route
	// to it (PostgreSQL's partition constraint).
	PartitionOf *catalog.PartitionSet
	// Deferrable are the table's deferrable unique indexes (their
	// entries carry the primary key, catalog.Index.Deferrable): the
	// executor checks each new key at the end of the statement or, when
	// the constraint is deferred, at COMMIT.
	Deferrable []*catalog.Index
}

// BoundExclusion is an exclusion constraint (its index, Index.Exclusion)
// with each element's operator bound over a row of two values: the
// written row's value, then the other row's.
type BoundExclusion struct {
	Index *catalog.Index
	Ops   []Expr
}

// BoundGenerated is a generated column's expression bound over a row of
// its table (cast to the column's type).
type BoundGenerated struct {
	Column int
	Expr   Expr
}

// BoundCheck is a CHECK constraint bound over a row of its table.
type BoundCheck struct {
	Name string
	Expr Expr
}

// OutgoingFK is a foreign key of a table and the table it references.
type OutgoingFK struct {
	FK     *catalog.ForeignKey
	Parent *catalog.Table
	// ParentPartitions is set when Parent is partitioned: a referenced
	// row is in the leaf its values route to.
	ParentPartitions *catalog.PartitionSet
}

// IncomingFK is a foreign key referencing a table, and its table.
type IncomingFK struct {
	FK    *catalog.ForeignKey
	Child *catalog.Table
	// ChildPartitions is set when Child is partitioned: the referencing
	// rows are in its leaves.
	ChildPartitions *catalog.PartitionSet
	// Via is set when the key references a partitioned table above the
	// table written (whose rows are that table's): Via is that table and
	// CloneName the name PostgreSQL reports for the key's copy on the
	// table written (catalog.Snapshot.FKCloneNames).
	Via       *catalog.Table
	CloneName string
}

// For reports the constraints of the named table (nil when it has none).
func (c *Constraints) For(table string) *TableConstraints {
	if c == nil {
		return nil
	}
	return c.Tables[table]
}

// PartitionsOf returns the partition set the write routes rows through
// (nil for a table that is not partitioned, or no constraints).
func (c *Constraints) PartitionsOf() *catalog.PartitionSet {
	if c == nil {
		return nil
	}
	return c.Partitions
}
