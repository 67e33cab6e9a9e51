package parser

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// WITH clauses TiDB's grammar lacks: one before INSERT, UPDATE or DELETE
// (lifted into Statement.With), and data-modifying WITH queries, whose
// INSERT, UPDATE or DELETE body becomes a statement of its own
// (Statement.WriteCTEs) and leaves SELECT zp_write_cte(i) in its place.

// WriteCTEFunc marks a data-modifying WITH query's body.
const WriteCTEFunc = "zp_write_cte"

// WriteCTEIndex reports which of Statement.WriteCTEs a WITH query's body
// stands for, if it is such a marker.
func WriteCTEIndex(q ast.Node) (int, bool) {
	sel, ok := q.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Fields == nil || len(sel.Fields.Fields) != 1 {
		return 0, false
	}
	call, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || call.FnName.L != WriteCTEFunc || len(call.Args) != 1 {
		return 0, false
	}
	v, ok := call.Args[0].(*driver.ValueExpr)
	if !ok {
		return 0, false
	}
	return int(v.GetInt64()), true
}

// statementWith lifts the WITH clause of a WITH ... INSERT|UPDATE|DELETE
// statement starting at head and returns where the statement proper
// starts (head itself for other statements).
func (r *rewriter) statementWith(head int) (int, error) {
	k := r.withEnd(head)
	if k < 0 || !r.peek(k, "insert") && !r.peek(k, "update") && !r.peek(k, "delete") {
		return head, nil
	}
	stmt, err := r.subParseAround("", " SELECT 1", head, k)
	if err != nil {
		return head, err
	}
	r.lifted().WriteWith = stmt.(*ast.SelectStmt).With
	r.drop(head, k)
	return k, nil
}

// withEnd returns where the statement after the WITH clause at head
// starts, or -1 when head is no WITH or the clause is malformed (TiDB
// reports it).
func (r *rewriter) withEnd(head int) int {
	if !r.peek(head, "with") {
		return -1
	}
	k := head + 1
	if r.peek(k, "recursive") {
		k++
	}
	for {
		if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
			return -1
		}
		k++
		if r.peek(k, "(") {
			if k = r.matching(k); k < 0 {
				return -1
			}
			k++
		}
		if !r.peek(k, "as") {
			return -1
		}
		k++
		if r.peek(k, "not") {
			k++
		}
		if r.peek(k, "materialized") {
			k++
		}
		if !r.peek(k, "(") {
			return -1
		}
		if k = r.matching(k); k < 0 {
			return -1
		}
		k++
		if !r.peek(k, ",") {
			return k
		}
		k++
	}
}

// checkOption finds a view's WITH [CASCADED | LOCAL] CHECK OPTION in the
// query from token from, or returns -1.
func (r *rewriter) checkOption(from int) int {
	at := -1
	r.atDepth0(from, len(r.toks), func(k int) bool {
		n := k + 1
		if r.peek(n, "cascaded") || r.peek(n, "local") {
			n++
		}
		if r.toks[k].is("with") && r.peek(n, "check") && r.peek(n+1, "option") {
			at = k
			return false
		}
		return true
	})
	return at
}

// writeCTE lifts the INSERT, UPDATE or DELETE at i, the body of a WITH
// query (it follows the query's opening parenthesis).
func (r *rewriter) writeCTE(i int) error {
	close := r.matching(i - 1)
	if close < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	st, err := parseOne(r.sql, r.toks[i:close])
	if err != nil {
		return err
	}
	root := r.lifted()
	root.WriteCTEs = append(root.WriteCTEs, &st)
	r.replace(i, "SELECT "+WriteCTEFunc+"("+itoa(len(root.WriteCTEs)-1)+")")
	r.drop(i+1, close)
	return nil
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// searchCycle refuses a WITH query's SEARCH {DEPTH | BREADTH} FIRST BY ...
// SET col and CYCLE col, ... SET col [TO v DEFAULT v] USING col clauses
// (PostgreSQL 14's) with 0A000 rather than a syntax error: the columns
// they add are record and record[] values (ROW(...) and arrays of them),
// which zproxy does not have. They follow a WITH query's closing
// parenthesis, wherever the WITH is.
func (r *rewriter) searchCycle(head int) error {
	for k := head + 1; k < len(r.toks); k++ {
		if !r.toks[k-1].is(")") {
			continue
		}
		clause := ""
		switch {
		case r.peek(k, "search") && (r.peek(k+1, "depth") || r.peek(k+1, "breadth")) && r.peek(k+2, "first") && r.peek(k+3, "by"):
			clause = "SEARCH"
		case r.peek(k, "cycle") && k+1 < len(r.toks) && (r.toks[k+1].kind == tkIdent || r.toks[k+1].kind == tkQIdent):
			// CYCLE a, b SET is_cycle ...: a column list, then SET.
			n := k + 2
			for r.peek(n, ",") && n+1 < len(r.toks) {
				n += 2
			}
			if r.peek(n, "set") {
				clause = "CYCLE"
			}
		}
		if clause != "" {
			return pgerr.New(pgerr.FeatureNotSupported, "the %s clause of a WITH query is not supported", clause).
				WithDetail("Its column holds record values, which zproxy does not have.").
				WithHint("Compute the order or the cycle check in the recursive query itself (a depth counter, an array of the visited keys with = ANY).").
				WithPosition(r.pos(k))
		}
	}
	return nil
}
