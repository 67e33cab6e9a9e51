package parser

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// CastFunc is the name of the function call a Postgres cast becomes:
// expr::type, CAST(expr AS type) and type 'literal' are all rewritten to
// zp_cast(expr, 'canonical type name'). Use CastOf to recognise it.
const CastFunc = "zp_cast"

// unsupportedTypes are Postgres type names zproxy knows but does not
// support; they get 0A000 rather than "does not exist".
var unsupportedTypes = map[string]bool{
	"serial":  true,
	"serial2": true, "serial4": true, "serial8": true, "smallserial": true, "bigserial": true,
	"regdictionary": true, "aclitem": true, "pg_node_tree": true,
}

// parseType reads a Postgres type name starting at token i: one of the
// types of DESIGN.md with its aliases and modifiers (varchar(n), char(n),
// numeric(p, s), interval fields and precision, timestamp and float
// precision) and array decorations (T[], T[n], T[][], T ARRAY, T ARRAY[n]).
// It returns the index after the type.
// grammarTypeNames are the type names PostgreSQL's grammar knows and
// pg_type does not: quoted, they name no type.
var grammarTypeNames = map[string]bool{"integer": true, "int": true, "smallint": true, "bigint": true, "real": true,
	"decimal": true, "dec": true, "boolean": true, "float": true, "character": true, "double": true, "national": true, "nchar": true}

