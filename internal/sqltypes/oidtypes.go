package sqltypes

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// The system types of PostgreSQL's catalogs: oid, the reg* aliases of oid,
// name, "char", int2vector and oidvector. Catalog relations and the
// functions over them use them; they are not column types of user tables.
//
// Representation:
//
//	oid                 KindInt, I = the OID (0 .. 4294967295)
//	regclass, regtype   KindInt, I = the OID, S = the object's name as the
//	  ... (reg*)        type's output function prints it ("" when no object
//	                    has that OID: the number prints instead). The name
//	                    is looked up when the value is made (a cast), since
//	                    printing a value needs no catalog then.
//	name                KindText, at most 63 bytes
//	"char"              KindText, one byte (or empty)
//	int2vector,         KindArray with Vector set: lower bound 0, printed
//	  oidvector         as its elements separated by spaces ("1 2")
//	void                KindText, always "" (its text and binary forms are empty)
//	aclitem             KindText, its output text (aclitem.go); its input
//	                    looks roles up, so the caller makes it

// System reports whether t is one of the catalogs' system types.
func (id TypeID) System() bool {
	return id >= Oid && id <= Void || id == RegConfig || id == RegDictionary || id == RegOper || id == RegOperator || id == RegCollation || id == ACLItem
}

// IsReg reports whether t is one of the reg* OID alias types.
func (t Type) IsReg() bool {
	return t.ID >= RegClass && t.ID <= RegRole || t.ID == RegConfig || t.ID == RegDictionary || t.ID == RegOper || t.ID == RegOperator || t.ID == RegCollation
}

// IsOIDLike reports whether t is oid or one of its reg* aliases.
func (t Type) IsOIDLike() bool { return t.ID == Oid || t.IsReg() }

// Common system types.
var (
	TypeOid          = Type{ID: Oid}
	TypeRegClass     = Type{ID: RegClass}
	TypeRegType      = Type{ID: RegType}
	TypeRegProc      = Type{ID: RegProc}
	TypeRegProcedure = Type{ID: RegProcedure}
	TypeRegNamespace = Type{ID: RegNamespace}
	// TypeRegOper and TypeRegOperator name operators.
	TypeRegOper     = Type{ID: RegOper}
	TypeRegOperator = Type{ID: RegOperator}
	TypeRegRole     = Type{ID: RegRole}
	// TypeRegCollation is regcollation.
	TypeRegCollation = Type{ID: RegCollation}
	TypeName         = Type{ID: Name}
	TypeChar         = Type{ID: Char}
	TypeInt2Vector   = Type{ID: Int2Vector}
	TypeOidVector    = Type{ID: OidVector}
	TypeVoid         = Type{ID: Void}
)

// SystemTypes lists the system types, in declaration order.
func SystemTypes() []Type {
	var out []Type
	for id := Oid; id <= Void; id++ {
		out = append(out, Type{ID: id})
	}
	return out
}

// NameDataLen is PostgreSQL's NAMEDATALEN: a name holds at most
// NameDataLen-1 bytes.
const NameDataLen = 64

// NewOID returns an oid value.
func NewOID(oid uint32) Value { return NewInt(int64(oid)) }

// NewReg returns a value of a reg* type: the OID and the name its output
// prints ("" prints the number).
func NewReg(oid uint32, name string) Value { return Value{K: KindInt, I: int64(oid), S: name} }

// TruncateName cuts s to a name's length, on a character boundary, as
// PostgreSQL's namein does.
func TruncateName(s string) string { return TruncateIdent(s, NameDataLen-1) }

// TruncateIdent shortens an identifier to at most n bytes without
// splitting a UTF-8 character (PostgreSQL's NAMEDATALEN rule, also for
// the names it generates).
func TruncateIdent(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// ParseOID reads an OID as oidin does: a decimal integer, negative values
// wrapping (-1 is 4294967295), surrounding blanks allowed.
func ParseOID(s string) (uint32, error) {
	t := strings.TrimSpace(s)
	i, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value %q is out of range for type oid", s)
		}
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type oid: %q", s)
	}
	if i < -2147483648 || i > 4294967295 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value %q is out of range for type oid", s)
	}
	return uint32(i), nil
}

