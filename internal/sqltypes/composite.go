package sqltypes

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Composite types and record values. A record value is an ArrayValue
// with Record set: its elements are the fields, FieldTypes (when known)
// their types. Its type is Type{ID: Record}: anonymous (PostgreSQL's
// record, OID 2249) when Composite is nil or has OID 0, otherwise the
// composite type Composite names: a CREATE TYPE ... AS (...) type or a
// table's row type. An anonymous Composite (OID 0) still lists the
// fields, so (r).f of a subquery's whole row resolves.

// CompositeType is one composite type's definition: pg_type's row (typtype
// 'c') and its attributes.
type CompositeType struct {
	// Name is the type's name; OID and ArrayOID its pg_type OIDs (0 for
	// an anonymous record), RelID its pg_class OID (typrelid).
	Name     string           `json:"name"`
	OID      uint32           `json:"oid"`
	ArrayOID uint32           `json:"array_oid"`
	RelID    uint32           `json:"relid,omitempty"`
	Fields   []CompositeField `json:"fields"`
	// TableRow marks a table's row type (never stored: columns have
	// CREATE TYPE's composite types only).
	TableRow bool `json:"-"`
}

// CompositeField is one attribute of a composite type.
type CompositeField struct {
	Name string `json:"name"`
	Type Type   `json:"type"`
}

// CompositeOf returns the type of composite c.
func CompositeOf(c *CompositeType) Type { return Type{ID: Record, Composite: c} }

// AnonymousRecord is the record type of fields named names of types
// types: OID 2249, but with its fields known.
func AnonymousRecord(names []string, types []Type) Type {
	c := &CompositeType{Name: "record", Fields: make([]CompositeField, len(types))}
	for i := range types {
		c.Fields[i] = CompositeField{Name: names[i], Type: types[i]}
	}
	return CompositeOf(c)
}

// Named reports whether c is a named composite type (not an anonymous
// record).
func (c *CompositeType) Named() bool { return c != nil && c.OID != 0 }

// TypeName is the type's name as format_type prints it (qualified
// outside public: Name is the catalog's key).
func (c *CompositeType) TypeName() string {
	if !c.Named() {
		return "record"
	}
	return QuoteTypeKey(c.Name)
}

// FieldTypes lists the types of the fields.
func (c *CompositeType) FieldTypes() []Type {
	out := make([]Type, len(c.Fields))
	for i, f := range c.Fields {
		out[i] = f.Type
	}
	return out
}

// Field returns the position of the field named name.
func (c *CompositeType) Field(name string) (int, bool) {
	for i, f := range c.Fields {
		if f.Name == name {
			return i, true
		}
	}
	return 0, false
}

// IsNamedComposite reports whether t is a named composite type (not an
// array of one).
func (t Type) IsNamedComposite() bool { return t.ID == Record && t.Composite.Named() }

// NewRecordOf returns a row value of the given fields of the given types
// (types may be nil when unknown; it is shared, never changed).
func NewRecordOf(fields []Value, types []Type) Value {
	return NewArray(&ArrayValue{Elem: TypeUnknown, Elems: fields, Dims: []int32{int32(len(fields))}, Record: true, FieldTypes: types})
}

// RecordFieldType is the type of field i of record a: its FieldTypes' when
// known, else the type its value's kind suggests.
func (a *ArrayValue) RecordFieldType(i int) Type {
	if i < len(a.FieldTypes) && a.FieldTypes[i].ID != Unknown {
		return a.FieldTypes[i]
	}
	return TypeOfKind(a.Elems[i].K)
}

// TypeOfKind is the type a value of kind k is read as when no type is at
// hand (a field of a record built without its types).
func TypeOfKind(k Kind) Type {
	switch k {
	case KindInt:
		return TypeInt8
	case KindFloat:
		return TypeFloat8
	case KindBool:
		return TypeBool
	case KindNumeric:
		return TypeNumeric
	case KindArray:
		return Type{ID: Record}
	}
	for id, in := range infos {
		if in.kind == k && TypeID(id) != Unknown && in.oid != 0 {
			return Type{ID: TypeID(id)}
		}
	}
	return TypeText
}

// IsRowNull is the IS NULL test of a row: true when every field is NULL
// (or the row itself is NULL).
func IsRowNull(v Value) bool {
	if v.IsNull() {
		return true
	}
	if v.K != KindArray || !v.Array().Record {
		return false
	}
	for _, f := range v.Array().Elems {
		if !f.IsNull() {
			return false
		}
	}
	return true
}

// IsRowNotNull is the IS NOT NULL test of a row: true when no field is
// NULL (and the row is not NULL).
func IsRowNotNull(v Value) bool {
	if v.IsNull() {
		return false
	}
	if v.K != KindArray || !v.Array().Record {
		return true
	}
	for _, f := range v.Array().Elems {
		if f.IsNull() {
			return false
		}
	}
	return true
}

