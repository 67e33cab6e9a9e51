package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PartitionOID is the system column tableoid of a row written to a
// partitioned table (RETURNING of INSERT, UPDATE, DELETE, and the
// target's tableoid in their WHERE): the OID of the leaf partition the
// row is in, which is the leaf its columns route to (every row of a leaf
// is within its bound). Row reads them as column references, its
// children, so that whatever moves the expression onto another row
// layout (pushdown, projections, joins) moves them along, and the
// columns it reads are known (Columns).
type PartitionOID struct {
	Set *catalog.PartitionSet
	// Row are the partitioned table's columns, in its order, as read
	// from the row the expression is evaluated over.
	Row []Expr
	// OIDs are the leaves' OIDs by table ID.
	OIDs map[uint64]sqltypes.Value
}

// NewPartitionOID is tableoid of the rows of the partitioned table of
// set ps whose columns begin at offset of the row it reads.
func NewPartitionOID(ps *catalog.PartitionSet, offset int, oids map[uint64]sqltypes.Value) *PartitionOID {
	row := make([]Expr, len(ps.Root.Columns))
	for i, c := range ps.Root.Columns {
		row[i] = &ColRef{Index: offset + i, Name: c.Name, Typ: c.Type}
	}
	return &PartitionOID{Set: ps, Row: row, OIDs: oids}
}

// Type implements Expr.
func (e *PartitionOID) Type() sqltypes.Type { return sqltypes.TypeOid }

// Eval implements Expr.
func (e *PartitionOID) Eval(ctx *EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	vals := make([]sqltypes.Value, len(e.Row))
	for i, x := range e.Row {
		v, err := x.Eval(ctx, row)
		if err != nil {
			return sqltypes.Value{}, err
		}
		vals[i] = v
	}
	leaf, err := e.Set.Route(vals)
	if err != nil {
		return sqltypes.Value{}, err
	}
	return e.OIDs[leaf.ID], nil
}

// String implements Expr.
func (e *PartitionOID) String() string { return "tableoid" }

// AppendChildren implements Expr: the row's columns.
func (e *PartitionOID) AppendChildren(dst []Expr) []Expr { return append(dst, e.Row...) }

// WithChildren implements Expr.
func (e *PartitionOID) WithChildren(kids []Expr) Expr {
	c := *e
	c.Row = kids
	return &c
}
