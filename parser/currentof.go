package parser

// currentOf reads UPDATE's or DELETE's WHERE CURRENT OF cursor (PostgreSQL's
// where_or_current_clause): the clause becomes WHERE TRUE for TiDB and the
// cursor's name goes to Statement.CurrentOf. Only the statement's own
// WHERE, at the top level, can be one: CURRENT OF elsewhere is left to be
// the syntax error it is.
func (r *rewriter) currentOf(head int) error {
	if !r.peek(head, "update") && !r.peek(head, "delete") {
		return nil
	}
	depth := 0
	for i := head; i < len(r.toks); i++ {
		switch t := r.toks[i]; {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && t.is("where") && r.peek(i+1, "current") && r.peek(i+2, "of"):
			k := i + 3
			if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
				return r.syntaxErrorAt(k)
			}
			if k+1 < len(r.toks) && !r.peek(k+1, "returning") {
				return r.syntaxErrorAt(k + 1)
			}
			r.st.CurrentOf = r.toks[k].val
			r.replace(i+1, "TRUE")
			r.drop(i+2, k+1)
			return nil
		}
	}
	return nil
}