func (r *rewriter) parseType(i int) (sqltypes.Type, int, error) {
	start := i // where PostgreSQL points a type modifier's errors (typenameTypeMod)
	if r.peek(i, "pg_catalog") && r.peek(i+1, ".") {
		i += 2 // every type zproxy knows lives in pg_catalog
	}
	if r.peek(i, "public") && r.peek(i+1, ".") && i+2 < len(r.toks) {
		if t, ok := sqltypes.LookupType(r.toks[i+2].val); ok && t.ID.IsExtension() {
			i += 2 // ... but the extensions', in public as CREATE EXTENSION puts them
		}
	}
	if i < len(r.toks) && r.toks[i].kind == tkQIdent && r.toks[i].val == "char" {
		return r.arrayDecoration(sqltypes.TypeChar, i+1) // "char", not char(1)
	}
	if i >= len(r.toks) || r.toks[i].kind != tkIdent && r.toks[i].kind != tkQIdent {
		return sqltypes.Type{}, i, r.syntaxErrorAt(i)
	}
	word := r.toks[i].val
	if r.toks[i].kind == tkQIdent && (grammarTypeNames[word] || word != strings.ToLower(word)) {
		// Quoted, a name is looked up in pg_type as written ("int4",
		// "regtype", as TypeORM writes them); the SQL spellings the
		// grammar knows (integer, double precision) are no type names.
		return sqltypes.Type{}, i, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", word).WithPosition(r.pos(i))
	}
	next := i + 1
	peek := func(k int, w string) bool { return k < len(r.toks) && r.toks[k].is(w) }
	name := word
	precision := -1 // of timestamp(p), time(p), timestamptz(p), timetz(p)
	switch word {
	case "double":
		if !peek(next, "precision") {
			return sqltypes.Type{}, i, r.syntaxErrorAt(next)
		}
		name, next = "double precision", next+1
	case "character", "char":
		if peek(next, "varying") {
			name, next = "character varying", next+1
		}
	case "bit":
		if peek(next, "varying") {
			name, next = "bit varying", next+1
		}
	case "timestamp", "time":
		if peek(next, "(") {
			p, k, err := r.parenInt(next)
			if err != nil {
				return sqltypes.Type{}, i, err
			}
			precision, next = p, k
		}
		if (peek(next, "with") || peek(next, "without")) && peek(next+1, "time") && peek(next+2, "zone") {
			if r.toks[next].val == "with" {
				name += "tz"
			}
			next += 3
		}
	}
	var t sqltypes.Type
	switch name {
	case "float":
		t = sqltypes.TypeFloat8
		if peek(next, "(") {
			p, k, err := r.parenInt(next)
			if err != nil {
				return t, i, err
			}
			if p < 1 || p > 53 {
				return t, i, pgerr.New(pgerr.InvalidParameterValue, "precision for type float must be between 1 and 53 bits").WithPosition(r.pos(next))
			}
			if p <= 24 {
				t = sqltypes.TypeFloat4
			}
			next = k
		}
	case "interval":
		var err error
		if t, next, err = r.intervalType(next); err != nil {
			return t, i, err
		}
	default:
		var ok bool
		t, ok = sqltypes.LookupType(name)
		if !ok {
			if unsupportedTypes[name] {
				return t, i, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported", name).WithPosition(r.pos(i))
			}
			return t, i, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name).WithPosition(r.pos(i))
		}
	}
	switch {
	case (t.ID == sqltypes.Varchar || t.ID == sqltypes.BPChar) && peek(next, "("):
		n, k, err := r.parenInt(next)
		if err != nil {
			return t, i, err
		}
		kind := "varchar"
		if t.ID == sqltypes.BPChar {
			kind = "char"
		}
		if n < 1 {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "length for type %s must be at least 1", kind).WithPosition(r.pos(start))
		}
		if n > 10485760 {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "length for type %s cannot exceed 10485760", kind).WithPosition(r.pos(start))
		}
		t.Width, next = n, k
	case t.ID == sqltypes.Bit || t.ID == sqltypes.VarBit:
		if !peek(next, "(") {
			if t.ID == sqltypes.Bit {
				t.Width = 1 // bit without a length is bit(1), as char is char(1)
			}
			break
		}
		n, k, err := r.parenInt(next)
		if err != nil {
			return t, i, err
		}
		if n < 1 {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "length for type %s must be at least 1", bitTypeWord(t)).WithPosition(r.pos(start))
		}
		if n > sqltypes.BitMaxLength {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "length for type %s cannot exceed %d", bitTypeWord(t), sqltypes.BitMaxLength).WithPosition(r.pos(start))
		}
		t.Width, next = n, k
	case t.ID == sqltypes.Numeric && peek(next, "("):
		args, k, err := r.parenInts(next)
		if err != nil {
			return t, i, err
		}
		if len(args) > 2 {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "invalid NUMERIC type modifier").WithPosition(r.pos(start))
		}
		p, sc := args[0], 0
		if len(args) == 2 {
			sc = args[1]
		}
		if p < 1 || p > 1000 {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "NUMERIC precision %d must be between 1 and 1000", p).WithPosition(r.pos(start))
		}
		if sc < -1000 || sc > 1000 {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "NUMERIC scale %d must be between -1000 and 1000", sc).WithPosition(r.pos(start))
		}
		t, next = sqltypes.NumericType(p, sc), k
	case (t.ID == sqltypes.Geometry || t.ID == sqltypes.Geography) && peek(next, "("):
		// geometry(Point, 4326): a geometry type's name and an SRID.
		var args []string
		k := next + 1
		for k < len(r.toks) && !r.toks[k].is(")") {
			w := r.toks[k].val
			if r.toks[k].is("-") && k+1 < len(r.toks) {
				k++
				w = "-" + r.toks[k].val
			}
			args = append(args, w)
			k++
			if r.peek(k, ",") {
				k++
			} else if !r.peek(k, ")") {
				return t, i, r.syntaxErrorAt(min(k, len(r.toks)))
			}
		}
		if k >= len(r.toks) {
			return t, i, r.syntaxErrorAt(k)
		}
		gt, err := sqltypes.GeomType(t.ID, args)
		if err != nil {
			return t, i, err
		}
		t, next = gt, k+1
	case (t.ID == sqltypes.TimestampTZ && word == "timestamptz" || t.ID == sqltypes.TimeTZ && word == "timetz") && peek(next, "("):
		p, k, err := r.parenInt(next)
		if err != nil {
			return t, i, err
		}
		precision, next = p, k
	}
	if precision >= 0 {
		t = sqltypes.DatetimeTypeWithPrecision(t.ID, precision)
	}
	return r.arrayDecoration(t, next)
}