// IsOIDText reports whether s is an OID in digits (a reg* input that needs
// no name lookup).
func IsOIDText(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// parseSystem is ParseText for the system types. A reg* type reads only
// an OID in digits here; names are looked up by the caller, which can see
// the catalog.
func parseSystem(t Type, s string) (Value, error) {
	switch {
	case t.ID == Oid:
		o, err := ParseOID(s)
		if err != nil {
			return Null, err
		}
		return NewOID(o), nil
	case t.ID == RegConfig && !IsOIDText(s):
		return ParseRegConfig(s)
	case t.ID == RegDictionary && !IsOIDText(s):
		return ParseRegDictionary(s)
	case t.IsReg():
		if !IsOIDText(s) {
			return Null, pgerr.New(pgerr.FeatureNotSupported, "%s input by name needs the catalog", t)
		}
		o, err := ParseOID(s)
		if err != nil {
			return Null, err
		}
		return NewReg(o, ""), nil
	case t.ID == ACLItem:
		return Null, errACLItemInput()
	case t.ID == Name:
		return NewText(TruncateName(s)), nil
	case t.ID == Char:
		return NewText(firstByte(s)), nil
	case t.ID == Int2Vector || t.ID == OidVector:
		return parseVector(t, s)
	}
	return Null, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported", t)
}

// errACLItemInput is the refusal of an aclitem input made without the
// catalog, which alone can say whether its roles exist.
func errACLItemInput() error {
	return pgerr.New(pgerr.FeatureNotSupported, "aclitem input needs the catalog")
}

// firstByte is "char"'s input and its cast from text: one byte, the
// first, or the one a backslash and three octal digits name (charin), held
// as its output text (CharText).
func firstByte(s string) string { return CharText(CharByte(s)) }

// CharByte is the byte a "char" value's text holds (firstByte, CharText):
// what charsend sends.
func CharByte(s string) byte {
	if len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]) {
		return (s[1]-'0')<<6 | (s[2]-'0')<<3 | (s[3] - '0')
	}
	if s == "" {
		return 0
	}
	return s[0]
}

// CharText is a "char" byte as PostgreSQL's charout prints it: nothing for
// 0, a backslash and three octal digits for a byte with its high bit set
// (not text on its own), else the byte.
func CharText(b byte) string {
	switch {
	case b == 0:
		return ""
	case b >= 0x80:
		return string([]byte{'\\', '0' + b>>6, '0' + b>>3&7, '0' + b&7})
	}
	return string([]byte{b})
}

// CharToInt is "char"'s cast to integer (chartoi4): its byte, signed.
func CharToInt(v Value) Value { return NewInt(int64(int8(CharByte(v.S)))) }

// intToChar is integer's cast to "char" (i4tochar): the byte of a value
// in a signed byte's range.
func intToChar(i int64) (Value, error) {
	if i < -128 || i > 127 {
		return Null, pgerr.New(pgerr.NumericValueOutOfRange, "\"char\" out of range")
	}
	return NewText(CharText(byte(int8(i)))), nil
}

// VectorElem is the element type of int2vector (smallint) and oidvector
// (oid).
func VectorElem(t Type) Type {
	if t.ID == Int2Vector {
		return TypeInt2
	}
	return TypeOid
}

// NewVector returns an int2vector or oidvector of the given elements.
func NewVector(t Type, elems []Value) Value {
	a := &ArrayValue{Elem: VectorElem(t), Elems: elems, Vector: true, Dims: []int32{int32(len(elems))}, Lower: []int32{0}}
	if len(elems) == 0 {
		a.Dims, a.Lower = nil, nil
	}
	return NewArray(a)
}

// parseVector reads "1 2 3" (int2vectorin, oidvectorin).
func parseVector(t Type, s string) (Value, error) {
	var elems []Value
	for _, f := range strings.Fields(s) {
		var v Value
		var err error
		if t.ID == Int2Vector {
			v, err = ParseText(TypeInt2, f)
		} else {
			var o uint32
			o, err = ParseOID(f)
			v = NewOID(o)
		}
		if err != nil {
			return Null, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: %q", t, s)
		}
		elems = append(elems, v)
	}
	return NewVector(t, elems), nil
}

