package planner

import (
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Binder binds one parsed statement to a catalog snapshot.
type Binder struct {
	// untypedFields marks the items of the row constructors bound so far
	// that were untyped literals (recordFieldTypes).
	untypedFields map[*ir.RecordExpr][]bool
	// rtable are the FROM items bound at the query levels being bound,
	// outermost first (fromEntryError).
	rtable []rtEntry
	// depth is how deeply bindExprWith is nested now (see parser.MaxExprDepth).
	depth int
	// notes, when set, collect what the plan does not keep of how the
	// query was written, for pg_get_viewdef (deparseViewQuery).
	notes     *ir.QueryNotes
	withNotes map[*ast.WithClause]*withNote
	// lockClauses counts the locking clauses bound so far, each the next
	// of stmt.LockStrengths and stmt.LockOf.
	lockClauses int
	// publicCall: the call being bound was qualified public.f(...) (and
	// public holds no routine f, so the qualifier left it so): an
	// extension's function, which PostgreSQL keeps in public, with no
	// user function of another schema among its candidates.
	publicCall bool
	// keepCollate: x COLLATE name binds as ir.Collate, not as x alone
	// (pg_collation_for's argument; bindCollate).
	keepCollate bool
	// wholeRowOK: a FROM item's name may stand for its row (rowjson.go).
	wholeRowOK bool
	// wholeRowNames are the unqualified column names of the statement,
	// the names a whole-row reference may take (namesWholeRow).
	wholeRowNames map[string]bool
	// rowTypes are the row types of the tables whose whole rows the
	// statement reads (record.go), one per table.
	rowTypes map[uint64]*sqltypes.CompositeType
	snap     *catalog.Snapshot
	stmt     *parser.Statement
	// createNotices are the NOTICEs of the CREATE TABLE being bound
	// (inherit.go).
	createNotices []*pgerr.Error
	// tempCalls are the OIDs of the routines of pg_temp the statement
	// may call (userOverloads).
	tempCalls []uint32
	// level is the SELECT whose select list, HAVING or ORDER BY is being
	// bound (window functions attach to it), nil elsewhere.
	level *selectLevel
	// srf is where a set-returning function call may go (srf.go).
	srf srfPlace
	// clause names the clause being bound as PostgreSQL's
	// ParseExprKindName does ("WHERE", "JOIN/ON", "LIMIT", ...), for the
	// errors about what it may not hold; "" in a select list.
	clause string
	// nesting counts the queries being bound around the current point (1
	// in a statement's own query).
	nesting int
	// writes are the data-modifying WITH queries bound (writecte.go);
	// baseCTEs the WITH queries a write statement's tables may name.
	writes    []*ir.CTE
	baseCTEs  *cteEnv
	boundWith map[*ast.WithClause]bool
	// viewWrite is the updatable view being written through (viewwrite.go).
	viewWrite    *viewWrite
	nextCTE      int
	nextSubquery int
	viewDepth    int
	// deps are the stored relations the statement reads.
	deps []string
	// readsTemp: one of deps is the session's temporary relation.
	readsTemp bool
	// perms are the relation references bound so far, with what each
	// needs (permissions.go); relPerms links the relation bindTableName
	// returned to its entry, and checkAs is the owner of the view being
	// bound ("" outside views: the session's user).
	perms    []*ir.RelPermission
	relPerms map[ir.Rel]*ir.RelPermission
	checkAs  string
	// params holds the type of each $n: the client's declared type, or
	// the type inferred from the parameter's context, or Unknown.
	params   []sqltypes.Type
	declared []bool
	// loc is the session's TimeZone, in which constants convert to and
	// from timestamptz when they are folded (as PostgreSQL converts a
	// literal when it parses the statement).
	loc *time.Location
	// style is the session's DateStyle field order (with loc), in which
	// text constants convert to dates and timestamps when they are folded.
	style sqltypes.Style
	// insertSelect and insertTypes are INSERT ... SELECT's query and the
	// types of the columns its outputs go to (see insertTarget).
	insertSelect ast.Node
	insertTypes  []sqltypes.Type
	// multiAssignQuery is the sub-SELECT of the multiple-column UPDATE
	// assignment being bound (bindMultiAssign), where its columns' errors
	// point.
	multiAssignQuery ast.ResultSetNode
	// routine is the routine whose body is being bound (routines.go);
	// routines are the user-defined routines the statement calls, and
	// inlining the functions whose bodies are being inlined.
	routine  *routineScope
	routines []*catalog.Function
	// lastRoutine is the routine noted last: the one a call just bound
	// resolved to (a function in FROM names its column after its OUT
	// parameter).
	lastRoutine *catalog.Function
	// stars records the stars of a view's query as CREATE VIEW binds it,
	// or replays a stored view's (viewstar.go); nil elsewhere.
	stars *starLog
	// outNamed is the table function whose one column its function's
	// OUT parameter named (tablefunc.go): a FROM alias does not rename it.
	outNamed *ir.TableFunc
	// storeFunctions: the statement calls a built-in function that keeps
	// stored state (builtins.Overload.Stores: large objects).
	storeFunctions bool
	inlining       map[uint32]bool
}

// castStyle is the session's settings constants are converted in.
func (b *Binder) castStyle() sqltypes.Style {
	st := b.style
	st.Location = b.loc
	return st
}

// insertTarget returns the type of the column the i-th output of SELECT n
// is inserted into, when n is the query of an INSERT ... SELECT.
func (b *Binder) insertTarget(n ast.Node, i int) (sqltypes.Type, bool) {
	if n == nil || n != b.insertSelect || i >= len(b.insertTypes) {
		return sqltypes.Type{}, false
	}
	return b.insertTypes[i], true
}

// Bind binds stmt against snap. paramTypes are the types the client declared
// for $1..$n (Unknown where open); the returned slice has the resolved type
// of every parameter (text where nothing constrained it).
func Bind(snap *catalog.Snapshot, stmt *parser.Statement, paramTypes []sqltypes.Type) (ir.Statement, []sqltypes.Type, error) {
	return BindIn(snap, stmt, paramTypes, nil)
}

// BindIn is Bind in a session whose TimeZone is loc (nil: UTC).
func BindIn(snap *catalog.Snapshot, stmt *parser.Statement, paramTypes []sqltypes.Type, loc *time.Location) (ir.Statement, []sqltypes.Type, error) {
	return BindStyled(snap, stmt, paramTypes, sqltypes.Style{Location: loc})
}

// BindStyled is Bind in a session whose settings are st: TimeZone
// (st.Location) and the DateStyle field order text constants are read in.
func BindStyled(snap *catalog.Snapshot, stmt *parser.Statement, paramTypes []sqltypes.Type, style sqltypes.Style) (ir.Statement, []sqltypes.Type, error) {
	return bindStyled(snap, stmt, paramTypes, style, nil)
}

// bindStyled is BindStyled, collecting notes for the deparser when notes
// is set.
func bindStyled(snap *catalog.Snapshot, stmt *parser.Statement, paramTypes []sqltypes.Type, style sqltypes.Style, notes *ir.QueryNotes) (ir.Statement, []sqltypes.Type, error) {
	return bindStyledStars(snap, stmt, paramTypes, style, notes, nil)
}

// bindStyledStars is bindStyled for a stored view's query, whose stars
// expand as stars recorded (viewstar.go).
func bindStyledStars(snap *catalog.Snapshot, stmt *parser.Statement, paramTypes []sqltypes.Type, style sqltypes.Style, notes *ir.QueryNotes, stars []catalog.ViewStar) (ir.Statement, []sqltypes.Type, error) {
	loc := style.Location
	restoreNames, err := qualifySpecial(snap, stmt)
	defer restoreNames()
	if err != nil {
		return nil, nil, err
	}
	if stmt.Role != nil {
		st, err := bindRole(snap, stmt.Role)
		return st, nil, err
	}
	if stmt.Sequence != nil {
		st, err := bindSequence(snap, stmt.Sequence)
		return st, nil, err
	}
	if stmt.Alter != nil {
		st, err := bindAlter(snap, stmt)
		return st, nil, err
	}
	if stmt.Truncate != nil {
		st, err := bindTruncate(snap, stmt.Truncate)
		return st, nil, err
	}
	if stmt.Reindex != nil {
		st, err := bindReindex(snap, stmt.Reindex)
		return st, nil, err
	}
	if stmt.Owner != nil {
		st, err := bindOwner(snap, stmt.Owner)
		return st, nil, err
	}
	if stmt.Lock != nil {
		st, err := bindLock(snap, stmt.Lock)
		return st, nil, err
	}
	if stmt.Analyze != nil {
		st, err := bindAnalyze(snap, stmt.Analyze)
		return st, nil, err
	}
	if stmt.Comment != nil {
		st, err := bindComment(snap, stmt.Comment)
		return st, nil, err
	}
	if stmt.Type != nil {
		st, err := bindTypeChange(snap, stmt.Type, loc, style)
		return st, nil, err
	}
	if stmt.Schema != nil {
		st, err := bindSchema(stmt.Schema)
		return st, nil, err
	}
	if stmt.Database != nil {
		return &ir.Database{Stmt: stmt.Database}, nil, nil
	}
	if stmt.Extension != nil {
		st, err := bindExtension(stmt.Extension)
		return st, nil, err
	}
	if stmt.Trigger != nil {
		st, err := bindTrigger(snap, stmt.Trigger)
		return st, nil, err
	}
	if rs := stmt.Routine; rs != nil && rs.Action == parser.RoutineCall && rs.Operator == nil && rs.Cast == nil {
		// CALL's arguments may be parameters ($n), typed as a query's.
		n := max(rs.Call.NumParams, len(paramTypes))
		if k := untypedParam(rs.Call, paramTypes); n > parser.MaxBindParams && k > 0 {
			return nil, nil, pgerr.New(pgerr.IndeterminateDatatype, "could not determine data type of parameter $%d", k)
		}
		b := &Binder{snap: snap, stmt: rs.Call, loc: loc, style: style, notes: notes}
		b.initParams(n, paramTypes)
		st, err := b.bindCall(rs)
		if err != nil {
			return nil, nil, err
		}
		return st, b.finishParams(), nil
	}
	if stmt.Routine != nil {
		st, err := bindRoutineStatement(snap, stmt.Routine, style)
		return st, nil, err
	}
	n := stmt.NumParams
	if len(paramTypes) > n {
		n = len(paramTypes)
	}
	if n > parser.MaxBindParams {
		// Past what Parse can declare, only the text types a parameter:
		// PostgreSQL refuses one it leaves untyped, and checking that
		// first bounds what a lone $268435455 allocates.
		if k := untypedParam(stmt, paramTypes); k > 0 {
			return nil, nil, pgerr.New(pgerr.IndeterminateDatatype, "could not determine data type of parameter $%d", k)
		}
	}
	b := &Binder{snap: snap, stmt: stmt, loc: loc, style: style, notes: notes}
	if stars != nil {
		b.stars = &starLog{stars: stars}
	}
	b.initParams(n, paramTypes)
	var st ir.Statement
	// UPDATE ... FROM keeps its FROM list apart from the AST (parser's
	// Statement.From): its names are qualified too.
	var more []ast.Node
	if stmt.From != nil {
		more = append(more, stmt.From)
	}
	more = append(more, mergeNodes(stmt)...)
	restore, err := qualifyNames(snap, stmt.AST, stmt.Temp, stmt, more...)
	defer restore()
	if err != nil {
		return nil, nil, err
	}
	switch {
	case stmt.CreateAs != nil:
		st, err = b.bindCreateTableAs(stmt.AST)
	case stmt.Refresh != nil:
		st, err = b.bindRefresh(stmt.Refresh)
	default:
		st, err = b.bindStmt(stmt.AST)
	}
	if err != nil {
		return nil, nil, err
	}
	st = withWrites(st, b.writes)
	b.finishPermissions(st)
	return st, b.finishParams(), nil
}

// initParams sizes b's n parameters, typed as paramTypes declares them.
func (b *Binder) initParams(n int, paramTypes []sqltypes.Type) {
	b.params, b.declared = make([]sqltypes.Type, n), make([]bool, n)
	for i, t := range paramTypes {
		if t.ID != sqltypes.Unknown {
			b.params[i] = t
			b.declared[i] = true
		}
	}
}

// finishParams returns b's parameter types, text for those nothing typed
// (as PostgreSQL resolves an unknown parameter).
func (b *Binder) finishParams() []sqltypes.Type {
	for i, t := range b.params {
		if t.ID == sqltypes.Unknown {
			b.params[i] = sqltypes.TypeText
		}
	}
	return b.params
}

func unsupported(format string, args ...any) error {
	return pgerr.New(pgerr.FeatureNotSupported, format, args...)
}

func (b *Binder) bindStmt(node ast.StmtNode) (ir.Statement, error) {
	if b.stmt != nil && b.stmt.Merge.IsStandIn(node) {
		m := b.stmt.Merge
		return b.bindMerge(m) // MERGE's AST is a stand-in (parser/merge.go)
	}
	switch node.(type) {
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		if err := b.bindWriteWith(); err != nil {
			return nil, err
		}
	}
	switch n := node.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		rel, err := b.bindQuery(n, env{})
		if err != nil {
			return nil, err
		}
		q := &ir.Query{Plan: rel}
		if sel, ok := n.(*ast.SelectStmt); ok && sel.LockInfo != nil && sel.LockInfo.LockType != ast.SelectLockNone {
			q.Locking = "FOR UPDATE"
			if t := sel.LockInfo.LockType; t == ast.SelectLockForShare || t == ast.SelectLockForShareNoWait {
				q.Locking = "FOR SHARE"
			}
		}
		return q, nil
	case *ast.CreateViewStmt:
		return b.bindCreateView(n)
	case *ast.InsertStmt:
		return b.finishWrite(b.bindInsert(n))
	case *ast.UpdateStmt:
		return b.finishWrite(b.bindUpdate(n))
	case *ast.DeleteStmt:
		return b.finishWrite(b.bindDelete(n))
	case *ast.CreateTableStmt:
		return b.bindCreateTable(n)
	case *ast.DropTableStmt:
		names, err := b.dropNames(n)
		if err != nil {
			return nil, err
		}
		if n.IsView {
			return &ir.DropView{Names: names, IfExists: n.IfExists, Cascade: b.stmt.Cascade}, nil
		}
		return &ir.DropTable{Names: names, IfExists: n.IfExists, Cascade: b.stmt.Cascade, Matview: b.stmt.Matview}, nil
	case *ast.CreateIndexStmt:
		return b.bindCreateIndex(n)
	case *ast.AlterTableStmt:
		return b.bindAlterConstraint(n)
	case *ast.DropIndexStmt:
		if b.snap.PublicIndexOffPath(n.IndexName) {
			// public's index, which the path does not reach.
			if !n.IfExists {
				return nil, pgerr.New(pgerr.UndefinedObject, "index \"%s\" does not exist", n.IndexName)
			}
			return &ir.DropIndex{Name: catalog.QualifiedKey(catalog.TempTypeSchema, n.IndexName), IfExists: true}, nil
		}
		return &ir.DropIndex{Name: n.IndexName, IfExists: n.IfExists}, nil
	case *ast.ShowStmt:
		return b.bindShow(n)
	case *ast.AdminStmt:
		if n.Tp != ast.AdminCheckTable {
			return nil, unsupported("this ADMIN statement is not supported")
		}
		c := &ir.CheckTable{}
		for _, tn := range n.Tables {
			t, err := b.snap.Table(tableKey(tn))
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
		if o := b.stmt.Explain; o != nil {
			return ExplainOf(inner, o)
		}
		return &ir.Explain{Stmt: inner, Analyze: n.Analyze, Format: "text", Costs: true, Timing: n.Analyze, Summary: n.Analyze}, nil
	case *ast.SetStmt:
		if len(n.Variables) == 1 && n.Variables[0].Name == parser.SetConstraintsName {
			return b.bindSetConstraints(n.Variables[0])
		}
		return b.bindSet(n)
	case *ast.BeginStmt:
		return &ir.TxnOp{Op: ir.TxnBegin, ReadOnly: n.ReadOnly, Isolation: n.Mode, Start: b.stmt.StartTransaction}, nil
	case *ast.CommitStmt:
		return &ir.TxnOp{Op: ir.TxnCommit, Chain: n.CompletionType == ast.CompletionTypeChain}, nil
	case *ast.RollbackStmt:
		if n.SavepointName != "" {
			return &ir.TxnOp{Op: ir.TxnRollbackTo, Savepoint: n.SavepointName}, nil
		}
		return &ir.TxnOp{Op: ir.TxnRollback, Chain: n.CompletionType == ast.CompletionTypeChain}, nil
	case *ast.SavepointStmt:
		return &ir.TxnOp{Op: ir.TxnSavepoint, Savepoint: n.Name}, nil
	case *ast.ReleaseSavepointStmt:
		return &ir.TxnOp{Op: ir.TxnRelease, Savepoint: n.Name}, nil
	}
	return nil, unsupported("%s is not supported", b.stmtName())
}

// stmtName names a statement for an error message the way its SQL spells
// it (ALTER TABLE, CREATE VIEW), never by its Go type: the first words of
// the statement's own text, up to the first name or parenthesis.
func (b *Binder) stmtName() string {
	var words []string
	for _, w := range strings.Fields(b.stmt.Text) {
		u := strings.ToUpper(w)
		if len(words) > 0 && !statementWords[u] || len(words) == 3 {
			break
		}
		words = append(words, u)
	}
	if len(words) == 0 {
		return "this statement"
	}
	return strings.Join(words, " ")
}

// statementWords are the keywords that make up statement names.
var statementWords = map[string]bool{
	"TABLE": true, "INDEX": true, "VIEW": true, "SEQUENCE": true, "ROLE": true, "USER": true, "DATABASE": true,
	"SCHEMA": true, "FUNCTION": true, "TRIGGER": true, "TYPE": true, "EXTENSION": true, "MATERIALIZED": true,
	"UNIQUE": true, "OR": true, "REPLACE": true, "TEMP": true, "TEMPORARY": true, "UNLOGGED": true, "ALL": true,
	"PROCEDURE": true, "RULE": true, "POLICY": true, "STATISTICS": true, "TABLESPACE": true, "DOMAIN": true,
}

// bindHints keeps the index hints (USE_INDEX, FORCE_INDEX, IGNORE_INDEX)
// and the join hints (INL_JOIN, HASH_JOIN, MERGE_JOIN, LEADING); the
// optimizer reports the ones it cannot honour. Other TiDB hints mean
// nothing to zproxy and are reported as ignored.
func (b *Binder) bindHints(hs []*ast.TableOptimizerHint) []ir.Hint {
	var out []ir.Hint
	for _, h := range hs {
		name := h.HintName.L
		switch name {
		case "use_index", "ignore_index", "force_index":
			hint := ir.Hint{Name: "use_index", Use: name != "ignore_index"}
			if !hint.Use {
				hint.Name = "ignore_index"
			}
			if len(h.Tables) > 0 {
				hint.Table = h.Tables[0].TableName.O
			}
			for _, ix := range h.Indexes {
				hint.Index = append(hint.Index, ix.O)
			}
			out = append(out, hint)
		case "inl_join", "hash_join", "merge_join", "leading":
			hint := ir.Hint{Name: name}
			for _, t := range h.Tables {
				hint.Tables = append(hint.Tables, t.TableName.O)
			}
			out = append(out, hint)
		}
	}
	return out
}

// bindBool binds a condition and checks that it is boolean.
func (b *Binder) bindBool(sc *scope, node ast.ExprNode, clause string) (ir.Expr, error) {
	defer b.srfDenied(clause)()
	e, err := b.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	return b.coerceToBool(e, node, clause)
}

// finishUnknown gives an untyped literal its default type, text.
func (b *Binder) finishUnknown(e ir.Expr) ir.Expr {
	if c, ok := e.(*ir.Const); ok && c.Typ.ID == sqltypes.Unknown && (c.V.K == sqltypes.KindText || c.V.IsNull()) {
		// An untyped NULL is resolved as an untyped string is: PostgreSQL
		// sends SELECT NULL's column as text, and a set operation's
		// branch that sorts or groups by it has a text column.
		return &ir.Const{V: c.V, Typ: sqltypes.TypeText}
	}
	if p, ok := e.(*ir.Param); ok && p.Typ.ID == sqltypes.Unknown {
		b.inferParam(p, sqltypes.TypeText)
		return &ir.Param{N: p.N, Typ: b.params[p.N-1]}
	}
	return e
}

// inferParam sets the type of a parameter that nothing constrained yet.
func (b *Binder) inferParam(e ir.Expr, t sqltypes.Type) {
	p, ok := e.(*ir.Param)
	if !ok || p.N < 1 || p.N > len(b.params) || b.params[p.N-1].ID != sqltypes.Unknown {
		return
	}
	b.params[p.N-1] = t
	p.Typ = t
}

// bindAssign binds a value assigned to a column: untyped literals and
// parameters take the column's type, other values are cast to it.
func (b *Binder) bindAssign(sc *scope, node ast.ExprNode, col catalog.Column) (ir.Expr, error) {
	e, err := b.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	b.inferParam(e, col.Type)
	e, err = b.coerceToColumn(e, col.Name, col.Type, node)
	if pe, ok := err.(*pgerr.Error); ok && pe.Position == 0 && isLiteral(node) && readsInput(pe.Code) {
		// A literal that does not read as the column's type: PostgreSQL
		// points at the literal.
		return nil, pe.WithPosition(b.stmt.Position(node.OriginTextPosition()))
	}
	return e, err
}

// atLiteral points err, when it has no position yet, at the untyped
// literal c.
func (b *Binder) atLiteral(err error, c *ir.Const) {
	if pe, ok := err.(*pgerr.Error); ok && pe.Position == 0 && c.At > 0 && b.stmt != nil {
		pe.WithPosition(b.stmt.Position(c.At - 1))
	}
}

// coerceTo converts e to type t: constants are converted now (so a bad
// literal fails at bind time with 22P02, as in PostgreSQL), other
// expressions get a Cast when their type differs.
func (b *Binder) coerceTo(e ir.Expr, t sqltypes.Type, assignment bool) (ir.Expr, error) {
	return b.coerce(e, t, assignment, "")
}

// coerceToColumn is coerceTo in an assignment to the table column named
// col (INSERT, UPDATE, ON CONFLICT DO UPDATE): a type that does not
// convert is PostgreSQL's 42804 naming the column, at the expression
// (node, when there is one).
func (b *Binder) coerceToColumn(e ir.Expr, col string, t sqltypes.Type, node ast.ExprNode) (ir.Expr, error) {
	x, err := b.coerce(e, t, true, col)
	if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.DatatypeMismatch && pe.Position == 0 && node != nil && b.stmt != nil {
		pe.WithPosition(b.exprPosition(node))
	}
	return x, err
}

// assignMismatch is 42804 for a value of type from assigned to type to,
// in a column named col when col is not "".
func assignMismatch(col string, to, from sqltypes.Type) *pgerr.Error {
	var err *pgerr.Error
	if col != "" {
		err = pgerr.New(pgerr.DatatypeMismatch, "column %q is of type %s but expression is of type %s", col, to, from)
	} else {
		err = pgerr.New(pgerr.DatatypeMismatch, "column is of type %s but expression is of type %s", to, from)
	}
	return err.WithHint("You will need to rewrite or cast the expression.")
}

func (b *Binder) coerce(e ir.Expr, t sqltypes.Type, assignment bool, col string) (ir.Expr, error) {
	et := e.Type()
	if et == t {
		return e, nil
	}
	context := byte('i')
	if assignment {
		context = 'a'
	}
	if x, ok, err := b.userCast(e, t, context); ok {
		return x, err
	}
	if c, ok := e.(*ir.Const); ok && isACLItemType(t) && c.Typ.ID == sqltypes.Unknown {
		return b.aclItemCast(e, t.StripDomain())
	}
	if c, ok := e.(*ir.Const); ok && t.IsReg() && c.Typ.ID == sqltypes.Unknown {
		// An untyped literal given for a reg* parameter is a name read in
		// the catalog, as PostgreSQL's regclassin reads it
		// (pg_relation_size('t')).
		x, err := b.bindRegCast(e, t)
		b.atLiteral(err, c) // at the name that finds nothing
		return x, err
	}
	if t.IsReg() && et.ID != t.ID && (et.IsTextual() || et.IsOIDLike() || et.Kind() == sqltypes.KindInt) {
		// pg_cast's casts to a reg* type (text and varchar to regclass
		// implicitly, nextval('s'::text); the integers and oid to any):
		// a name is looked up when the statement runs.
		if !builtins.ImplicitCast(et, t) {
			if assignment {
				return nil, assignMismatch(col, t, et)
			}
			return nil, mismatch(et, t)
		}
		return b.regCast(e, t, !et.IsTextual())
	}
	if c, ok := e.(*ir.Const); ok && !ir.StyleDependentCast(c.Typ, t) {
		switch {
		case assignment && !castAllowedAssignment(et, t):
			return nil, assignMismatch(col, t, et)
		case !assignment && !castAllowedImplicitly(et, t):
			return nil, mismatch(et, t)
		}
		v, err := ir.CastValueStyled(c.V, c.Typ, t, false, b.castStyle())
		if err != nil && t.Domain != nil && domainViolation(err) {
			// Raised when the value is computed (see bindExprNode's
			// casts).
			return &ir.Cast{E: e, To: t}, nil
		}
		if err != nil {
			b.atLiteral(err, c) // at the literal that does not read
			return nil, err
		}
		folded := &ir.Const{V: v, Typ: t}
		if et.ID != sqltypes.Unknown {
			folded.From = &ir.Cast{E: c, To: t}
		}
		return folded, nil
	}
	if et.ID == sqltypes.Unknown {
		return &ir.Cast{E: e, To: t}, nil
	}
	if assignment {
		if !castAllowedAssignment(et, t) {
			return nil, assignMismatch(col, t, et)
		}
		return &ir.Cast{E: e, To: t}, nil
	}
	if !castAllowedImplicitly(et, t) {
		return nil, mismatch(et, t)
	}
	return &ir.Cast{E: e, To: t}, nil
}

func mismatch(a, b sqltypes.Type) error {
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s = %s", a.UnmodifiedName(), b.UnmodifiedName()).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// castAllowedImplicitly follows PostgreSQL's implicit casts among the
// supported types: numeric widening, text family, and date/timestamp.
func castAllowedImplicitly(from, to sqltypes.Type) bool {
	if from.IsRange() || to.IsRange() || from.IsMultirange() || to.IsMultirange() {
		// No casts between range types (nor to or from others).
		return from.ID == sqltypes.Unknown || from.ID == to.ID
	}
	if from.ID == sqltypes.Unknown {
		return true
	}
	if sqltypes.IsGeo(from.ID) || sqltypes.IsGeo(to.ID) {
		// The geometric types share a kind but convert to one another
		// only explicitly or by assignment (pg_cast).
		return from.ID == to.ID
	}
	if from.Kind() == sqltypes.KindInet && to.Kind() == sqltypes.KindInet {
		// inet and cidr share a kind, but only cidr converts to inet
		// implicitly (inet to cidr is an assignment cast).
		return builtins.ImplicitCast(from, to)
	}
	if from.Kind() == to.Kind() {
		return true
	}
	if from.ID == sqltypes.Citext || to.ID == sqltypes.Citext || from.ID == sqltypes.Hstore || to.ID == sqltypes.Hstore {
		// citext converts implicitly to text and varchar only (its
		// extension's casts); nothing converts implicitly to citext, and
		// hstore has no implicit casts.
		return builtins.ImplicitCast(from, to)
	}
	if from.IsNumeric() && to.IsNumeric() || from.IsTextual() && to.IsTextual() {
		return true
	}
	tk, fk := to.Kind(), from.Kind()
	dateish := func(k sqltypes.Kind) bool {
		return k == sqltypes.KindDate || k == sqltypes.KindTimestamp || k == sqltypes.KindTimestampTZ
	}
	return dateish(tk) && dateish(fk) || builtins.ImplicitCast(from, to)
}

func castAllowedAssignment(from, to sqltypes.Type) bool {
	if castAllowedImplicitly(from, to) {
		return true
	}
	// Anything can be assigned to a text (or citext) column through its
	// output form: PostgreSQL's I/O conversion casts to a string type are
	// assignment casts; so is inet's to cidr.
	if to.ID == sqltypes.Money {
		// pg_cast: integer, bigint and numeric to money are assignment casts.
		return from.ID == sqltypes.Int4 || from.ID == sqltypes.Int8 || from.ID == sqltypes.Numeric
	}
	if sqltypes.IsGeo(to.ID) && sqltypes.IsGeo(from.ID) {
		// pg_cast's assignment casts among the geometric types.
		return from.ID == sqltypes.GeoPoint && to.ID == sqltypes.GeoBox ||
			from.ID == sqltypes.GeoPath && to.ID == sqltypes.GeoPolygon ||
			from.ID == sqltypes.GeoBox && to.ID == sqltypes.GeoPolygon ||
			from.ID == sqltypes.GeoPolygon && to.ID == sqltypes.GeoPath
	}
	return to.Kind() == sqltypes.KindText || to.ID == sqltypes.Citext || from.ID == sqltypes.Inet && to.ID == sqltypes.Cidr
}

// writable refuses writes to the catalog's views.
func writable(t *catalog.Table) error {
	if t.Virtual != nil {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot change view %q", t.Name).
			WithDetail("The information_schema and pg_catalog views are computed from the schema.")
	}
	return nil
}

func (b *Binder) bindShow(n *ast.ShowStmt) (ir.Statement, error) {
	switch n.Tp {
	case ast.ShowIndex:
		t, err := b.snap.Table(tableKey(n.Table))
		if err != nil {
			return nil, err
		}
		return &ir.ShowIndexes{Table: t}, nil
	case ast.ShowVariables:
		if n.Pattern != nil {
			if v, ok := n.Pattern.Pattern.(*driver.ValueExpr); ok {
				// The parser escapes the name's _ and % to make an exact pattern.
				name := strings.NewReplacer(`\_`, "_", `\%`, "%", `\\`, `\`).Replace(v.GetString())
				return &ir.ShowVar{Name: strings.ToLower(name)}, nil
			}
		}
		return &ir.ShowVar{Name: "all"}, nil
	}
	return nil, unsupported("this SHOW statement is not supported")
}

func (b *Binder) bindSet(n *ast.SetStmt) (ir.Statement, error) {
	if len(n.Variables) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "SET needs a parameter")
	}
	var first *ir.SetVar
	for _, v := range n.Variables {
		sv, err := b.bindAssignment(v)
		if err != nil {
			return nil, err
		}
		sv.Local = b.stmt.SetLocal
		if first == nil {
			first = sv
		} else {
			first.More = append(first.More, sv)
		}
	}
	return first, nil
}

func (b *Binder) bindAssignment(v *ast.VariableAssignment) (*ir.SetVar, error) {
	name := strings.ToLower(v.Name)
	if v.Value == nil {
		return &ir.SetVar{Name: name, Reset: true}, nil
	}
	if _, ok := v.Value.(*ast.DefaultExpr); ok {
		return &ir.SetVar{Name: name, Reset: true, Default: b.stmt.SetToDefault}, nil
	}
	switch x := v.Value.(type) {
	case *driver.ValueExpr:
		return &ir.SetVar{Name: name, Value: datumText(x)}, nil
	case *ast.ColumnNameExpr:
		return &ir.SetVar{Name: name, Value: x.Name.Name.O}, nil
	case *ast.UnaryOperationExpr:
		if val, ok := x.V.(*driver.ValueExpr); ok && x.Op == opcode.Minus {
			return &ir.SetVar{Name: name, Value: "-" + datumText(val)}, nil
		}
	}
	e, err := b.bindExpr(nil, v.Value)
	if err != nil {
		return nil, err
	}
	if !ir.IsConstant(e) {
		return nil, pgerr.New(pgerr.SyntaxError, "SET requires a constant value")
	}
	val, err := e.Eval(&ir.EvalContext{}, nil)
	if err != nil {
		return nil, err
	}
	return &ir.SetVar{Name: name, Value: sqltypes.FormatText(val)}, nil
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

// ExplainOf is EXPLAIN with options o of the bound statement inner (also
// EXPLAIN EXECUTE's, whose statement is a prepared one's).
func ExplainOf(inner ir.Statement, o *parser.ExplainOptions) (*ir.Explain, error) {
	if o.Err != nil {
		return nil, o.Err
	}
	return &ir.Explain{Stmt: inner, Analyze: o.Analyze, Format: o.Format, Verbose: o.Verbose, Costs: o.Costs, Buffers: o.Buffers,
		Timing: o.Timing, Summary: o.Summary, Settings: o.Settings, WAL: o.WAL}, nil
}

// untypedParam returns the lowest $k that neither a declared type nor a
// reference in the text gives a type, or 0 when there is none. Declared
// types and distinct references together number at most m =
// len(paramTypes) + len(stmt.ParamOrder), so when the statement numbers
// more parameters than that the lowest gap is at most m+1: the search
// never looks past the statement's own size.
func untypedParam(stmt *parser.Statement, paramTypes []sqltypes.Type) int {
	limit := min(stmt.NumParams, len(paramTypes)+len(stmt.ParamOrder)+1)
	typed := make([]bool, limit+1)
	for i, t := range paramTypes {
		if i < limit && t.ID != sqltypes.Unknown {
			typed[i+1] = true
		}
	}
	for _, k := range stmt.ParamOrder {
		if k <= limit {
			typed[k] = true
		}
	}
	for k := 1; k <= limit; k++ {
		if !typed[k] {
			return k
		}
	}
	return 0
}
