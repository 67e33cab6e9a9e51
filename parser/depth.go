package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// MaxExprDepth bounds how deeply a statement's expressions may nest. Every
// layer after the scanner walks expressions recursively (the TiDB AST
// visitors, binding, constant folding, evaluation, EXPLAIN), and a Go stack
// overflow is fatal to the whole process, not just the statement. PostgreSQL
// stops at about 4,000 levels of "1+1+..." with 54001; zproxy allows a little
// more, since its walks are cheaper, and gives the same error past it. Chains
// of AND and OR are exempt: the binder flattens them without recursion, so
// a WHERE clause of 30,000 ORed equalities is fine.
const MaxExprDepth = 10000

// tooComplex is PostgreSQL's error for a statement nested too deeply.
func tooComplex() *pgerr.Error {
	return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
		WithHint("The statement nests expressions more than %d levels deep; simplify it.", MaxExprDepth)
}

// checkDepth estimates, from the tokens alone and before anything builds a
// tree, an upper bound on the depth of the statement's expression trees,
// and refuses statements past MaxExprDepth. Brackets (parentheses, square
// brackets, CASE ... END) nest; within one bracket level a run of
// operators not interrupted by a separator (a comma, AND, OR, a clause
// keyword) can build a left-deep chain as deep as the run is long.
func checkDepth(toks []token) error {
	// base[i] is the depth reached where bracket level i was opened.
	base := make([]int, 1, 16)
	run := 0 // operators since the last separator at the current level
	for i := range toks {
		t := &toks[i]
		switch t.kind {
		case tkPunct:
			switch t.val {
			case "(", "[":
				base = append(base, base[len(base)-1]+run+1)
				run = 0
			case ")", "]":
				if len(base) > 1 {
					base = base[:len(base)-1]
				}
				run = 0
			case ",", ";":
				run = 0
			case "::":
				run++
			}
		case tkOp:
			run++
		case tkIdent:
			switch t.val {
			case "case":
				base = append(base, base[len(base)-1]+run+1)
				run = 0
			case "end":
				if len(base) > 1 {
					base = base[:len(base)-1]
				}
				run = 0
			case "not", "is", "like", "ilike", "between", "in", "similar", "collate", "at":
				run++
			default:
				if pgReserved[t.val] {
					run = 0 // AND, OR, WHERE, SELECT, WHEN, THEN...: a new subtree
				}
			}
		}
		if base[len(base)-1]+run > MaxExprDepth {
			return tooComplex()
		}
	}
	return nil
}
