package planner

import (
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// ServerVersion is what version() reports.
const ServerVersion = builtins.ServerVersion

// bindFunc binds a call of a scalar function: the few whose typing depends
// on all their arguments (COALESCE, NULLIF, GREATEST, LEAST) and the
// parser's respellings here, every other one through the registry of
// package builtins.
func (b *Binder) bindFunc(name string, args []ir.Expr) (ir.Expr, error) {
	switch name {
	case parser.NumericLiteralFunc:
		// A numeric literal written with an exponent or too long for TiDB
		// (see parser.NumericLiteralFunc).
		c, ok := args[0].(*ir.Const)
		if len(args) != 1 || !ok || c.V.K != sqltypes.KindText {
			return nil, pgerr.New(pgerr.InternalError, "malformed numeric literal")
		}
		return numericLiteral(c.V.S)
	case parser.ExtractFunc:
		return b.bindBuiltin("extract", args)
	case parser.AtTimeZoneFunc:
		// x AT TIME ZONE z is PostgreSQL's timezone(z, x).
		return b.bindBuiltin("timezone", []ir.Expr{args[1], args[0]})
	case parser.NamedArgFunc:
		c, ok := args[0].(*ir.Const)
		if len(args) != 2 || !ok || c.V.K != sqltypes.KindText {
			return nil, pgerr.New(pgerr.InternalError, "malformed named argument")
		}
		return &namedArg{Name: c.V.S, E: args[1]}, nil
	case parser.VariadicFunc:
		if len(args) != 1 {
			return nil, pgerr.New(pgerr.InternalError, "malformed VARIADIC argument")
		}
		return &variadicArg{E: args[0]}, nil
	case "nullif":
		if len(args) != 2 {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function nullif with %d arguments does not exist", len(args))
		}
		// The result has the first argument's type as the = operator
		// resolves it: integers compare across widths, as do floats;
		// other mixes meet at their common type.
		lt, rt := args[0].Type(), args[1].Type()
		if lt.ID == sqltypes.Array && rt.ID == sqltypes.Array && !lt.ElemType().Same(rt.ElemType()) {
			return nil, noOperator("=", lt, rt) // anyarray = anyarray: one array type
		}
		typ, cross := crossTypeEq(lt, rt)
		if !cross {
			var err error
			if typ, err = b.commonArgType(args, "NULLIF"); err != nil {
				if pe, ok := err.(*pgerr.Error); ok && readsInput(pe.Code) {
					return nil, err // an untyped literal that does not read as the other's type
				}
				// NULLIF is an = operator: no common type, no operator.
				return nil, noOperator("=", lt, rt)
			}
			if args[0].Type().Same(lt) {
				// Not converted (numeric(10,2) beside an integer): the
				// first argument's type, modifier and all.
				typ = lt
			}
		}
		if typ = eqOperandType(typ); typ.ID == sqltypes.JSON || typ.ID == sqltypes.XML || typ.ID == sqltypes.JSONPath {
			return nil, noOperator("=", lt, rt) // types without an equality
		}
		l, r := args[0], args[1]
		return fold(&ir.Func{Name: name, Args: []ir.Expr{l, r}, Typ: typ, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			if !a[0].IsNull() && !a[1].IsNull() && sqltypes.Compare(a[0], a[1]) == 0 {
				return sqltypes.Null, nil
			}
			return a[0], nil
		}})
	case "greatest", "least":
		if len(args) == 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "%s requires at least one argument", name)
		}
		typ, err := b.commonArgType(args, strings.ToUpper(name))
		if err != nil {
			return nil, err
		}
		sign := 1
		if name == "least" {
			sign = -1
		}
		// NULL arguments are ignored; the result is NULL only if all are.
		return fold(&ir.Func{Name: name, Args: args, Typ: typ, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			best := sqltypes.Null
			for _, v := range a {
				if !v.IsNull() && (best.IsNull() || sqltypes.Compare(v, best)*sign > 0) {
					best = v
				}
			}
			return best, nil
		}})
	case "coalesce":
		if len(args) == 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "coalesce requires at least one argument")
		}
		typ, err := b.commonArgType(args, "COALESCE")
		if err != nil {
			return nil, err
		}
		return &ir.Func{Name: name, Args: args, Typ: typ, Lazy: evalCoalesce}, nil
	case parser.ConcatFunc:
		// The parser's name for concat(), which TiDB would read as its own.
		return b.bindBuiltin("concat", args)
	case parser.XMLFunc:
		return b.bindXMLConstruct(args)
	case parser.XMLElementFunc:
		return b.bindXMLElement(args)
	case parser.XMLForestFunc:
		return b.bindXMLForest(args)
	case "xmlconcat":
		// Grammar in PostgreSQL (no pg_proc row): xml arguments, NULLs
		// skipped.
		for i, a := range args {
			var err error
			if args[i], err = b.coerceTo(a, sqltypes.Type{ID: sqltypes.XML}, false); err != nil {
				return nil, err
			}
		}
		return fold(&ir.Func{Name: name, Args: args, Typ: sqltypes.Type{ID: sqltypes.XML}, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			return builtins.XMLConcat(a), nil
		}})
	case parser.CollateFunc:
		return b.bindCollate(args)
	case "pg_collation_for":
		if len(args) == 1 {
			if c, ok := ir.CollateName(args[0]); ok {
				// The collation an expression's COLLATE gave it.
				return &ir.Const{V: sqltypes.NewText(sqltypes.QuoteIdent(c)), Typ: sqltypes.TypeText}, nil
			}
		}
	case parser.SQLSyntaxFunc:
		// SUBSTRING(s FROM a FOR b), OVERLAY(s PLACING r FROM a),
		// POSITION(a IN b): zp_sql_syntax('name', args...), the call of
		// name noted as so written.
		fn, ok := args[0].(*ir.Const)
		if !ok || fn.V.K != sqltypes.KindText {
			return nil, pgerr.New(pgerr.InternalError, "malformed SQL-syntax call")
		}
		args = args[1:]
		if fn.V.S == "position" && len(args) == 2 {
			// POSITION(a IN b) is the catalog's position(b, a).
			args = []ir.Expr{args[1], args[0]}
		}
		e, err := b.bindBuiltin(fn.V.S, args)
		if f, ok := e.(*ir.Func); ok && err == nil && f.Op == "" {
			f.Op = ir.OpSQLSyntax
		}
		return e, err
	case parser.TrimFromFunc:
		// TRIM(chars FROM s): zp_trim_from('btrim', chars, s); TRIM(s)
		// and TRIM(FROM s): zp_trim_from('=btrim', s).
		fn, ok := args[0].(*ir.Const)
		if len(args) < 2 || !ok || fn.V.K != sqltypes.KindText {
			return nil, pgerr.New(pgerr.InternalError, "malformed TRIM")
		}
		var e ir.Expr
		var err error
		if name, inOrder := strings.CutPrefix(fn.V.S, "="); inOrder {
			e, err = b.bindBuiltin(name, args[1:])
		} else if len(args) >= 3 {
			e, err = b.bindBuiltin(fn.V.S, append(append([]ir.Expr(nil), args[2:]...), args[1]))
		} else {
			return nil, pgerr.New(pgerr.InternalError, "malformed TRIM")
		}
		if f, ok := e.(*ir.Func); ok && err == nil {
			f.Op = "TRIM" // written TRIM(...), which Deparse prints so
		}
		return e, err
	}
	if msg, ok := refusedFuncs[name]; ok && !builtins.Exists(name) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s", msg)
	}
	return b.bindBuiltin(name, args)
}