// parseTypeRef is parseType where a user-defined type may stand too (a
// cast's target, a column's type): a name that is no built-in type comes
// back as name, with "[]" when an array of it is meant, for the binder to
// look up in the catalog (the front end has none).
func (r *rewriter) parseTypeRef(i int) (t sqltypes.Type, name string, next int, err error) {
	ident := func(k int) bool { return k < len(r.toks) && (r.toks[k].kind == tkIdent || r.toks[k].kind == tkQIdent) }
	qualified := ident(i) && r.peek(i+1, ".") && ident(i+2)
	if !qualified || r.toks[i].val == "pg_catalog" || r.toks[i].val == "public" {
		// (A user schema's name is never read as a built-in type's.)
		t, next, err = r.parseType(i)
		if pgerr.CodeOf(err) != pgerr.UndefinedObject {
			return t, "", next, err
		}
	} else {
		err = pgerr.New(pgerr.UndefinedObject, "type \"%s.%s\" does not exist", r.toks[i].val, r.toks[i+2].val).WithPosition(r.pos(i))
	}
	k := i
	if !ident(k) {
		return t, "", next, err
	}
	name = r.toks[k].val
	if r.peek(k+1, ".") && ident(k+2) {
		// schema.name, public's too (the binder resolves it); pg_catalog
		// has the built-in types alone, which parseType read.
		switch schema := name; schema {
		case "pg_catalog":
			if r.toks[k+2].val != "record" {
				return t, "", next, err
			}
			name = "record" // the pseudo-type, which the binder knows
		default:
			name = schema + "." + r.toks[k+2].val
		}
		k += 2
	}
	decorated, next, derr := r.arrayDecoration(sqltypes.TypeText, k+1)
	if derr != nil {
		return t, "", next, derr
	}
	if decorated.IsArray() {
		name += "[]"
	}
	return sqltypes.Type{}, name, next, nil
}

// castTarget reads the type at i (parseTypeRef) and returns its name as
// zp_cast's type argument spells it, and where the type ends.
func (r *rewriter) castTarget(i int) (string, int, error) {
	typ, udt, next, err := r.parseTypeRef(i)
	if err != nil {
		return "", next, err
	}
	if udt != "" {
		return userTypeCast(udt), next, nil
	}
	return castName(typ), next, nil
}

// userTypeCast is the zp_cast type argument naming a user-defined type:
// the name in double quotes (no built-in type's canonical name starts
// with one but "char", which parseType reads itself), in a string
// constant.
func userTypeCast(name string) string {
	base, array := strings.CutSuffix(name, "[]")
	s := `"` + strings.ReplaceAll(base, `"`, `""`) + `"`
	if array {
		s += "[]"
	}
	return strings.ReplaceAll(s, "'", "''")
}

// UserTypeCastOf recognises a cast to a user-defined type (see
// parseTypeRef): the operand, the type's name and whether an array of it
// is meant.
func UserTypeCastOf(e ast.ExprNode) (operand ast.ExprNode, name string, array bool, ok bool) {
	fc, isCall := e.(*ast.FuncCallExpr)
	if !isCall || fc.FnName.L != CastFunc || len(fc.Args) != 2 {
		return nil, "", false, false
	}
	v, isValue := fc.Args[1].(ast.ValueExpr)
	if !isValue {
		return nil, "", false, false
	}
	s, isString := v.GetValue().(string)
	if !isString || !strings.HasPrefix(s, `"`) || s == `"char"` || s == `"char"[]` {
		return nil, "", false, false
	}
	s, array = strings.CutSuffix(s, "[]")
	s = strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
	return fc.Args[0], strings.ReplaceAll(s, `""`, `"`), array, true
}

// arrayDecoration reads what may follow a type: [] or [n] any number of
// times, or ARRAY optionally followed by [n]. PostgreSQL ignores the sizes
// and the number of dimensions; so does zproxy.
func (r *rewriter) arrayDecoration(t sqltypes.Type, next int) (sqltypes.Type, int, error) {
	peek := func(k int, w string) bool { return k < len(r.toks) && r.toks[k].is(w) }
	bracket := func(k int) (int, bool) {
		if !peek(k, "[") {
			return k, false
		}
		if peek(k+1, "]") {
			return k + 2, true
		}
		if k+2 < len(r.toks) && r.toks[k+1].kind == tkNumber && r.toks[k+2].is("]") {
			return k + 3, true
		}
		return k, false
	}
	array := false
	if peek(next, "array") {
		array = true
		next++
		if k, ok := bracket(next); ok {
			next = k
		}
	} else {
		for {
			k, ok := bracket(next)
			if !ok {
				break
			}
			array, next = true, k
		}
		if peek(next, "[") {
			return t, next, r.syntaxErrorAt(next + 1)
		}
	}
	if array {
		t = sqltypes.ArrayOf(t)
	}
	return t, next, nil
}

// intervalFieldWords are the qualifier words of an interval type.
var intervalFieldWords = map[string]bool{"year": true, "month": true, "day": true, "hour": true, "minute": true, "second": true}

