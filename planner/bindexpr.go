package planner

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindExpr binds a scalar expression over the scope's table row.
func (b *Binder) bindExpr(sc *scope, node ast.ExprNode) (ir.Expr, error) {
	return b.bindExprWith(sc, node, nil)
}

// child binds a sub-expression: through the aggregate binder when binding
// above an aggregation, so leaves resolve to group columns and aggregates.
func (b *Binder) child(sc *scope, node ast.ExprNode, agg *aggBinder) (ir.Expr, error) {
	e, err := b.childTyped(sc, node, agg)
	if err != nil {
		return nil, err
	}
	return baseOf(e), nil
}

// childTyped is child keeping a domain's type (child gives the domain's
// values as its base type's, for the operators and functions that take
// them): for pg_typeof.
func (b *Binder) childTyped(sc *scope, node ast.ExprNode, agg *aggBinder) (ir.Expr, error) {
	if agg != nil {
		e, err := agg.bind(node)
		return e, b.positioned(err, node)
	}
	return b.bindExprWith(sc, node, nil)
}

func (b *Binder) bindExprWith(sc *scope, node ast.ExprNode, agg *aggBinder) (ir.Expr, error) {
	e, err := b.bindExprNode(sc, node, agg)
	return e, b.positioned(err, node)
}

// positioned gives an error from binding node the position PostgreSQL's
// parser would give it (the caret psql draws under the statement): the
// column reference a name error is about, the function or operator that
// does not exist, the literal that does not read as the type it is cast
// or compared to. The innermost node sets it; an error that already has a
// position, and errors PostgreSQL raises without one (those of running
// the statement, such as a constant's division by zero), keep theirs.
func (b *Binder) positioned(err error, node ast.ExprNode) error {
	pe, ok := err.(*pgerr.Error)
	if !ok || pe.Position != 0 || b.stmt == nil {
		return err
	}
	pos := 0
	switch n := node.(type) {
	case *ast.ColumnNameExpr:
		switch pe.Code {
		case pgerr.UndefinedColumn, pgerr.AmbiguousColumn, pgerr.UndefinedTable, pgerr.GroupingError:
			pos = b.stmt.Position(n.OriginTextPosition())
		}
	case *ast.FuncCallExpr:
		switch {
		case n.FnName.L == parser.CastFunc && len(n.Args) > 0:
			if _, name, _, ok := parser.UserTypeCastOf(n); ok && pe.Code == pgerr.UndefinedObject {
				// No such type: at its name (typenameType).
				pos = b.stmt.NamePosition(name)
			} else if isStringLiteral(n.Args[0]) {
				// The type's input function read the literal: whatever it
				// raised is at the literal (a reg* type's missing name, a
				// range's bounds, a tsquery's syntax too), as PostgreSQL
				// reads a constant under its parser position. A number's
				// cast is a conversion when the statement runs: none.
				pos = b.stmt.Position(n.Args[0].OriginTextPosition())
			}
		case pe.Code == pgerr.DatatypeMismatch && len(n.Args) > 0 && isVariadicArg(n.Args[len(n.Args)-1]):
			// "VARIADIC argument must be an array": at the argument.
			pos = b.stmt.Position(n.Args[len(n.Args)-1].(*ast.FuncCallExpr).Args[0].OriginTextPosition())
		case (n.FnName.L == parser.AnyFunc || n.FnName.L == parser.AllFunc) && len(n.Args) == 3 && operatorError(pe.Code):
			// The operator's name stands where the client wrote the
			// operator (parser.quantified).
			pos = b.stmt.Position(n.Args[1].OriginTextPosition())
		case (n.FnName.L == parser.AnyFunc || n.FnName.L == parser.AllFunc) && len(n.Args) == 3 && readsInput(pe.Code):
			// An untyped array literal read as the operand's array type.
			if p, ok := n.Args[2].(*ast.ParenthesesExpr); ok && isLiteral(p.Expr) {
				pos = b.stmt.Position(p.Expr.OriginTextPosition())
			}
		case n.FnName.L == parser.OpFunc && len(n.Args) == 3 && operatorError(pe.Code):
			pos = b.stmt.OperatorPosition(n.Args[2].OriginTextPosition())
		case n.FnName.L == parser.OpFunc && len(n.Args) == 2 && operatorError(pe.Code):
			pos = b.stmt.OperatorPosition(n.Args[1].OriginTextPosition()) // a prefix operator
		case strings.HasPrefix(n.FnName.L, parser.WindowFuncPrefix) && (pe.Code == pgerr.WrongObjectType || pe.Code == pgerr.UndefinedFunction):
			// A window function called without OVER, or with arguments
			// it does not take: at the call.
			pos = b.stmt.Position(n.OriginTextPosition())
		case n.FnName.L == parser.OverFunc && pe.Code == pgerr.WindowingError && len(n.Args) > 0:
			// A window function where none may stand: at its call.
			pos = b.stmt.Position(n.Args[0].OriginTextPosition())
		case strings.HasPrefix(n.FnName.L, "zp_") && n.FnName.L != parser.ConcatFunc:
			// zproxy's respelling of syntax, not a function the client
			// named (but concat, renamed: parser.ConcatFunc).
		case pe.Code == pgerr.UndefinedFunction || pe.Code == pgerr.AmbiguousFunction || pe.Code == pgerr.GroupingError ||
			pe.Code == pgerr.InvalidSchemaName && n.Schema.L != "":
			// (A qualifier that names no schema: at the call, where the
			// qualifier begins.)
			pos = b.stmt.Position(n.OriginTextPosition())
		}
	case *ast.AggregateFuncExpr, *ast.WindowFuncExpr:
		if pe.Code == pgerr.UndefinedFunction || pe.Code == pgerr.GroupingError {
			pos = b.stmt.Position(n.OriginTextPosition())
		}
	case *ast.PatternInExpr:
		if n.Sel == nil && len(n.List) > 0 && operatorError(pe.Code) {
			// x IN (list) with no operator for an item: at the IN.
			pos = b.stmt.InPosition(n.List[0].OriginTextPosition())
		}
	case *ast.PatternLikeOrIlikeExpr:
		if pe.Code == pgerr.UndefinedFunction {
			pos = b.stmt.OperatorPosition(n.Pattern.OriginTextPosition())
		}
	case *ast.CompareSubqueryExpr:
		if operatorError(pe.Code) {
			pos = b.stmt.QuantifiedOperatorPosition(n.R.OriginTextPosition())
		}
	case *ast.UnaryOperationExpr:
		switch {
		case operatorError(pe.Code):
			pos = b.stmt.Position(n.OriginTextPosition()) // the operator starts it
		case readsInput(pe.Code) && isLiteral(n.V):
			pos = b.stmt.Position(n.V.OriginTextPosition())
		}
	case *ast.BinaryOperationExpr:
		switch {
		case pe.Code == pgerr.UndefinedFunction || pe.Code == pgerr.AmbiguousFunction:
			// No operator matches, or several do ('a' - 'b'): at the
			// operator, as PostgreSQL's make_op reports both.
			pos = b.stmt.OperatorPosition(n.R.OriginTextPosition())
		case readsInput(pe.Code):
			// An untyped literal read as the other operand's type.
			if isLiteral(n.R) {
				pos = b.stmt.Position(n.R.OriginTextPosition())
			} else if isLiteral(n.L) {
				pos = b.stmt.Position(n.L.OriginTextPosition())
			}
		}
	}
	if pos == 0 {
		return err
	}
	return pe.WithPosition(pos)
}

// isStringLiteral reports whether node is a string constant, which a
// cast reads with its type's input function.
func isStringLiteral(node ast.ExprNode) bool {
	v, ok := node.(*driver.ValueExpr)
	if !ok {
		return false
	}
	_, ok = v.GetValue().(string)
	return ok
}

// isVariadicArg reports whether node is an argument written VARIADIC
// (parser.VariadicFunc).
func isVariadicArg(node ast.ExprNode) bool {
	v, ok := node.(*ast.FuncCallExpr)
	return ok && v.FnName.L == parser.VariadicFunc && len(v.Args) == 1
}

// readsInput reports whether code is one of the errors of reading a value
// from its text (never of computing with it), which PostgreSQL places at
// the literal.
func readsInput(code pgerr.Code) bool {
	switch code {
	case pgerr.InvalidTextRepresentation, pgerr.InvalidDatetimeFormat, pgerr.DatetimeFieldOverflow,
		pgerr.InvalidTimeZoneDisplacementValue, pgerr.InvalidBinaryRepresentation,
		pgerr.InvalidParameterValue: // (bytea's hex digits)
		return true
	}
	return false
}