// refusedFuncs are PostgreSQL's functions zproxy refuses with 0A000
// rather than "does not exist": the server-side large-object file functions, the
// XPath functions, XML Schema validation and the SQL-to-XML mappings.
var refusedFuncs = map[string]string{
	"lo_export": errLargeObjects, "lo_import": errLargeObjects,
	"xpath": errXPath, "xpath_exists": errXPath, "xmlexists": errXPath, "xmlvalidate": "xmlvalidate is not supported",
	"xmlagg":        "xmlagg is not supported",
	"cursor_to_xml": errXMLMapping, "cursor_to_xmlschema": errXMLMapping, "database_to_xml": errXMLMapping,
	"database_to_xml_and_xmlschema": errXMLMapping, "database_to_xmlschema": errXMLMapping, "query_to_xml": errXMLMapping,
	"query_to_xml_and_xmlschema": errXMLMapping, "query_to_xmlschema": errXMLMapping, "schema_to_xml": errXMLMapping,
	"schema_to_xml_and_xmlschema": errXMLMapping, "schema_to_xmlschema": errXMLMapping, "table_to_xml": errXMLMapping,
	"table_to_xml_and_xmlschema": errXMLMapping, "table_to_xmlschema": errXMLMapping,
}

const (
	errLargeObjects = "the server-side lo_import and lo_export are not supported: zproxy reads and writes no files of its host (the client's \\lo_import and \\lo_export work)"
	errXPath        = "xpath is not supported"
	errXMLMapping   = "mapping SQL to XML is not supported"
)

