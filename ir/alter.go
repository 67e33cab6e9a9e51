package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/parser"
)

// AlterTable is ALTER TABLE (or ALTER INDEX ... RENAME): the executor
// applies the actions, all or none, to the table as it is when the change
// commits (executor.AlterTable).
type AlterTable struct {
	Table    string
	IfExists bool
	// Tag is the command tag when it is not ALTER TABLE (ALTER
	// MATERIALIZED VIEW).
	Tag string
	// View: the relation is a stored view (RENAME, SET SCHEMA, SET/DROP
	// DEFAULT, SET/RESET options).
	View bool
	// Only is ALTER TABLE ONLY: SET / DROP DEFAULT of a partitioned
	// table is not its partitions' (the binder refuses the other column
	// actions of ONLY when it has partitions, as PostgreSQL does).
	Only    bool
	Actions []AlterAction
	// Constraints are the column constraints of the ADD COLUMN actions,
	// added once the actions are done (addcolumn_constraints.go).
	Constraints []*AddConstraint
	// RewriteChecks, when an action rewrites the rows (Rewrites), are the
	// CHECK constraints that read a column whose type changes, bound over
	// the row as the statement leaves it: every rewritten row must pass.
	RewriteChecks []BoundCheck
}

// Rewrites reports whether an action of x gives every row a new value
// (an ALTER COLUMN ... TYPE with a Convert).
func (x *AlterTable) Rewrites() bool {
	for _, a := range x.Actions {
		if a.Convert != nil {
			return true
		}
	}
	return false
}

// Kind implements Statement.
func (*AlterTable) Kind() string { return "alter_table" }

// Describe implements Statement.
func (x *AlterTable) Describe() Description {
	d := ddl(refs(ObjectRelation, x.Table)...)
	if x != nil {
		d.Tag = x.Tag
		for _, a := range x.Actions {
			if a.SetSchema {
				// The binder's key in the new schema: moving there
				// needs CREATE on it, as creating there does.
				if d.CreatesIn, _ = catalog.SplitName(a.NewName); d.CreatesIn == "" {
					d.CreatesIn = catalog.PublicSchema
				}
			}
		}
	}
	return d
}

// AlterAction is one bound action.
type AlterAction struct {
	parser.AlterAction
	// NewColumn is ADD COLUMN's column (its Missing set when a constant
	// default fills the existing rows); NewSequence its SERIAL or identity
	// sequence.
	NewColumn   *catalog.Column
	NewSequence *catalog.Sequence
	// Volatile is ADD COLUMN's default when it must be evaluated for each
	// existing row (nextval(), random()): the rows are rewritten, each
	// with a value of its own (executor/fillcolumn.go).
	Volatile bool
	// Fill is such a default bound (cast to the column's type), evaluated
	// once per existing row; nil when NewSequence gives the values.
	Fill Expr
	// DefaultSequence is the sequence SET DEFAULT's expression draws from.
	DefaultSequence string
	// Reshard, when set, is the new placement of SET / RESET (shards,
	// shard_columns), the statement's only action (shards.go).
	Reshard *Reshard
	// Attach is ATTACH PARTITION's bound partition.
	Attach *AttachPartition
	// Convert is ALTER COLUMN ... TYPE's new value of the column, bound
	// over the row as it was (the USING expression, or the column, with
	// the assignment cast to the new type), when the change rewrites the
	// rows; nil when the stored values stay as they are.
	Convert Expr
}

// AttachPartition is what ATTACH PARTITION makes of a table: its bound
// in the partitioned table, and the partitioned table's indexes it lacks,
// created on it once it is attached.
type AttachPartition struct {
	Bound   *catalog.PartitionBound
	Indexes []*CreateIndex
}

// Truncate empties tables.
type Truncate struct {
	Tables []*catalog.Table
	// RestartIdentity resets the sequences their columns own.
	RestartIdentity bool
	Cascade         bool
}

// Kind implements Statement.
func (*Truncate) Kind() string { return "truncate" }

