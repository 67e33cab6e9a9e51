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
	"numeric": true, "decimal": true, "dec": true, "char": true, "character": true, "bpchar": true,
	"time": true, "timetz": true, "interval": true, "json": true, "jsonb": true, "serial": true,
	"serial2": true, "serial4": true, "serial8": true, "smallserial": true, "bigserial": true,
	"money": true, "inet": true, "cidr": true, "macaddr": true, "xml": true, "bit": true,
	"varbit": true, "oid": true, "name": true, "regclass": true, "point": true, "tsvector": true,
}

// parseType reads a Postgres type name starting at token i: one of the
// types of DESIGN.md with its aliases, an optional (n) for varchar and a
// precision for timestamp and float. It returns the index after the type.
func (r *rewriter) parseType(i int) (sqltypes.Type, int, error) {
	if i >= len(r.toks) || r.toks[i].kind != tkIdent {
		return sqltypes.Type{}, i, r.syntaxErrorAt(i)
	}
	word := r.toks[i].val
	next := i + 1
	peek := func(k int, w string) bool { return k < len(r.toks) && r.toks[k].is(w) }
	name := word
	switch word {
	case "double":
		if !peek(next, "precision") {
			return sqltypes.Type{}, i, r.syntaxErrorAt(next)
		}
		name, next = "double precision", next+1
	case "character":
		if peek(next, "varying") {
			name, next = "character varying", next+1
		}
	case "timestamp":
		// Precision is accepted and ignored: zproxy keeps microseconds.
		if peek(next, "(") {
			if _, k, err := r.parenInt(next); err == nil {
				next = k
			} else {
				return sqltypes.Type{}, i, err
			}
		}
		if (peek(next, "with") || peek(next, "without")) && peek(next+1, "time") && peek(next+2, "zone") {
			if r.toks[next].val == "with" {
				name = "timestamptz"
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
	if t.ID == sqltypes.Varchar && peek(next, "(") {
		n, k, err := r.parenInt(next)
		if err != nil {
			return t, i, err
		}
		if n < 1 || n > 10485760 {
			return t, i, pgerr.New(pgerr.InvalidParameterValue, "length for type varchar must be between 1 and 10485760").WithPosition(r.pos(next))
		}
		t.Width, next = n, k
	} else if t.ID == sqltypes.TimestampTZ && word == "timestamptz" && peek(next, "(") {
		_, k, err := r.parenInt(next)
		if err != nil {
			return t, i, err
		}
		next = k
	}
	if peek(next, "[") {
		return t, i, pgerr.New(pgerr.FeatureNotSupported, "array types are not supported").WithPosition(r.pos(next))
	}
	return t, next, nil
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
func typeFromName(name string) (sqltypes.Type, bool) {
	if rest, found := strings.CutPrefix(name, "character varying("); found {
		n, err := strconv.Atoi(strings.TrimSuffix(rest, ")"))
		if err != nil || !strings.HasSuffix(rest, ")") || n < 1 {
			return sqltypes.Type{}, false
		}
		return sqltypes.Type{ID: sqltypes.Varchar, Width: n}, true
	}
	return sqltypes.LookupType(name)
}

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

func tidbType(t sqltypes.Type) string {
	if t.ID == sqltypes.Varchar && t.Width > 0 {
		return "varchar(" + strconv.Itoa(t.Width) + ")"
	}
	return tidbTypes[t.ID]
}

// ColumnType maps the TiDB field type of a column definition parsed by
// Parse back to the Postgres type the user wrote (timestamp vs timestamptz,
// varchar(n) with its n, text, bytea and uuid all distinct). A field type
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
	}
	return sqltypes.Type{}, pgerr.New(pgerr.FeatureNotSupported, "column type %s is not supported", ft.String())
}