// bindXMLConstruct binds parser.XMLFunc: XMLPARSE, XMLSERIALIZE's inner
// call and IS [NOT] DOCUMENT, named by the constant first argument.
func (b *Binder) bindXMLConstruct(args []ir.Expr) (ir.Expr, error) {
	mode, ok := args[0].(*ir.Const)
	if len(args) != 2 || !ok || mode.V.K != sqltypes.KindText {
		return nil, pgerr.New(pgerr.InternalError, "malformed XML construct")
	}
	tXML := sqltypes.Type{ID: sqltypes.XML}
	var from sqltypes.Type
	var typ sqltypes.Type
	var fn func(v sqltypes.Value) (sqltypes.Value, error)
	switch mode.V.S {
	case "parse_document", "parse_content":
		from, typ = sqltypes.TypeText, tXML
		doc := mode.V.S == "parse_document"
		fn = func(v sqltypes.Value) (sqltypes.Value, error) { return sqltypes.ParseXML(v.S, doc) }
	case "serialize_document", "serialize_content":
		from, typ = tXML, sqltypes.TypeText
		doc := mode.V.S == "serialize_document"
		fn = func(v sqltypes.Value) (sqltypes.Value, error) {
			if doc && !sqltypes.XMLWellFormedDocument(v.S) {
				return sqltypes.Null, pgerr.New(pgerr.NotAnXMLDocument, "not an XML document")
			}
			return sqltypes.NewText(v.S), nil
		}
	case "is_document", "is_not_document":
		from, typ = tXML, sqltypes.TypeBool
		want := mode.V.S == "is_document"
		fn = func(v sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(sqltypes.XMLWellFormedDocument(v.S) == want), nil
		}
	default:
		return nil, pgerr.New(pgerr.InternalError, "malformed XML construct")
	}
	arg, err := b.coerceTo(args[1], from, false)
	if err != nil {
		return nil, err
	}
	return fold(&ir.Func{Name: "xml" + mode.V.S, Args: []ir.Expr{arg}, Typ: typ, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		return fn(a[0])
	}})
}

