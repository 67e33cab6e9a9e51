package planner

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Record values (sqltypes/composite.go): a row constructor standing as a
// value, ROW(a, b) or (a, b), is an anonymous record whose fields are
// f1, f2, ... as PostgreSQL names them; a FROM item's name standing as a
// value is its whole row, of the table's row type (pg_type's row of the
// table, typrelid the table) or, for a subquery or function, an
// anonymous record of its columns. Records compare field by field
// (record_eq, record_lt: NULL fields equal to each other and after every
// other value), so they sort, group and take DISTINCT; IS NULL of a
// record is true when every field is NULL, IS NOT NULL when none is.

// bindRowValue binds a row constructor as a record value.
func (b *Binder) bindRowValue(sc *scope, row *ast.RowExpr, agg *aggBinder) (ir.Expr, error) {
	items, err := b.rowItems(sc, row, agg)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(items))
	types := make([]sqltypes.Type, len(items))
	untyped := make([]bool, len(items))
	for i, x := range items {
		if x.Type().ID == sqltypes.Unknown {
			untyped[i] = true
			// An untyped literal field is text, as PostgreSQL resolves it.
			if items[i], err = b.coerceTo(x, sqltypes.TypeText, false); err != nil {
				return nil, err
			}
		}
		names[i], types[i] = fmt.Sprintf("f%d", i+1), items[i].Type()
	}
	rec := ir.NewRecordExpr(items, sqltypes.AnonymousRecord(names, types))
	if b.untypedFields == nil {
		b.untypedFields = map[*ir.RecordExpr][]bool{}
	}
	b.untypedFields[rec] = untyped
	return rec, nil
}

// recordFieldTypes are the field types record e's values have as
// PostgreSQL's record operators see them: a row constructor's items' (an
// untyped literal's unknown, which the constructor keeps), a composite's
// fields'; ok is false when they are not known before the values are.
func (b *Binder) recordFieldTypes(e ir.Expr) (types []sqltypes.Type, ok bool) {
	if rec, isRec := e.(*ir.RecordExpr); isRec {
		untyped := b.untypedFields[rec]
		types = make([]sqltypes.Type, len(rec.Items))
		for i, x := range rec.Items {
			types[i] = x.Type()
			if i < len(untyped) && untyped[i] {
				types[i] = sqltypes.TypeUnknown
			}
		}
		return types, true
	}
	if t := e.Type(); t.Composite != nil && len(t.Composite.Fields) > 0 {
		return t.Composite.FieldTypes(), true
	}
	return nil, false
}

// recordOperatorMismatch binds op between two record values that are not
// both row constructors (which compare item by item) when PostgreSQL's
// record operators (record_eq, record_cmp) would fail on them: they take
// columns of one type each, pair by pair (42804 "cannot compare dissimilar
// column types"), of a type with an equality or ordering (42883: unknown,
// json, xml have none), and as many of them (42804). As there, a pair is
// checked only when the comparison reaches it, so the error comes when a
// row's earlier fields are all equal: the comparison is a function that
// checks as it goes. ok is false when nothing can fail (or the field types
// are known only from the values): the usual comparison then.
func (b *Binder) recordOperatorMismatch(op ir.BinOp, l, r ir.Expr) (ir.Expr, bool) {
	if op == ir.OpNotDistinct {
		return nil, false
	}
	lf, lok := b.recordFieldTypes(l)
	rf, rok := b.recordFieldTypes(r)
	if !lok || !rok {
		return nil, false
	}
	checks := make([]error, min(len(lf), len(rf)))
	failing := len(lf) != len(rf)
	for j := range checks {
		lt, rt := lf[j], rf[j]
		switch {
		case lt.OID() != rt.OID():
			checks[j] = pgerr.New(pgerr.DatatypeMismatch, "cannot compare dissimilar column types %s and %s at record column %d", lt.UnmodifiedName(), rt.UnmodifiedName(), j+1)
		case lt.ID == sqltypes.Unknown || lt.ID == sqltypes.JSON || lt.ID == sqltypes.XML:
			if op == ir.OpEq || op == ir.OpNe {
				checks[j] = pgerr.New(pgerr.UndefinedFunction, "could not identify an equality operator for type %s", lt.UnmodifiedName())
			} else {
				checks[j] = pgerr.New(pgerr.UndefinedFunction, "could not identify a comparison function for type %s", lt.UnmodifiedName())
			}
		}
		failing = failing || checks[j] != nil
	}
	if !failing {
		return nil, false
	}
	return &ir.Func{Name: "record_" + string(op), Args: []ir.Expr{l, r}, Typ: sqltypes.TypeBool, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() || a[1].IsNull() {
			return sqltypes.Null, nil
		}
		c, err := recordCompare(a[0].Array().Elems, a[1].Array().Elems, checks)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBool(ir.CompareHolds(op, c)), nil
	}}, true
}