// operatorError reports whether an error of binding an operator is about
// the operator (none matches, or it does not yield what the syntax needs),
// which PostgreSQL reports at the operator.
func operatorError(code pgerr.Code) bool {
	switch code {
	case pgerr.UndefinedFunction, pgerr.AmbiguousFunction, pgerr.WrongObjectType, pgerr.DatatypeMismatch:
		return true
	}
	return false
}

// isLiteral reports whether node is a constant as the client wrote it.
func isLiteral(node ast.ExprNode) bool {
	_, ok := node.(*driver.ValueExpr)
	return ok
}

func (b *Binder) bindExprNode(sc *scope, node ast.ExprNode, agg *aggBinder) (ir.Expr, error) {
	// The parser bounds nesting from the tokens; this is the exact check,
	// so no statement can overflow the goroutine stack however it nests.
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > parser.MaxExprDepth {
		return nil, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	switch n := node.(type) {
	case *ast.ParenthesesExpr:
		return b.child(sc, n.Expr, agg)
	case *driver.ValueExpr:
		e, err := literal(n)
		if c, ok := e.(*ir.Const); ok && c.Typ.ID == sqltypes.Unknown && b.stmt != nil {
			c.At = n.OriginTextPosition() + 1
		}
		return e, err
	case *driver.ParamMarkerExpr:
		idx := n.Order
		if idx < 0 || idx >= len(b.stmt.ParamOrder) {
			return nil, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", idx+1).
				WithPosition(b.stmt.Position(n.OriginTextPosition()))
		}
		num := b.stmt.ParamOrder[idx]
		if num > len(b.params) {
			grow := make([]sqltypes.Type, num)
			copy(grow, b.params)
			b.params = grow
			d := make([]bool, num)
			copy(d, b.declared)
			b.declared = d
		}
		return &ir.Param{N: num, Typ: b.params[num-1]}, nil
	case *ast.ColumnNameExpr:
		if agg != nil {
			if g := b.groupedWholeRow(sc, n.Name, agg); g != nil {
				return g, nil
			}
			if e, ok, err := outerColumn(sc, n.Name); ok || err != nil {
				return e, err
			}
			return nil, pgerr.New(pgerr.GroupingError, "column %q must appear in the GROUP BY clause or be used in an aggregate function", n.Name.Name.O)
		}
		e, err := sc.resolve(n.Name)
		if err != nil {
			if row, rowErr := b.wholeRow(sc, n.Name); row != nil || rowErr != nil {
				return row, rowErr
			}
			if p := b.routineParam(n.Name); p != nil {
				return p, nil
			}
			err = b.fromEntryError(sc, err)
		}
		if err == nil && b.routine != nil && b.routine.conflict != ConflictUseColumn {
			return b.variableConflict(e, n)
		}
		return e, err
	case *ast.AggregateFuncExpr:
		if agg != nil {
			return agg.bindAgg(n, n.F, n.Args, n.Distinct, nil, nil)
		}
		return nil, b.notAllowedIn(pgerr.GroupingError, "aggregate functions")
	case *ast.BinaryOperationExpr:
		return b.bindBinary(sc, n, agg)
	case *ast.UnaryOperationExpr:
		if c, ok, err := negatedIntegerLiteral(n); ok {
			return c, err
		}
		e, err := b.child(sc, n.V, agg)
		if err != nil {
			return nil, err
		}
		switch n.Op {
		case opcode.Not, opcode.Not2:
			if e, err = b.coerceToBool(e, n.V, "NOT"); err != nil {
				return nil, err
			}
			return &ir.Not{E: e}, nil
		case opcode.Minus:
			return b.withUserOperators("-", nil, e, func() (ir.Expr, error) { return b.bindNeg(e) })
		case opcode.Plus:
			plus := func() (ir.Expr, error) { return b.bindPlus(e) }
			if b.hasUserOperators("+", true) {
				return b.withUserOperators("+", nil, e, plus)
			}
			return plus()
		}
		return nil, unsupported("operator %s is not supported", opName(n.Op))
	case *ast.IsNullExpr:
		if f, ok := n.Expr.(*ast.FuncCallExpr); ok && f.FnName.L == parser.UnknownTestFunc && len(f.Args) == 1 {
			// IS [NOT] UNKNOWN: a boolean test, whose operand must be boolean.
			e, err := b.child(sc, f.Args[0], agg)
			if err != nil {
				return nil, err
			}
			name := map[bool]string{false: "IS UNKNOWN", true: "IS NOT UNKNOWN"}[n.Not]
			if e, err = b.coerceToBool(e, f.Args[0], name); err != nil {
				return nil, err
			}
			return &ir.IsNull{E: e, Neg: n.Not, Unknown: true}, nil
		}
		e, err := b.child(sc, n.Expr, agg)
		if err != nil {
			return nil, err
		}
		if e.Type().ID == sqltypes.Record {
			return bindRowIsNull(e, n.Not), nil
		}
		return &ir.IsNull{E: e, Neg: n.Not}, nil
	case *ast.IsTruthExpr:
		e, err := b.child(sc, n.Expr, agg)
		if err != nil {
			return nil, err
		}
		want := n.True != 0
		name := map[bool]string{true: "IS TRUE", false: "IS FALSE"}[want]
		if n.Not {
			name = map[bool]string{true: "IS NOT TRUE", false: "IS NOT FALSE"}[want]
		}
		if e, err = b.coerceToBool(e, n.Expr, name); err != nil {
			return nil, err
		}
		// x IS TRUE: true only when x is true; never NULL.
		var res ir.Expr = &ir.Binary{Op: ir.OpAnd, L: &ir.IsNull{E: e, Neg: true}, R: boolEq(e, want), Typ: sqltypes.TypeBool}
		res = &ir.Func{Name: "coalesce", Args: []ir.Expr{res, &ir.Const{V: sqltypes.NewBool(false), Typ: sqltypes.TypeBool}}, Typ: sqltypes.TypeBool, Lazy: evalCoalesce,
			Op: map[bool]string{true: "IS TRUE", false: "IS FALSE"}[want]}
		if n.Not {
			res.(*ir.Func).Op = map[bool]string{true: "IS NOT TRUE", false: "IS NOT FALSE"}[want]
			res = &ir.Not{E: res}
		}
		return res, nil
	case *ast.BetweenExpr:
		e, err := b.child(sc, n.Expr, agg)
		if err != nil {
			return nil, err
		}
		loNode, symmetric := n.Left, false
		if f, ok := loNode.(*ast.FuncCallExpr); ok && f.FnName.L == parser.SymmetricFunc && len(f.Args) == 1 {
			// BETWEEN SYMMETRIC: the bounds in either order.
			loNode, symmetric = f.Args[0], true
		}
		lo, err := b.child(sc, loNode, agg)
		if err != nil {
			return nil, err
		}
		hi, err := b.child(sc, n.Right, agg)
		if err != nil {
			return nil, err
		}
		ge, err := b.compare(ir.OpGe, e, lo)
		if err != nil {
			return nil, err
		}
		le, err := b.compare(ir.OpLe, e, hi)
		if err != nil {
			return nil, err
		}
		if err := notSet(ge, "AND"); err != nil {
			return nil, err
		}
		var res ir.Expr = &ir.Binary{Op: ir.OpAnd, L: ge, R: le, Typ: sqltypes.TypeBool, Nested: true}
		if symmetric {
			ge2, err := b.compare(ir.OpGe, e, hi)
			if err != nil {
				return nil, err
			}
			le2, err := b.compare(ir.OpLe, e, lo)
			if err != nil {
				return nil, err
			}
			res = &ir.Binary{Op: ir.OpOr, L: res, R: &ir.Binary{Op: ir.OpAnd, L: ge2, R: le2, Typ: sqltypes.TypeBool}, Typ: sqltypes.TypeBool}
		}
		if n.Not {
			res = &ir.Not{E: res}
		}
		return res, nil
	case *ast.PatternInExpr:
		if n.Sel != nil {
			return b.bindCompareSubquery(sc, n.Expr, ir.OpEq, false, n.Sel, n.Not, agg)
		}
		if row, ok := n.Expr.(*ast.RowExpr); ok {
			return b.bindRowInList(sc, row, n.List, n.Not, agg)
		}
		if isEmptyRow(n.Expr) && len(n.List) > 0 {
			// ROW() IN (ROW(), ...): rows compared item by item.
			list := make([]ast.ExprNode, len(n.List))
			for i, item := range n.List {
				if _, list[i] = asRowExprs(n.Expr, item); list[i] == item {
					list = nil
					break
				}
			}
			if list != nil {
				return b.bindRowInList(sc, &ast.RowExpr{}, list, n.Not, agg)
			}
		}
		e, err := b.child(sc, n.Expr, agg)
		if err != nil {
			return nil, err
		}
		list := make([]ir.Expr, 0, len(n.List))
		for _, item := range n.List {
			x, err := b.child(sc, item, agg)
			if err != nil {
				return nil, err
			}
			if geoOperand(e) || geoOperand(x) {
				// The geometric types' = (and NOT IN's <>) are the
				// registry's, where they exist at all: an OR of
				// them (an AND for NOT IN), as PostgreSQL's = ANY.
				return b.geoInList(sc, e, n.List, n.Not, agg)
			}
			if withoutComparison(e.Type()) || withoutComparison(x.Type()) {
				op := "="
				if n.Not {
					op = "<>"
				}
				return nil, noOperator(op, e.Type(), x.Type())
			}
			op := "="
			if n.Not {
				op = "<>" // NOT IN is <> ALL
			}
			l, r, err := b.unify(op, e, x)
			if err != nil {
				return nil, err
			}
			e = l
			list = append(list, r)
		}
		return ir.NewInList(e, list, n.Not), nil
	case *ast.PatternLikeOrIlikeExpr:
		e, err := b.child(sc, n.Expr, agg)
		if err != nil {
			return nil, err
		}
		p, err := b.child(sc, n.Pattern, agg)
		if err != nil {
			return nil, err
		}
		if n.IsLike && (e.Type().ID == sqltypes.Bytea || p.Type().ID == sqltypes.Bytea) {
			// bytea's LIKE is the registry's (builtins/like.go); its
			// ESCAPE would be like_escape(text, text)'s text.
			if n.Escape != 0 && n.Escape != '\\' {
				return nil, noOperator("~~", e.Type(), sqltypes.TypeText)
			}
			return b.bindRegisteredOp(map[bool]string{false: "~~", true: "!~~"}[n.Not], e, p)
		}
		b.inferParam(e, sqltypes.TypeText)
		b.inferParam(p, sqltypes.TypeText)
		textual := func(x ir.Expr) bool {
			k := x.Type().Kind()
			// char(n) has its own LIKE (bpcharlike), its padding kept.
			return k == sqltypes.KindText || k == sqltypes.KindBPChar || k == sqltypes.KindCitext || x.Type().ID == sqltypes.Unknown
		}
		if !textual(e) || !textual(p) {
			op := map[bool]string{true: "~~", false: "~~*"}[n.IsLike]
			if n.Not {
				op = "!" + op
			}
			lt, pt := e.Type().UnmodifiedName(), p.Type().UnmodifiedName()
			if textual(e) && e.Type().ID == sqltypes.Unknown && !textual(p) {
				lt = "unknown"
			}
			return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", lt, op, pt).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
		esc := n.Escape
		if esc == 0 {
			esc = '\\'
		}
		// citext's LIKE is ILIKE (its ~~ operators call texticlike).
		icase := !n.IsLike || e.Type().ID == sqltypes.Citext
		return &ir.Like{E: e, Pattern: p, Neg: n.Not, CaseInsensitive: icase, Escape: esc}, nil
	case *ast.FuncCastExpr:
		return nil, unsupported("MySQL-style CAST is not supported; use CAST(x AS type) with a PostgreSQL type")
	case *ast.FuncCallExpr:
		if err := b.qualifiedCallMissing(sc, n, agg); err != nil {
			return nil, err
		}
		if len(n.Args) > 0 && isDistinctArg(n.Args[0]) && !b.isAggregateCall(n) &&
			(builtins.Exists(n.FnName.L) || b.snap != nil && len(b.snap.Functions(n.FnName.L)) > 0) {
			return nil, pgerr.New(pgerr.WrongObjectType, "DISTINCT specified, but %s is not an aggregate function", n.FnName.O)
		}
		if e, ok, err := b.bindPGCall(sc, n, agg); ok {
			return e, err
		}
		if operand, t, ok, err := b.castOf(n); ok {
			if err != nil {
				return nil, err
			}
			e, err := b.child(sc, operand, agg)
			if err != nil {
				return nil, err
			}
			if x, ok, err := b.userCast(e, t, 'e'); ok {
				return x, err
			}
			if t.IsReg() || e.Type().IsReg() {
				return b.bindRegCast(e, t)
			}
			if isACLItemType(t) && !isACLItemType(e.Type()) {
				return b.aclItemCast(e, t)
			}
			b.inferParam(e, t)
			if anonymousRecordOf(e.Type(), t) {
				// A row or composite value cast to record is itself
				// (PostgreSQL's no-op coercion keeps its type).
				return e, nil
			}
			if err := checkCastPair(e.Type(), t); err != nil {
				return nil, err
			}
			if err := castExists(e.Type(), t); err != nil {
				return nil, err
			}
			if c, ok := e.(*ir.Const); ok && t.ID == sqltypes.Array && t.ElemType().IsReg() &&
				(c.Typ.ID == sqltypes.Unknown || c.Typ.ElemType().Kind() == sqltypes.KindText) {
				// '{integer,text}'::regtype[]: each element read by name.
				return b.regArrayFromText(c, t)
			}
			if c, ok := e.(*ir.Const); ok && !ir.StyleDependentCast(c.Typ, t) {
				v, err := ir.CastValueStyled(c.V, c.Typ, t, true, b.castStyle())
				if err != nil && t.Domain != nil && domainViolation(err) {
					// A domain's constraint fails when the value is
					// computed, as PostgreSQL's CoerceToDomain (never
					// folded) does: not in a CASE branch no row takes.
					return &ir.Cast{E: e, To: t, Explicit: true}, nil
				}
				if err != nil {
					return nil, err
				}
				if t.ID == sqltypes.Array && t.ElemType().IsReg() {
					return b.nameRegElems(&ir.Const{V: v, Typ: t}, t), nil
				}
				folded := &ir.Const{V: v, Typ: t}
				if c.Typ.ID != sqltypes.Unknown {
					// A typed constant's cast stays a cast in
					// PostgreSQL's tree ((5)::numeric); a quoted
					// literal's is the constant of the type.
					folded.From = &ir.Cast{E: c, To: t, Explicit: true}
				}
				return folded, nil
			}
			if e.Type() == t && t.Domain == nil {
				return e, nil
			}
			if t.ID == sqltypes.Array && t.ElemType().IsReg() {
				return b.nameRegElems(&ir.Cast{E: e, To: t, Explicit: true}, t), nil
			}
			return &ir.Cast{E: e, To: t, Explicit: true}, nil
		}
		if n.FnName.L == parser.OverFunc {
			return b.bindOver(n, agg)
		}
		if err := orderedOrWindowWithout(n.FnName.L, len(n.Args)); err != nil {
			return nil, err
		}
		if e, ok, err := b.bindAggregateCall(sc, n, agg); ok || err != nil {
			return e, err
		}
		if n.FnName.L == "coalesce" {
			defer b.srfDenied("COALESCE")()
		}
		defer b.allowWholeRow(n.FnName.L)()
		if n.FnName.L == "pg_collation_for" {
			// Its argument's COLLATE is what it reports (bindCollate).
			saved := b.keepCollate
			b.keepCollate = true
			defer func() { b.keepCollate = saved }()
		}
		args := make([]ir.Expr, len(n.Args))
		bindArg := b.child
		switch n.FnName.L {
		case "coalesce", "greatest", "least":
			// Their inputs meet at a common type, which is a domain when
			// all are of it (select_common_type).
			bindArg = b.childTyped
		}
		for i, a := range n.Args {
			x, err := bindArg(sc, a, agg)
			if err != nil {
				return nil, err
			}
			args[i] = x
		}
		if n.FnName.L == "row_to_json" && len(args) > 0 {
			args[0] = recordAsJSON(args[0])
		}
		if e, ok := b.populateRecord(n.FnName.L, args); ok {
			return e, nil
		}
		if _, ok := b.populateRecordset(n.FnName.L, args); ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "%s is supported in FROM only", n.FnName.L)
		}
		if isJSONToRecord(n.FnName.L) {
			// Its columns come from a column definition list, which only
			// FROM has.
			return nil, pgerr.New(pgerr.FeatureNotSupported, "could not determine row type for result of %s", n.FnName.L).
				WithHint("Provide a non-null record argument, or call the function in the FROM clause using a column definition list.")
		}
		if isNamedSRF(n.FnName.L) {
			return b.namedSetCall(n.FnName.L, args)
		}
		b.publicCall = n.Schema.L == catalog.PublicSchema
		e, err := b.bindFunc(n.FnName.L, args)
		b.publicCall = false
		if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.UndefinedFunction && pe.Position == 0 &&
			b.stmt != nil && b.stmt.CatalogQualified(n.OriginTextPosition()) {
			// pg_catalog.lower(1, 2): PostgreSQL names the function as
			// the call did.
			name := n.FnName.L
			if name == parser.ConcatFunc {
				name = "concat"
			}
			plain, _ := spreadArg(args)
			return nil, noFunction("pg_catalog."+name, plain)
		}
		return e, err
	case *ast.DefaultExpr:
		return nil, unsupported("DEFAULT is not supported in this position")
	case *ast.SubqueryExpr:
		return b.bindScalarSubquery(sc, n)
	case *ast.ExistsSubqueryExpr:
		q, ok := n.Sel.(*ast.SubqueryExpr)
		if !ok {
			return nil, unsupported("EXISTS needs a subquery")
		}
		rel, corr, err := b.bindSubquery(sc, q.Query)
		if err != nil {
			return nil, err
		}
		return &ir.Subquery{Kind: ir.ExistsSubquery, Plan: rel, Neg: n.Not, Correlated: corr, Typ: sqltypes.TypeBool, ID: b.newSubqueryID()}, nil
	case *ast.CompareSubqueryExpr:
		op, ok := binOps[n.Op]
		if !ok || op == ir.OpAnd || op == ir.OpOr {
			return nil, unsupported("operator %s with a subquery is not supported", opName(n.Op))
		}
		return b.bindCompareSubquery(sc, n.L, op, n.All, n.R, false, agg)
	case *ast.CaseExpr:
		return b.bindCase(sc, n, agg)
	case *ast.RowExpr:
		return b.bindRowValue(sc, n, agg)
	}
	return nil, unsupported("%s is not supported", exprName(node))
}

