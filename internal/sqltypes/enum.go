package sqltypes

import (
	"encoding/json"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Enum types (CREATE TYPE ... AS ENUM). Unlike the built-in types, each
// enum is defined by the catalog: a Type of ID Enum (or an array whose
// Elem is Enum) points at its EnumType, which knows the labels and their
// order. A Value of an enum is KindEnum with the label in S, the label's
// sort order in F and the EnumType in X, so values compare, hash and key
// by their declared order without reaching for the catalog.
//
// A label's sort order never changes once given (ALTER TYPE ... ADD VALUE
// BEFORE/AFTER puts the new label at the midpoint of its neighbours, as
// PostgreSQL does): it is what rows and index keys store, so a label can
// be renamed without touching data, and a stored value decodes through
// the EnumType of the snapshot reading it.

// EnumType is one enum type's definition.
type EnumType struct {
	// OID and ArrayOID are pg_type's OIDs of the type and of its array
	// type.
	OID      uint32 `json:"oid"`
	ArrayOID uint32 `json:"array_oid"`
	// Name is the type's name, as identifiers fold.
	Name string `json:"name"`
	// Labels are the values in sort order.
	Labels []EnumLabel `json:"labels"`
}

// EnumLabel is one value of an enum: pg_enum's row.
type EnumLabel struct {
	OID   uint32  `json:"oid"`
	Label string  `json:"label"`
	Order float64 `json:"order"`
	// Added is the catalog version of the ALTER TYPE ... ADD VALUE that
	// added the label (0 for a label CREATE TYPE gave).
	Added uint64 `json:"added,omitempty"`
	// Pending marks a label added by the transaction block whose
	// catalog snapshot holds it: PostgreSQL refuses to produce such a
	// value until the block commits (Safe), because an index could
	// otherwise keep a value whose pg_enum row a rollback removes. Set
	// only on a block's own snapshot, never stored.
	Pending bool `json:"-"`
}

// Safe is PostgreSQL's check_safe_enum_use: a value of an enum label
// added by the current, uncommitted transaction may not be made (by
// input, a cast or enum_range), only compared.
func (e *EnumType) Safe(l EnumLabel) error {
	if !l.Pending {
		return nil
	}
	return pgerr.New(pgerr.UnsafeNewEnumValueUsage, "unsafe use of new value \"%s\" of enum type %s", l.Label, e.TypeName()).
		WithHint("New enum values must be committed before they can be used.")
}

// EnumOf returns the type of the enum e.
func EnumOf(e *EnumType) Type { return Type{ID: Enum, Enum: e} }

// Label finds a label's entry.
func (e *EnumType) Label(label string) (EnumLabel, bool) {
	for _, l := range e.Labels {
		if l.Label == label {
			return l, true
		}
	}
	return EnumLabel{}, false
}

// Value returns the enum value of label l.
func (e *EnumType) Value(l EnumLabel) Value {
	return Value{K: KindEnum, S: l.Label, F: l.Order, X: e}
}

// ByOrder finds the label stored as sort order ord.
func (e *EnumType) ByOrder(ord float64) (EnumLabel, bool) {
	for _, l := range e.Labels {
		if l.Order == ord {
			return l, true
		}
	}
	return EnumLabel{}, false
}

// TypeName is the type's name as format_type prints it: quoted when it
// would not read back as the same identifier, qualified by its schema
// outside public (Name is the catalog's key, "schema.name").
func (e *EnumType) TypeName() string { return QuoteTypeKey(e.Name) }

// parseEnum is an enum's input function.
func parseEnum(t Type, s string) (Value, error) {
	if t.Enum == nil {
		return Null, pgerr.New(pgerr.InternalError, "enum type without a definition")
	}
	l, ok := t.Enum.Label(s)
	if !ok {
		return Null, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", t.Enum.TypeName(), s)
	}
	if err := t.Enum.Safe(l); err != nil {
		return Null, err
	}
	return t.Enum.Value(l), nil
}

// DecodeEnum returns the value of enum t stored as sort order ord.
func DecodeEnum(t Type, ord float64) (Value, error) {
	if t.Enum != nil {
		if l, ok := t.Enum.ByOrder(ord); ok {
			return t.Enum.Value(l), nil
		}
	}
	return Null, pgerr.New(pgerr.DataCorrupted, "invalid internal value for enum: %v", ord)
}

// EnumTypeOf returns the enum type a value belongs to (nil for another kind).
func (v Value) EnumTypeOf() *EnumType {
	e, _ := v.X.(*EnumType)
	return e
}

// typeJSON is how a Type is stored in descriptors: a user-defined type by
// its OID only (UDT), which the catalog links back to the definition of
// the snapshot it loads (LinkEnum).
type typeJSON struct {
	ID    TypeID
	Elem  TypeID
	Scale int16
	Width int
	UDT   uint32 `json:",omitempty"`
	// Dom is the OID of the domain the type is (or is an array of).
	Dom uint32 `json:",omitempty"`
	// Comp is the OID of the named composite type the type is (or is
	// an array of).
	Comp uint32 `json:",omitempty"`
	// Rng is the OID of the user-defined range type the type is (or
	// whose multirange it is, or an array of either).
	Rng uint32 `json:",omitempty"`
}

// MarshalJSON implements json.Marshaler.
func (t Type) MarshalJSON() ([]byte, error) {
	j := typeJSON{ID: t.ID, Elem: t.Elem, Scale: t.Scale, Width: t.Width}
	if t.Enum != nil {
		j.UDT = t.Enum.OID
	}
	if t.Domain != nil {
		j.Dom = t.Domain.OID
	}
	if t.Composite.Named() {
		j.Comp = t.Composite.OID
	}
	if t.Range != nil {
		j.Rng = t.Range.OID
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements json.Unmarshaler. A user-defined type comes
// back with an EnumType holding only its OID, for the catalog to link.
func (t *Type) UnmarshalJSON(b []byte) error {
	var j typeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*t = Type{ID: j.ID, Elem: j.Elem, Scale: j.Scale, Width: j.Width}
	if j.UDT != 0 {
		t.Enum = &EnumType{OID: j.UDT}
	}
	if j.Dom != 0 {
		t.Domain = &DomainType{OID: j.Dom}
	}
	if j.Comp != 0 {
		t.Composite = &CompositeType{OID: j.Comp}
	}
	if j.Rng != 0 {
		t.Range = &RangeType{OID: j.Rng}
	}
	return nil
}

// UDT returns the OID of the user-defined type t is or is an array of (0
// for a built-in type): a domain's, else an enum's.
func (t Type) UDT() uint32 {
	if t.Domain != nil {
		return t.Domain.OID
	}
	if t.Enum != nil {
		return t.Enum.OID
	}
	if t.Composite.Named() {
		return t.Composite.OID
	}
	if t.Range != nil {
		return t.Range.OID
	}
	return 0
}

// Same reports whether t and o are one type: == but for a user-defined
// type, which is one type by its OID whichever snapshot's definition each
// points at (a catalog reload makes new ones).
func (t Type) Same(o Type) bool {
	if t.Domain != nil && o.Domain != nil {
		same := t.Domain.OID == o.Domain.OID
		t.Domain, o.Domain = nil, nil
		return same && t.Same(o)
	}
	if t.Enum != nil && o.Enum != nil {
		same := t.Enum.OID == o.Enum.OID
		t.Enum, o.Enum = nil, nil
		return same && t.Same(o)
	}
	if t.Range != nil && o.Range != nil {
		same := t.Range.OID == o.Range.OID
		t.Range, o.Range = nil, nil
		return same && t.Same(o)
	}
	if t.Composite != nil && o.Composite != nil {
		// Named composites are one type by OID; anonymous records are
		// all record.
		same := t.Composite.OID == o.Composite.OID
		t.Composite, o.Composite = nil, nil
		return same && t == o
	}
	return t == o
}

// WithEnum returns t with its enum definition replaced by e.
func (t Type) WithEnum(e *EnumType) Type {
	t.Enum = e
	return t
}

// castEnum is a cast to or from an enum: from a string through the
// enum's input function, to a string through its label (PostgreSQL's I/O
// conversion casts); between enums only to the same type.
func castEnum(v Value, t Type) (Value, error) {
	switch {
	case v.K == KindEnum && t.ID == Enum:
		if e := v.EnumTypeOf(); e == nil || t.Enum == nil || e.OID == t.Enum.OID {
			return v, nil
		}
	case t.ID == Enum && (v.K == KindText || v.K == KindBPChar || v.K == KindCitext):
		s := v.S
		if v.K == KindBPChar {
			s = strings.TrimRight(s, " ") // bpchar's cast to text drops them
		}
		return parseEnum(t, s)
	case v.K == KindEnum && (t.Kind() == KindText || t.Kind() == KindBPChar || t.Kind() == KindCitext):
		return castValue(NewText(v.S), t, true)
	}
	return Null, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", TypeOfValue(v), t)
}