// recordCompare is record_cmp over two records' fields: the first unequal
// pair decides, two NULLs are equal and a NULL sorts after a value; checks
// are the pairs' errors, raised when the comparison reaches them.
func recordCompare(l, r []sqltypes.Value, checks []error) (int, error) {
	return builtins.CompareRecords(l, r, func(j int) error {
		if j < len(checks) {
			return checks[j]
		}
		return nil
	}, func(_ int, x, y sqltypes.Value) (int, error) { return sqltypes.Compare(x, y), nil })
}

// recordImageOps are the record image comparisons, each with the
// comparison it makes of builtins.RecordImageCompare's result.
var recordImageOps = map[string]ir.BinOp{"*=": ir.OpEq, "*<>": ir.OpNe, "*<": ir.OpLt, "*<=": ir.OpLe, "*>": ir.OpGt, "*>=": ir.OpGe}

// bindRecordImage binds l op r for a record image comparison (*=, *<, ...)
// of two record values. Two row constructors compare item by item, as
// PostgreSQL's row comparisons do, and no other type has these operators:
// both are 42883 for the first pair.
func (b *Binder) bindRecordImage(op string, l, r ir.Expr) (ir.Expr, error) {
	// (A row constructor's record is in untypedFields; a FROM item's
	// whole row is a RecordExpr too, but one value.)
	lr, lrow := l.(*ir.RecordExpr)
	rr, rrow := r.(*ir.RecordExpr)
	_, lctor := b.untypedFields[lr]
	_, rctor := b.untypedFields[rr]
	lrow, rrow = lrow && lctor, rrow && rctor
	switch {
	case lrow && rrow && len(lr.Items) != len(rr.Items):
		return nil, pgerr.New(pgerr.SyntaxError, "unequal number of entries in row expressions")
	case lrow && rrow && len(lr.Items) > 0:
		return nil, noOperator(op, lr.Items[0].Type(), rr.Items[0].Type())
	}
	return b.bindRecordImageValues(op, l, r)
}

// bindRecordImageValues binds l op r for a record image comparison of
// two record values, row constructors too (as the operator's function
// called by name, record_image_eq(ROW(1), ROW(1)), takes them).
func (b *Binder) bindRecordImageValues(op string, l, r ir.Expr) (ir.Expr, error) {
	if l.Type().ID != sqltypes.Record || r.Type().ID != sqltypes.Record {
		return nil, noOperator(op, l.Type(), r.Type())
	}
	// The field types known now (a row constructor's, a composite's);
	// else each record's own.
	lf, _ := b.recordFieldTypes(l)
	rf, _ := b.recordFieldTypes(r)
	cmpOp := recordImageOps[op]
	return fold(&ir.Func{Name: op, Args: []ir.Expr{l, r}, Typ: sqltypes.TypeBool, Infix: true, Fn: strict(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		c, err := builtins.RecordImageCompare(a[0].Array(), a[1].Array(), lf, rf)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBool(ir.CompareHolds(cmpOp, c)), nil
	})})
}