// bindBuiltin binds a call through the function registry: it resolves the
// overload by argument types, casts the arguments to it, and folds calls of
// immutable functions with constant arguments.
func (b *Binder) bindBuiltin(name string, args []ir.Expr) (ir.Expr, error) {
	if builtins.Stores(name) {
		b.storeFunctions = true
	}
	args, spread := spreadArg(args)
	written := args // (with its named arguments, for a 42883)
	if err := checkNamedArgs(args); err != nil {
		return nil, err
	}
	var user, ahead []builtins.Overload
	if b.snap != nil && b.snap.HasFunctions() {
		user = b.userOverloads(name, false)
	}
	user = append(user, b.rangeConstructors(name)...)
	if len(user) > 0 && hasNamedArgs(args) {
		// Named arguments of a user-defined function: placed by the
		// parameters of the one function whose names they fit.
		placed, fn, ok, err := b.placeUserNamedArgs(b.snap.Functions(name), args, false)
		if err != nil {
			return nil, err
		}
		if ok {
			args, user = placed, slicesFilter(user, fn)
		} else {
			user = nil
		}
	}
	var err error
	if len(user) == 0 {
		if args, err = placeNamedArgs(name, args); err != nil {
			return nil, err
		}
	}
	if _, literal := args0Const(args); literal && len(user) == 0 && args[0].Type().ID == sqltypes.Unknown {
		if t, ok := sqltypes.LookupType(name); ok && t.ID != sqltypes.Unknown && !t.ID.System() {
			// (The reg* types' input looks names up in the catalog: their
			// functions of text, regclass('t'), do that at run time.)
			// cidr('10.0.0.0/8'), text('abc'), float8('1e3'): PostgreSQL
			// reads a call of a type's name with one untyped literal as a
			// cast of the literal (func_get_detail's coercion request: no
			// function takes an unknown argument exactly), so the type's
			// input reads it.
			return b.coerceTo(args[0], t, true)
		}
	}
	if b.snap != nil {
		user, ahead = b.extensionShadowing(name, user)
	}
	types := make([]sqltypes.Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	resolve := builtins.ResolveAmong
	if spread {
		resolve = builtins.ResolveSpread
	}
	registered := name
	if bare, ok := strings.CutPrefix(name, catalog.PublicSchema+"."); ok && builtins.Exists(bare) && !pgcatalog.CoreFunction(bare) {
		// public.f(...) where public holds a user-defined f: an
		// extension's f is in public too, beside it.
		registered = bare
	}
	var res builtins.Resolved
	if len(ahead) > 0 && !spread {
		res, err = builtins.ResolveAhead(registered, types, ahead, user)
	} else {
		res, err = resolve(registered, types, append(ahead, user...))
	}
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.UndefinedFunction && hasNamedArgs(written) {
			// The arguments as the call named them, not as placed.
			return nil, noFunction(name, written)
		}
		if pgerr.CodeOf(err) == pgerr.UndefinedFunction && !spread {
			if e, ok, oerr := b.operatorFunctionCall(name, args); ok {
				return e, oerr
			}
		}
		return nil, err
	}
	if res, err = anycompatibleCommon(res, types, name); err != nil {
		return nil, err
	}
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, err
	}
	if fn, ok := res.Routine.(*catalog.Function); ok {
		return b.bindUserCall(fn, args, res)
	}
	if res.Set != nil {
		return b.setCall(name, args, res)
	}
	ov := res.Overload
	eval := ov.Eval
	if ov.Typed != nil {
		eval = ov.Typed(res.ArgTypes)
	}
	fn := func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		var fc *builtins.Context
		if ctx != nil {
			fc = &ctx.Fn
		}
		return eval(fc, a)
	}
	if !ov.CalledOnNull {
		fn = strict(fn)
	}
	if ov.Volatility == builtins.Immutable && execConstantArgs(args) {
		fn = memoize(fn)
	}
	f := &ir.Func{Name: name, Args: args, Typ: res.Result, Fn: fn, Volatile: ov.Volatility != builtins.Immutable,
		PerCall: ov.Volatility == builtins.Volatile}
	if ov.Spread {
		f.Op = ir.OpVariadic
	}
	return fold(f)
}

// extensionShadowing splits the user-defined overloads of a call of an
// extension's function, which PostgreSQL keeps in schema public, as the
// search path orders them: ahead are those of schemas the path puts
// before public, which hide the extension's overloads of the same
// parameters (s.st_x(geometry) under search_path = s, public); the rest
// are hidden by them. A call qualified public.f keeps public's alone. A
// core function (pg_catalog's) and a name no extension has are left as
// they are: pg_catalog comes first.
func (b *Binder) extensionShadowing(name string, user []builtins.Overload) (rest, ahead []builtins.Overload) {
	if len(user) == 0 || strings.IndexByte(name, '.') >= 0 || !builtins.Exists(name) || pgcatalog.CoreFunction(name) {
		return user, nil
	}
	path, _ := b.snap.SearchPath()
	public := slices.Index(path, catalog.PublicSchema)
	if public < 0 {
		public = len(path) // public off the path: every schema on it is ahead
	}
	for _, o := range user {
		fn, ok := o.Routine.(*catalog.Function)
		if !ok {
			rest = append(rest, o)
			continue
		}
		schema, _, qualified := strings.Cut(fn.Name, ".")
		if !qualified {
			schema = catalog.PublicSchema
		}
		switch at := slices.Index(path, schema); {
		case b.publicCall && schema != catalog.PublicSchema:
			// public.f(...): another schema's f is no candidate.
		case !b.publicCall && at >= 0 && at < public:
			ahead = append(ahead, o)
		default:
			rest = append(rest, o)
		}
	}
	return rest, ahead
}

