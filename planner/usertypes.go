package planner

import (
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// userType looks up a user-defined type the front end left by name
// (parser.ColumnExtras.TypeName, parser.UserTypeCastOf): "mood" or, with
// array, an array of it.
func userType(snap *catalog.Snapshot, name string, array bool) (sqltypes.Type, error) {
	if sc, _, q := strings.Cut(name, "."); q && snap.UsageDenied(sc) {
		return sqltypes.Type{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", sc)
	}
	u, ok := snap.UserType(name)
	if !ok {
		if sc, _, q := strings.Cut(name, "."); q && !snap.HasSchema(sc) {
			return sqltypes.Type{}, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", sc)
		}
		if snap.HasRelation(name) {
			// PostgreSQL's relation row types (t as a type): zproxy has
			// CREATE TYPE's composite types only.
			return sqltypes.Type{}, pgerr.New(pgerr.FeatureNotSupported, "the row type of relation \"%s\" is not supported as a type here", name).
				WithHint("Create a composite type with CREATE TYPE ... AS (...) instead.")
		}
		return sqltypes.Type{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	}
	t := u.Type()
	if array {
		if t.IsDomain() && t.ID == sqltypes.Array {
			// PostgreSQL's d[] of a domain over an array: zproxy has no
			// type for it.
			return t, pgerr.New(pgerr.FeatureNotSupported, "arrays of domain %s over an array type are not supported", t)
		}
		t = sqltypes.ArrayOf(t)
	}
	return t, nil
}

// columnTypeName resolves a column definition's user-defined type name.
func columnTypeName(snap *catalog.Snapshot, name string) (sqltypes.Type, error) {
	base, array := strings.CutSuffix(name, "[]")
	return userType(snap, base, array)
}

// columnExtrasType resolves the user-defined type of a column definition
// of CREATE TABLE or ALTER TABLE ADD COLUMN; a name that finds no type
// or schema is an error at the type, as PostgreSQL's typenameType points.
func columnExtrasType(snap *catalog.Snapshot, ext *parser.ColumnExtras) (sqltypes.Type, error) {
	t, err := columnTypeName(snap, ext.TypeName)
	if pe, ok := err.(*pgerr.Error); ok && pe.Position == 0 && (pe.Code == pgerr.UndefinedObject || pe.Code == pgerr.InvalidSchemaName) {
		pe.WithPosition(ext.TypePosition)
	}
	return t, err
}

// castOf recognises a cast (parser.CastOf), resolving a user-defined
// target type in the catalog.
func (b *Binder) castOf(e ast.ExprNode) (operand ast.ExprNode, t sqltypes.Type, ok bool, err error) {
	if operand, t, ok := parser.CastOf(e); ok {
		return operand, t, true, nil
	}
	operand, name, array, ok := parser.UserTypeCastOf(e)
	if !ok {
		return nil, t, false, nil
	}
	if name == "record" {
		// The pseudo-type record names no column type, but a cast to it
		// is PostgreSQL's: NULL::record, ROW(1, 'a')::record, a
		// composite value as an anonymous record.
		t = sqltypes.Type{ID: sqltypes.Record}
		if array {
			t = sqltypes.ArrayOf(t)
		}
		return operand, t, true, nil
	}
	t, err = b.userOrRowType(name, array)
	return operand, t, true, err
}

// userOrRowType resolves a user-defined type's name, or a table's, whose
// row type it then is ('(1,a)'::t).
func (b *Binder) userOrRowType(name string, array bool) (sqltypes.Type, error) {
	t, err := userType(b.snap, name, array)
	if err != nil && b.snap != nil {
		if tbl, terr := b.snap.Table(name); terr == nil {
			t, err = sqltypes.CompositeOf(b.rowTypeOf(tbl)), nil
			if array {
				t = sqltypes.ArrayOf(t)
			}
		}
	}
	return t, err
}

func init() { sqltypes.BindDomainCheck = bindDomainCheck }

// bindDomainCheck binds a domain's CHECK for sqltypes.DomainType.Check,
// in the snapshot of types the catalog gave the domain.
func bindDomainCheck(d *sqltypes.DomainType, sql string) (sqltypes.DomainCheckFunc, error) {
	snap, _ := d.Env.(*catalog.Snapshot)
	b := &Binder{snap: snap}
	e, err := b.bindDomainCheckExpr(d.Base, sql)
	if err != nil {
		return nil, err
	}
	return func(v sqltypes.Value) (bool, error) {
		r, err := e.Eval(&ir.EvalContext{}, []sqltypes.Value{v})
		if err != nil {
			return false, err
		}
		return r.IsNull() || ir.Truthy(r), nil
	}, nil
}

// bindDomainCheckExpr binds a domain's CHECK expression over one column,
// VALUE, of the domain's base type, with a table CHECK's rules.
func (b *Binder) bindDomainCheckExpr(base sqltypes.Type, sql string) (ir.Expr, error) {
	sub, node, err := b.parseStoredExpr(sql, "")
	if err != nil {
		return nil, err
	}
	t := &catalog.Table{Columns: []catalog.Column{{Name: "value", Type: base}}}
	sc := &scope{items: []*fromItem{tableItem(t, "", 0)}}
	return sub.bindBool(sc, node, "CHECK")
}

func init() {
	pgcatalog.DomainCheckDeparser = func(snap *catalog.Snapshot, base sqltypes.Type, sql string, pretty bool) (string, bool) {
		if snap == nil {
			snap = &catalog.Snapshot{}
		}
		b := &Binder{snap: snap, loc: time.UTC}
		e, err := b.bindDomainCheckExpr(base, sql)
		if err != nil {
			return "", false
		}
		return ir.DeparseOverNamed(e, []string{"VALUE"}, pretty, catalog.Names{Snap: snap})
	}
}

// bindTypeChange binds CREATE/ALTER/DROP TYPE and DOMAIN: a domain's base
// type is resolved, and its DEFAULT and CHECK expressions are bound to
// refuse what PostgreSQL refuses when it is created; the executor applies
// the change to the catalog as it is then.
func bindTypeChange(snap *catalog.Snapshot, ts *parser.TypeStatement, loc *time.Location, style sqltypes.Style) (ir.Statement, error) {
	st, err := bindTypeChangeOf(snap, ts, loc, style)
	if x, ok := st.(*ir.TypeChange); ok && err == nil {
		err = permanentOverTemp(x)
	}
	return st, err
}

// permanentOverTemp refuses (0A000) a permanent type made of a session's
// temporary type (a domain over it, a composite type's attribute, a
// range's subtype): other sessions could not use it, and it would outlive
// the session's types (PostgreSQL drops it with them).
func permanentOverTemp(x *ir.TypeChange) error {
	if len(x.Names) == 0 {
		return nil
	}
	if sc, _ := catalog.SplitName(x.Names[0]); sc == catalog.TempTypeSchema {
		return nil
	}
	types := append([]sqltypes.Type{x.Base}, x.AttrTypes...)
	if x.RangeDef != nil {
		types = append(types, x.RangeDef.Subtype)
	}
	for _, t := range types {
		if k := catalog.TempTypeIn(t); k != "" {
			return pgerr.New(pgerr.FeatureNotSupported, "permanent type %s cannot depend on temporary type %s", sqltypes.QuoteKey(x.Names[0]), sqltypes.QuoteTypeKey(k)).
				WithHint("Create the type in pg_temp too, or the other in a permanent schema.")
		}
	}
	return nil
}

func bindTypeChangeOf(snap *catalog.Snapshot, ts *parser.TypeStatement, loc *time.Location, style sqltypes.Style) (ir.Statement, error) {
	x := &ir.TypeChange{TypeStatement: ts}
	if ts.Action == parser.TypeCreateRange {
		r, err := bindRangeType(snap, ts)
		x.RangeDef = r
		return x, err
	}
	if len(ts.Attrs) > 0 {
		types, err := compositeAttrTypes(snap, ts)
		x.AttrTypes = types
		return x, err
	}
	if !ts.Domain {
		return x, nil
	}
	b := &Binder{snap: snap, loc: loc, style: style}
	var base sqltypes.Type
	switch ts.Action {
	case parser.TypeCreateDomain:
		var err error
		if base, err = baseType(snap, ts); err != nil {
			return nil, err
		}
		if !parser.StorableType(base.ID) || !parser.StorableType(base.Elem) {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported as a domain's base type", base).WithPosition(ts.BasePos)
		}
		if base.ID == sqltypes.Array && base.Domain != nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "domains over arrays of domains are not supported").WithPosition(ts.BasePos)
		}
		x.Base = base
	case parser.DomainSetDefault, parser.DomainAddCheck:
		u, ok := snap.UserTypeByKey(ts.Names[0])
		if !ok || u.Domain == nil {
			return x, nil // the executor says what is wrong
		}
		base = u.Domain.Base
	default:
		return x, nil
	}
	if ts.Default != "" {
		if _, err := b.bindDefault(catalog.Column{Name: ts.Names[0], Type: base}, ts.Default); err != nil {
			return nil, err
		}
	}
	for _, c := range ts.Checks {
		if _, err := b.bindDomainCheckExpr(base, c.SQL); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// baseOf is e as a value of its domain's base type when e is of a domain:
// operators and functions take a domain's values as the base type's, as
// PostgreSQL resolves them.
func baseOf(e ir.Expr) ir.Expr {
	t := e.Type()
	if !t.IsDomain() {
		return e
	}
	switch x := e.(type) {
	case *ir.Const:
		return &ir.Const{V: x.V, Typ: t.StripDomain()}
	case *ir.ColRef:
		c := *x
		c.Typ, c.Relabeled = t.StripDomain(), true
		return &c
	}
	return &ir.Cast{E: e, To: t.StripDomain()}
}

// domainViolation reports whether err is a domain's constraint failing
// (23502, 23514) rather than the value not converting to the base type.
func domainViolation(err error) bool {
	c := pgerr.CodeOf(err)
	return c == pgerr.NotNullViolation || c == pgerr.CheckViolation
}

// anonymousRecordOf reports whether to is the pseudo-type record (or
// record[]) and from a record type (or an array of one): the cast that
// PostgreSQL coerces without changing the value or its type.
func anonymousRecordOf(from, to sqltypes.Type) bool {
	if to.ID == sqltypes.Array && from.ID == sqltypes.Array {
		from, to = from.ElemType(), to.ElemType()
	}
	return to.ID == sqltypes.Record && to.Composite == nil && from.ID == sqltypes.Record && !from.IsDomain()
}

// bindRangeType checks CREATE TYPE ... AS RANGE's options as PostgreSQL's
// DefineRange does: the subtype resolved, the subtype_diff function,
// operator class and collation found. A canonical function is refused
// as PostgreSQL refuses one without a shell type, which zproxy lacks.
func bindRangeType(snap *catalog.Snapshot, ts *parser.TypeStatement) (*sqltypes.RangeType, error) {
	sub, err := baseType(snap, ts)
	if err != nil {
		return nil, err
	}
	if !parser.StorableType(sub.ID) || !parser.StorableType(sub.Elem) || sub.HasComposite() {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported as a range's subtype", sub).WithPosition(ts.BasePos)
	}
	o := ts.Range
	if o.Canonical != "" {
		// PostgreSQL takes a canonical function only for a shell type
		// created first (CREATE TYPE name), which zproxy refuses (0A000):
		// it could not call a user's canonical function.
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "cannot specify a canonical function without a pre-created shell type").
			WithHint("Create the type as a shell type, then create its canonicalization function, then do a full CREATE TYPE.")
	}
	r := &sqltypes.RangeType{Subtype: sub, SubtypeOpclass: o.SubtypeOpclass, Collation: o.Collation}
	if r.OpclassOID, err = pgcatalog.RangeSubtypeOpclass(sub, o.SubtypeOpclass); err != nil {
		return nil, err
	}
	if r.CollationOID, err = pgcatalog.RangeCollation(sub, o.Collation); err != nil {
		return nil, err
	}
	if o.SubtypeDiff != "" {
		if r.SubtypeDiffOID, r.SubtypeDiff, err = pgcatalog.RangeSubtypeDiff(o.SubtypeDiff, sub); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// baseType resolves CREATE DOMAIN's base type or CREATE TYPE ... AS
// RANGE's subtype: a built-in type the parser read, or a user-defined
// one it left by name.
func baseType(snap *catalog.Snapshot, ts *parser.TypeStatement) (sqltypes.Type, error) {
	if ts.BaseName == "" {
		return ts.Base, nil
	}
	t, err := columnTypeName(snap, ts.BaseName)
	if pe := pgerr.As(err); pe != nil && pe.Position == 0 {
		return t, pe.WithPosition(ts.BasePos)
	}
	return t, err
}
