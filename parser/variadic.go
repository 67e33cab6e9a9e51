package parser

// VariadicFunc marks a call's last argument written with VARIADIC,
// concat_ws(',', VARIADIC a): zp_variadic(a). The planner reads it back:
// the array is passed as the variadic parameter's array, not as one
// more element of it.
const VariadicFunc = "zp_variadic"

// grammarCalls are the calls PostgreSQL's grammar spells itself, whose
// arguments are expressions with no VARIADIC form.
var grammarCalls = map[string]bool{"coalesce": true, "greatest": true, "least": true, "nullif": true,
	"xmlconcat": true, "extract": true, "overlay": true, "position": true, "substring": true, "trim": true}

// variadicArg respells "VARIADIC expr" at the key word VARIADIC (token i,
// after a call's "(" or ","). PostgreSQL's grammar takes it only on the
// last argument (before an aggregate's ORDER BY), so a comma after the
// argument is a syntax error there.
func (r *rewriter) variadicArg(head, i int) error {
	open, depth := -1, 0
	for k := i - 1; k >= head && open < 0; k-- {
		switch {
		case r.toks[k].is(")") || r.toks[k].is("]"):
			depth++
		case depth > 0 && (r.toks[k].is("(") || r.toks[k].is("[")):
			depth--
		case r.toks[k].is("("):
			open = k
		}
	}
	if open <= head || r.toks[open-1].kind != tkIdent && r.toks[open-1].kind != tkQIdent ||
		r.toks[open-1].kind == tkIdent && (pgReserved[r.toks[open-1].val] ||
			grammarCalls[r.toks[open-1].val] && !(open-1 > head && r.toks[open-2].is("."))) {
		return r.syntaxErrorAt(i) // not a function call's argument
	}
	end := r.matching(open)
	if end < 0 || end == i+1 {
		return r.syntaxErrorAt(i + 1)
	}
	stop := end
	depth = 0
	for k := i + 1; k < end; k++ {
		switch {
		case r.toks[k].is("(") || r.toks[k].is("["):
			depth++
		case r.toks[k].is(")") || r.toks[k].is("]"):
			depth--
		case depth == 0 && r.toks[k].is(","):
			return r.syntaxErrorAt(k)
		case depth == 0 && r.peek(k, "order") && r.peek(k+1, "by") && stop == end:
			stop = k
		}
	}
	r.replace(i, VariadicFunc+"(")
	r.ed[stop].pre = ")" + r.ed[stop].pre
	return nil
}