// coerceArgs casts the arguments of a resolved call to the types of its
// overload; untyped literals and parameters take them.
func (b *Binder) coerceArgs(args []ir.Expr, types []sqltypes.Type) error {
	for i := range args {
		b.inferParam(args[i], types[i])
		if args[i].Type() != types[i] {
			var err error
			if args[i], err = b.coerceTo(args[i], types[i], false); err != nil {
				return err
			}
		}
	}
	return nil
}

// commonArgType gives the arguments of COALESCE, GREATEST or LEAST their
// common type (casting them to it), as PostgreSQL resolves CASE-like
// constructs.
func (b *Binder) commonArgType(args []ir.Expr, ctx string) (sqltypes.Type, error) {
	typ := sqltypes.TypeUnknown
	untyped := false
	for _, a := range args {
		switch {
		case a.Type().ID == sqltypes.Unknown:
			untyped = true // untyped literals and NULLs take the others' type
		case typ.ID == sqltypes.Unknown:
			typ = a.Type()
		default:
			t, err := commonType(typ, a.Type(), ctx)
			if err != nil {
				return typ, err
			}
			typ = t
		}
	}
	if untyped && typ.IsDomain() {
		// Beside an untyped value, a domain's values are its base
		// type's, as PostgreSQL's select_common_type has it.
		typ = typ.StripDomain()
	}
	if typ.ID == sqltypes.Unknown {
		typ = sqltypes.TypeText
	}
	// The arguments convert to the common type without a modifier, and
	// the result keeps one only when every argument has the same type,
	// modifier and all (select_common_typmod): CASE ... THEN 0 ELSE x
	// END of a numeric(10,2) x is numeric, its 0 not 0.00;
	// COALESCE(varchar(10), 'x') is varchar.
	target := typ
	if !typ.IsDomain() {
		target = typ.WithoutTypmod()
	}
	same := true
	for _, a := range args[1:] {
		same = same && a.Type().Same(args[0].Type())
	}
	for i := range args {
		b.inferParam(args[i], target)
		if at := args[i].Type(); !at.IsDomain() && at.WithoutTypmod().Same(target) {
			continue // only its modifier differs: no conversion
		}
		var err error
		if args[i], err = b.coerceTo(args[i], target, false); err != nil {
			return typ, err
		}
	}
	if same && args[0].Type().Same(typ) {
		return args[0].Type(), nil
	}
	return target, nil
}

// eqOperandType is the type an operand of type t has as the = operator
// PostgreSQL resolves for it takes it, which is NULLIF's result type
// (transformAExprNullIf): a domain's values compare as its base type's,
// varchar's by text's operator and cidr's by inet's, so they become those
// types; other types have an = operator of their own.
func eqOperandType(t sqltypes.Type) sqltypes.Type {
	t = t.StripDomain()
	switch t.ID {
	case sqltypes.Varchar:
		return sqltypes.TypeText
	case sqltypes.Cidr:
		return sqltypes.TypeInet
	}
	return t
}

