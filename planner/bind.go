package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// Binder binds one parsed statement to a catalog snapshot.
type Binder struct {
	snap *catalog.Snapshot
	stmt *parser.Statement
	// params holds the type of each $n: the client's declared type, or
	// the type inferred from the parameter's context, or Unknown.
	params   []sqltypes.Type
	declared []bool
}

// Bind binds stmt against snap. paramTypes are the types the client declared
// for $1..$n (Unknown where open); the returned slice has the resolved type
// of every parameter (text where nothing constrained it).
func Bind(snap *catalog.Snapshot, stmt *parser.Statement, paramTypes []sqltypes.Type) (Statement, []sqltypes.Type, error) {
	if stmt.Role != nil {
		st, err := bindRole(snap, stmt.Role)
		return st, nil, err
	}
	n := stmt.NumParams
	if len(paramTypes) > n {
		n = len(paramTypes)
	}
	b := &Binder{snap: snap, stmt: stmt, params: make([]sqltypes.Type, n), declared: make([]bool, n)}
	for i, t := range paramTypes {
		if t.ID != sqltypes.Unknown {
			b.params[i] = t
			b.declared[i] = true
		}
	}
	st, err := b.bindStmt(stmt.AST)
	if err != nil {
		return nil, nil, err
	}
	for i, t := range b.params {
		if t.ID == sqltypes.Unknown {
			b.params[i] = sqltypes.TypeText
		}
	}
	return st, b.params, nil
}

func unsupported(format string, args ...any) error {
	return pgerr.New(pgerr.FeatureNotSupported, format, args...)
}

func (b *Binder) bindStmt(node ast.StmtNode) (Statement, error) {
	switch n := node.(type) {
	case *ast.SelectStmt:
		return b.bindSelect(n)
	case *ast.InsertStmt:
		return b.bindInsert(n)
	case *ast.UpdateStmt:
		return b.bindUpdate(n)
	case *ast.DeleteStmt:
		return b.bindDelete(n)
	case *ast.CreateTableStmt:
		return b.bindCreateTable(n)
	case *ast.DropTableStmt:
		d := &DropTable{IfExists: n.IfExists}
		for _, t := range n.Tables {
			d.Names = append(d.Names, t.Name.O)
		}
		return d, nil
	case *ast.CreateIndexStmt:
		return b.bindCreateIndex(n)
	case *ast.DropIndexStmt:
		return &DropIndex{Name: n.IndexName, IfExists: n.IfExists}, nil
	case *ast.ShowStmt:
		return b.bindShow(n)
	case *ast.AdminStmt:
		if n.Tp != ast.AdminCheckTable {
			return nil, unsupported("this ADMIN statement is not supported")
		}
		c := &CheckTable{}
		for _, tn := range n.Tables {
			t, err := b.snap.Table(tn.Name.O)
			if err != nil {
				return nil, err
			}
			c.Tables = append(c.Tables, t)
		}
		return c, nil
	case *ast.ExplainStmt:
		inner, err := b.bindStmt(n.Stmt)
		if err != nil {
			return nil, err
		}
		return &Explain{Stmt: inner, Analyze: n.Analyze, JSON: strings.EqualFold(n.Format, "json")}, nil
	case *ast.SetStmt:
		return b.bindSet(n)
	case *ast.BeginStmt:
		if n.ReadOnly {
			return &TxnOp{Op: "begin_read_only"}, nil
		}
		return &TxnOp{Op: "begin"}, nil
	case *ast.CommitStmt:
		return &TxnOp{Op: "commit"}, nil
	case *ast.RollbackStmt:
		return &TxnOp{Op: "rollback"}, nil
	}
	return nil, unsupported("statement %s is not supported", stmtName(node))
}

func stmtName(node ast.StmtNode) string {
	s := strings.TrimPrefix(fmt.Sprintf("%T", node), "*ast.")
	return strings.ToUpper(strings.TrimSuffix(s, "Stmt"))
}

// scope resolves column names against one table (and, in ON CONFLICT, the
// excluded pseudo-table laid after it).
type scope struct {
	table    *catalog.Table
	alias    string
	excluded bool // columns of "excluded" follow the table's
}

func (b *Binder) resolveColumn(sc *scope, cn *ast.ColumnName) (Expr, error) {
	name := cn.Name.O
	if sc == nil || sc.table == nil {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
	}
	qual := cn.Table.O
	offset := 0
	switch {
	case qual == "":
	case qual == sc.alias || qual == sc.table.Name:
	case sc.excluded && qual == "excluded":
		offset = len(sc.table.Columns)
	default:
		return nil, pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table %q", qual)
	}
	i := sc.table.ColumnIndex(name)
	if i < 0 {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
	}
	label := name
	if offset > 0 {
		label = "excluded." + name
	}
	return &ColRef{Index: offset + i, Name: label, Typ: sc.table.Columns[i].Type}, nil
}

