package planner

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Subscripts of containers that are not arrays (jsonb), and subscripted
// assignments: UPDATE's and DO UPDATE's SET a[i] = x, a[lo:hi] = x and
// j['k'][0] = x (parser.SubscriptAssignFunc), computed by sqltypes'
// ArraySetElement, ArraySetSlice and JSONBSubscriptAssign. Several
// subscripted assignments to one column compose, each on the value the
// ones before it left, as PostgreSQL's rewriter composes them.

// isSubscriptAssign reports whether e is a subscripted assignment's value.
func isSubscriptAssign(e ast.ExprNode) (*ast.FuncCallExpr, bool) {
	f, ok := e.(*ast.FuncCallExpr)
	return f, ok && f.FnName.L == parser.SubscriptAssignFunc && len(f.Args) == 2
}

// jsonbSubscript casts the jsonb subscript x, written as node, to integer
// or text, the types it must be coercible to (an untyped literal is text).
func (b *Binder) jsonbSubscript(x ir.Expr, node ast.ExprNode) (ir.Expr, error) {
	t := x.Type()
	b.inferParam(x, sqltypes.TypeText)
	switch {
	case t.ID == sqltypes.Unknown:
		return b.coerceTo(x, sqltypes.TypeText, false)
	case t.ID == sqltypes.Int4 || builtins.ImplicitCast(t, sqltypes.TypeInt4):
		return b.coerceTo(x, sqltypes.TypeInt4, false)
	case t.IsTextual() || builtins.ImplicitCast(t, sqltypes.TypeText):
		return b.coerceTo(x, sqltypes.TypeText, false)
	}
	return nil, pgerr.New(pgerr.DatatypeMismatch, "subscript type %s is not supported", t).
		WithHint("jsonb subscript must be coercible to either integer or text.").WithPosition(b.exprPosition(node))
}

// errJSONBSlices is PostgreSQL's refusal of jsonb[lo:hi], at the slice's
// last bound written (nodes: the zp_slice call's arguments).
func (b *Binder) errJSONBSlices(nodes []ast.ExprNode) error {
	err := pgerr.New(pgerr.DatatypeMismatch, "jsonb subscript does not support slices")
	for i := len(nodes) - 1; i > 0; i-- {
		if g, ok := nodes[i].(*ast.FuncCallExpr); !ok || g.FnName.L != parser.NoBoundFunc {
			return err.WithPosition(b.exprPosition(nodes[i]))
		}
	}
	return err
}

// bindJSONBSubscript binds j[a][b]...: the value at that path, as j #>
// ARRAY[a, b] finds it (an object's key, an array's index from 0 counting
// from the end when negative), NULL where a step is missing. nodes are
// the zp_subscript call's arguments.
func (b *Binder) bindJSONBSubscript(args []ir.Expr, nodes []ast.ExprNode) (ir.Expr, error) {
	for i := 1; i < len(args); i++ {
		x, err := b.jsonbSubscript(args[i], nodes[i])
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	return fold(&ir.Func{Name: "jsonb_subscript", Args: args, Typ: sqltypes.TypeJSONB, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		return sqltypes.JSONGetPath(a[0], jsonbPath(a[1:]))
	}})
}

// jsonbPath is subscripts as a text[] path; a NULL subscript stays NULL.
func jsonbPath(subs []sqltypes.Value) sqltypes.Value {
	path := make([]sqltypes.Value, len(subs))
	for i, s := range subs {
		if s.K == sqltypes.KindInt {
			s = sqltypes.NewText(strconv.FormatInt(s.I, 10))
		}
		path[i] = s
	}
	return sqltypes.NewArray1(sqltypes.TypeText, path)
}

// bindSubscriptAssign binds f, SET col[...] = value for column col of t,
// the FROM item of sc named alias, into set: onto the value an earlier
// subscripted assignment of the list gave the column (subscripted[col]),
// else onto the row's own. A column assigned whole may not be assigned
// again (42601, as PostgreSQL).
func (b *Binder) bindSubscriptAssign(sc *scope, t *catalog.Table, alias string, col int, set map[int]ir.Expr, subscripted map[int]bool, f *ast.FuncCallExpr) error {
	prev, dup := set[col]
	if dup && !subscripted[col] {
		return pgerr.New(pgerr.SyntaxError, "multiple assignments to same column %q", t.Columns[col].Name)
	}
	e, err := b.bindColumnAssign(sc, t, alias, col, prev, f)
	if err != nil {
		return err
	}
	set[col], subscripted[col] = e, true
	return nil
}

