package sqltypes

// User-defined range types (CREATE TYPE ... AS RANGE). A built-in range
// type is a TypeID of its own (Int4Range ... DateRange) whose subtype
// RangeSubtype knows; a user-defined one is a Type of ID UserRange whose
// Range points at its RangeType, the catalog's definition: the subtype,
// the names and OIDs of the type, its multirange type (ID UserMultirange,
// same Range) and their array types. Everything a range does goes through
// its Type (RangeValue.Typ), so the two kinds share one implementation:
// the bounds' I/O, comparison and key encoding are the subtype's.
//
// A user-defined range has no canonical function (zproxy cannot call a
// user's function from the type's code, so CREATE TYPE refuses one):
// its ranges keep the bounds as written, as numrange's do.

// RangeType is one user-defined range type's definition: pg_range's row
// and the pg_type rows of the range and multirange types.
type RangeType struct {
	// OID and ArrayOID are the range type's and its array's;
	// MultiOID and MultiArrayOID the multirange type's and its array's.
	OID           uint32 `json:"oid"`
	ArrayOID      uint32 `json:"array_oid"`
	MultiOID      uint32 `json:"multi_oid"`
	MultiArrayOID uint32 `json:"multi_array_oid"`
	// Name and MultiName are the catalog keys ("schema.name", or a bare
	// name in public) of the range and multirange types.
	Name      string `json:"name"`
	MultiName string `json:"multi_name"`
	// Subtype is the type of the bounds.
	Subtype Type `json:"subtype"`
	// SubtypeDiff is the subtype_diff function's name ("" for none),
	// SubtypeOpclass the btree operator class named by subtype_opclass
	// ("" for the subtype's default), Collation the collation named
	// ("" for the subtype's).
	SubtypeDiff    string `json:"subtype_diff,omitempty"`
	SubtypeOpclass string `json:"subtype_opclass,omitempty"`
	Collation      string `json:"collation,omitempty"`
	// SubtypeDiffOID, OpclassOID and CollationOID are pg_range's
	// rngsubdiff, rngsubopc and rngcollation.
	SubtypeDiffOID uint32 `json:"subtype_diff_oid,omitempty"`
	OpclassOID     uint32 `json:"opclass_oid,omitempty"`
	CollationOID   uint32 `json:"collation_oid,omitempty"`
}

// RangeOf returns the type of the user-defined range r.
func RangeOf(r *RangeType) Type { return Type{ID: UserRange, Range: r} }

// MultirangeOfUser returns the multirange type of the user-defined range r.
func MultirangeOfUser(r *RangeType) Type { return Type{ID: UserMultirange, Range: r} }

// TypeName is the range type's (multi: its multirange type's) name as
// format_type prints it.
func (r *RangeType) TypeName(multi bool) string {
	if multi {
		return QuoteTypeKey(r.MultiName)
	}
	return QuoteTypeKey(r.Name)
}

// oid is the OID of t, which is r's range or multirange type or an array
// of either.
func (r *RangeType) oid(t Type) uint32 {
	id := t.ID
	if id == Array {
		id = t.Elem
	}
	switch {
	case id == UserRange && t.ID == Array:
		return r.ArrayOID
	case id == UserRange:
		return r.OID
	case t.ID == Array:
		return r.MultiArrayOID
	}
	return r.MultiOID
}