func (b *Binder) tableFromRefs(refs *ast.TableRefsClause) (*catalog.Table, string, error) {
	if refs == nil || refs.TableRefs == nil {
		return nil, "", nil
	}
	j := refs.TableRefs
	if j.Right != nil {
		return nil, "", unsupported("joins are not supported")
	}
	ts, ok := j.Left.(*ast.TableSource)
	if !ok {
		if _, nested := j.Left.(*ast.Join); nested {
			return nil, "", unsupported("joins are not supported")
		}
		return nil, "", unsupported("subqueries in FROM are not supported")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, "", unsupported("subqueries in FROM are not supported")
	}
	schema := tn.Schema.L
	if schema != "" && schema != "public" {
		if v, ok := b.snap.View(schema, tn.Name.O); ok {
			return v, ts.AsName.O, nil
		}
		return nil, "", pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", tn.Schema.O+"."+tn.Name.O)
	}
	t, err := b.snap.Table(tn.Name.O)
	if err != nil {
		if v, ok := b.snap.View("", tn.Name.O); ok && schema == "" {
			return v, ts.AsName.O, nil // pg_catalog is on every search path
		}
		return nil, "", err
	}
	return t, ts.AsName.O, nil
}

func (b *Binder) bindSelect(n *ast.SelectStmt) (*Select, error) {
	if n.Kind != ast.SelectStmtKindSelect {
		return nil, unsupported("VALUES and TABLE statements are not supported")
	}
	if n.With != nil {
		return nil, unsupported("WITH queries are not supported")
	}
	if n.LockInfo != nil && n.LockInfo.LockType != ast.SelectLockNone {
		return nil, unsupported("SELECT ... FOR UPDATE is not supported")
	}
	t, alias, err := b.tableFromRefs(n.From)
	if err != nil {
		return nil, err
	}
	sc := &scope{table: t, alias: alias}
	s := &Select{Table: t, Distinct: n.Distinct}
	if n.Where != nil {
		if s.Filter, err = b.bindBool(sc, n.Where, "WHERE"); err != nil {
			return nil, err
		}
	}
	s.Hints = b.bindHints(n.TableHints)

	agg := &aggBinder{b: b, sc: sc}
	aggregated := n.GroupBy != nil || n.Having != nil || hasAggregate(n.Fields) || (n.OrderBy != nil && hasAggregateInOrder(n.OrderBy))
	if aggregated {
		s.Aggregated = true
		if n.GroupBy != nil {
			for _, item := range n.GroupBy.Items {
				e, err := b.bindGroupItem(sc, item.Expr, n.Fields)
				if err != nil {
					return nil, err
				}
				agg.groups = append(agg.groups, e)
			}
		}
	}

	// Projection.
	for _, f := range n.Fields.Fields {
		if f.WildCard != nil {
			if t == nil {
				return nil, pgerr.New(pgerr.SyntaxError, "SELECT * with no tables specified is not valid")
			}
			if aggregated {
				return nil, pgerr.New(pgerr.GroupingError, "column %q must appear in the GROUP BY clause or be used in an aggregate function", t.Columns[0].Name)
			}
			for i, c := range t.Columns {
				s.Project = append(s.Project, &ColRef{Index: i, Name: c.Name, Typ: c.Type})
				s.Columns = append(s.Columns, OutputColumn{Name: c.Name, Type: c.Type, Table: t, Col: i})
			}
			continue
		}
		var e Expr
		if aggregated {
			e, err = agg.bind(f.Expr)
		} else {
			e, err = b.bindExpr(sc, f.Expr)
		}
		if err != nil {
			return nil, err
		}
		e = b.finishUnknown(e)
		col := OutputColumn{Name: outputName(f), Type: e.Type(), Col: -1}
		if cr, ok := e.(*ColRef); ok && !aggregated {
			col.Table, col.Col = t, cr.Index
		}
		s.Project = append(s.Project, e)
		s.Columns = append(s.Columns, col)
	}
	s.Visible = len(s.Project)

	if n.Having != nil {
		if !aggregated {
			return nil, pgerr.New(pgerr.GroupingError, "HAVING requires aggregation")
		}
		if s.Having, err = agg.bind(n.Having.Expr); err != nil {
			return nil, err
		}
	}

	if n.OrderBy != nil {
		for _, item := range n.OrderBy.Items {
			idx, err := b.bindOrderItem(s, sc, agg, aggregated, n.Fields, item.Expr)
			if err != nil {
				return nil, err
			}
			// PostgreSQL: NULLs sort as if larger than any value, so they come
			// last ascending and first descending.
			s.OrderBy = append(s.OrderBy, SortKey{Col: idx, Desc: item.Desc, NullsFirst: item.Desc})
		}
	}
	if s.Distinct && len(s.Project) > s.Visible {
		return nil, pgerr.New(pgerr.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
	}
	if aggregated {
		s.GroupBy = agg.groups
		s.Aggs = agg.aggs
	}
	if n.Limit != nil {
		if v, ok := n.Limit.Count.(*driver.ValueExpr); ok && v.Kind() == driver.KindUint64 && v.GetUint64() == math.MaxUint64 {
			// parser.NoLimit: an OFFSET without LIMIT.
		} else if n.Limit.Count != nil {
			if s.Limit, err = b.bindCount(sc, n.Limit.Count, "LIMIT"); err != nil {
				return nil, err
			}
		}
		if n.Limit.Offset != nil {
			if s.Offset, err = b.bindCount(sc, n.Limit.Offset, "OFFSET"); err != nil {
				return nil, err
			}
		}
	}
	if t != nil {
		s.Needed = neededColumns(s, agg)
	}
	return s, nil
}

func neededColumns(s *Select, agg *aggBinder) []int {
	seen := map[int]bool{}
	var out []int
	add := func(e Expr) {
		for _, c := range Columns(e) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	add(s.Filter)
	if s.Aggregated {
		for _, g := range agg.groups {
			add(g)
		}
		for _, a := range agg.aggs {
			if a.Arg != nil {
				add(a.Arg)
			}
		}
	} else {
		for _, p := range s.Project {
			add(p)
		}
	}
	return out
}

func outputName(f *ast.SelectField) string {
	if f.AsName.O != "" {
		return f.AsName.O
	}
	switch e := f.Expr.(type) {
	case *ast.ColumnNameExpr:
		return e.Name.Name.O
	case *ast.AggregateFuncExpr:
		return strings.ToLower(e.F)
	case *ast.FuncCallExpr:
		if operand, t, ok := parser.CastOf(e); ok {
			if c, ok := operand.(*ast.ColumnNameExpr); ok {
				return c.Name.Name.O
			}
			return castLabel(t)
		}
		return e.FnName.L
	case *ast.FuncCastExpr:
		if c, ok := e.Expr.(*ast.ColumnNameExpr); ok {
			return c.Name.Name.O
		}
	}
	return "?column?"
}

// castLabel is the column name PostgreSQL gives a cast of a non-column:
// the type's internal name.
func castLabel(t sqltypes.Type) string {
	switch t.ID {
	case sqltypes.Int2:
		return "int2"
	case sqltypes.Int4:
		return "int4"
	case sqltypes.Int8:
		return "int8"
	case sqltypes.Float4:
		return "float4"
	case sqltypes.Float8:
		return "float8"
	case sqltypes.Bool:
		return "bool"
	case sqltypes.Varchar:
		return "varchar"
	case sqltypes.TimestampTZ:
		return "timestamptz"
	case sqltypes.Timestamp:
		return "timestamp"
	}
	return t.String()
}

// bindOrderItem resolves an ORDER BY item to a column of the projected row:
// an output ordinal (ORDER BY 2), an output alias, an expression equal to an
// output column, or else a new hidden column appended to the projection.
func (b *Binder) bindOrderItem(s *Select, sc *scope, agg *aggBinder, aggregated bool, fields *ast.FieldList, node ast.ExprNode) (int, error) {
	if p, ok := node.(*ast.PositionExpr); ok && p.P == nil {
		if p.N < 1 || p.N > s.Visible {
			return 0, pgerr.New(pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", p.N)
		}
		return p.N - 1, nil
	}
	if v, ok := node.(*driver.ValueExpr); ok && (v.Kind() == driver.KindInt64 || v.Kind() == driver.KindUint64) {
		pos := int(v.GetInt64())
		if pos < 1 || pos > s.Visible {
			return 0, pgerr.New(pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", pos)
		}
		return pos - 1, nil
	}
	if cn, ok := node.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" {
		for i, f := range fields.Fields {
			if f.AsName.O != "" && f.AsName.O == cn.Name.Name.O {
				return i, nil
			}
		}
	}
	var e Expr
	var err error
	if aggregated {
		e, err = agg.bind(node)
	} else {
		e, err = b.bindExpr(sc, node)
	}
	if err != nil {
		return 0, err
	}
	key := e.String()
	for i, p := range s.Project {
		if p.String() == key {
			return i, nil
		}
	}
	s.Project = append(s.Project, e)
	return len(s.Project) - 1, nil
}

// bindGroupItem binds a GROUP BY item, which may name an output column by
// ordinal or alias, as in PostgreSQL.
func (b *Binder) bindGroupItem(sc *scope, node ast.ExprNode, fields *ast.FieldList) (Expr, error) {
	if p, ok := node.(*ast.PositionExpr); ok && p.P == nil {
		if p.N < 1 || p.N > len(fields.Fields) || fields.Fields[p.N-1].WildCard != nil {
			return nil, pgerr.New(pgerr.InvalidColumnReference, "GROUP BY position %d is not in select list", p.N)
		}
		node = fields.Fields[p.N-1].Expr
	}
	if v, ok := node.(*driver.ValueExpr); ok && (v.Kind() == driver.KindInt64 || v.Kind() == driver.KindUint64) {
		pos := int(v.GetInt64())
		if pos < 1 || pos > len(fields.Fields) || fields.Fields[pos-1].WildCard != nil {
			return nil, pgerr.New(pgerr.InvalidColumnReference, "GROUP BY position %d is not in select list", pos)
		}
		node = fields.Fields[pos-1].Expr
	} else if cn, ok := node.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" && sc.table != nil && sc.table.ColumnIndex(cn.Name.Name.O) < 0 {
		for _, f := range fields.Fields {
			if f.AsName.O == cn.Name.Name.O {
				node = f.Expr
				break
			}
		}
	}
	return b.bindExpr(sc, node)
}

func (b *Binder) bindCount(sc *scope, node ast.ExprNode, clause string) (Expr, error) {
	e, err := b.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	if !IsConstant(e) {
		return nil, pgerr.New(pgerr.SyntaxError, "argument of %s must not contain variables", clause)
	}
	b.inferParam(e, sqltypes.TypeInt8)
	if e.Type().Kind() != sqltypes.KindInt && e.Type().ID != sqltypes.Unknown {
		if c, ok := e.(*Const); ok && c.V.K == sqltypes.KindFloat {
			return &Const{V: sqltypes.NewInt(int64(c.V.F + 0.5)), Typ: sqltypes.TypeInt8}, nil
		}
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type bigint, not type %s", clause, e.Type())
	}
	return e, nil
}

// bindHints keeps the index hints (USE_INDEX, FORCE_INDEX, IGNORE_INDEX);
// other TiDB hints mean nothing to zproxy.
func (b *Binder) bindHints(hs []*ast.TableOptimizerHint) []Hint {
	var out []Hint
	for _, h := range hs {
		name := h.HintName.L
		if name != "use_index" && name != "ignore_index" && name != "force_index" {
			continue
		}
		hint := Hint{Use: name != "ignore_index"}
		if len(h.Tables) > 0 {
			hint.Table = h.Tables[0].TableName.O
		}
		for _, ix := range h.Indexes {
			hint.Index = append(hint.Index, ix.O)
		}
		out = append(out, hint)
	}
	return out
}

// bindBool binds a condition and checks that it is boolean.
func (b *Binder) bindBool(sc *scope, node ast.ExprNode, clause string) (Expr, error) {
	e, err := b.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	b.inferParam(e, sqltypes.TypeBool)
	if c, ok := e.(*Const); ok && c.Typ.ID == sqltypes.Unknown && c.V.K == sqltypes.KindText {
		v, err := sqltypes.ParseText(sqltypes.TypeBool, c.V.S)
		if err != nil {
			return nil, err
		}
		return &Const{V: v, Typ: sqltypes.TypeBool}, nil
	}
	if t := e.Type(); t.ID != sqltypes.Bool && t.ID != sqltypes.Unknown {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type boolean, not type %s", clause, t)
	}
	return e, nil
}

// finishUnknown gives an untyped literal its default type, text.
func (b *Binder) finishUnknown(e Expr) Expr {
	if c, ok := e.(*Const); ok && c.Typ.ID == sqltypes.Unknown {
		if c.V.K == sqltypes.KindText {
			return &Const{V: c.V, Typ: sqltypes.TypeText}
		}
	}
	if p, ok := e.(*Param); ok && p.Typ.ID == sqltypes.Unknown {
		b.inferParam(p, sqltypes.TypeText)
		return &Param{N: p.N, Typ: b.params[p.N-1]}
	}
	return e
}

// inferParam sets the type of a parameter that nothing constrained yet.
func (b *Binder) inferParam(e Expr, t sqltypes.Type) {
	p, ok := e.(*Param)
	if !ok || p.N < 1 || p.N > len(b.params) || b.params[p.N-1].ID != sqltypes.Unknown {
		return
	}
	b.params[p.N-1] = t
	p.Typ = t
}

// hasAggregate reports whether any select field contains an aggregate.
func hasAggregate(fields *ast.FieldList) bool {
	found := false
	for _, f := range fields.Fields {
		if f.Expr != nil {
			f.Expr.Accept(&aggFinder{found: &found})
		}
	}
	return found
}

func hasAggregateInOrder(ob *ast.OrderByClause) bool {
	found := false
	for _, it := range ob.Items {
		it.Expr.Accept(&aggFinder{found: &found})
	}
	return found
}

type aggFinder struct{ found *bool }

func (v *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.AggregateFuncExpr); ok {
		*v.found = true
		return n, true
	}
	return n, false
}

func (v *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// aggBinder binds expressions evaluated after aggregation, over rows of
// [group values..., aggregate values...].
type aggBinder struct {
	b      *Binder
	sc     *scope
	groups []Expr
	aggs   []AggCall
}

func (a *aggBinder) bind(node ast.ExprNode) (Expr, error) {
	// A whole expression equal to a GROUP BY item reads the group column.
	if e, err := a.b.bindExprNoAgg(a.sc, node); err == nil {
		key := e.String()
		for i, g := range a.groups {
			if g.String() == key {
				return &ColRef{Index: i, Name: key, Typ: g.Type()}, nil
			}
		}
		if IsConstant(e) {
			return e, nil
		}
	}
	switch n := node.(type) {
	case *ast.AggregateFuncExpr:
		return a.bindAgg(n)
	case *ast.ColumnNameExpr:
		return nil, pgerr.New(pgerr.GroupingError, "column %q must appear in the GROUP BY clause or be used in an aggregate function", n.Name.Name.O)
	}
	// Rebind the expression with this binder handling the leaves.
	return a.b.bindExprWith(a.sc, node, a)
}

func (a *aggBinder) bindAgg(n *ast.AggregateFuncExpr) (Expr, error) {
	fn := AggFunc(strings.ToLower(n.F))
	call := AggCall{Func: fn, Distinct: n.Distinct}
	switch fn {
	case AggCount, AggSum, AggMin, AggMax, AggAvg:
	default:
		return nil, unsupported("aggregate function %s is not supported", n.F)
	}
	if fn == AggCount && len(n.Args) == 1 {
		if v, ok := n.Args[0].(*driver.ValueExpr); ok && !n.Distinct && v.Kind() != driver.KindNull {
			// count(*) arrives as count(1); count(<constant>) counts rows too.
			call.Func = AggCountStar
		}
	}
	if call.Func != AggCountStar {
		if len(n.Args) != 1 {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function %s with %d arguments does not exist", n.F, len(n.Args))
		}
		arg, err := a.b.bindExprNoAgg(a.sc, n.Args[0])
		if err != nil {
			return nil, err
		}
		arg = a.b.finishUnknown(arg)
		call.Arg = arg
	}
	switch call.Func {
	case AggCount, AggCountStar:
		call.Typ = sqltypes.TypeInt8
	case AggSum:
		switch call.Arg.Type().Kind() {
		case sqltypes.KindInt:
			call.Typ = sqltypes.TypeInt8
		case sqltypes.KindFloat:
			call.Typ = sqltypes.TypeFloat8
		default:
			return nil, pgerr.New(pgerr.UndefinedFunction, "function sum(%s) does not exist", call.Arg.Type())
		}
	case AggAvg:
		if !call.Arg.Type().IsNumeric() {
			return nil, pgerr.New(pgerr.UndefinedFunction, "function avg(%s) does not exist", call.Arg.Type())
		}
		call.Typ = sqltypes.TypeFloat8
	default:
		call.Typ = call.Arg.Type()
	}
	a.aggs = append(a.aggs, call)
	name := string(call.Func)
	if call.Arg != nil {
		name = string(call.Func) + "(" + call.Arg.String() + ")"
	}
	return &aggRef{ColRef{Index: -len(a.aggs), Name: name, Typ: call.Typ}}, nil
}

// aggRef is a reference to an aggregate's output slot; its index is fixed
// up once the number of group columns is known (FixAggRefs).
type aggRef struct{ ColRef }

// FixAggRefs rewrites aggregate references in e into column references of
// the aggregated row [groups..., aggs...]. The executor calls it once.
func FixAggRefs(e Expr, ngroups int) Expr { return fixAgg(e, ngroups) }

func fixAgg(e Expr, ng int) Expr {
	switch x := e.(type) {
	case *aggRef:
		return &ColRef{Index: ng + (-x.Index - 1), Name: x.Name, Typ: x.Typ}
	case *Binary:
		return &Binary{Op: x.Op, L: fixAgg(x.L, ng), R: fixAgg(x.R, ng), Typ: x.Typ}
	case *Not:
		return &Not{E: fixAgg(x.E, ng)}
	case *Neg:
		return &Neg{E: fixAgg(x.E, ng)}
	case *IsNull:
		return &IsNull{E: fixAgg(x.E, ng), Neg: x.Neg}
	case *InList:
		l := make([]Expr, len(x.List))
		for i, y := range x.List {
			l[i] = fixAgg(y, ng)
		}
		return &InList{E: fixAgg(x.E, ng), List: l, Neg: x.Neg}
	case *Like:
		return &Like{E: fixAgg(x.E, ng), Pattern: fixAgg(x.Pattern, ng), Neg: x.Neg, CaseInsensitive: x.CaseInsensitive, Escape: x.Escape}
	case *Cast:
		return &Cast{E: fixAgg(x.E, ng), To: x.To}
	case *Func:
		args := make([]Expr, len(x.Args))
		for i, y := range x.Args {
			args[i] = fixAgg(y, ng)
		}
		return &Func{Name: x.Name, Args: args, Typ: x.Typ, fn: x.fn, lazy: x.lazy, volatile: x.volatile}
	}
	return e
}

// bindExprNoAgg binds an expression in which aggregates are not allowed.
func (b *Binder) bindExprNoAgg(sc *scope, node ast.ExprNode) (Expr, error) {
	found := false
	node.Accept(&aggFinder{found: &found})
	if found {
		return nil, pgerr.New(pgerr.GroupingError, "aggregate function calls cannot be nested")
	}
	return b.bindExpr(sc, node)
}

func (b *Binder) bindInsert(n *ast.InsertStmt) (Statement, error) {
	if n.IsReplace {
		return nil, unsupported("REPLACE is not supported; use INSERT ... ON CONFLICT")
	}
	if n.Select != nil {
		return nil, unsupported("INSERT ... SELECT is not supported")
	}
	if n.Setlist {
		return nil, unsupported("INSERT ... SET is not supported")
	}
	t, _, err := b.tableFromRefs(n.Table)
	if err != nil {
		return nil, err
	}
	if err := writable(t); err != nil {
		return nil, err
	}
	targets := make([]int, 0, len(t.Columns))
	if len(n.Columns) == 0 {
		for i := range t.Columns {
			targets = append(targets, i)
		}
	} else {
		seen := map[int]bool{}
		for _, c := range n.Columns {
			i := t.ColumnIndex(c.Name.O)
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", c.Name.O, t.Name)
			}
			if seen[i] {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", c.Name.O)
			}
			seen[i] = true
			targets = append(targets, i)
		}
	}
	ins := &Insert{Table: t}
	for _, list := range n.Lists {
		if len(list) > len(targets) {
			return nil, pgerr.New(pgerr.SyntaxError, "INSERT has more expressions than target columns")
		}
		if len(list) < len(targets) && len(n.Columns) > 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "INSERT has more target columns than expressions")
		}
		row := make([]Expr, len(t.Columns))
		for i := range row {
			row[i] = &Const{V: sqltypes.Null, Typ: t.Columns[i].Type}
		}
		for j, node := range list {
			col := targets[j]
			if _, isDefault := node.(*ast.DefaultExpr); isDefault {
				continue
			}
			e, err := b.bindAssign(nil, node, t.Columns[col])
			if err != nil {
				return nil, err
			}
			row[col] = e
		}
		ins.Rows = append(ins.Rows, row)
	}
	if oc := b.stmt.OnConflict; oc != nil {
		ins.OnConflict = &OnConflict{DoNothing: oc.DoNothing}
		if !oc.DoNothing {
			sc := &scope{table: t, excluded: true}
			ins.OnConflict.Set = map[int]Expr{}
			for _, a := range n.OnDuplicate {
				i := t.ColumnIndex(a.Column.Name.O)
				if i < 0 {
					return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column.Name.O, t.Name)
				}
				e, err := b.bindAssign(sc, a.Expr, t.Columns[i])
				if err != nil {
					return nil, err
				}
				ins.OnConflict.Set[i] = e
			}
		}
		if err := checkConflictTarget(t, oc.Columns); err != nil {
			return nil, err
		}
	} else if n.IgnoreErr {
		ins.OnConflict = &OnConflict{DoNothing: true}
	}
	return ins, nil
}