// Describe implements Statement: TRUNCATE is DML (log_statement 'mod');
// zproxy empties a table by starting a new generation of its rows, a
// catalog change.
func (*Truncate) Describe() Description {
	return Description{Class: ClassDML, ChangesSchema: true, Writes: true}
}

// Lock is LOCK TABLE: the tables (and views) to lock in one mode until the
// transaction block ends.
type Lock struct {
	Tables []*catalog.Table
	Views  []*catalog.View
	// Mode is the lock mode in capitals ("ACCESS SHARE").
	Mode   string
	NoWait bool
}

// Kind implements Statement.
func (*Lock) Kind() string { return "lock" }

// Describe implements Statement: LOCK reads and writes no rows.
// PostgreSQL refuses the modes stronger than ROW EXCLUSIVE in a read-only
// transaction; zproxy refuses those modes everywhere (session/lock.go).
func (l *Lock) Describe() Description {
	return Description{Class: ClassUtility, Tag: "LOCK TABLE"}
}

// AlterOwner is ALTER TABLE | SEQUENCE | VIEW ... OWNER TO: one of Table,
// View and Sequence is set.
type AlterOwner struct {
	Table    *catalog.Table
	View     *catalog.View
	Sequence *catalog.Sequence
	// Role is the new owner as written (current_user and the like
	// unresolved).
	Role string
	// Tag is the command tag: ALTER TABLE, ALTER SEQUENCE or ALTER VIEW,
	// as the statement was spelled.
	Tag string
	// Missing names the relation IF EXISTS did not find (nothing else is
	// set then: the statement only says so).
	Missing string
	// LargeObject is ALTER LARGE OBJECT's object (nothing else is set
	// then): data, not the catalog, so the session checks its owner as
	// it rewrites the metadata.
	LargeObject uint32
}

// Kind implements Statement.
func (*AlterOwner) Kind() string { return "alter_owner" }

// Describe implements Statement: only the owner (or a superuser) may give
// a relation away.
func (a *AlterOwner) Describe() Description {
	switch {
	case a.View != nil:
		return ddl(refs(ObjectView, a.View.Name)...).tagged(a.Tag)
	case a.Sequence != nil:
		return ddl(refs(ObjectSequence, a.Sequence.Name)...).tagged(a.Tag)
	case a.Table != nil:
		return ddl(refs(ObjectTable, a.Table.Name)...).tagged(a.Tag)
	case a.LargeObject != 0:
		return Description{Class: ClassDDL, Writes: true, Tag: a.Tag}
	}
	return ddl().tagged(a.Tag)
}

// Reindex is REINDEX: each index named is built anew beside the old one,
// which it then replaces.
type Reindex struct {
	// Object is what the statement named: "index", "table", "schema",
	// "database" or "system".
	Object string
	// Targets are the indexes to rebuild, each with its table.
	Targets []ReindexTarget
	// Tables are the tables named, TABLE's with none reported by a
	// NOTICE.
	Tables       []*catalog.Table
	Concurrently bool
	Verbose      bool
	// Database is the database REINDEX DATABASE named ("" for none),
	// which must be the session's.
	Database string
}

// ReindexTarget is one index of a REINDEX and its table.
type ReindexTarget struct {
	Table *catalog.Table
	Index *catalog.Index
}

// Kind implements Statement.
func (*Reindex) Kind() string { return "reindex" }

// Describe implements Statement: only the owners of the tables may
// rebuild their indexes.
func (x *Reindex) Describe() Description {
	var owns []ObjectRef
	if x.Object == "index" {
		for _, t := range x.Targets {
			owns = append(owns, ObjectRef{Kind: ObjectIndex, Name: t.Index.Name, Owner: t.Table.Owner})
		}
		return Description{Class: ClassDDL, ChangesSchema: true, Writes: true, Owns: owns}
	}
	for _, t := range x.Tables {
		owns = append(owns, ObjectRef{Kind: ObjectTable, Name: t.Name, Owner: t.Owner})
	}
	return Description{Class: ClassDDL, ChangesSchema: true, Writes: true, Owns: owns}
}