// bindColumnAssign is bindSubscriptAssign's value: prev is the column's
// value so far (nil: the row's own).
func (b *Binder) bindColumnAssign(sc *scope, t *catalog.Table, alias string, col int, prev ir.Expr, f *ast.FuncCallExpr) (ir.Expr, error) {
	c := t.Columns[col]
	if c.Generated != "" {
		return nil, generatedColumnValue(c, true)
	}
	if c.Identity == "always" {
		return nil, identityAlways(c, true)
	}
	base := prev
	if base == nil {
		var err error
		if base, err = sc.resolve(&ast.ColumnName{Table: ast.NewCIStr(alias), Name: ast.NewCIStr(c.Name)}); err != nil {
			return nil, err
		}
	}
	return b.bindAssignOf(sc, base, c.Type, c.Name, f)
}

// bindAssignOf is bindAssignInto of f's target and value.
func (b *Binder) bindAssignOf(sc *scope, base ir.Expr, typ sqltypes.Type, name string, f *ast.FuncCallExpr) (ir.Expr, error) {
	target, ok := f.Args[0].(*ast.FuncCallExpr)
	if !ok {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"[\"")
	}
	return b.bindAssignInto(sc, base, typ, name, target, func(sqltypes.Type) (ir.Expr, error) {
		return b.bindExpr(sc, f.Args[1])
	}, f.Args[1])
}

// bindSubscriptExpr binds zp_subscript_assign(x[...], value) standing as
// an expression: PL/pgSQL's x[i] := value, which its parser spells so
// (parser.PLAssign); the result is x with the element assigned.
func (b *Binder) bindSubscriptExpr(sc *scope, f *ast.FuncCallExpr) (ir.Expr, error) {
	target, ok := f.Args[0].(*ast.FuncCallExpr)
	if !ok || len(target.Args) < 2 {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"[\"")
	}
	base, err := b.bindExpr(sc, target.Args[0])
	if err != nil {
		return nil, err
	}
	name := ""
	if cn, ok := target.Args[0].(*ast.ColumnNameExpr); ok {
		name = cn.Name.Name.O
	}
	return b.bindAssignOf(sc, base, base.Type(), name, f)
}

// bindAssignInto binds the assignment of a value into base (of type typ,
// named name in errors) at the subscripts of target (a zp_subscript or
// zp_slice call): value binds the value given the type it is assigned
// as (the element's, or the whole value's for a slice or jsonb), written
// as node (nil: none to point at).
func (b *Binder) bindAssignInto(sc *scope, base ir.Expr, typ sqltypes.Type, name string, target *ast.FuncCallExpr, value func(want sqltypes.Type) (ir.Expr, error), node ast.ExprNode) (ir.Expr, error) {
	st, err := b.bindAssignTarget(sc, typ, name, target)
	if err != nil {
		return nil, err
	}
	v, err := value(st.want)
	if err != nil {
		return nil, err
	}
	if v, err = b.assignValue(st, v, node); err != nil {
		return nil, err
	}
	return st.assign(base, v), nil
}

// assignTarget is a subscripted assignment's target, bound: what it
// assigns into and at which subscripts.
type assignTarget struct {
	typ   sqltypes.Type // the value assigned into
	name  string        // its name in errors
	at    int           // where the name is written
	subs  []ir.Expr     // from subs[1]; nil: a slice's missing bound
	slice bool
	want  sqltypes.Type // the assigned value's type
}

// bindAssignTarget binds target, the subscripts of an assignment into a
// value of type typ named name.
func (b *Binder) bindAssignTarget(sc *scope, typ sqltypes.Type, name string, target *ast.FuncCallExpr) (*assignTarget, error) {
	st := &assignTarget{typ: typ, name: name}
	if name != "" {
		st.at = b.stmt.NamePosition(name)
	}
	if target.FnName.L != parser.SubscriptFunc && target.FnName.L != parser.SliceFunc || len(target.Args) < 2 {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"[\"")
	}
	st.slice = target.FnName.L == parser.SliceFunc
	if typ.Domain != nil {
		return nil, unsupported("subscripted assignment to a value of a domain type is not supported")
	}
	isArray := typ.ID == sqltypes.Array
	if !isArray && typ.ID != sqltypes.JSONB {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", typ).WithPosition(st.at)
	}
	if !isArray && st.slice {
		return nil, b.errJSONBSlices(target.Args)
	}
	st.subs = make([]ir.Expr, len(target.Args))
	for i, a := range target.Args[1:] {
		if g, ok := a.(*ast.FuncCallExpr); ok && g.FnName.L == parser.NoBoundFunc {
			continue
		}
		x, err := b.bindExpr(sc, a)
		if err != nil {
			return nil, err
		}
		st.subs[i+1] = x
	}
	switch {
	case !isArray:
		st.want = sqltypes.TypeJSONB
		for i := 1; i < len(st.subs); i++ {
			x, err := b.jsonbSubscript(st.subs[i], target.Args[i])
			if err != nil {
				return nil, err
			}
			st.subs[i] = x
		}
	case st.slice:
		if len(st.subs) != 3 {
			return nil, unsupported("assignment to a slice of more than one dimension is not supported")
		}
		st.want = typ
		if err := b.integerSubscripts(st.subs); err != nil {
			return nil, err
		}
	default:
		st.want = typ.ElemType()
		if err := b.integerSubscripts(st.subs); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// assignValue converts v, the value assigned at st (written as node,
// nil: none), to the type st assigns.
func (b *Binder) assignValue(st *assignTarget, v ir.Expr, node ast.ExprNode) (ir.Expr, error) {
	b.inferParam(v, st.want)
	if vt := v.Type(); vt.ID != sqltypes.Unknown && !castAllowedAssignment(vt, st.want) {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "subscripted assignment to %q requires type %s but expression is of type %s", st.name, st.want, vt).
			WithHint("You will need to rewrite or cast the expression.").WithPosition(st.at)
	}
	v, err := b.coerceTo(v, st.want, true)
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Position == 0 && node != nil && isLiteral(node) && readsInput(pe.Code) {
			return nil, pe.WithPosition(b.stmt.Position(node.OriginTextPosition()))
		}
		return nil, err
	}
	return v, nil
}