// exprName names an expression the client wrote, for an error message.
func exprName(node ast.ExprNode) string {
	switch node.(type) {
	case *ast.TimeUnitExpr:
		return "this interval unit"
	case *ast.VariableExpr:
		return "session variables (@name)"
	case *ast.MatchAgainst:
		return "MATCH ... AGAINST"
	case *ast.PositionExpr:
		return "ORDER BY position in this place"
	case *ast.ValuesExpr:
		return "VALUES() in this place"
	case *ast.SetCollationExpr:
		return "COLLATE"
	case *ast.PatternRegexpExpr:
		return "regular expression matching"
	case *ast.GetFormatSelectorExpr:
		return "GET_FORMAT"
	}
	return "this expression"
}

// opName spells a TiDB operator as SQL writes it.
func opName(op opcode.Op) string {
	var sb strings.Builder
	if err := op.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb)); err != nil || sb.Len() == 0 {
		return "in this place"
	}
	return strings.TrimSpace(sb.String())
}

func boolEq(e ir.Expr, want bool) ir.Expr {
	if want {
		return e
	}
	return &ir.Not{E: e}
}

// withoutComparison reports a type PostgreSQL has no comparison
// operators for at all: json, xml, jsonpath, lquery and ltxtquery (json
// is compared after a cast to jsonb or text).
func withoutComparison(t sqltypes.Type) bool {
	return t.ID == sqltypes.JSON || t.ID == sqltypes.XML || t.ID == sqltypes.JSONPath || t.ID == sqltypes.Lquery || t.ID == sqltypes.Ltxtquery
}

