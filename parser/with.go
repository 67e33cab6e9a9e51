package parser

import (
	"strings"

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

// statementWith lifts the WITH clause of a WITH ... INSERT|UPDATE|DELETE|MERGE
// statement starting at head and returns where the statement proper
// starts (head itself for other statements).
func (r *rewriter) statementWith(head int) (int, error) {
	k := r.withEnd(head)
	if k < 0 || !r.peek(k, "insert") && !r.peek(k, "update") && !r.peek(k, "delete") && !r.peek(k, "merge") {
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

// SearchCycle is a WITH query's SEARCH and CYCLE clauses (PostgreSQL
// 14's), which TiDB's grammar lacks: the front end takes them out of the
// text and the binder adds the columns they define
// (planner/searchcycle.go).
type SearchCycle struct {
	// CTE is the WITH query's name, Pos the clause's 1-based position.
	CTE string
	Pos int
	// Search: SEARCH {DEPTH | BREADTH} FIRST BY SearchBy SET SearchSet.
	Search    bool
	Breadth   bool
	SearchBy  []string
	SearchSet string
	// Cycle: CYCLE CycleCols SET CycleSet [TO Mark DEFAULT Default]
	// USING CyclePath; Mark and Default are the constants' tokens as
	// written (nil: TRUE and FALSE).
	Cycle         bool
	CycleCols     []string
	CycleSet      string
	Mark, Default *SearchCycleValue
	CyclePath     string
	CyclePos      int
}

// SearchCycleValue is a cycle mark constant: a string, a number or a
// boolean as written.
type SearchCycleValue struct {
	Text   string
	String bool // a string constant (else a number or TRUE/FALSE)
}

// searchCycle takes out the SEARCH and CYCLE clauses that follow a WITH
// query's closing parenthesis, wherever the WITH is, into
// Statement.SearchCycles.
func (r *rewriter) searchCycle(head int) error {
	for k := head + 1; k < len(r.toks); k++ {
		if !r.toks[k-1].is(")") {
			continue
		}
		isSearch := r.peek(k, "search") && (r.peek(k+1, "depth") || r.peek(k+1, "breadth")) && r.peek(k+2, "first") && r.peek(k+3, "by")
		isCycle := false
		if r.peek(k, "cycle") && k+1 < len(r.toks) && (r.toks[k+1].kind == tkIdent || r.toks[k+1].kind == tkQIdent) {
			n := k + 2
			for r.peek(n, ",") && n+1 < len(r.toks) {
				n += 2
			}
			isCycle = r.peek(n, "set")
		}
		if !isSearch && !isCycle {
			continue
		}
		at, ok := r.cteNameBefore(k - 1)
		if !ok {
			return r.syntaxErrorAt(k)
		}
		sc := SearchCycle{CTE: r.toks[at].val, Pos: r.pos(k)}
		from := k
		var err error
		if isSearch {
			sc.Search, sc.Breadth = true, r.peek(k+1, "breadth")
			if sc.SearchBy, k, err = r.identList(k + 4); err != nil {
				return err
			}
			if !r.peek(k, "set") {
				return r.syntaxErrorAt(k)
			}
			if sc.SearchSet, err = r.name(k + 1); err != nil {
				return err
			}
			k += 2
		}
		if r.peek(k, "cycle") {
			sc.Cycle, sc.CyclePos = true, r.pos(k)
			if sc.CycleCols, k, err = r.identList(k + 1); err != nil {
				return err
			}
			if !r.peek(k, "set") {
				return r.syntaxErrorAt(k)
			}
			if sc.CycleSet, err = r.name(k + 1); err != nil {
				return err
			}
			k += 2
			if r.peek(k, "to") {
				if sc.Mark, err = r.cycleValue(k + 1); err != nil {
					return err
				}
				if !r.peek(k+2, "default") {
					return r.syntaxErrorAt(k + 2)
				}
				if sc.Default, err = r.cycleValue(k + 3); err != nil {
					return err
				}
				k += 4
			}
			if !r.peek(k, "using") {
				return r.syntaxErrorAt(k)
			}
			if sc.CyclePath, err = r.name(k + 1); err != nil {
				return err
			}
			k += 2
		}
		r.st.SearchCycles = append(r.st.SearchCycles, sc)
		// The query's name carries the clause's number to the binder
		// (cteMaterialized encodes it when it respells the name itself).
		if r.cteSearchCycle == nil {
			r.cteSearchCycle = map[int]int{}
		}
		r.cteSearchCycle[at] = len(r.st.SearchCycles)
		if !r.ed[at].hasRep {
			r.replace(at, "`"+strings.ReplaceAll(encodeAlias(r.toks[at].val, AliasFlags{SearchCycle: len(r.st.SearchCycles)}, nil), "`", "``")+"`")
		}
		r.drop(from, k)
		k--
	}
	return nil
}

// cteNameBefore finds the name token of the WITH query whose body closes
// at the parenthesis close: name [(columns)] AS [[NOT] MATERIALIZED]
// (body).
func (r *rewriter) cteNameBefore(close int) (int, bool) {
	open := -1
	depth := 0
	for j := close; j >= 0; j-- {
		switch {
		case r.toks[j].is(")"):
			depth++
		case r.toks[j].is("("):
			depth--
		}
		if depth == 0 {
			open = j
			break
		}
	}
	j := open - 1
	if r.peek(j, "materialized") {
		j--
	}
	if r.peek(j, "not") {
		j--
	}
	if j < 1 || !r.peek(j, "as") {
		return 0, false
	}
	j--
	if r.peek(j, ")") {
		for d := 0; j >= 0; j-- {
			if r.toks[j].is(")") {
				d++
			} else if r.toks[j].is("(") {
				if d--; d == 0 {
					break
				}
			}
		}
		j--
	}
	if j < 0 || r.toks[j].kind != tkIdent && r.toks[j].kind != tkQIdent || strings.Contains(r.toks[j].val, aliasSep) {
		return 0, false
	}
	return j, true
}

// identList reads name [, name ...] at k and returns where it ends.
func (r *rewriter) identList(k int) ([]string, int, error) {
	var out []string
	for {
		n, err := r.name(k)
		if err != nil {
			return nil, k, err
		}
		out, k = append(out, n), k+1
		if !r.peek(k, ",") {
			return out, k, nil
		}
		k++
	}
}

// cycleValue reads a cycle mark constant at k.
func (r *rewriter) cycleValue(k int) (*SearchCycleValue, error) {
	if k >= len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	switch t := r.toks[k]; {
	case t.kind == tkString:
		return &SearchCycleValue{Text: t.val, String: true}, nil
	case t.kind == tkNumber, t.is("true"), t.is("false"):
		return &SearchCycleValue{Text: t.val}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "a cycle mark value other than a string, number or boolean constant is not supported").WithPosition(r.pos(k))
}