// appendVector prints a vector's elements separated by spaces.
func appendVector(buf []byte, a *ArrayValue) []byte {
	for i, e := range a.Elems {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = AppendText(buf, e)
	}
	return buf
}

// castSystem converts v to a system type t, or reports ok false when the
// pair is not a system cast. Text input goes through ParseText; integers
// convert to oid (int8 range-checked) and to the reg* types by number;
// reg* and oid convert among themselves by number (the name, if wanted,
// is the caller's to look up).
func castSystem(v Value, t Type) (Value, bool, error) {
	switch {
	case t.ID == ACLItem:
		// The binder converts to aclitem with the catalog; a value of
		// another type reaching here had no such conversion.
		return Null, true, errACLItemInput()
	case t.IsOIDLike() && v.K == KindInt:
		if v.I < -2147483648 || v.I > 4294967295 {
			return Null, true, pgerr.New(pgerr.NumericValueOutOfRange, "OID out of range")
		}
		o := uint32(v.I)
		if t.ID == Oid {
			return NewOID(o), true, nil
		}
		return NewReg(o, ""), true, nil
	case (t.ID == Name || t.ID == Char) && v.K == KindText:
		return parseSystemOK(t, v.S)
	case t.ID == Char && v.K == KindInt:
		c, err := intToChar(v.I)
		return c, true, err
	case (t.ID == Int2Vector || t.ID == OidVector) && v.K == KindArray:
		a := v.Array()
		elems := make([]Value, len(a.Elems))
		for i, e := range a.Elems {
			c, err := Cast(e, VectorElem(t))
			if err != nil {
				return Null, true, err
			}
			elems[i] = c
		}
		return NewVector(t, elems), true, nil
	}
	return Null, false, nil
}

func parseSystemOK(t Type, s string) (Value, bool, error) {
	v, err := parseSystem(t, s)
	return v, true, err
}

// Record shapes: a record type's Width names the fields it has (zproxy's
// records come from the functions that return them, whose fields are
// fixed), and Elem is the type of a field that follows its argument.
const (
	// RecordExpandArray is information_schema._pg_expandarray's row:
	// (x elem, n integer).
	RecordExpandArray = 1
)

// RecordField returns the position and type of a field of record type t.
func RecordField(t Type, name string) (int, Type, bool) {
	if t.ID != Record {
		return 0, Type{}, false
	}
	if t.Composite != nil {
		i, ok := t.Composite.Field(name)
		if !ok {
			return 0, Type{}, false
		}
		return i, t.Composite.Fields[i].Type, true
	}
	switch t.Width {
	case RecordExpandArray:
		switch name {
		case "x":
			return 0, Type{ID: t.Elem}, true
		case "n":
			return 1, TypeInt4, true
		}
	}
	return 0, Type{}, false
}

// NewRecord returns a row value of the given fields.
func NewRecord(fields []Value) Value {
	return NewArray(&ArrayValue{Elem: TypeUnknown, Elems: fields, Dims: []int32{int32(len(fields))}, Record: true})
}

// appendRecord prints a row as record_out does: (a,b), a field quoted when
// it is empty or holds a delimiter, quote, backslash or blank.
func appendRecord(buf []byte, a *ArrayValue) []byte {
	return appendRecordStyled(buf, a, Style{})
}

// appendRecordStyled is appendRecord in a session whose output settings
// are st.
func appendRecordStyled(buf []byte, a *ArrayValue, st Style) []byte {
	buf = append(buf, '(')
	for i, f := range a.Elems {
		if i > 0 {
			buf = append(buf, ',')
		}
		if f.IsNull() {
			continue
		}
		s := string(AppendTextStyled(nil, a.RecordFieldType(i), f, st))
		if s == "" || strings.ContainsAny(s, "(),\\\" \t\n") {
			s = `"` + strings.NewReplacer(`"`, `""`, `\`, `\\`).Replace(s) + `"`
		}
		buf = append(buf, s...)
	}
	return append(buf, ')')
}
