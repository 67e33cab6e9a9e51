package ir

import (
	"github.com/zproxy/zproxy/catalog"
)

// AddConstraint is ALTER TABLE t ADD [CONSTRAINT name] UNIQUE | FOREIGN
// KEY | CHECK ... [NOT VALID]. Exactly one of Unique, FK and Check is set.
type AddConstraint struct {
	Table string
	// Unique is the new constraint's index (ID and state set when it is
	// built, online).
	Unique *catalog.Index
	// UniquePartitions are Unique's copies on the partitions of a
	// partitioned table, built after it (as CreateIndex.Partitions).
	UniquePartitions []*CreateIndex
	// FK is the new foreign key; AutoIndex the index it needs on its
	// columns, built first (nil when the table has one).
	FK        *catalog.ForeignKey
	AutoIndex *catalog.Index
	// AutoIndexPartitions are AutoIndex's copies on the partitions of a
	// partitioned table (as CreateIndex.Partitions).
	AutoIndexPartitions []*CreateIndex
	// Check is the new check and CheckExpr its expression bound over a
	// row of the table, to validate the existing rows.
	Check     *catalog.Check
	CheckExpr Expr
	// Exclusion is a new exclusion constraint (its index, built online
	// before the existing rows are checked against each other).
	Exclusion *BoundExclusion
	// NotValid skips the validation of existing rows.
	NotValid bool
}

// Kind implements Statement.
func (*AddConstraint) Kind() string { return "alter_table" }

// Describe implements Statement.
func (x *AddConstraint) Describe() Description { return ddl(refs(ObjectTable, x.Table)...) }

// DropConstraint is ALTER TABLE t DROP CONSTRAINT [IF EXISTS] name
// [CASCADE].
type DropConstraint struct {
	Table    string
	Name     string
	IfExists bool
	// Cascade also drops the foreign keys that depend on a unique
	// constraint.
	Cascade bool
}

// Kind implements Statement.
func (*DropConstraint) Kind() string { return "alter_table" }

// Describe implements Statement.
func (x *DropConstraint) Describe() Description { return ddl(refs(ObjectTable, x.Table)...) }

// ValidateConstraint is ALTER TABLE t VALIDATE CONSTRAINT name: it checks
// the existing rows against a NOT VALID foreign key or check.
type ValidateConstraint struct {
	Table string
	Name  string
	// CheckExpr is the check's expression bound over a row of the table
	// (nil for a foreign key).
	CheckExpr Expr
}

// Kind implements Statement.
func (*ValidateConstraint) Kind() string { return "alter_table" }

// Describe implements Statement.
func (x *ValidateConstraint) Describe() Description { return ddl(refs(ObjectTable, x.Table)...) }

// RenameConstraint is ALTER TABLE t RENAME CONSTRAINT from TO to (a unique
// constraint's index is renamed with it).
type RenameConstraint struct {
	Table    string
	From, To string
}

// Kind implements Statement.
func (*RenameConstraint) Kind() string { return "alter_table" }

// Describe implements Statement.
func (x *RenameConstraint) Describe() Description { return ddl(refs(ObjectTable, x.Table)...) }

// SetConstraints is SET CONSTRAINTS {ALL | name, ...} {IMMEDIATE |
// DEFERRED}: when the checks of deferrable foreign keys run in the
// transaction block.
type SetConstraints struct {
	// Names are the constraints named (nil: ALL).
	Names     []string
	Immediate bool
}

// Kind implements Statement.
func (*SetConstraints) Kind() string { return "set_constraints" }

// Describe implements Statement.
func (*SetConstraints) Describe() Description { return Description{Class: ClassTCL} }