func malformedRecord(s, detail string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed record literal: \"%s\"", s).WithDetail("%s", detail)
}

// SplitRecord splits the text of a record as PostgreSQL's record_in does:
// '(' then the fields separated by commas, then ')'; an empty field is
// NULL, a field may be double-quoted (a doubled quote is one), a backslash
// takes the next character literally; blanks are kept but before '(' and
// after ')'. n is the number of fields wanted (22P02 with record_in's
// DETAIL when the text has more or fewer). null[i] marks the NULLs.
func SplitRecord(s string, n int) (fields []string, null []bool, err error) {
	return splitRecord(s, n, false)
}

// splitRecord is SplitRecord; short lets the text end early, its missing
// fields NULL (a value stored before ADD ATTRIBUTE).
func splitRecord(s string, n int, short bool) (fields []string, null []bool, err error) {
	p := 0
	for p < len(s) && isPGSpace(s[p]) {
		p++
	}
	if p >= len(s) || s[p] != '(' {
		return nil, nil, malformedRecord(s, "Missing left parenthesis.")
	}
	p++
	fields, null = make([]string, n), make([]bool, n)
	var buf strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			switch {
			case p < len(s) && s[p] == ',':
				p++
			case short && p < len(s) && s[p] == ')':
				for ; i < n; i++ {
					null[i] = true
				}
				return fields, null, nil
			default:
				return nil, nil, malformedRecord(s, "Too few columns.")
			}
		}
		if p < len(s) && (s[p] == ',' || s[p] == ')') {
			null[i] = true
			continue
		}
		buf.Reset()
		inQuote := false
		for inQuote || !(p < len(s) && (s[p] == ',' || s[p] == ')')) {
			if p >= len(s) {
				return nil, nil, malformedRecord(s, "Unexpected end of input.")
			}
			ch := s[p]
			p++
			switch {
			case ch == '\\':
				if p >= len(s) {
					return nil, nil, malformedRecord(s, "Unexpected end of input.")
				}
				buf.WriteByte(s[p])
				p++
			case ch == '"' && !inQuote:
				inQuote = true
			case ch == '"' && p < len(s) && s[p] == '"':
				buf.WriteByte('"')
				p++
			case ch == '"':
				inQuote = false
			default:
				buf.WriteByte(ch)
			}
		}
		fields[i] = buf.String()
	}
	if p >= len(s) || s[p] != ')' {
		return nil, nil, malformedRecord(s, "Too many columns.")
	}
	p++
	for p < len(s) && isPGSpace(s[p]) {
		p++
	}
	if p < len(s) {
		return nil, nil, malformedRecord(s, "Junk after right parenthesis.")
	}
	return fields, null, nil
}

// parseRecordStyled is record_in for composite type t, the fields read in
// a session whose settings are st. An anonymous record has no input
// function (0A000, as PostgreSQL says).
func parseRecordStyled(t Type, s string, st Style) (Value, error) {
	return parseRecord(t, s, st, false)
}

// ParseStoredRecord reads a composite value as the store keeps it (its
// record text, written with the default output settings): a value
// stored before ALTER TYPE ... ADD ATTRIBUTE has fewer fields, the
// missing ones NULL, also in nested composites.
func ParseStoredRecord(t Type, s string) (Value, error) {
	return ParseTextStyled(t, s, Style{storedRecords: true})
}

// HasComposite reports whether t is a composite type or an array of one,
// whose stored text ParseStoredRecord reads.
func (t Type) HasComposite() bool { return t.Composite.Named() }