// rowTypeOf is the row type of table t, as pg_type lists it: its OIDs are
// the table's row type's, its fields the visible columns.
func (b *Binder) rowTypeOf(t *catalog.Table) *sqltypes.CompositeType {
	if c, ok := b.rowTypes[t.ID]; ok {
		return c
	}
	c := &sqltypes.CompositeType{Name: t.Name, OID: pgcatalog.TypeOID(t.ID), ArrayOID: pgcatalog.TypeArrayOID(t.ID), RelID: pgcatalog.ObjectOID(t.ID, 0), TableRow: true}
	for _, col := range t.Columns {
		if !col.Hidden {
			c.Fields = append(c.Fields, sqltypes.CompositeField{Name: col.Name, Type: col.Type})
		}
	}
	if b.rowTypes == nil {
		b.rowTypes = map[uint64]*sqltypes.CompositeType{}
	}
	b.rowTypes[t.ID] = c
	return c
}

// wholeRowValue is the whole row of the FROM item named qual as a record.
func (b *Binder) wholeRowValue(sc *scope, qual string) (ir.Expr, error) {
	exprs, cols, err := sc.star(qual)
	if err != nil {
		return nil, b.fromEntryError(sc, err)
	}
	if it := sc.item(qual); it != nil && it.scalar && len(exprs) == 1 {
		return exprs[0], nil // a function returning a scalar: its value
	}
	if it := sc.item(qual); it != nil && it.rowsOf != nil {
		return ir.NewRecordExpr(exprs, sqltypes.CompositeOf(b.rowTypeOf(it.rowsOf))), nil
	}
	if it := sc.item(qual); it != nil && it.table != nil {
		rec := ir.NewRecordExpr(exprs, sqltypes.CompositeOf(b.rowTypeOf(it.table)))
		rec.Present = it.presentColumn()
		return rec, nil
	}
	names := make([]string, len(cols))
	types := make([]sqltypes.Type, len(cols))
	for i, c := range cols {
		names[i], types[i] = c.Name, c.Type
	}
	rec := ir.NewRecordExpr(exprs, sqltypes.AnonymousRecord(names, types))
	if it := sc.item(qual); it != nil {
		rec.Present = it.presentColumn()
	}
	return rec, nil
}

// item is the FROM item of sc named alias, nil if none.
func (s *scope) item(alias string) *fromItem {
	for _, it := range s.items {
		if it.alias == alias {
			return it
		}
	}
	return nil
}

// bindRowIsNull is IS [NOT] NULL of a record: of its fields, not of the
// record (ROW(NULL, NULL) IS NULL, ROW(1, NULL) neither IS NULL nor IS NOT
// NULL).
func bindRowIsNull(e ir.Expr, not bool) ir.Expr {
	name := "is null"
	test := sqltypes.IsRowNull
	if not {
		name, test = "is not null", sqltypes.IsRowNotNull
	}
	return &ir.Func{Name: name, Args: []ir.Expr{e}, Typ: sqltypes.TypeBool, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(test(a[0])), nil
	}}
}

// compareRecordValues binds op between a row constructor and a record
// value (a whole row, a composite column): the constructor becomes a
// record of the value's type, and the two compare as records.
func (b *Binder) compareRecordValues(sc *scope, op ir.BinOp, l, r ast.ExprNode, agg *aggBinder) (ir.Expr, error) {
	le, err := b.child(sc, l, agg)
	if err != nil {
		return nil, err
	}
	re, err := b.child(sc, r, agg)
	if err != nil {
		return nil, err
	}
	if err := recordLiteralOperand(le, re); err != nil {
		return nil, err
	}
	if le.Type().ID != sqltypes.Record || re.Type().ID != sqltypes.Record {
		return nil, pgerr.New(pgerr.SyntaxError, "cannot compare a row constructor with a single value")
	}
	if e, ok := b.recordOperatorMismatch(op, le, re); ok {
		return e, nil
	}
	if le, re, err = b.unifyRecords(le, re); err != nil {
		return nil, err
	}
	return fold(&ir.Binary{Op: op, L: le, R: re, Typ: sqltypes.TypeBool})
}

// unifyRecords casts a row constructor compared with a named composite to
// that type, so both sides' fields have one type.
func (b *Binder) unifyRecords(l, r ir.Expr) (ir.Expr, ir.Expr, error) {
	lt, rt := l.Type(), r.Type()
	var err error
	switch {
	case lt.IsNamedComposite() && !rt.IsNamedComposite():
		r, err = b.castRecordTo(r, lt)
	case rt.IsNamedComposite() && !lt.IsNamedComposite():
		l, err = b.castRecordTo(l, rt)
	case lt.IsNamedComposite() && rt.IsNamedComposite() && lt.Composite.OID != rt.Composite.OID:
		return nil, nil, noOperator("=", lt, rt)
	}
	return l, r, err
}