// coerceToBool makes e, bound from node, the boolean operand of ctx
// (WHERE, AND, NOT, IS TRUE, CASE/WHEN, FILTER ...), as PostgreSQL's
// coerce_to_boolean does: a parameter is inferred boolean, an untyped
// literal is read as one ('t' AND x; its input error is at the literal),
// and an operand of any other type is 42804 at the operand.
func (b *Binder) coerceToBool(e ir.Expr, node ast.ExprNode, ctx string) (ir.Expr, error) {
	b.inferParam(e, sqltypes.TypeBool)
	if c, ok := e.(*ir.Const); ok && c.Typ.ID == sqltypes.Unknown {
		if c.V.IsNull() {
			return &ir.Const{V: sqltypes.Null, Typ: sqltypes.TypeBool}, nil
		}
		v, err := sqltypes.ParseText(sqltypes.TypeBool, c.V.S)
		if err != nil {
			b.atLiteral(err, c)
			return nil, err
		}
		return &ir.Const{V: v, Typ: sqltypes.TypeBool}, nil
	}
	if t := e.Type(); t.ID != sqltypes.Bool && t.ID != sqltypes.Unknown {
		err := pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type boolean, not type %s", ctx, t)
		if b.stmt != nil && node != nil {
			err = err.WithPosition(b.exprPosition(node))
		}
		return nil, err
	}
	if err := notSet(e, ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// exprPosition is where PostgreSQL's exprLocation puts node in the
// client's text: its leftmost token (an operator expression's left
// operand), parentheses aside.
func (b *Binder) exprPosition(node ast.ExprNode) int {
	return b.stmt.Position(unparenthesized(node).OriginTextPosition())
}

// literal converts a TiDB literal into a Const. Integer literals are
// integer (int4) when they fit, bigint when they fit that, numeric
// otherwise; literals with a point or an exponent are numeric, as in
// PostgreSQL; strings are untyped until context gives them a type.
func literal(v *driver.ValueExpr) (ir.Expr, error) {
	switch v.Kind() {
	case driver.KindNull:
		return &ir.Const{V: sqltypes.Null, Typ: sqltypes.TypeUnknown}, nil
	case driver.KindInt64:
		i := v.GetInt64()
		if v.Type.GetFlag()&mysql.IsBooleanFlag != 0 {
			return &ir.Const{V: sqltypes.NewBool(i != 0), Typ: sqltypes.TypeBool}, nil
		}
		if i >= math.MinInt32 && i <= math.MaxInt32 {
			return &ir.Const{V: sqltypes.NewInt(i), Typ: sqltypes.TypeInt4}, nil
		}
		return &ir.Const{V: sqltypes.NewInt(i), Typ: sqltypes.TypeInt8}, nil
	case driver.KindUint64:
		u := v.GetUint64()
		if u > math.MaxInt64 {
			return numericLiteral(strconv.FormatUint(u, 10))
		}
		return &ir.Const{V: sqltypes.NewInt(int64(u)), Typ: sqltypes.TypeInt8}, nil
	case driver.KindFloat32, driver.KindFloat64:
		// The rewriter hands exponent literals over as text (zp_num), so
		// TiDB's floats only come from its own spellings.
		return numericLiteral(strconv.FormatFloat(v.GetFloat64(), 'g', -1, 64))
	case driver.KindMysqlDecimal:
		return numericLiteral(v.GetMysqlDecimal().String())
	case driver.KindString, driver.KindBytes:
		return &ir.Const{V: sqltypes.NewText(v.GetString()), Typ: sqltypes.TypeUnknown}, nil
	case driver.KindBinaryLiteral:
		return &ir.Const{V: sqltypes.NewBytes(v.GetBytes()), Typ: sqltypes.TypeBytea}, nil
	}
	return nil, unsupported("literal of kind %d is not supported", v.Kind())
}

// negatedIntegerLiteral folds minus signs (through parentheses) into the
// integer literal under them, as PostgreSQL's grammar does (doNegate)
// before any type is chosen: -2147483648 is one integer, and
// -(-2147483648) the bigint 2147483648, not an int4 negation that
// overflows. It reports false when n is not such a chain.
func negatedIntegerLiteral(n *ast.UnaryOperationExpr) (ir.Expr, bool, error) {
	neg := false
	var node ast.ExprNode = n
	for {
		switch x := node.(type) {
		case *ast.UnaryOperationExpr:
			if x.Op != opcode.Minus {
				return nil, false, nil
			}
			neg, node = !neg, x.V
			continue
		case *ast.ParenthesesExpr:
			node = x.Expr
			continue
		case *driver.ValueExpr:
			var v big.Int
			switch {
			case x.Kind() == driver.KindInt64 && x.Type.GetFlag()&mysql.IsBooleanFlag == 0:
				v.SetInt64(x.GetInt64())
			case x.Kind() == driver.KindUint64:
				v.SetUint64(x.GetUint64())
			default:
				return nil, false, nil
			}
			if neg {
				v.Neg(&v)
			}
			if !v.IsInt64() {
				e, err := numericLiteral(v.String())
				return e, true, err
			}
			i := v.Int64()
			if i >= math.MinInt32 && i <= math.MaxInt32 {
				return &ir.Const{V: sqltypes.NewInt(i), Typ: sqltypes.TypeInt4}, true, nil
			}
			return &ir.Const{V: sqltypes.NewInt(i), Typ: sqltypes.TypeInt8}, true, nil
		}
		return nil, false, nil
	}
}

// numericLiteral is the numeric constant written as text.
func numericLiteral(text string) (ir.Expr, error) {
	v, err := sqltypes.ParseNumeric(text)
	if err != nil {
		return nil, err
	}
	return &ir.Const{V: v, Typ: sqltypes.TypeNumeric}, nil
}

var binOps = map[opcode.Op]ir.BinOp{
	opcode.LogicAnd: ir.OpAnd, opcode.LogicOr: ir.OpOr,
	opcode.EQ: ir.OpEq, opcode.NE: ir.OpNe, opcode.LT: ir.OpLt, opcode.LE: ir.OpLe, opcode.GT: ir.OpGt, opcode.GE: ir.OpGe,
	opcode.Plus: ir.OpAdd, opcode.Minus: ir.OpSub, opcode.Mul: ir.OpMul, opcode.Div: ir.OpDiv, opcode.IntDiv: ir.OpDiv, opcode.Mod: ir.OpMod,
	opcode.Xor: ir.OpPow, // PostgreSQL's ^ reaches TiDB as its XOR, which has ^'s precedence
}

func (b *Binder) bindBinary(sc *scope, n *ast.BinaryOperationExpr, agg *aggBinder) (ir.Expr, error) {
	if n.Op == opcode.LogicAnd || n.Op == opcode.LogicOr {
		return b.bindLogic(sc, n, agg)
	}
	if op, l, r, ok := otherOperator(n); ok {
		return b.bindOtherOp(sc, op, l, r, agg)
	}
	op, ok := binOps[n.Op]
	if n.Op == opcode.NullEQ {
		// The parser's spelling of IS NOT DISTINCT FROM.
		op, ok = ir.OpNotDistinct, true
	}
	if !ok {
		return nil, unsupported("operator %s is not supported", opName(n.Op))
	}
	if l, r := asRowExprs(n.L, n.R); l != n.L || r != n.R {
		// ROW(x) and ROW(t.*) compare as row constructors, field by field.
		c := *n
		c.L, c.R = l, r
		n = &c
	}
	_, lrow := n.L.(*ast.RowExpr)
	_, rrow := n.R.(*ast.RowExpr)
	if lrow || rrow {
		return b.bindRowBinary(sc, n, op, agg)
	}
	l, err := b.child(sc, n.L, agg)
	if err != nil {
		return nil, err
	}
	r, err := b.child(sc, n.R, agg)
	if err != nil {
		return nil, err
	}
	if op != ir.OpNotDistinct && b.hasUserOperators(string(op), false) {
		return b.withUserOperators(string(op), l, r, func() (ir.Expr, error) { return b.bindBuiltinBinary(op, l, r) })
	}
	return b.bindBuiltinBinary(op, l, r)
}

// bindBuiltinBinary binds l op r by the built-in operators.
func (b *Binder) bindBuiltinBinary(op ir.BinOp, l, r ir.Expr) (ir.Expr, error) {
	switch op {
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpNotDistinct:
		return b.compare(op, l, r)
	case ir.OpConcat:
		b.inferParam(l, sqltypes.TypeText)
		b.inferParam(r, sqltypes.TypeText)
		return fold(&ir.Binary{Op: op, L: l, R: r, Typ: sqltypes.TypeText})
	}
	if op == ir.OpSub {
		if e, ok, err := b.bindJSONBMinus(l, r); ok {
			return e, err
		}
		if e, ok, err := b.bindHstoreMinus(l, r); ok {
			return e, err
		}
	}
	return b.bindArith(op, l, r)
}

// bindLogic binds a chain of ANDs (or ORs) as a whole. TiDB nests a chain
// of n terms n levels deep; binding it term by term keeps the binder's
// recursion flat, an OR of equalities between one column and constants
// becomes the IN list it means (one value set for the optimizer, one hash
// probe per row), and any other chain is rebuilt as a balanced tree, whose
// depth is logarithmic in its length.
func (b *Binder) bindLogic(sc *scope, n *ast.BinaryOperationExpr, agg *aggBinder) (ir.Expr, error) {
	op := binOps[n.Op]
	var terms []ast.ExprNode
	for node := ast.ExprNode(n); ; {
		bin, ok := node.(*ast.BinaryOperationExpr)
		if !ok || bin.Op != n.Op {
			terms = append(terms, node)
			break
		}
		terms = append(terms, bin.R)
		node = bin.L
	}
	bound := make([]ir.Expr, len(terms))
	for i, t := range terms {
		e, err := b.child(sc, t, agg)
		if err != nil {
			return nil, err
		}
		if e, err = b.coerceToBool(e, t, string(op)); err != nil {
			return nil, err
		}
		bound[len(terms)-1-i] = e // terms were collected right to left
	}
	if c := forcedLogic(op, bound); c != nil {
		return c, nil
	}
	if op == ir.OpOr {
		if in := orAsIn(bound); in != nil {
			return in, nil
		}
	}
	return fold(balanced(op, bound))
}

// forcedLogic folds an OR with a true term (an AND with a false one) to
// that constant, as PostgreSQL's simplify_or_arguments does whatever the
// other terms are: x OR true is true though x would fail. PostgreSQL
// folds the terms left to right, so a term before it whose folding
// fails (1/0 > 0 OR true) leaves the chain, to fail when planned. It
// returns nil when no term decides the chain.
func forcedLogic(op ir.BinOp, terms []ir.Expr) ir.Expr {
	for _, t := range terms {
		if ir.FoldErr(t) != nil {
			return nil
		}
		if c, ok := t.(*ir.Const); ok && c.V.K == sqltypes.KindBool && (c.V.I != 0) == (op == ir.OpOr) {
			return &ir.Const{V: c.V, Typ: sqltypes.TypeBool, From: balanced(op, terms)}
		}
	}
	return nil
}

// orAsIn returns col IN (v1, v2, ...) for an OR of equalities between one
// column and constants or parameters, or nil. The two agree under SQL's
// three-valued logic: both are NULL when the column is NULL or when no
// value matches and one of them is NULL.
func orAsIn(terms []ir.Expr) ir.Expr {
	if len(terms) < 2 {
		return nil
	}
	var col *ir.ColRef
	list := make([]ir.Expr, 0, len(terms))
	for _, t := range terms {
		eq, ok := t.(*ir.Binary)
		if !ok || eq.Op != ir.OpEq {
			return nil
		}
		c, ok := eq.L.(*ir.ColRef)
		v := eq.R
		if !ok {
			c, ok = eq.R.(*ir.ColRef)
			v = eq.L
		}
		if !ok || !ir.IsConstant(v) || (col != nil && c.Index != col.Index) {
			return nil
		}
		col = c
		list = append(list, v)
	}
	return ir.NewInList(col, list, false)
}

// balanced joins terms with op as a balanced binary tree, its inner nodes
// marked as the chain's (ir.Binary's Chain).
func balanced(op ir.BinOp, terms []ir.Expr) ir.Expr {
	var build func(terms []ir.Expr, inner bool) ir.Expr
	build = func(terms []ir.Expr, inner bool) ir.Expr {
		if len(terms) == 1 {
			return terms[0]
		}
		mid := len(terms) / 2
		return &ir.Binary{Op: op, L: build(terms[:mid], true), R: build(terms[mid:], true), Typ: sqltypes.TypeBool, Chain: inner}
	}
	return build(terms, false)
}

// arithType is the common type of two numeric types, as PostgreSQL's
// select_common_type resolves CASE, UNION and VALUES columns: the later
// one in smallint, integer, bigint, numeric, real, double precision (each
// converts implicitly to those after it).
func arithType(a, b sqltypes.Type) sqltypes.Type {
	rank := func(t sqltypes.Type) int {
		switch t.ID {
		case sqltypes.Int2:
			return 0
		case sqltypes.Int4:
			return 1
		case sqltypes.Int8:
			return 2
		case sqltypes.Numeric:
			return 3
		case sqltypes.Float4:
			return 4
		}
		return 5
	}
	if rank(a) >= rank(b) {
		if a.ID == sqltypes.Numeric && b.ID == sqltypes.Numeric && a != b {
			return sqltypes.TypeNumeric // numeric(p,s) of different modifiers meet at numeric
		}
		return a
	}
	return b
}

// compare binds a comparison, giving untyped literals and parameters the
// other side's type.
func (b *Binder) compare(op ir.BinOp, l, r ir.Expr) (ir.Expr, error) {
	if err := recordLiteralOperand(l, r); err != nil {
		return nil, err
	}
	if l.Type().ID == sqltypes.Record && r.Type().ID == sqltypes.Record {
		if e, ok := b.recordOperatorMismatch(op, l, r); ok {
			return e, nil
		}
	}
	if withoutComparison(l.Type()) || withoutComparison(r.Type()) {
		name := string(op)
		if op == ir.OpNotDistinct {
			name = "=" // IS DISTINCT FROM is the = operator's
		}
		return nil, noOperator(name, l.Type(), r.Type())
	}
	if geoOperand(l) || geoOperand(r) {
		// The geometric types' comparisons compare lengths, areas or
		// numbers of points where they exist at all (the registry's).
		if op == ir.OpNotDistinct {
			return nil, noOperator("=", l.Type(), r.Type())
		}
		return b.bindRegisteredOp(string(op), l, r)
	}
	if (isHstore(l.Type()) || isHstore(r.Type())) && op != ir.OpEq && op != ir.OpNe && op != ir.OpNotDistinct {
		// hstore has = and <> but no ordering operators (its btree order
		// serves ORDER BY, DISTINCT and grouping only).
		return nil, noOperator(string(op), l.Type(), r.Type())
	}
	if err := rangeComparable(op, l, r); err != nil {
		return nil, err
	}
	if lt, rt := l.Type(), r.Type(); lt.Kind() == sqltypes.KindMacAddr && rt.Kind() == sqltypes.KindMacAddr && lt.ID != rt.ID {
		// macaddr and macaddr8 convert to each other implicitly, so
		// neither type's comparison wins: PostgreSQL's ambiguity.
		return nil, pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: %s %s %s", lt, op, rt).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	}
	if err := systemTypeComparable(op, l.Type(), r.Type()); err != nil {
		return nil, err
	}
	if lx, rx := l.Type().ID == sqltypes.XID, r.Type().ID == sqltypes.XID; lx && r.Type().ID == sqltypes.Int4 || rx && l.Type().ID == sqltypes.Int4 {
		// xideqint4 and xidneqint4: the integer as an xid (its bits).
		return fold(&ir.Binary{Op: op, L: asXID(l), R: asXID(r), Typ: sqltypes.TypeBool})
	}
	name := string(op)
	if op == ir.OpNotDistinct {
		name = "=" // IS DISTINCT FROM is the = operator's
	}
	l, r, err := b.unify(name, l, r)
	if err != nil {
		return nil, err
	}
	return fold(&ir.Binary{Op: op, L: l, R: r, Typ: sqltypes.TypeBool})
}

// unify makes two operands of the operator op comparable: an untyped side
// takes the typed side's type; numeric types mix; otherwise the kinds must
// agree, or there is no operator op over their types.
func (b *Binder) unify(op string, l, r ir.Expr) (ir.Expr, ir.Expr, error) {
	b.inferParam(l, operatorArgType(r.Type()))
	b.inferParam(r, operatorArgType(l.Type()))
	lt, rt := l.Type(), r.Type()
	var err error
	switch {
	case lt.ID == sqltypes.Unknown && rt.ID == sqltypes.Unknown:
		return l, r, nil
	case lt.ID == sqltypes.Unknown:
		l, err = b.coerceTo(l, operatorArgType(rt), false)
		return l, r, err
	case rt.ID == sqltypes.Unknown:
		r, err = b.coerceTo(r, operatorArgType(lt), false)
		return l, r, err
	case lt.Kind() == rt.Kind(), lt.IsNumeric() && rt.IsNumeric():
		return l, r, nil
	case (lt.ID == sqltypes.Citext || rt.ID == sqltypes.Citext) && stringCategory(lt) && stringCategory(rt):
		// citext beside another string type compares as text (citext's
		// comparisons take two citexts): the citext side is cast, case
		// and all, and the comparison is case-sensitive.
		if lt.ID == sqltypes.Citext {
			l, err = b.coerceTo(l, sqltypes.TypeText, false)
		} else {
			r, err = b.coerceTo(r, sqltypes.TypeText, false)
		}
		return l, r, err
	case castAllowedImplicitly(lt, rt) || castAllowedImplicitly(rt, lt):
		// date vs timestamp compare as timestamps, time vs interval as
		// intervals: the side that converts implicitly (only) is cast.
		if castAllowedImplicitly(lt, rt) && (lt.Kind() == sqltypes.KindDate || !castAllowedImplicitly(rt, lt)) {
			l, err = b.coerceTo(l, rt, false)
		} else {
			r, err = b.coerceTo(r, lt, false)
		}
		return l, r, err
	}
	return nil, nil, noOperator(op, lt, rt)
}

// fold evaluates an expression whose operands are all constants. Operands
// were folded when they were bound, so looking at the direct children is
// enough, and binding stays linear in the size of the expression.
func fold(e ir.Expr) (ir.Expr, error) {
	if f, ok := e.(*ir.Func); ok && !f.Pure() {
		return e, nil
	}
	switch e.(type) {
	case *ir.ColRef, *ir.Param, *ir.OuterRef, *ir.Subquery, *windowRef:
		return e, nil
	}
	if nullOperand(e) {
		// A strict operator with a NULL operand is NULL whatever the other
		// operand is, which is then never evaluated (PostgreSQL's
		// eval_const_expressions): f(x) > NULL reads no x, fails on none.
		return &ir.Const{V: sqltypes.Null, Typ: e.Type(), From: e}, nil
	}
	for _, c := range ir.Children(e) {
		if _, ok := c.(*ir.Const); !ok {
			return e, nil
		}
	}
	noticed := false
	v, err := e.Eval(&ir.EvalContext{Fn: builtins.Context{Notify: func(*pgerr.Error) { noticed = true }}}, nil)
	if noticed {
		// A call that sends a notice (ST_MakeLine of no points) runs
		// with the statement, which sends it each time, as PostgreSQL's.
		return e, nil
	}
	if err != nil {
		// Left to fail when the statement runs, as PostgreSQL's 1/0 fails
		// when it is planned for execution, not when it is prepared.
		return &ir.Failed{E: e, Err: err}, nil
	}
	folded := &ir.Const{V: v, Typ: e.Type()}
	switch x := e.(type) {
	case *ir.Neg:
		// PostgreSQL's parser makes -5 a constant itself.
	case *ir.Cast:
		if c, ok := x.E.(*ir.Const); !ok || c.Typ.ID != sqltypes.Unknown {
			folded.From = e
		}
	default:
		folded.From = e
	}
	return folded, nil
}

// nullOperand reports whether e is a strict binary operator (one that is
// NULL when an operand is: every Binary but AND, OR and IS NOT DISTINCT
// FROM) with a NULL constant operand and an operand that is no constant
// (two constants fold by evaluation). A column compared with NULL folds
// too, as in PostgreSQL: the column may be a derived table's computed
// output, which must then not be computed (an out-of-range cast in it
// fails no row), and the optimizer reads a NULL conjunct as no rows.
func nullOperand(e ir.Expr) bool {
	x, ok := e.(*ir.Binary)
	if !ok || x.Op == ir.OpAnd || x.Op == ir.OpOr || x.Op == ir.OpNotDistinct {
		return false
	}
	null := func(c ir.Expr) bool {
		k, ok := c.(*ir.Const)
		return ok && k.V.IsNull()
	}
	computes := func(c ir.Expr) bool {
		_, isConst := c.(*ir.Const)
		return !isConst
	}
	return null(x.L) && computes(x.R) || null(x.R) && computes(x.L)
}

func (b *Binder) bindCase(sc *scope, n *ast.CaseExpr, agg *aggBinder) (ir.Expr, error) {
	defer b.srfDenied("CASE")()
	var operand ir.Expr
	var err error
	if n.Value != nil {
		if operand, err = b.child(sc, n.Value, agg); err != nil {
			return nil, err
		}
	}
	var args []ir.Expr // cond1, result1, cond2, result2, ..., else
	for _, w := range n.WhenClauses {
		cond, err := b.child(sc, w.Expr, agg)
		if err != nil {
			return nil, err
		}
		if operand != nil {
			if cond, err = b.compare(ir.OpEq, operand, cond); err != nil {
				return nil, err
			}
		} else if cond, err = b.coerceToBool(cond, w.Expr, "CASE/WHEN"); err != nil {
			return nil, err
		}
		// The results keep a domain's type: CASE is of the domain when
		// they all are (commonArgType).
		res, err := b.childTyped(sc, w.Result, agg)
		if err != nil {
			return nil, err
		}
		args = append(args, cond, res)
	}
	var els ir.Expr = &ir.Const{V: sqltypes.Null, Typ: sqltypes.TypeUnknown}
	if n.ElseClause != nil {
		if els, err = b.childTyped(sc, n.ElseClause, agg); err != nil {
			return nil, err
		}
	}
	args = append(args, els)
	// The results take their common type, as PostgreSQL resolves CASE.
	// ELSE comes first, as transformCaseExpr lists it: where neither of
	// two types is preferred, the first wins (CASE WHEN c THEN varchar
	// ELSE text END is text).
	results := []ir.Expr{els}
	for i := 1; i < len(args)-1; i += 2 {
		results = append(results, args[i])
	}
	typ, err := b.commonArgType(results, "CASE")
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(args)-1; i += 2 {
		args[i] = results[1+i/2]
	}
	args[len(args)-1] = results[0]
	c := &ir.Func{Name: "case", Args: args, Typ: typ, Fn: nil, Lazy: evalCase}
	if operand != nil {
		c.Op = string(ir.OpEq) // CASE x WHEN v: each condition is x = v
	}
	return c, nil
}

func evalCase(ctx *ir.EvalContext, row []sqltypes.Value, args []ir.Expr) (sqltypes.Value, error) {
	for i := 0; i+1 < len(args); i += 2 {
		c, err := args[i].Eval(ctx, row)
		if err != nil {
			return c, err
		}
		if ir.Truthy(c) {
			return args[i+1].Eval(ctx, row)
		}
	}
	return args[len(args)-1].Eval(ctx, row)
}

// operatorArgType is the type an untyped operand of a comparison with a
// value of type t takes: t without its modifier, as the operators'
// declared argument types have none. numeric(10,2) = '1.234' compares
// with 1.234 (false, not rounded to 1.23), char(3) = 'abcd' and
// bit(3) = '1010' are false, not length errors, and timestamp(0) =
// '... 10:00:01.4' keeps the fraction. A domain keeps its type.
func operatorArgType(t sqltypes.Type) sqltypes.Type {
	if t.IsDomain() {
		return t
	}
	return t.WithoutTypmod()
}

// checkCastPair refuses the explicit casts PostgreSQL has no pg_cast row
// (nor I/O conversion) for, among the bit-string types and money, with
// the source type as written: the values alone (a bit string, a count of
// cents) cannot tell bit from bit varying.
func checkCastPair(from, to sqltypes.Type) error {
	if from.IsDomain() || to.IsDomain() || from.ID == sqltypes.Unknown {
		return nil
	}
	stringish := func(t sqltypes.Type) bool { return stringCategory(t) }
	ok := true
	switch {
	case from.Kind() == sqltypes.KindBit:
		ok = to.Kind() == sqltypes.KindBit || stringish(to) || from.ID == sqltypes.Bit && (to.ID == sqltypes.Int4 || to.ID == sqltypes.Int8)
	case to.Kind() == sqltypes.KindBit:
		ok = stringish(from) || to.ID == sqltypes.Bit && (from.ID == sqltypes.Int4 || from.ID == sqltypes.Int8)
	case from.ID == sqltypes.Money:
		ok = to.ID == sqltypes.Money || to.ID == sqltypes.Numeric || stringish(to)
	case to.ID == sqltypes.Money:
		ok = stringish(from) || from.ID == sqltypes.Int4 || from.ID == sqltypes.Int8 || from.ID == sqltypes.Numeric
	case sqltypes.IsGeo(from.ID) && sqltypes.IsGeo(to.ID):
		ok = from.ID == to.ID || geoCasts[[2]sqltypes.TypeID{from.ID, to.ID}]
	case sqltypes.IsGeo(from.ID):
		ok = stringish(to)
	case sqltypes.IsGeo(to.ID):
		ok = stringish(from)
	case from.ID == sqltypes.Bool:
		// bool converts to integer alone among the numbers (int4), as
		// only integer converts to it.
		ok = to.ID == sqltypes.Bool || to.ID == sqltypes.Int4 || stringish(to)
	case to.ID == sqltypes.Bool && from.Kind() == sqltypes.KindInt:
		ok = from.ID == sqltypes.Int4
	case from.ID == sqltypes.Oid:
		ok = to.ID == sqltypes.Oid || to.ID == sqltypes.Int4 || to.ID == sqltypes.Int8 || to.IsReg() || stringish(to)
	case to.ID == sqltypes.Oid:
		ok = from.Kind() == sqltypes.KindInt || from.IsReg() || stringish(from)
	case from.ID == sqltypes.Char:
		// "char" converts to integer alone among the numbers, as only
		// integer converts to it (its byte, signed).
		ok = to.ID == sqltypes.Char || to.ID == sqltypes.Int4 || stringish(to)
	case to.ID == sqltypes.Char:
		ok = from.ID == sqltypes.Int4 || stringish(from)
	case from.ID == sqltypes.Timestamp && to.ID == sqltypes.TimeTZ:
		ok = false // timestamptz's cast to timetz only
	}
	if !ok {
		return pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.UnmodifiedName(), to.UnmodifiedName())
	}
	return nil
}

// qualifiedCallMissing is the error for a call qualified by a schema
// other than pg_catalog (and information_schema, whose helpers zproxy has
// built in) that holds no routine of that name: the built-in functions
// live in pg_catalog alone (the extensions' in public, pg_dump's
// public.similarity(...)), so public.now() and pg_temp.now() are 42883 as
// in PostgreSQL, and an unknown schema is 3F000. A call the qualifier
// (schemas.go) found a routine for is left to the usual binding.
//
// pg_catalog's qualifier reaches the binder only on the names its grammar
// reads as key-word syntax when bare (parser's catalogCalls): those of
// them with no function behind the syntax (TRIM, COALESCE, GREATEST, ...:
// no pg_proc row) are 42883 qualified, as in PostgreSQL.
func (b *Binder) qualifiedCallMissing(sc *scope, n *ast.FuncCallExpr, agg *aggBinder) error {
	schema := n.Schema.L
	switch {
	case schema == "" || schema == "information_schema":
		return nil
	case schema == "pg_catalog":
		if pgcatalog.CoreFunction(n.FnName.L) {
			return nil
		}
		return b.noQualifiedFunction(sc, n, agg)
	}
	key := catalog.QualifiedKey(schema, n.FnName.L)
	if isTempSchema(schema) {
		key = catalog.QualifiedKey(tempRoutineSchema, n.FnName.L)
	} else if b.snap != nil && !b.snap.HasSchema(schema) {
		return pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", n.Schema.O)
	}
	if b.snap != nil && len(b.snap.FunctionsByKey(key)) > 0 {
		return nil
	}
	if b.snap != nil {
		if u, ok := b.snap.UserTypeByKey(catalog.QualifiedKey(schema, n.FnName.L)); ok && u.Range != nil {
			return nil // a range or multirange type's constructor, in the type's schema
		}
	}
	if schema == catalog.PublicSchema && !pgcatalog.CoreFunction(n.FnName.L) && (builtins.Exists(n.FnName.L) || builtins.IsAggregate(n.FnName.L)) {
		return nil // an extension's function, in public as CREATE EXTENSION puts it
	}
	return b.noQualifiedFunction(sc, n, agg)
}

// noQualifiedFunction is 42883 for the qualified call n, named with its
// arguments' types.
func (b *Binder) noQualifiedFunction(sc *scope, n *ast.FuncCallExpr, agg *aggBinder) error {
	args := n.Args
	if len(args) > 0 && isDistinctArg(args[0]) {
		args = args[1:] // f(DISTINCT x)'s marker (parser.DistinctArgFunc)
	}
	types := make([]sqltypes.Type, len(args))
	for i, a := range args {
		x, err := b.child(sc, a, agg)
		if err != nil {
			return err
		}
		types[i] = x.Type()
	}
	return builtins.NoFunction(n.Schema.O+"."+n.FnName.O, types)
}

// asRowExpr is the parser's one-item row constructor, ROW(x)
// (parser.RowFunc, which TiDB's grammar lacks), as the row constructor
// TiDB parses for more items; e unchanged when it is none (ROW() has no
// fields to compare).
func asRowExpr(e ast.ExprNode) ast.ExprNode {
	if c, ok := e.(*ast.FuncCallExpr); ok && c.FnName.L == parser.RowFunc && len(c.Args) > 0 {
		return &ast.RowExpr{Values: c.Args}
	}
	return e
}

// unparenthesized is e without the parentheses around it.
func unparenthesized(e ast.ExprNode) ast.ExprNode {
	for {
		p, ok := e.(*ast.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

// isRowConstructor reports whether e is a row constructor, (a, b) or
// ROW(...).
func isRowConstructor(e ast.ExprNode) bool {
	_, row := asRowExpr(e).(*ast.RowExpr)
	return row || isEmptyRow(e)
}

// asRowExprs is asRowExpr of both operands of a comparison, and ROW() too
// beside another row constructor: two row constructors compare field by
// field, so that rows of no fields meet PostgreSQL's refusal to compare
// them (rowCompare); a ROW() beside any other value stays a record value.
func asRowExprs(l, r ast.ExprNode) (ast.ExprNode, ast.ExprNode) {
	if ul, ur := unparenthesized(l), unparenthesized(r); isRowConstructor(ul) && isRowConstructor(ur) {
		// Row constructors in parentheses compare as row constructors
		// (the parser's respelling of IS [NOT] DISTINCT FROM
		// parenthesizes its operands).
		l, r = ul, ur
	}
	l, r = asRowExpr(l), asRowExpr(r)
	_, lrow := l.(*ast.RowExpr)
	_, rrow := r.(*ast.RowExpr)
	switch {
	case isEmptyRow(l) && isEmptyRow(r):
		return &ast.RowExpr{}, &ast.RowExpr{}
	case isEmptyRow(l) && rrow:
		return &ast.RowExpr{}, r
	case isEmptyRow(r) && lrow:
		return l, &ast.RowExpr{}
	}
	return l, r
}

// isEmptyRow reports whether e is the parser's ROW() (parser.RowFunc of no
// arguments).
func isEmptyRow(e ast.ExprNode) bool {
	c, ok := e.(*ast.FuncCallExpr)
	return ok && c.FnName.L == parser.RowFunc && len(c.Args) == 0
}

// isDistinctArg reports whether a call's argument is the marker of
// f(DISTINCT ...) (parser.DistinctArgFunc).
func isDistinctArg(a ast.ExprNode) bool {
	m, ok := a.(*ast.FuncCallExpr)
	return ok && m.FnName.L == parser.DistinctArgFunc && len(m.Args) == 0
}

// castProbes are a value of each source type whose casts the value alone
// decides (not its text, whose casts read it with the target's input
// function): converting it tells whether the type converts to another at
// all, as PostgreSQL's pg_cast says at plan time.
var castProbes = func() map[sqltypes.TypeID]sqltypes.Value {
	texts := map[sqltypes.TypeID]string{
		sqltypes.Int2: "1", sqltypes.Int4: "1", sqltypes.Int8: "1", sqltypes.Oid: "1",
		sqltypes.Float4: "1", sqltypes.Float8: "1", sqltypes.Numeric: "1", sqltypes.Bool: "t",
		sqltypes.Date: "2000-01-01", sqltypes.Timestamp: "2000-01-01", sqltypes.TimestampTZ: "2000-01-01 00:00+00",
		sqltypes.Time: "00:00", sqltypes.TimeTZ: "00:00+00", sqltypes.Interval: "1 day",
		sqltypes.UUID: "00000000-0000-0000-0000-000000000000", sqltypes.Bytea: `\x01`,
		sqltypes.JSON: "1", sqltypes.JSONB: "1", sqltypes.Inet: "10.0.0.1", sqltypes.Cidr: "10.0.0.0/8",
		sqltypes.MacAddr: "08:00:2b:01:02:03", sqltypes.Int4Range: "[1,2)", sqltypes.TSVector: "a",
		sqltypes.XML: "<a/>", sqltypes.PgLSN: "0/0",
	}
	out := make(map[sqltypes.TypeID]sqltypes.Value, len(texts))
	for id, text := range texts {
		v, err := sqltypes.ParseText(sqltypes.Type{ID: id}, text)
		if err != nil {
			panic("cast probe of " + sqltypes.Type{ID: id}.String() + ": " + err.Error())
		}
		out[id] = v
	}
	return out
}()

// castExists is PostgreSQL's 42846 at plan time for an explicit cast
// between types no cast converts (integer to date, boolean to timestamp):
// zproxy's conversions are by value, so the binder converts a probe value
// of the source type and reports the pair when the conversion itself says
// there is none, whether or not a row ever reaches it. Arrays are checked
// by their element types.
func castExists(from, to sqltypes.Type) error {
	f, t := from.StripDomain(), to.StripDomain()
	if f.ID == sqltypes.Array && t.ID == sqltypes.Array {
		f, t = f.ElemType().StripDomain(), t.ElemType().StripDomain()
	}
	probe, ok := castProbes[f.ID]
	if !ok {
		return nil
	}
	if _, err := sqltypes.CastExplicit(probe, t); pgerr.CodeOf(err) == pgerr.CannotCoerce {
		return pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.UnmodifiedName(), to.UnmodifiedName())
	}
	return nil
}

// systemTypeComparable refuses the comparisons PostgreSQL has no operator
// for: none at all for xml and jsonpath, only = and <> for xid (against
// xid or integer), only = for aclitem.
func systemTypeComparable(op ir.BinOp, lt, rt sqltypes.Type) error {
	switch {
	case (lt.ID == sqltypes.ACLItem || rt.ID == sqltypes.ACLItem) && op != ir.OpEq:
		return noOperator(string(op), lt, rt)
	case lt.ID == sqltypes.XML || rt.ID == sqltypes.XML, lt.ID == sqltypes.JSONPath || rt.ID == sqltypes.JSONPath:
		return noOperator(string(op), lt, rt)
	case (lt.ID == sqltypes.XID || rt.ID == sqltypes.XID) && op != ir.OpEq && op != ir.OpNe:
		return noOperator(string(op), lt, rt)
	}
	return nil
}

// asXID converts an integer operand of xideqint4 to an xid as the C
// function does, (TransactionId) of the int32; an xid operand is kept.
func asXID(e ir.Expr) ir.Expr {
	if e.Type().ID == sqltypes.XID {
		return e
	}
	return &ir.Func{Name: "xid", Args: []ir.Expr{e}, Typ: sqltypes.Type{ID: sqltypes.XID}, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		return sqltypes.NewXID(uint32(a[0].I)), nil
	}}
}

// geoCasts are pg_cast's conversions among the geometric types.
var geoCasts = map[[2]sqltypes.TypeID]bool{
	{sqltypes.GeoPoint, sqltypes.GeoBox}: true, {sqltypes.GeoLSeg, sqltypes.GeoPoint}: true,
	{sqltypes.GeoPath, sqltypes.GeoPolygon}: true, {sqltypes.GeoBox, sqltypes.GeoPoint}: true,
	{sqltypes.GeoBox, sqltypes.GeoLSeg}: true, {sqltypes.GeoBox, sqltypes.GeoPolygon}: true,
	{sqltypes.GeoBox, sqltypes.GeoCircle}: true, {sqltypes.GeoPolygon, sqltypes.GeoPoint}: true,
	{sqltypes.GeoPolygon, sqltypes.GeoPath}: true, {sqltypes.GeoPolygon, sqltypes.GeoBox}: true,
	{sqltypes.GeoPolygon, sqltypes.GeoCircle}: true, {sqltypes.GeoCircle, sqltypes.GeoPoint}: true,
	{sqltypes.GeoCircle, sqltypes.GeoBox}: true, {sqltypes.GeoCircle, sqltypes.GeoPolygon}: true,
}

// geoOperand reports whether e is of a geometric type.
func geoOperand(e ir.Expr) bool { return sqltypes.IsGeo(e.Type().ID) }

// geoInList binds e [NOT] IN (list) over a geometric type: e = x OR ...
// (e <> x AND ... for NOT IN), by the registry's operators.
func (b *Binder) geoInList(sc *scope, e ir.Expr, list []ast.ExprNode, not bool, agg *aggBinder) (ir.Expr, error) {
	op, logic := "=", ir.OpOr
	if not {
		op, logic = "<>", ir.OpAnd
	}
	terms := make([]ir.Expr, 0, len(list))
	for _, item := range list {
		x, err := b.child(sc, item, agg)
		if err != nil {
			return nil, err
		}
		t, err := b.bindRegisteredOp(op, e, x)
		if err != nil {
			return nil, err
		}
		terms = append(terms, t)
	}
	return fold(balanced(logic, terms))
}
