package catalog

// Exclusion marks the index of an EXCLUDE constraint (pg_constraint
// contype 'x'; the index has Constraint set too, so it is named, renamed
// and dropped as a UNIQUE constraint's index is). No two rows for which
// the index has entries may have every element's operator true between
// them: the executor checks each written row against the candidates the
// index finds (executor/exclusion.go).
//
// zproxy has no GiST: the index is a btree over the elements (columns or
// expressions, as an expression index's key parts), equality elements first, so the rows that could conflict
// with a row are the entries under the prefix of its equality values (all
// of them when no element is an equality), each entry holding the
// element values the operators compare. The catalogs show the index as
// PostgreSQL's, over the elements in their declared order with the
// declared access method.
type Exclusion struct {
	// Method is the access method the constraint named (gist, btree,
	// hash).
	Method   string             `json:"method"`
	Elements []ExclusionElement `json:"elements"`
	// Deferrable and InitiallyDeferred are condeferrable and
	// condeferred.
	Deferrable        bool `json:"deferrable,omitempty"`
	InitiallyDeferred bool `json:"initially_deferred,omitempty"`
}

// ExclusionElement is one element of an exclusion constraint: a column
// and the operator that must not hold between two rows' values of it.
type ExclusionElement struct {
	// Column is the column's ordinal, -1 for an expression.
	Column int `json:"column"`
	// Key is the element's key part in the index's Columns (a column or
	// an expression).
	Key int `json:"key"`
	// Op is the operator's name (=, &&, -|-, <>).
	Op string `json:"op"`
}

// IsEquality reports whether the element's operator is equality, whose
// rows conflict only with rows of the same value (the index's prefix).
func (e ExclusionElement) IsEquality() bool { return e.Op == "=" }

// ExclusionColumns are the constraint's element columns in declared order
// (pg_constraint.conkey), -1 for an expression.
func (x *Exclusion) ExclusionColumns() []int {
	out := make([]int, len(x.Elements))
	for i, e := range x.Elements {
		out[i] = e.Column
	}
	return out
}
