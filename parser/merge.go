package parser

import (
	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// MERGE (PostgreSQL 15), which TiDB's grammar lacks: the front end reads
// the statement's structure itself, from its tokens, and parses its parts
// apart (subParse) as the pieces of statements TiDB has: the target, the
// source as a FROM item, the join condition and each WHEN clause's
// condition as expressions, an UPDATE action's SET list as UPDATE's, an
// INSERT action's VALUES row as INSERT's. The statement's AST is then a
// stand-in (SELECT 1, wrapped by EXPLAIN), which the binder binds as the
// MERGE that Statement.Merge describes (MergeStatement.StandIn), so that
// no path binding the AST can take it for the SELECT.

// MergeStatement is MERGE INTO target USING source ON condition WHEN ...
type MergeStatement struct {
	// Target is the table written, Alias its alias ("" for none).
	Target *ast.TableName
	Alias  string
	// Source is the USING item, a FROM list of one item (which may be a
	// join).
	Source *ast.Join
	// On is the join condition.
	On ast.ExprNode
	// Whens are the WHEN clauses, in the order written.
	Whens []*MergeWhen
	// StandIn is the statement's AST (EXPLAIN's inner statement): what
	// binds as this MERGE, by identity (IsStandIn), wherever a caller
	// binds the AST.
	StandIn ast.StmtNode
}

// IsStandIn reports whether node is the stand-in of MERGE m.
func (m *MergeStatement) IsStandIn(node ast.Node) bool {
	return m != nil && node != nil && node == ast.Node(m.StandIn)
}

// MergeWhen is one WHEN [NOT] MATCHED [AND condition] THEN action.
type MergeWhen struct {
	Matched bool
	// Cond is the AND condition, nil when there is none.
	Cond ast.ExprNode
	// Action is "update", "delete", "insert" or "nothing".
	Action string
	// Set is an UPDATE action's SET list.
	Set []*ast.Assignment
	// Columns are an INSERT action's column list (nil: every column),
	// ColumnPositions where each is written.
	Columns         []string
	ColumnPositions []int
	// Overriding is INSERT's OVERRIDING "system" | "user" VALUE, or "".
	Overriding string
	// Values is an INSERT action's VALUES row; DefaultValues marks
	// INSERT DEFAULT VALUES.
	Values        []ast.ExprNode
	DefaultValues bool
	// Position is where the clause's WHEN is written; ListPosition where
	// an INSERT's column list (else its VALUES) starts.
	Position, ListPosition int
}

// mergeHead reports whether the statement at head is MERGE INTO (after
// a WITH clause, which statementWith lifts).
func (r *rewriter) mergeHead(head int) bool {
	k := head
	if e := r.withEnd(head); e >= 0 {
		k = e
	}
	return r.peek(k, "merge") && r.peek(k+1, "into")
}

// mergeInWith refuses MERGE as a WITH query's body (token i), as
// PostgreSQL 15 does, at the query's name.
func (r *rewriter) mergeInWith(i int) error {
	k := i - 3 // the name before AS (
	if k >= 0 && r.toks[k].is(")") {
		for k > 0 && !r.toks[k].is("(") {
			k--
		}
		k--
	}
	if k < 0 {
		k = i
	}
	return pgerr.New(pgerr.FeatureNotSupported, "MERGE not supported in WITH query").WithPosition(r.pos(k))
}

// merge reads MERGE at head into Statement.Merge.
func (r *rewriter) merge(head int) error {
	if r.peek(head, "with") && r.peek(head+1, "recursive") {
		return pgerr.New(pgerr.SyntaxError, "WITH RECURSIVE is not supported for MERGE statement")
	}
	head, err := r.statementWith(head)
	if err != nil {
		return err
	}
	m := &MergeStatement{}
	k := head + 2 // after MERGE INTO
	if r.peek(k, "only") && r.isName(k+1) && !r.peek(k+1, "using") && !r.peek(k+1, "as") {
		r.lifted().TargetOnly = true
		k++
	}
	if k >= len(r.toks) || !r.isName(k) {
		return r.syntaxErrorAt(k)
	}
	tn := &ast.TableName{Name: ast.NewCIStr(r.toks[k].val)}
	k++
	if r.peek(k, ".") && r.isName(k+1) {
		tn.Schema, tn.Name = tn.Name, ast.NewCIStr(r.toks[k+1].val)
		k += 2
	}
	m.Target = tn
	if r.peek(k, "as") {
		k++
		if !r.isName(k) {
			return r.syntaxErrorAt(k)
		}
	}
	if r.isName(k) && !r.peek(k, "using") {
		m.Alias = r.toks[k].val
		k++
	}
	if !r.peek(k, "using") {
		return r.syntaxErrorAt(k)
	}
	// The source ends at the ON that is not a join's of its own.
	from := k + 1
	on, pending := -1, 0
	r.atDepth0(from, len(r.toks), func(i int) bool {
		switch {
		case r.toks[i].is("join") && !r.peek(i-1, "cross") && !r.peek(i-1, "natural") && !(r.peek(i-2, "natural") && (r.peek(i-1, "left") || r.peek(i-1, "right") || r.peek(i-1, "full") || r.peek(i-1, "inner"))):
			pending++
		case r.toks[i].is("using") && r.peek(i+1, "(") && pending > 0:
			pending--
		case r.toks[i].is("on"):
			if pending == 0 {
				on = i
				return false
			}
			pending--
		case r.toks[i].is("when"):
			return false
		}
		return true
	})
	if on < 0 {
		end := from
		for end < len(r.toks) && !r.peek(end, "when") {
			end++
		}
		return r.syntaxErrorAt(end)
	}
	if on == from {
		return r.syntaxErrorAt(on)
	}
	src, err := r.subParse("SELECT 1 FROM ", from, on)
	if err != nil {
		return err
	}
	m.Source = src.(*ast.SelectStmt).From.TableRefs
	// The condition ends at the first WHEN outside a CASE.
	whens := r.mergeWhens(on + 1)
	if len(whens) == 0 || whens[0] == on+1 {
		at := len(r.toks)
		if len(whens) > 0 {
			at = whens[0]
		}
		return r.syntaxErrorAt(at)
	}
	if m.On, err = r.subExpr(on+1, whens[0]); err != nil {
		return err
	}
	for n, w := range whens {
		end := len(r.toks)
		if n+1 < len(whens) {
			end = whens[n+1]
		}
		// RETURNING (PostgreSQL 17's) ends the clause: a syntax error
		// after what comes before it, as in PostgreSQL 15.
		stop := end
		r.atDepth0(w, end, func(i int) bool {
			if r.toks[i].is("returning") {
				stop = i
				return false
			}
			return true
		})
		mw, err := r.mergeWhen(w, stop)
		if err != nil {
			return err
		}
		if stop < end {
			return r.syntaxErrorAt(stop)
		}
		m.Whens = append(m.Whens, mw)
	}
	r.lifted().Merge = m
	return nil
}

// isName reports whether token i is an identifier.
func (r *rewriter) isName(i int) bool {
	return i < len(r.toks) && (r.toks[i].kind == tkIdent || r.toks[i].kind == tkQIdent)
}

// mergeWhens returns the tokens from from on that start a WHEN clause:
// the WHENs outside parentheses and CASE expressions.
func (r *rewriter) mergeWhens(from int) []int {
	var out []int
	cases := 0
	r.atDepth0(from, len(r.toks), func(i int) bool {
		switch t := r.toks[i]; {
		case t.is("case"):
			cases++
		case t.is("end") && cases > 0:
			cases--
		case t.is("when") && cases == 0:
			out = append(out, i)
		}
		return true
	})
	return out
}

// mergeWhen reads the WHEN clause in tokens [at, end).
func (r *rewriter) mergeWhen(at, end int) (*MergeWhen, error) {
	w := &MergeWhen{Position: r.pos(at)}
	k := at + 1
	if r.peek(k, "not") {
		k++
	} else {
		w.Matched = true
	}
	if !r.peek(k, "matched") {
		return nil, r.syntaxErrorAt(k)
	}
	k++
	if r.peek(k, "and") {
		then := -1
		cases := 0
		r.atDepth0(k+1, end, func(i int) bool {
			switch t := r.toks[i]; {
			case t.is("case"):
				cases++
			case t.is("end") && cases > 0:
				cases--
			case t.is("then") && cases == 0:
				then = i
				return false
			}
			return true
		})
		if then < 0 {
			return nil, r.syntaxErrorAt(end)
		}
		if then == k+1 {
			return nil, r.syntaxErrorAt(then)
		}
		c, err := r.subExpr(k+1, then)
		if err != nil {
			return nil, err
		}
		w.Cond, k = c, then
	}
	if !r.peek(k, "then") {
		return nil, r.syntaxErrorAt(k)
	}
	k++
	switch {
	case r.peek(k, "do"):
		if !r.peek(k+1, "nothing") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		w.Action, k = "nothing", k+2
	case r.peek(k, "delete") && w.Matched:
		w.Action, k = "delete", k+1
	case r.peek(k, "update") && w.Matched:
		w.Action = "update"
		if !r.peek(k+1, "set") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		if k+2 >= end {
			return nil, r.syntaxErrorAt(end)
		}
		// From the SET on, so that UPDATE's respellings of the list
		// (multiassign.go) apply.
		stmt, err := r.subParse("UPDATE zp_merge_target ", k+1, end)
		if err != nil {
			return nil, err
		}
		u, ok := stmt.(*ast.UpdateStmt)
		if !ok || u.Where != nil || u.Order != nil || u.Limit != nil {
			// UPDATE's clauses after SET are not MERGE's.
			at := k + 2
			r.atDepth0(k+2, end, func(i int) bool {
				if r.toks[i].is("where") || r.toks[i].is("order") || r.toks[i].is("limit") {
					at = i
					return false
				}
				return true
			})
			return nil, r.syntaxErrorAt(at)
		}
		w.Set, k = u.List, end
	case r.peek(k, "insert") && !w.Matched:
		w.Action = "insert"
		var err error
		if k, err = r.mergeInsert(w, k+1, end); err != nil {
			return nil, err
		}
	default:
		return nil, r.syntaxErrorAt(k)
	}
	if k < end {
		return nil, r.syntaxErrorAt(k)
	}
	return w, nil
}

// mergeInsert reads an INSERT action after its INSERT, at k, up to end,
// and returns where it ends.
func (r *rewriter) mergeInsert(w *MergeWhen, k, end int) (int, error) {
	w.ListPosition = r.pos(k)
	if r.peek(k, "(") {
		close := r.matching(k)
		if close < 0 || close >= end {
			return 0, r.syntaxErrorAt(end)
		}
		for i := k + 1; i < close; i++ {
			if !r.isName(i) {
				return 0, r.syntaxErrorAt(i)
			}
			if r.peek(i+1, "[") || r.peek(i+1, ".") {
				return 0, pgerr.New(pgerr.FeatureNotSupported, "assigning to a subscript or field of a column is not supported in MERGE").WithPosition(r.pos(i + 1))
			}
			w.Columns = append(w.Columns, r.toks[i].val)
			w.ColumnPositions = append(w.ColumnPositions, r.pos(i))
			i++
			if i < close && !r.peek(i, ",") {
				return 0, r.syntaxErrorAt(i)
			}
			if i == close-1 {
				return 0, r.syntaxErrorAt(close)
			}
		}
		if len(w.Columns) == 0 {
			return 0, r.syntaxErrorAt(close)
		}
		k = close + 1
	}
	if r.peek(k, "overriding") {
		if !(r.peek(k+1, "system") || r.peek(k+1, "user")) {
			return 0, r.syntaxErrorAt(k + 1)
		}
		if !r.peek(k+2, "value") {
			return 0, r.syntaxErrorAt(k + 2)
		}
		w.Overriding = r.toks[k+1].val
		k += 3
	}
	if w.Columns == nil {
		w.ListPosition = r.pos(k)
	}
	switch {
	case r.peek(k, "default") && r.peek(k+1, "values") && w.Columns == nil:
		w.DefaultValues = true
		return k + 2, nil
	case r.peek(k, "values") && r.peek(k+1, "("):
		close := r.matching(k + 1)
		if close < 0 || close >= end {
			return 0, r.syntaxErrorAt(end)
		}
		if close == k+2 {
			return 0, r.syntaxErrorAt(close)
		}
		stmt, err := r.subParse("INSERT INTO zp_merge_target VALUES ", k+1, close+1)
		if err != nil {
			return 0, err
		}
		ins, ok := stmt.(*ast.InsertStmt)
		if !ok || len(ins.Lists) != 1 {
			return 0, r.syntaxErrorAt(k + 1)
		}
		w.Values = ins.Lists[0]
		return close + 1, nil
	}
	return 0, r.syntaxErrorAt(k)
}

// subExpr parses tokens [from, to) apart as one expression.
func (r *rewriter) subExpr(from, to int) (ast.ExprNode, error) {
	stmt, err := r.subParse("SELECT ", from, to)
	if err != nil {
		return nil, err
	}
	sel, ok := stmt.(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.From != nil || sel.Where != nil || sel.Fields.Fields[0].WildCard != nil || sel.Fields.Fields[0].AsName.O != "" {
		// A comma (or a clause) after the expression.
		for i := from; i < to; i++ {
			if r.toks[i].is(",") {
				return nil, r.syntaxErrorAt(i)
			}
		}
		return nil, r.syntaxErrorAt(from)
	}
	return sel.Fields.Fields[0].Expr, nil
}

// mergeStatement finishes parseOne for MERGE at head: its parts are
// parsed apart, and the AST is the stand-in.
func (r *rewriter) mergeStatement(st *Statement, head int) (Statement, error) {
	if err := r.merge(head); err != nil {
		return *st, err
	}
	p := tidbPool.Get().(*tidb.Parser)
	defer releaseTiDB(p)
	stmts, _, err := p.ParseSQL("SELECT 1")
	if err != nil || len(stmts) != 1 {
		return *st, pgerr.New(pgerr.InternalError, "MERGE's stand-in does not parse")
	}
	st.SQL, st.AST = "SELECT 1", stmts[0]
	st.Merge.StandIn = stmts[0]
	r.numberSubParams(st)
	if st.Explain != nil {
		format := "row"
		if st.Explain.Format != "text" {
			format = st.Explain.Format
		}
		st.AST = &ast.ExplainStmt{Stmt: st.AST, Analyze: st.Explain.Analyze, Format: format}
	}
	return *st, nil
}