// checkConflictTarget accepts an ON CONFLICT target only if it names the
// primary key, the one unique constraint zproxy has.
func checkConflictTarget(t *catalog.Table, cols []string) error {
	if len(cols) == 0 {
		return nil
	}
	if len(cols) == len(t.PrimaryKey) {
		match := true
		for _, k := range t.PrimaryKey {
			found := false
			for _, c := range cols {
				if c == t.Columns[k.Column].Name {
					found = true
				}
			}
			match = match && found
		}
		if match {
			return nil
		}
	}
	return pgerr.New(pgerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
}

// bindAssign binds a value assigned to a column: untyped literals and
// parameters take the column's type, other values are cast to it.
func (b *Binder) bindAssign(sc *scope, node ast.ExprNode, col catalog.Column) (Expr, error) {
	e, err := b.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	b.inferParam(e, col.Type)
	return b.coerceTo(e, col.Type, true)
}

// coerceTo converts e to type t: constants are converted now (so a bad
// literal fails at bind time with 22P02, as in PostgreSQL), other
// expressions get a Cast when their type differs.
func (b *Binder) coerceTo(e Expr, t sqltypes.Type, assignment bool) (Expr, error) {
	et := e.Type()
	if et == t {
		return e, nil
	}
	if c, ok := e.(*Const); ok {
		switch {
		case assignment && !castAllowedAssignment(et, t):
			return nil, pgerr.New(pgerr.DatatypeMismatch, "column is of type %s but expression is of type %s", t, et).
				WithHint("You will need to rewrite or cast the expression.")
		case !assignment && !castAllowedImplicitly(et, t):
			return nil, mismatch(et, t)
		}
		v, err := sqltypes.Cast(c.V, t)
		if err != nil {
			return nil, err
		}
		return &Const{V: v, Typ: t}, nil
	}
	if et.ID == sqltypes.Unknown {
		return &Cast{E: e, To: t}, nil
	}
	if assignment {
		if !castAllowedAssignment(et, t) {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "column is of type %s but expression is of type %s", t, et).
				WithHint("You will need to rewrite or cast the expression.")
		}
		return &Cast{E: e, To: t}, nil
	}
	if !castAllowedImplicitly(et, t) {
		return nil, mismatch(et, t)
	}
	return &Cast{E: e, To: t}, nil
}