// crossTypeEq is the left operand type of the = operator PostgreSQL
// resolves between operands of types l and r where that is not their
// common type, as its cross-type operators and preferred types decide
// (int4 = int8, float84eq for an integer or numeric beside a float, date =
// timestamp, texteqname, bpchar = bpchar for varchar beside char(n));
// ok is false where the operator is that of their common type.
func crossTypeEq(l, r sqltypes.Type) (t sqltypes.Type, ok bool) {
	l, r = l.StripDomain(), r.StripDomain()
	lk, rk := l.Kind(), r.Kind()
	switch {
	case l.ID == sqltypes.Unknown || r.ID == sqltypes.Unknown || l.ID == sqltypes.Oid || r.ID == sqltypes.Oid || l.IsReg() || r.IsReg():
		return t, false
	case lk == sqltypes.KindInt && rk == sqltypes.KindInt, lk == sqltypes.KindFloat && r.IsNumeric():
		return l, true
	case (lk == sqltypes.KindInt || lk == sqltypes.KindNumeric) && rk == sqltypes.KindFloat:
		return sqltypes.TypeFloat8, true
	case dateish(l) && dateish(r):
		return l, true
	case l.ID == sqltypes.Varchar && r.ID == sqltypes.BPChar:
		return r.WithoutTypmod(), true
	case l.ID == sqltypes.BPChar && r.ID == sqltypes.Varchar:
		return l.WithoutTypmod(), true
	case l.ID == sqltypes.BPChar && (r.ID == sqltypes.Text || r.ID == sqltypes.Name),
		(l.ID == sqltypes.Varchar || l.ID == sqltypes.Text) && r.ID == sqltypes.Name:
		return sqltypes.TypeText, true
	case l.ID == sqltypes.Name && (r.ID == sqltypes.Text || r.ID == sqltypes.Varchar):
		return l, true
	case l.ID == sqltypes.Bit && r.ID == sqltypes.VarBit:
		return r.WithoutTypmod(), true
	}
	return t, false
}

// strict wraps fn so any NULL argument gives NULL, as for most SQL functions.
func strict(fn func(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error)) func(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		for _, v := range a {
			if v.IsNull() {
				return sqltypes.Null, nil
			}
		}
		return fn(ctx, a)
	}
}

func evalCoalesce(ctx *ir.EvalContext, row []sqltypes.Value, args []ir.Expr) (sqltypes.Value, error) {
	for _, a := range args {
		v, err := a.Eval(ctx, row)
		if err != nil || !v.IsNull() {
			return v, err
		}
	}
	return sqltypes.Null, nil
}

// xmlNames reads the constant names the parser put in a call of
// parser.XMLElementFunc or parser.XMLForestFunc, mapped to XML names.
func xmlNames(args []ir.Expr) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		c, ok := a.(*ir.Const)
		if !ok || c.V.K != sqltypes.KindText {
			return nil, pgerr.New(pgerr.InternalError, "malformed XML name")
		}
		out[i] = sqltypes.XMLName(c.V.S)
	}
	return out, nil
}

// xmlValues refuses values of types whose XML mapping zproxy does not
// make (sqltypes.XMLValueText) and types an untyped one as text.
func (b *Binder) xmlValues(args []ir.Expr, construct string) ([]ir.Expr, error) {
	for i, a := range args {
		if a.Type().ID == sqltypes.Unknown {
			var err error
			if args[i], err = b.coerceTo(a, sqltypes.TypeText, false); err != nil {
				return nil, err
			}
			continue
		}
		switch a.Type().Kind() {
		case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindTime, sqltypes.KindTimeTZ, sqltypes.KindInterval,
			sqltypes.KindBytes, sqltypes.KindArray, sqltypes.KindHstore:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "%s of a value of type %s is not supported", construct, a.Type())
		}
	}
	return args, nil
}