func parseRecord(t Type, s string, st Style, stored bool) (Value, error) {
	c := t.Composite
	if !c.Named() {
		return Null, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	parts, null, err := splitRecord(s, len(c.Fields), stored)
	if err != nil {
		return Null, err
	}
	fields := make([]Value, len(parts))
	types := c.FieldTypes()
	for i, f := range c.Fields {
		if null[i] {
			if stored {
				continue
			}
			if err := CheckDomain(f.Type, Null, false); err != nil {
				return Null, err
			}
			continue
		}
		v, err := ParseTextStyled(f.Type, parts[i], st)
		if err != nil {
			return Null, err
		}
		fields[i] = v
	}
	return NewRecordOf(fields, types), nil
}

// castRecord converts a record value to composite type t field by field
// (the fields' assignment casts), as PostgreSQL converts a row of
// matching arity to a composite type.
func castRecord(v Value, t Type, explicit bool) (Value, error) {
	a := v.Array()
	c := t.Composite
	if !c.Named() {
		return v, nil
	}
	if len(a.Elems) != len(c.Fields) {
		return Null, pgerr.New(pgerr.CannotCoerce, "cannot cast type record to %s", c.TypeName()).
			WithDetail("Input has too %s columns.", map[bool]string{true: "many", false: "few"}[len(a.Elems) > len(c.Fields)])
	}
	out := make([]Value, len(a.Elems))
	for i, f := range c.Fields {
		r, err := castValue(a.Elems[i], f.Type, explicit)
		if err != nil {
			return Null, err
		}
		out[i] = r
	}
	return NewRecordOf(out, c.FieldTypes()), nil
}

// compositeNames lists the names of c's fields.
func compositeNames(c *CompositeType) []string {
	out := make([]string, len(c.Fields))
	for i, f := range c.Fields {
		out[i] = f.Name
	}
	return out
}

// PopulateRecord is json_populate_record and jsonb_populate_record: a
// record of composite type t whose fields are the object doc's keys of
// their names, converted as PostgreSQL's populate_record_field does (a
// string by the field type's input, null as NULL, an object into a
// composite field, an array into an array field, anything else by its
// text), the fields doc lacks taken from base (NULL when base is).
func PopulateRecord(t Type, base, doc Value) (Value, error) {
	if doc.IsNull() {
		return base, nil
	}
	j, err := jsonTree(doc)
	if err != nil {
		return Null, err
	}
	switch j.Kind {
	case JSONArray:
		return Null, pgerr.New(pgerr.InvalidParameterValue, "cannot call populate_composite on an array")
	case JSONObject:
	default:
		return Null, pgerr.New(pgerr.InvalidParameterValue, "cannot call populate_composite on a scalar")
	}
	return populateComposite(t, base, j)
}

func populateComposite(t Type, base Value, j *JSONValue) (Value, error) {
	c := t.Composite
	fields := make([]Value, len(c.Fields))
	if !base.IsNull() {
		copy(fields, base.Array().Elems)
	}
	for i, f := range c.Fields {
		node := j.field(f.Name)
		if node == nil {
			continue
		}
		v, err := populateField(f.Type, node)
		if err != nil {
			return Null, err
		}
		fields[i] = v
	}
	return NewRecordOf(fields, c.FieldTypes()), nil
}

// populateField converts one JSON value to a field of type t.
func populateField(t Type, node *JSONValue) (Value, error) {
	switch {
	case node.Kind == JSONNull:
		return Null, CheckDomain(t, Null, false)
	case t.ID == JSON:
		return NewJSON(jsonNodeText(node)), nil
	case t.ID == JSONB:
		return ParseText(t, jsonNodeText(node))
	case t.IsNamedComposite() && node.Kind == JSONObject:
		return populateComposite(t, Null, node)
	case t.ID == Array && node.Kind == JSONArray:
		return populateArray(t, node)
	case node.Kind == JSONString:
		return ParseText(t, node.Str)
	}
	return ParseText(t, jsonNodeText(node))
}

// populateArray converts a JSON array to an array of type t, nested JSON
// arrays being its dimensions (the first elements' nesting sets how
// many), as PostgreSQL's populate_array.
func populateArray(t Type, node *JSONValue) (Value, error) {
	elem := t.ElemType()
	var dims []int32
	for n := node; ; n = &n.Elems[0] {
		dims = append(dims, int32(len(n.Elems)))
		if len(n.Elems) == 0 || n.Elems[0].Kind != JSONArray || len(dims) == MaxArrayDims {
			break
		}
	}
	var elems []Value
	var walk func(n *JSONValue, level int) error
	walk = func(n *JSONValue, level int) error {
		if int32(len(n.Elems)) != dims[level] {
			return pgerr.New(pgerr.InvalidTextRepresentation, "malformed JSON array").
				WithDetail("Multidimensional arrays must have sub-arrays with matching dimensions.")
		}
		for i := range n.Elems {
			e := &n.Elems[i]
			if level < len(dims)-1 {
				if e.Kind != JSONArray {
					return pgerr.New(pgerr.InvalidTextRepresentation, "expected JSON array")
				}
				if err := walk(e, level+1); err != nil {
					return err
				}
				continue
			}
			v, err := populateField(elem, e)
			if err != nil {
				return err
			}
			elems = append(elems, v)
		}
		return nil
	}
	if err := walk(node, 0); err != nil {
		return Null, err
	}
	if len(elems) == 0 {
		return NewArray(&ArrayValue{Elem: elem}), nil
	}
	return NewArray(&ArrayValue{Elem: elem, Dims: dims, Elems: elems}), nil
}

// jsonNodeText is a node's JSON text: as written in json, normalized in
// jsonb.
func jsonNodeText(node *JSONValue) string {
	if node.raw != "" {
		return node.raw
	}
	return JSONBText(node)
}