// castRecordTo converts record e to the composite type t: a row
// constructor field by field (each field's assignment cast), another
// record when it runs.
func (b *Binder) castRecordTo(e ir.Expr, t sqltypes.Type) (ir.Expr, error) {
	if rec, ok := e.(*ir.RecordExpr); ok && !rec.Typ.IsNamedComposite() {
		fields := t.Composite.Fields
		if len(rec.Items) != len(fields) {
			return nil, pgerr.New(pgerr.CannotCoerce, "cannot cast type record to %s", t).
				WithDetail("Input has too %s columns.", map[bool]string{true: "many", false: "few"}[len(rec.Items) > len(fields)])
		}
		items := make([]ir.Expr, len(fields))
		for i, f := range fields {
			x, err := b.coerceTo(rec.Items[i], f.Type, true)
			if err != nil {
				return nil, err
			}
			items[i] = x
		}
		return ir.NewRecordExpr(items, t), nil
	}
	return &ir.Cast{E: e, To: t}, nil
}

// compositeAttrTypes resolves the attribute types of CREATE TYPE ... AS
// (...) or ADD ATTRIBUTE: a composite type's fields may be of any type a
// column may have, composites among them.
func compositeAttrTypes(snap *catalog.Snapshot, ts *parser.TypeStatement) ([]sqltypes.Type, error) {
	out := make([]sqltypes.Type, len(ts.Attrs))
	for i, a := range ts.Attrs {
		t := a.Type
		if pseudo := parser.PseudoTypeName(t, a.TypeName); pseudo != "" {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" has pseudo-type %s", a.Name, pseudo)
		}
		if a.TypeName != "" {
			var err error
			if t, err = columnTypeName(snap, a.TypeName); err != nil {
				if pe := pgerr.As(err); pe != nil && pe.Position == 0 {
					return nil, pe.WithPosition(a.Pos)
				}
				return nil, err
			}
		} else if !parser.StorableType(t.ID) || !parser.StorableType(t.Elem) {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported as an attribute's type", t).WithPosition(a.Pos)
		}
		if t.IsNamedComposite() && t.Composite.Name == ts.Names[0] {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "composite type %s cannot be made a member of itself", sqltypes.QuoteIdent(ts.Names[0]))
		}
		out[i] = t
	}
	return out, nil
}

// bindFieldAssign binds UPDATE's SET col.field = value: col's record (as
// earlier assignments of the statement left it, else as stored; a NULL
// one as a row of NULLs) with field replaced by value.
func (b *Binder) bindFieldAssign(sc *scope, t *catalog.Table, col int, prev ir.Expr, field string, value ast.ExprNode) (ir.Expr, error) {
	typ := t.Columns[col].Type
	c := typ.Composite
	if !c.Named() {
		return nil, unsupported("assignment to a field of column %q is not supported", t.Columns[col].Name)
	}
	fi, ok := c.Field(field)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedColumn, "cannot assign to field %q of column %q because there is no such column in data type %s", field, t.Columns[col].Name, typ)
	}
	base := prev
	if base == nil {
		var err error
		if base, err = sc.resolve(&ast.ColumnName{Name: ast.NewCIStr(t.Columns[col].Name)}); err != nil {
			return nil, err
		}
	}
	v, err := b.bindAssign(sc, value, catalog.Column{Name: t.Columns[col].Name + "." + field, Type: c.Fields[fi].Type})
	if err != nil {
		return nil, err
	}
	types := c.FieldTypes()
	n := len(c.Fields)
	return &ir.Func{Name: "field_assign", Args: []ir.Expr{base, v}, Typ: typ, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		fields := make([]sqltypes.Value, n)
		if !a[0].IsNull() {
			copy(fields, a[0].Array().Elems)
		}
		fields[fi] = a[1]
		return sqltypes.NewRecordOf(fields, types), nil
	}}, nil
}

