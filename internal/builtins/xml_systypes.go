package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The functions of xml (xmlcomment, xml, text, xmlconcat2 and the
// well-formedness tests) and of the system-information types pg_lsn,
// xid8 and tid (their arithmetic, larger and smaller, xid(xid8)), as
// PostgreSQL 15 has them. Their comparisons are bound by the planner on
// sqltypes.Compare.

var (
	tXML   = sqltypes.Type{ID: sqltypes.XML}
	tPgLSN = sqltypes.Type{ID: sqltypes.PgLSN}
	tXID   = sqltypes.Type{ID: sqltypes.XID}
	tXID8  = sqltypes.Type{ID: sqltypes.XID8}
	tTID   = sqltypes.Type{ID: sqltypes.TID}
)

// XMLConcat is xmlconcat and xmlconcat2: the values' texts after their XML
// declarations, NULLs skipped, behind one declaration when the values
// agree on something beyond version 1.0 (PostgreSQL's xmlconcat: the
// common version, and standalone "no" if any says no, "yes" if all say
// yes). All NULL is NULL.
func XMLConcat(vals []sqltypes.Value) sqltypes.Value {
	standalone, version, noVersion, any := 1, "", false, false
	var body []byte
	for _, v := range vals {
		if v.IsNull() {
			continue
		}
		any = true
		ver, sa, rest := sqltypes.XMLDeclParts(v.S)
		switch {
		case sa == 0 && standalone == 1:
			standalone = 0
		case sa < 0:
			standalone = -1
		}
		switch {
		case ver == "":
			noVersion = true
		case version == "":
			version = ver
		case ver != version:
			noVersion = true
		}
		body = append(body, rest...)
	}
	if !any {
		return sqltypes.Null
	}
	if noVersion {
		version = ""
	}
	out := sqltypes.AppendXMLDecl(nil, version, standalone)
	return sqltypes.NewXML(string(append(out, body...)))
}

func init() {
	Register("xmlcomment", Overload{Params: []Param{T(tText)}, Result: Returns(tXML),
		Doc: "an XML comment of the text",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.XMLComment(a[0].S)
		}})
	Register("xml", Overload{Params: []Param{T(tText)}, Result: Returns(tXML), Volatility: Stable,
		Doc: "the text as xml, checked as xmloption says",
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.ParseXML(a[0].S, ctx.Style.XMLDocument)
		}})
	Register("text", Overload{Params: []Param{T(tXML)}, Result: Returns(tText),
		Doc: "the xml value's text",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewText(a[0].S), nil
		}})
	RegisterAggregate(&Func{Name: "xmlagg", Overloads: []Overload{
		Sig("the non-NULL xml values concatenated (xmlconcat2 folded over them)", tXML, tXML),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) != 1 || c.Args[0].ID != sqltypes.XML && c.Args[0].ID != sqltypes.Unknown {
			return errNoOverload()
		}
		return tXML, nil
	}})
	Register("xmlconcat2", Overload{Params: []Param{T(tXML), T(tXML)}, Result: Returns(tXML), CalledOnNull: true,
		Doc: "the two xml values concatenated (xmlagg's step)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return XMLConcat(a), nil
		}})
	wellFormed := func(name, doc string, vol Volatility, check func(ctx *Context, s string) bool) {
		Register(name, Overload{Params: []Param{T(tText)}, Result: Returns(tBool), Doc: doc, Volatility: vol,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return sqltypes.NewBool(check(ctx, a[0].S)), nil
			}})
	}
	wellFormed("xml_is_well_formed", "whether the text is well-formed XML under xmloption", Stable, func(ctx *Context, s string) bool {
		if ctx.Style.XMLDocument {
			return sqltypes.XMLWellFormedDocument(s)
		}
		return sqltypes.XMLWellFormedContent(s)
	})
	wellFormed("xml_is_well_formed_document", "whether the text is a well-formed XML document", Immutable, func(_ *Context, s string) bool {
		return sqltypes.XMLWellFormedDocument(s)
	})
	wellFormed("xml_is_well_formed_content", "whether the text is well-formed XML content", Immutable, func(_ *Context, s string) bool {
		return sqltypes.XMLWellFormedContent(s)
	})

	Register("xid", Overload{Params: []Param{T(tXID8)}, Result: Returns(tXID),
		Doc: "the 32-bit transaction id of a full one",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewXID(uint32(a[0].I)), nil
		}})

	// pg_lsn arithmetic: positions differ by a numeric number of bytes.
	lsnDiff := func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.SubNumeric(sqltypes.LSNToNumeric(a), sqltypes.LSNToNumeric(b))
	}
	lsnAdd := func(l, n sqltypes.Value, sub bool) (sqltypes.Value, error) {
		if sub {
			r, err := sqltypes.SubNumeric(sqltypes.LSNToNumeric(l), n)
			if err != nil {
				return r, err
			}
			return sqltypes.NumericToLSN(r, "subtract %s from")
		}
		r, err := sqltypes.AddNumeric(sqltypes.LSNToNumeric(l), n)
		if err != nil {
			return r, err
		}
		return sqltypes.NumericToLSN(r, "add %s to")
	}
	RegisterOperator("-",
		binop(tPgLSN, tPgLSN, tNumeric, Immutable, lsnDiff),
		binop(tPgLSN, tNumeric, tPgLSN, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return lsnAdd(a, b, true) }))
	RegisterOperator("+",
		binop(tPgLSN, tNumeric, tPgLSN, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return lsnAdd(a, b, false) }),
		binop(tNumeric, tPgLSN, tPgLSN, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return lsnAdd(b, a, false) }))
	Register("pg_wal_lsn_diff", Overload{Params: []Param{T(tPgLSN), T(tPgLSN)}, Result: Returns(tNumeric),
		Doc:  "the difference of two WAL positions in bytes",
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return lsnDiff(ctx, a[0], a[1]) }})
	Register("pg_lsn", Overload{Params: []Param{T(tNumeric)}, Result: Returns(tPgLSN),
		Doc: "the numeric as a WAL position",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NumericToLSN(a[0], "convert %s to")
		}})
	pick := func(name string, t sqltypes.Type, larger bool) {
		Register(name, Overload{Params: []Param{T(t), T(t)}, Result: Returns(t), Doc: "the larger or smaller of two values",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if (sqltypes.Compare(a[0], a[1]) >= 0) == larger {
					return a[0], nil
				}
				return a[1], nil
			}})
	}
	pick("pg_lsn_larger", tPgLSN, true)
	pick("pg_lsn_smaller", tPgLSN, false)
	pick("xid8_larger", tXID8, true)
	pick("xid8_smaller", tXID8, false)
	pick("tidlarger", tTID, true)
	pick("tidsmaller", tTID, false)
}