// intervalType reads what follows INTERVAL: an optional precision, or a
// field qualifier (YEAR, DAY TO SECOND, ...) with an optional precision on
// SECOND, as PostgreSQL's grammar allows.
func (r *rewriter) intervalType(next int) (sqltypes.Type, int, error) {
	peek := func(k int, w string) bool { return k < len(r.toks) && r.toks[k].is(w) }
	prec := -1
	precision := func(k int) (int, error) {
		p, end, err := r.parenInt(k)
		if err != nil {
			return k, err
		}
		prec = min(p, 6) // PostgreSQL warns and uses 6
		return end, nil
	}
	if peek(next, "(") {
		k, err := precision(next)
		if err != nil {
			return sqltypes.Type{}, next, err
		}
		return sqltypes.IntervalType(sqltypes.IntervalFull, prec), k, nil
	}
	fields := sqltypes.IntervalFull
	if next < len(r.toks) && r.toks[next].kind == tkIdent && intervalFieldWords[r.toks[next].val] {
		q := r.toks[next].val
		next++
		if peek(next, "to") && next+1 < len(r.toks) && intervalFieldWords[r.toks[next+1].val] {
			q += " to " + r.toks[next+1].val
			next += 2
		}
		f, ok := sqltypes.IntervalFieldsByName(q)
		if !ok {
			return sqltypes.Type{}, next, r.syntaxErrorAt(next - 1)
		}
		fields = f
		if strings.HasSuffix(q, "second") && peek(next, "(") {
			k, err := precision(next)
			if err != nil {
				return sqltypes.Type{}, next, err
			}
			next = k
		}
	}
	return sqltypes.IntervalType(fields, prec), next, nil
}

// parenInts reads "( n [, n ...] )" of signed integers.
func (r *rewriter) parenInts(i int) ([]int, int, error) {
	if !r.peek(i, "(") {
		return nil, i, r.syntaxErrorAt(i)
	}
	var out []int
	k := i + 1
	for {
		neg := false
		if r.peek(k, "-") || r.peek(k, "+") {
			neg = r.toks[k].val == "-"
			k++
		}
		if k >= len(r.toks) || r.toks[k].kind != tkNumber {
			return nil, i, r.syntaxErrorAt(min(k, len(r.toks)))
		}
		n, err := strconv.Atoi(r.toks[k].val)
		if err != nil {
			return nil, i, r.syntaxErrorAt(k)
		}
		if neg {
			n = -n
		}
		out = append(out, n)
		k++
		if r.peek(k, ")") {
			return out, k + 1, nil
		}
		if !r.peek(k, ",") {
			return nil, i, r.syntaxErrorAt(min(k, len(r.toks)))
		}
		k++
	}
}

// parenInt reads "( integer )" at token i.
func (r *rewriter) parenInt(i int) (int, int, error) {
	if i+2 >= len(r.toks) || r.toks[i+1].kind != tkNumber || !r.toks[i+2].is(")") {
		return 0, i, r.syntaxErrorAt(min(i+1, len(r.toks)))
	}
	n, err := strconv.Atoi(r.toks[i+1].val)
	if err != nil {
		return 0, i, r.syntaxErrorAt(i + 1)
	}
	return n, i + 3, nil
}

// castName is the type name written into zp_cast(expr, 'name').
func castName(t sqltypes.Type) string { return t.String() }

// CastOf recognises the cast form the scanner produces. If e is
// zp_cast(operand, 'type') it returns the operand and the target type.
func CastOf(e ast.ExprNode) (operand ast.ExprNode, t sqltypes.Type, ok bool) {
	fc, isCall := e.(*ast.FuncCallExpr)
	if !isCall || fc.FnName.L != CastFunc || len(fc.Args) != 2 {
		return nil, t, false
	}
	v, isValue := fc.Args[1].(ast.ValueExpr)
	if !isValue {
		return nil, t, false
	}
	name, isString := v.GetValue().(string)
	if !isString {
		return nil, t, false
	}
	t, ok = typeFromName(name)
	if !ok {
		return nil, t, false
	}
	return fc.Args[0], t, true
}

// typeFromName parses sqltypes.Type.String() output back.
func typeFromName(name string) (sqltypes.Type, bool) { return sqltypes.ParseTypeName(name) }