// bindXMLElement binds XMLELEMENT: zp_xmlelement(name, n, attribute
// name, value, ..., content ...). NULL attributes and content are left
// out; an element without content is written <name .../>.
func (b *Binder) bindXMLElement(args []ir.Expr) (ir.Expr, error) {
	if len(args) < 2 {
		return nil, pgerr.New(pgerr.InternalError, "malformed XMLELEMENT")
	}
	name, err := xmlNames(args[:1])
	if err != nil {
		return nil, err
	}
	nc, ok := args[1].(*ir.Const)
	if !ok || nc.V.K != sqltypes.KindInt || int(nc.V.I)*2 > len(args)-2 {
		return nil, pgerr.New(pgerr.InternalError, "malformed XMLELEMENT")
	}
	nattr := int(nc.V.I)
	var attrNames []string
	var vals []ir.Expr
	for k := 0; k < nattr; k++ {
		n, err := xmlNames(args[2+2*k : 3+2*k])
		if err != nil {
			return nil, err
		}
		attrNames = append(attrNames, n[0])
		vals = append(vals, args[3+2*k])
	}
	vals = append(vals, args[2+2*nattr:]...)
	if vals, err = b.xmlValues(vals, "XMLELEMENT"); err != nil {
		return nil, err
	}
	types := make([]sqltypes.Type, len(vals))
	for i, v := range vals {
		types[i] = v.Type()
	}
	return fold(&ir.Func{Name: "xmlelement", Args: vals, Typ: sqltypes.Type{ID: sqltypes.XML}, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		out := "<" + name[0]
		for k, an := range attrNames {
			if a[k].IsNull() {
				continue
			}
			s, ok := sqltypes.XMLValueText(types[k], a[k], false)
			if !ok {
				return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "XMLELEMENT of a value of type %s is not supported", types[k])
			}
			out += " " + an + `="` + sqltypes.XMLEscapeAttr(s) + `"`
		}
		var content string
		hasContent := false
		for k := nattr; k < len(a); k++ {
			if a[k].IsNull() {
				continue
			}
			hasContent = true
			s, ok := sqltypes.XMLValueText(types[k], a[k], true)
			if !ok {
				return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "XMLELEMENT of a value of type %s is not supported", types[k])
			}
			content += s
		}
		if !hasContent {
			return sqltypes.NewXML(out + "/>"), nil
		}
		return sqltypes.NewXML(out + ">" + content + "</" + name[0] + ">"), nil
	}})
}

// bindXMLForest binds XMLFOREST: zp_xmlforest(name, value, ...), each
// non-NULL value as an element of its name; NULL when all are NULL.
func (b *Binder) bindXMLForest(args []ir.Expr) (ir.Expr, error) {
	if len(args)%2 != 0 {
		return nil, pgerr.New(pgerr.InternalError, "malformed XMLFOREST")
	}
	var names []string
	var vals []ir.Expr
	for k := 0; k < len(args); k += 2 {
		n, err := xmlNames(args[k : k+1])
		if err != nil {
			return nil, err
		}
		names = append(names, n[0])
		vals = append(vals, args[k+1])
	}
	vals, err := b.xmlValues(vals, "XMLFOREST")
	if err != nil {
		return nil, err
	}
	types := make([]sqltypes.Type, len(vals))
	for i, v := range vals {
		types[i] = v.Type()
	}
	return fold(&ir.Func{Name: "xmlforest", Args: vals, Typ: sqltypes.Type{ID: sqltypes.XML}, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		var out string
		any := false
		for k, n := range names {
			if a[k].IsNull() {
				continue
			}
			s, ok := sqltypes.XMLValueText(types[k], a[k], true)
			if !ok {
				return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "XMLFOREST of a value of type %s is not supported", types[k])
			}
			any = true
			out += "<" + n + ">" + s + "</" + n + ">"
		}
		if !any {
			return sqltypes.Null, nil
		}
		return sqltypes.NewXML(out), nil
	}})
}

// args0Const returns the only argument when it is a constant.
func args0Const(args []ir.Expr) (*ir.Const, bool) {
	if len(args) != 1 {
		return nil, false
	}
	c, ok := args[0].(*ir.Const)
	return c, ok
}

// An immutable function whose arguments are constants or parameters (or
// such calls of their own) has one value for a whole execution, which a
// filter would otherwise compute again for every row:
// ST_Within(geom, ST_GeomFromText($1, 4326)) parsed the polygon's text for
// each point. The binder folds calls of constants; calls of parameters it
// cannot fold (a prepared statement's plan serves every value), so their
// call sites keep their last arguments and result instead.

// execConstantArgs reports whether args are the same for every row of an
// execution, and at least one is not a constant (a call of constants is
// folded).
func execConstantArgs(args []ir.Expr) bool {
	varies := false
	for _, a := range args {
		if _, ok := a.(*ir.Const); !ok {
			varies = true
		}
		if !execConstant(a) {
			return false
		}
	}
	return varies
}