func mismatch(a, b sqltypes.Type) error {
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s = %s", a, b).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// castAllowedImplicitly follows PostgreSQL's implicit casts among the
// supported types: numeric widening, text family, and date/timestamp.
func castAllowedImplicitly(from, to sqltypes.Type) bool {
	if from.ID == sqltypes.Unknown || from.Kind() == to.Kind() {
		return true
	}
	if from.IsNumeric() && to.IsNumeric() {
		return true
	}
	tk, fk := to.Kind(), from.Kind()
	dateish := func(k sqltypes.Kind) bool {
		return k == sqltypes.KindDate || k == sqltypes.KindTimestamp || k == sqltypes.KindTimestampTZ
	}
	return dateish(tk) && dateish(fk)
}

func castAllowedAssignment(from, to sqltypes.Type) bool {
	if castAllowedImplicitly(from, to) {
		return true
	}
	// Anything can be assigned to a text column through its output form.
	return to.Kind() == sqltypes.KindText
}

func (b *Binder) bindUpdate(n *ast.UpdateStmt) (Statement, error) {
	if n.Order != nil || n.Limit != nil {
		return nil, unsupported("UPDATE with ORDER BY or LIMIT is not supported")
	}
	scan, sc, err := b.bindRowSource(n.TableRefs, n.Where, n.TableHints)
	if err != nil {
		return nil, err
	}
	t := scan.Table
	u := &Update{Scan: scan, Set: map[int]Expr{}}
	for _, a := range n.List {
		i := t.ColumnIndex(a.Column.Name.O)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column.Name.O, t.Name)
		}
		if _, dup := u.Set[i]; dup {
			return nil, pgerr.New(pgerr.DuplicateColumn, "multiple assignments to same column %q", a.Column.Name.O)
		}
		e, err := b.bindAssign(sc, a.Expr, t.Columns[i])
		if err != nil {
			return nil, err
		}
		u.Set[i] = e
	}
	return u, nil
}