// tidbTypes is the TiDB spelling each column type is rewritten to in CREATE
// TABLE. Every column type of a CREATE TABLE goes through this rewrite (a
// type outside DESIGN.md is refused by the scanner), so the TiDB types a
// statement carries are exactly these and ColumnType can map them back
// without ambiguity; the odd choices (mediumtext for unbounded varchar,
// binary(16) for uuid) just have to be distinct.
var tidbTypes = map[sqltypes.TypeID]string{
	sqltypes.Int2:        "smallint",
	sqltypes.Int4:        "int",
	sqltypes.Int8:        "bigint",
	sqltypes.Float4:      "float",
	sqltypes.Float8:      "double",
	sqltypes.Text:        "text",
	sqltypes.Varchar:     "mediumtext", // with a width: varchar(n)
	sqltypes.Bool:        "boolean",
	sqltypes.Timestamp:   "datetime(6)",
	sqltypes.TimestampTZ: "timestamp(6)",
	sqltypes.Date:        "date",
	sqltypes.Bytea:       "longblob",
	sqltypes.UUID:        "binary(16)",
}

// tidbType spells t for TiDB's parser. Types TiDB has no faithful
// equivalent of (numeric up to 1000 digits and negative scales, interval,
// char(n) distinct from uuid's binary(16), json vs jsonb, arrays) travel as
// a one-member enum holding the PostgreSQL type name: no other rewrite
// produces an enum, so ColumnType reads it back without ambiguity.
func tidbType(t sqltypes.Type) string {
	if t.DatetimePrecision() >= 0 {
		return "enum('" + t.String() + "')"
	}
	if t.ID == sqltypes.Varchar && t.Width > 0 {
		return "varchar(" + strconv.Itoa(t.Width) + ")"
	}
	if s, ok := tidbTypes[t.ID]; ok && t.ID != sqltypes.Array {
		return s
	}
	return "enum('" + t.String() + "')"
}

// ColumnType maps the TiDB field type of a column definition parsed by
// Parse back to the Postgres type the user wrote (timestamp vs timestamptz,
// varchar(n) with its n, text, bytea and uuid all distinct, and the enum
// that carries numeric, interval, char(n), json, jsonb and array types). A field type
// that Parse never produces is reported as 0A000.
func ColumnType(ft *types.FieldType) (sqltypes.Type, error) {
	switch ft.GetType() {
	case mysql.TypeShort:
		return sqltypes.TypeInt2, nil
	case mysql.TypeLong:
		return sqltypes.TypeInt4, nil
	case mysql.TypeLonglong:
		return sqltypes.TypeInt8, nil
	case mysql.TypeFloat:
		return sqltypes.TypeFloat4, nil
	case mysql.TypeDouble:
		return sqltypes.TypeFloat8, nil
	case mysql.TypeBlob:
		if ft.GetCharset() != charset.CharsetBin {
			return sqltypes.TypeText, nil
		}
	case mysql.TypeMediumBlob:
		if ft.GetCharset() != charset.CharsetBin {
			return sqltypes.Type{ID: sqltypes.Varchar}, nil
		}
	case mysql.TypeVarchar:
		if ft.GetFlen() > 0 {
			return sqltypes.Type{ID: sqltypes.Varchar, Width: ft.GetFlen()}, nil
		}
	case mysql.TypeTiny:
		if ft.GetFlen() == 1 {
			return sqltypes.TypeBool, nil
		}
	case mysql.TypeDatetime:
		return sqltypes.TypeTimestamp, nil
	case mysql.TypeTimestamp:
		return sqltypes.TypeTimestampTZ, nil
	case mysql.TypeDate:
		return sqltypes.TypeDate, nil
	case mysql.TypeLongBlob:
		if ft.GetCharset() == charset.CharsetBin {
			return sqltypes.TypeBytea, nil
		}
	case mysql.TypeString:
		if ft.GetCharset() == charset.CharsetBin && ft.GetFlen() == 16 {
			return sqltypes.TypeUUID, nil
		}
	case mysql.TypeEnum:
		if elems := ft.GetElems(); len(elems) == 1 {
			if t, ok := sqltypes.ParseTypeName(elems[0]); ok {
				return t, nil
			}
		}
	}
	return sqltypes.Type{}, pgerr.New(pgerr.FeatureNotSupported, "column type %s is not supported", ft.String())
}

// bitTypeWord names a bit-string type in its length errors, as
// PostgreSQL's bittypmodin and varbittypmodin do.
func bitTypeWord(t sqltypes.Type) string {
	if t.ID == sqltypes.VarBit {
		return "varbit"
	}
	return "bit"
}