func execConstant(e ir.Expr) bool {
	switch x := e.(type) {
	case *ir.Const, *ir.Param:
		return true
	case *ir.Cast:
		return execConstant(x.E)
	case *ir.Func:
		if !x.Pure() || x.Lazy != nil {
			return false
		}
		for _, a := range x.Args {
			if !execConstant(a) {
				return false
			}
		}
		return true
	}
	return false
}

// memoEntry is a call site's last arguments and result, for the execution
// whose context computed them (a function that reads the session's
// settings sees the same ones).
type memoEntry struct {
	ctx  *ir.EvalContext
	args []sqltypes.Value
	v    sqltypes.Value
}

// memoize returns fn answering a call with the arguments and context of
// the last one from that call's result. Only plain values are kept (a
// value with X, an array or a composite, may be shared mutable state).
func memoize(fn func(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error)) func(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	var last atomic.Pointer[memoEntry]
	return func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if m := last.Load(); m != nil && m.ctx == ctx && sameValues(m.args, a) {
			return m.v, nil
		}
		v, err := fn(ctx, a)
		if err == nil && v.X == nil && plainValues(a) {
			last.Store(&memoEntry{ctx: ctx, args: append([]sqltypes.Value(nil), a...), v: v})
		}
		return v, err
	}
}

func plainValues(a []sqltypes.Value) bool {
	for _, v := range a {
		if v.X != nil {
			return false
		}
	}
	return true
}

// sameValues reports whether two plain argument lists are the same values
// bit for bit (a string compared with itself costs no pass over it).
func sameValues(a, b []sqltypes.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.K != y.K || x.I != y.I || math.Float64bits(x.F) != math.Float64bits(y.F) || x.X != nil || y.X != nil || x.S != y.S {
			return false
		}
	}
	return true
}

// rangeConstructors are the constructor functions of the user-defined
// range or multirange type named name (none for another name): PostgreSQL
// creates them with the type, in its schema.
func (b *Binder) rangeConstructors(name string) []builtins.Overload {
	if b.snap == nil {
		return nil
	}
	u, ok := b.snap.UserType(name)
	if !ok || u.Range == nil {
		return nil
	}
	if u.Multirange {
		return builtins.MultirangeConstructors(u.Type())
	}
	return builtins.RangeConstructors(u.Type())
}

// anycompatibleCommon gives the arguments of res's anycompatible-family
// parameters (anycompatible, anycompatiblearray, anycompatiblenonarray)
// their common type, as PostgreSQL's enforce_generic_type_consistency does
// through select_common_type: array_cat(int[], numeric[]) and
// array_append(int[], 1.5) are numeric[], not the first argument's type
// with the others cast to it. Typed arguments without a common type make
// no function match (42883), as in PostgreSQL.
func anycompatibleCommon(res builtins.Resolved, args []sqltypes.Type, name string) (builtins.Resolved, error) {
	if res.Overload == nil {
		return res, nil
	}
	var elem sqltypes.Type
	have, mixed := false, false
	for i, a := range args {
		p := res.ParamAt(i)
		if !p.Any || a.ID == sqltypes.Unknown {
			continue
		}
		var e sqltypes.Type
		switch {
		case p.Pseudo == builtins.AnyCompatibleArray && a.ID == sqltypes.Array:
			e = a.ElemType()
		case p.Pseudo == builtins.AnyCompatible || p.Pseudo == builtins.AnyCompatibleNonArray:
			e = a
		default:
			continue
		}
		switch {
		case !have:
			elem, have = e, true
		case !e.Same(elem):
			c, err := commonType(elem, e, name)
			if err != nil {
				return res, builtins.NoFunction(name, args)
			}
			elem, mixed = c, true
		}
	}
	if !mixed {
		return res, nil
	}
	argTypes := slices.Clone(res.ArgTypes)
	for i := range args {
		switch res.ParamAt(i).Pseudo {
		case builtins.AnyCompatibleArray:
			argTypes[i] = sqltypes.ArrayOf(elem)
		case builtins.AnyCompatible, builtins.AnyCompatibleNonArray:
			argTypes[i] = elem
		}
	}
	res.ArgTypes = argTypes
	res.Result = res.Overload.Result(argTypes)
	return res, nil
}