// assign is the value of base with v assigned at st.
func (st *assignTarget) assign(base, v ir.Expr) ir.Expr {
	args := []ir.Expr{base, v}
	present := make([]bool, 0, len(st.subs)-1)
	for _, s := range st.subs[1:] {
		present = append(present, s != nil)
		if s != nil {
			args = append(args, s)
		}
	}
	typ := st.typ
	var fn func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error)
	switch {
	case typ.ID == sqltypes.JSONB:
		fn = func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.JSONBSubscriptAssign(a[0], a[2:], a[1])
		}
	case st.slice:
		elem := typ.ElemType()
		fn = func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			var bounds [2]*int64
			k := 2
			for d := range bounds {
				if !present[d] {
					continue
				}
				if a[k].IsNull() {
					return sqltypes.Null, sqltypes.NullArraySubscript()
				}
				bounds[d] = &a[k].I
				k++
			}
			return sqltypes.ArraySetSlice(a[0], elem, bounds[0], bounds[1], a[1])
		}
	default:
		elem := typ.ElemType()
		fn = func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
			idx := make([]int64, len(a)-2)
			for i, s := range a[2:] {
				if s.IsNull() {
					return sqltypes.Null, sqltypes.NullArraySubscript()
				}
				idx[i] = s.I
			}
			return sqltypes.ArraySetElement(a[0], elem, idx, a[1])
		}
	}
	return &ir.Func{Name: "subscript_assign", Args: args, Typ: typ, Fn: fn}
}

// insertAssignTargets binds the subscripted items of an INSERT's column
// list (parser's Statement.InsertSubscripts) into columns targets of t,
// by their place in the list; nil when there are none.
func (b *Binder) insertAssignTargets(t *catalog.Table, targets []int) (map[int]*assignTarget, error) {
	if len(b.stmt.InsertSubscripts) == 0 {
		return nil, nil
	}
	out := map[int]*assignTarget{}
	sc := env{}.newScope()
	for _, is := range b.stmt.InsertSubscripts {
		if is.Item >= len(targets) {
			continue
		}
		c := t.Columns[targets[is.Item]]
		at := b.stmt.InsertColumnPosition(is.Item)
		if c.Type.ID != sqltypes.Array && c.Type.ID != sqltypes.JSONB {
			// PostgreSQL places this one nowhere in an INSERT.
			return nil, pgerr.New(pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", c.Type)
		}
		stmt, node, err := parser.ParseExpression(is.Text)
		if err != nil {
			return nil, err
		}
		if stmt.NumParams > 0 {
			return nil, unsupported("parameters in the subscripts of an INSERT's column list are not supported")
		}
		target, ok := node.(*ast.FuncCallExpr)
		if !ok {
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"[\"").WithPosition(at)
		}
		// The subscripts' errors point into the client's text: the
		// expression's statement maps its positions there.
		stmt.Within(b.stmt, is.Offset)
		outer := b.stmt
		b.stmt = stmt
		st, err := b.bindAssignTarget(sc, c.Type, "", target)
		b.stmt = outer
		if err != nil {
			return nil, err
		}
		st.name, st.at = c.Name, at
		out[is.Item] = st
	}
	return out, nil
}

// assignInserted is the value of column col of an inserted row whose
// column list assigns v into it at st: into what an earlier item of the
// list assigned (assigned[col]), else into NULL, as PostgreSQL inserts
// INSERT INTO t (a[2]) VALUES (x) (the column's default is not the base).
func (b *Binder) assignInserted(st *assignTarget, row []ir.Expr, assigned map[int]bool, col int, v ir.Expr, node ast.ExprNode) (ir.Expr, error) {
	v, err := b.assignValue(st, v, node)
	if err != nil {
		return nil, err
	}
	base := row[col]
	if !assigned[col] {
		base = &ir.Const{V: sqltypes.Null, Typ: st.typ}
	}
	assigned[col] = true
	return st.assign(base, v), nil
}