func (b *Binder) bindDelete(n *ast.DeleteStmt) (Statement, error) {
	if n.IsMultiTable {
		return nil, unsupported("multi-table DELETE is not supported")
	}
	if n.Order != nil || n.Limit != nil {
		return nil, unsupported("DELETE with ORDER BY or LIMIT is not supported")
	}
	scan, _, err := b.bindRowSource(n.TableRefs, n.Where, n.TableHints)
	if err != nil {
		return nil, err
	}
	return &Delete{Scan: scan}, nil
}

// bindRowSource binds the rows an UPDATE or DELETE changes: a Select over
// its table with its WHERE and hints, projecting the whole row (index
// maintenance needs every old value).
func (b *Binder) bindRowSource(refs *ast.TableRefsClause, where ast.ExprNode, hints []*ast.TableOptimizerHint) (*Select, *scope, error) {
	t, alias, err := b.tableFromRefs(refs)
	if err != nil {
		return nil, nil, err
	}
	if err := writable(t); err != nil {
		return nil, nil, err
	}
	sc := &scope{table: t, alias: alias}
	scan := &Select{Table: t}
	if where != nil {
		if scan.Filter, err = b.bindBool(sc, where, "WHERE"); err != nil {
			return nil, nil, err
		}
	}
	scan.Hints = b.bindHints(hints)
	wholeRow(scan)
	return scan, sc, nil
}

