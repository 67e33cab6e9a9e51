package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PartitionOID is the system column tableoid of a row written to a
// partitioned table (RETURNING of INSERT, UPDATE, DELETE): the OID of
// the leaf partition the row is in, which is the leaf its first Width
// columns route to (every row of a leaf is within its bound).
type PartitionOID struct {
	Set   *catalog.PartitionSet
	Width int
	// OIDs are the leaves' OIDs by table ID.
	OIDs map[uint64]sqltypes.Value
}

// Type implements Expr.
func (e *PartitionOID) Type() sqltypes.Type { return sqltypes.TypeOid }

// Eval implements Expr.
func (e *PartitionOID) Eval(_ *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	leaf, err := e.Set.Route(row[:e.Width])
	if err != nil {
		return sqltypes.Value{}, err
	}
	return e.OIDs[leaf.ID], nil
}

// String implements Expr.
func (e *PartitionOID) String() string { return "tableoid" }

// AppendChildren implements Expr.
func (e *PartitionOID) AppendChildren(dst []Expr) []Expr { return dst }

// WithChildren implements Expr.
func (e *PartitionOID) WithChildren([]Expr) Expr { return e }