// fieldStarOf recognises the parser's spelling of (row).*.
func fieldStarOf(e ast.ExprNode) (ast.ExprNode, bool) {
	c, ok := e.(*ast.FuncCallExpr)
	if !ok || c.FnName.L != parser.FieldStarFunc || len(c.Args) != 1 {
		return nil, false
	}
	return c.Args[0], true
}

// fieldStar expands (row).* of a select list into the row's fields, named
// as the fields are.
func (b *Binder) fieldStar(lv *selectLevel, arg ast.ExprNode) ([]ir.Expr, []ir.Column, error) {
	x, err := lv.bind(b, arg)
	if err != nil {
		return nil, nil, err
	}
	exprs, err := b.recordFields(x)
	if err != nil {
		return nil, nil, err
	}
	cols := make([]ir.Column, len(exprs))
	for i, f := range x.Type().Composite.Fields {
		cols[i] = ir.Column{Name: f.Name, Type: exprs[i].Type(), Col: -1}
	}
	return exprs, cols, nil
}

// recordFields are the fields of record x, each an expression.
func (b *Binder) recordFields(x ir.Expr) ([]ir.Expr, error) {
	t := x.Type()
	if t.ID != sqltypes.Record || t.Composite == nil {
		if t.ID == sqltypes.Record {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "record type has not been registered")
		}
		return nil, pgerr.New(pgerr.SyntaxError, "type %s is not composite", t)
	}
	exprs := make([]ir.Expr, 0, len(t.Composite.Fields))
	for _, f := range t.Composite.Fields {
		e, err := b.bindField(x, f.Name)
		if err != nil {
			return nil, err
		}
		exprs = append(exprs, e)
	}
	return exprs, nil
}

// recordAsJSON is row_to_json's record argument e as the json object of
// its fields (composite_to_json), which the builtin takes; e unchanged
// when it is no record whose fields are known.
func recordAsJSON(e ir.Expr) ir.Expr {
	t := e.Type()
	if t.ID != sqltypes.Record || t.Composite == nil {
		return e
	}
	return &ir.Func{Name: "composite_to_json", Args: []ir.Expr{e}, Typ: sqltypes.TypeJSON, Fn: func(ctx *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		var st sqltypes.Style
		if ctx != nil {
			st = ctx.Fn.OutputStyle()
		}
		return sqltypes.JSONInputStyled(t, a[0], st), nil
	}}
}

// rowOfComposite reports whether the final query of fn, a SQL function
// returning a named composite type, returns the type's fields as columns
// rather than one column of the type (PostgreSQL takes either form).
func rowOfComposite(fn *catalog.Function, cols []ir.Column) bool {
	return fn.Result.IsNamedComposite() && len(fn.Outputs()) == 0 &&
		!(len(cols) == 1 && cols[0].Type.ID == sqltypes.Record) && len(cols) == len(fn.Result.Composite.Fields)
}

// RoutineRowAsComposite packs a result row of fn whose columns are the
// fields of its composite result type into the one record it returns
// (rowOfComposite); ok is false for any other row.
func RoutineRowAsComposite(fn *catalog.Function, row []sqltypes.Value, cols []ir.Column) (sqltypes.Value, bool, error) {
	if !rowOfComposite(fn, cols) {
		return sqltypes.Null, false, nil
	}
	c := fn.Result.Composite
	fields := make([]sqltypes.Value, len(row))
	for i, f := range c.Fields {
		v := row[i]
		if !v.IsNull() && !cols[i].Type.Same(f.Type) {
			var err error
			if v, err = sqltypes.Cast(v, f.Type); err != nil {
				return sqltypes.Null, true, err
			}
		}
		fields[i] = v
	}
	return sqltypes.NewRecordOf(fields, c.FieldTypes()), true, nil
}

