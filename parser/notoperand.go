package parser

// PostgreSQL's grammar gives the prefix NOT a lower precedence than the
// comparisons, yet an a_expr may start with NOT anywhere an operator wants
// its right operand: true = NOT false is true = (NOT false), and the NOT
// takes everything that binds tighter than it (IS, the comparisons, IN,
// LIKE, BETWEEN, the other operators), so true = NOT 1 = 1 is
// true = (NOT (1 = 1)), while AND, OR, a comma, a bracket or a clause's
// word end it. TiDB's grammar (MySQL's) allows NOT only at the level of
// the boolean connectives and rejects true = NOT false; notOperands puts
// such operands in parentheses on the client's tokens, before the rewrite.

// notOperands wraps in parentheses each prefix NOT from head on that is
// the right operand of an operator (x = NOT y, 'a' || NOT b), up to where
// PostgreSQL ends its operand. One pass: the NOTs met inside an operand at
// its own depth (true = NOT a = NOT b) end where it ends and are wrapped
// with it, not followed again, so chains of them cost their length.
func (r *rewriter) notOperands(head int) {
	var covered map[int]bool
	for i := head + 1; i < len(r.toks); i++ {
		if !r.toks[i].is("not") || covered[i] || !r.notAfterOperator(i) || r.levelOf(i) != levelNone {
			continue
		}
		var nots []int
		stop, ok := r.operandRunNot(i, &nots)
		if !ok || stop <= i+1 {
			continue // syntax this does not follow: TiDB's error stands
		}
		if covered == nil {
			covered, r.notEnds = map[int]bool{}, map[int]int{}
		}
		for _, j := range nots {
			covered[j] = true
			if r.notAfterOperator(j) {
				r.notEnds[j] = stop
				r.ed[j].outer = "(" + r.ed[j].outer
				r.ed[stop-1].outerPost = append(r.ed[stop-1].outerPost, ")"...)
			}
		}
	}
}

// notAfterOperator reports whether the NOT at token i follows an operator
// (a comparison, ||, +..., or IS [NOT] DISTINCT FROM) whose right operand
// it starts: TiDB accepts a NOT after a bracket, a comma or a word (AND,
// WHERE, THEN...) itself.
func (r *rewriter) notAfterOperator(i int) bool {
	if i >= 3 && r.toks[i-1].is("from") && r.toks[i-2].is("distinct") &&
		(r.toks[i-3].is("is") || i >= 4 && r.toks[i-3].is("not") && r.toks[i-4].is("is")) {
		return true
	}
	return i > 0 && r.toks[i-1].kind == tkOp && !r.insideOperatorForm(i-1)
}

// operandRunNot follows the operand of the prefix NOT at token k to its
// end: the first token, at its depth, of no operator that binds tighter
// than NOT. nots receives the prefix NOTs met on the way at that depth,
// the one at k first; each of them ends where it ends.
func (r *rewriter) operandRunNot(k int, nots *[]int) (int, bool) {
	return r.operandRunIn(k, levelNone, nots)
}