// writable refuses writes to the catalog's views.
func writable(t *catalog.Table) error {
	if t.Virtual != nil {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot change view %q", t.Name).
			WithDetail("The information_schema and pg_catalog views are computed from the schema.")
	}
	return nil
}

// wholeRow makes a scan project every column of its table, as UPDATE and
// DELETE need the complete old row to maintain indexes.
func wholeRow(s *Select) {
	for i, c := range s.Table.Columns {
		s.Project = append(s.Project, &ColRef{Index: i, Name: c.Name, Typ: c.Type})
		s.Needed = append(s.Needed, i)
	}
	s.Visible = len(s.Project)
}

func (b *Binder) bindShow(n *ast.ShowStmt) (Statement, error) {
	switch n.Tp {
	case ast.ShowIndex:
		t, err := b.snap.Table(n.Table.Name.O)
		if err != nil {
			return nil, err
		}
		return &ShowIndexes{Table: t}, nil
	case ast.ShowVariables:
		if n.Pattern != nil {
			if v, ok := n.Pattern.Pattern.(*driver.ValueExpr); ok {
				// The parser escapes the name's _ and % to make an exact pattern.
				name := strings.NewReplacer(`\_`, "_", `\%`, "%", `\\`, `\`).Replace(v.GetString())
				return &ShowVar{Name: strings.ToLower(name)}, nil
			}
		}
		return &ShowVar{Name: "all"}, nil
	}
	return nil, unsupported("this SHOW statement is not supported")
}

func (b *Binder) bindSet(n *ast.SetStmt) (Statement, error) {
	if len(n.Variables) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "SET needs a parameter")
	}
	var first *SetVar
	for _, v := range n.Variables {
		sv, err := b.bindAssignment(v)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = sv
		} else {
			first.More = append(first.More, sv)
		}
	}
	return first, nil
}

func (b *Binder) bindAssignment(v *ast.VariableAssignment) (*SetVar, error) {
	name := strings.ToLower(v.Name)
	if v.Value == nil {
		return &SetVar{Name: name, Reset: true}, nil
	}
	if _, ok := v.Value.(*ast.DefaultExpr); ok {
		return &SetVar{Name: name, Reset: true}, nil
	}
	switch x := v.Value.(type) {
	case *driver.ValueExpr:
		return &SetVar{Name: name, Value: datumText(x)}, nil
	case *ast.ColumnNameExpr:
		return &SetVar{Name: name, Value: x.Name.Name.O}, nil
	case *ast.UnaryOperationExpr:
		if val, ok := x.V.(*driver.ValueExpr); ok && x.Op == opcode.Minus {
			return &SetVar{Name: name, Value: "-" + datumText(val)}, nil
		}
	}
	e, err := b.bindExpr(nil, v.Value)
	if err != nil {
		return nil, err
	}
	if !IsConstant(e) {
		return nil, pgerr.New(pgerr.SyntaxError, "SET requires a constant value")
	}
	val, err := e.Eval(&EvalContext{}, nil)
	if err != nil {
		return nil, err
	}
	return &SetVar{Name: name, Value: sqltypes.FormatText(val)}, nil
}

func datumText(v *driver.ValueExpr) string {
	switch v.Kind() {
	case driver.KindInt64:
		return strconv.FormatInt(v.GetInt64(), 10)
	case driver.KindUint64:
		return strconv.FormatUint(v.GetUint64(), 10)
	case driver.KindFloat32, driver.KindFloat64:
		return strconv.FormatFloat(v.GetFloat64(), 'g', -1, 64)
	case driver.KindMysqlDecimal:
		return v.GetMysqlDecimal().String()
	case driver.KindNull:
		return ""
	}
	return v.GetString()
}