// ColumnTypes lists the types of cols.
func ColumnTypes(cols []ir.Column) []sqltypes.Type {
	out := make([]sqltypes.Type, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}

// ColumnNames lists the names of cols.
func ColumnNames(cols []ir.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// groupedWholeRow is the whole row of the FROM item cn names in an
// aggregated query that groups by that row (GROUP BY t ... SELECT t), read
// from the group; nil when cn is a column, or the row is not grouped.
func (b *Binder) groupedWholeRow(sc *scope, cn *ast.ColumnName, agg *aggBinder) ir.Expr {
	if cn.Table.O != "" {
		return nil
	}
	if _, err := sc.resolve(cn); err == nil {
		return nil
	}
	rec, err := b.wholeRowValue(sc, cn.Name.O)
	if err != nil {
		return nil
	}
	g, ok := agg.groupCol(rec)
	if !ok {
		return nil
	}
	if b.wholeRowOK {
		return recordAsJSON(g) // the json functions' argument (rowjson.go)
	}
	return g
}

// recordLiteralOperand refuses a record compared with an untyped string
// literal: PostgreSQL's record operators take the literal as an anonymous
// record, which has no input function (0A000).
func recordLiteralOperand(l, r ir.Expr) error {
	for _, p := range [2][2]ir.Expr{{l, r}, {r, l}} {
		c, ok := p[1].(*ir.Const)
		if p[0].Type().ID == sqltypes.Record && ok && c.Typ.ID == sqltypes.Unknown && !c.V.IsNull() {
			return pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
		}
	}
	return nil
}

// populateRecord binds json_populate_record(base, json) and
// jsonb_populate_record(base, jsonb) whose base is of a named composite
// type: a record of the type from the object's keys (sqltypes.PopulateRecord);
// ok is false for another call.
func (b *Binder) populateRecord(name string, args []ir.Expr) (ir.Expr, bool) {
	if name != "json_populate_record" && name != "jsonb_populate_record" {
		return nil, false
	}
	doc, ok := b.populateArgs(name, args)
	if !ok {
		return nil, false
	}
	t := args[0].Type()
	return &ir.Func{Name: name, Args: []ir.Expr{args[0], doc}, Typ: t, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.PopulateRecord(t, a[0], a[1])
	}}, true
}

// populateArgs checks the arguments of json[b]_populate_record(set) (base,
// doc), and json's third, use_json_as_text, which PostgreSQL ignores, and
// returns doc, an untyped literal taken as the function's json or jsonb;
// ok is false when they are not a named composite base and a document.
func (b *Binder) populateArgs(name string, args []ir.Expr) (ir.Expr, bool) {
	jsonb := strings.HasPrefix(name, "jsonb_")
	if len(args) != 2 && (jsonb || len(args) != 3 || args[2].Type().ID != sqltypes.Bool && args[2].Type().ID != sqltypes.Unknown) || !args[0].Type().IsNamedComposite() {
		return nil, false
	}
	doc := args[1]
	if doc.Type().ID == sqltypes.Unknown {
		want := sqltypes.TypeJSON
		if jsonb {
			want = sqltypes.TypeJSONB
		}
		if c, err := b.coerceTo(doc, want, false); err == nil {
			doc = c
		}
	}
	return doc, true
}

// populateRecordset binds json[b]_populate_recordset(base, doc) in FROM: a
// row per object of the array doc, a column per field of base's named
// composite type; ok is false for another call.
func (b *Binder) populateRecordset(name string, args []ir.Expr) (*ir.TableFunc, bool) {
	if name != "json_populate_recordset" && name != "jsonb_populate_recordset" {
		return nil, false
	}
	doc, ok := b.populateArgs(name, args)
	if !ok {
		return nil, false
	}
	t := args[0].Type()
	tf := &ir.TableFunc{Name: name, Args: []ir.Expr{args[0], doc}}
	for _, f := range t.Composite.Fields {
		tf.Cols = append(tf.Cols, ir.Column{Name: f.Name, Type: f.Type, Col: -1})
	}
	tf.Fn = &builtins.Overload{CalledOnNull: true, Set: &builtins.SetFunc{
		Rows: func(_ *builtins.Context, a []sqltypes.Value) (builtins.SetRows, error) {
			recs, err := sqltypes.PopulateRecordset(name, t, a[0], a[1])
			if err != nil {
				return nil, err
			}
			rows := make([][]sqltypes.Value, len(recs))
			for i, r := range recs {
				rows[i] = r.Array().Elems
			}
			return builtins.Table(rows), nil
		}}}
	return tf, true
}
