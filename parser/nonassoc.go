package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// PostgreSQL's grammar declares three levels of its binary operators
// non-associative (%nonassoc in gram.y), loosest first:
//
//	IS ISNULL NOTNULL
//	< > = <= >= <> !=
//	BETWEEN IN LIKE ILIKE SIMILAR (and NOT LIKE, NOT IN, ...)
//
// Where an operator of one of them takes an a_expr for its right operand
// and that operand is followed by an operator of the same level, the
// parser's shift/reduce conflict is resolved as an error: 1 < 2 = true,
// 1 = 1 = true, a LIKE b LIKE c, a LIKE b BETWEEN c AND d and
// x IS DISTINCT FROM y IS NOT FALSE are syntax errors at the second
// operator. An operator whose right side ends the rule without an a_expr
// meets no conflict: x IS NULL IS NOT NULL, x IN (1) IN (true),
// x = ANY (a) = true are accepted. TiDB's grammar (MySQL's) reads the
// comparisons left-associatively and has its own rules for the others,
// so nonAssoc looks for the conflicts on the client's tokens, before the
// rewrite.
const (
	levelNone    = iota
	levelIs      // IS, ISNULL, NOTNULL
	levelCmp     // the comparisons
	levelPattern // BETWEEN, IN, LIKE, ILIKE, SIMILAR TO
	levelEscape  // LIKE's and SIMILAR TO's ESCAPE
	levelTight   // every other operator, and the postfix syntax (::, [], COLLATE, AT TIME ZONE)
)

// nonAssoc returns PostgreSQL's syntax error for the first operator of the
// statement from head on that follows the right operand of an operator of
// its own non-associative level, or nil.
func (r *rewriter) nonAssoc(head int) *pgerr.Error {
	first := -1
	assigns := r.setAssignments(head)
	for i := head; i < len(r.toks); i++ {
		t := r.toks[i]
		var level, operand int
		switch {
		case t.kind == tkOp && comparisonOps[t.val] && !r.insideOperatorForm(i) && !assigns[i] &&
			!(i > head && r.toks[i-1].is(":") && r.toks[i-1].end == t.start):
			if r.quantifier(i+1) != quantNone {
				continue // op ANY|ALL (...) ends at its parenthesis
			}
			level, operand = levelCmp, i+1
		case t.is("like") || t.is("ilike"):
			if r.quantifier(i+1) != quantNone {
				continue
			}
			level, operand = levelPattern, i+1
		case t.is("similar") && r.peek(i+1, "to"):
			level, operand = levelPattern, i+2
		case t.is("between"):
			k := i + 1
			if r.peekAny(k, "symmetric", "asymmetric") {
				k++
			}
			// The lower bound is a b_expr: no operator of these levels.
			and, ok := r.operandRun(k, levelEscape)
			if !ok || !r.peek(and, "and") {
				continue
			}
			level, operand = levelPattern, and+1
		case t.is("array") && (r.peek(i+1, "[") || r.peek(i+1, "(")):
			// An ARRAY constructor is a c_expr, not one of the
			// expressions PostgreSQL's grammar subscripts: array[1][1]
			// is a syntax error at the second bracket, and so is a
			// type's int ARRAY[3][4]; the rewritten text TiDB reads
			// would take them ((array[1])[1] is the subscript).
			if m := r.matching(i + 1); m > 0 && r.peek(m+1, "[") && (first < 0 || m+1 < first) {
				first = m + 1
			}
			continue
		case t.is("is") && r.peek(i+1, "distinct") && r.peek(i+2, "from"):
			level, operand = levelIs, i+3
		case t.is("is") && r.peek(i+1, "not") && r.peek(i+2, "distinct") && r.peek(i+3, "from"):
			level, operand = levelIs, i+4
		default:
			continue
		}
		if stop, ok := r.operandRun(operand, level); ok && stop < len(r.toks) && r.levelOf(stop) == level && (first < 0 || stop < first) {
			first = stop
		}
	}
	if first < 0 {
		return nil
	}
	return r.syntaxErrorAt(first)
}

// levelOf is the level of the token at k as the operator after an
// operand, levelNone when it is none of those (the operand ends there).
func (r *rewriter) levelOf(k int) int {
	t := r.toks[k]
	switch {
	case t.kind == tkOp && comparisonOps[t.val]:
		return levelCmp
	case t.kind == tkOp, t.is("::"), t.is("["), t.is("collate"),
		t.is("at") && r.peek(k+1, "time") && r.peek(k+2, "zone"),
		t.is("operator") && r.peek(k+1, "("),
		t.is(".") && k+1 < len(r.toks) && (r.toks[k+1].kind == tkIdent || r.toks[k+1].kind == tkQIdent || r.toks[k+1].is("*")):
		return levelTight
	case t.is("escape"):
		return levelEscape
	case t.is("like"), t.is("ilike"), t.is("between"), t.is("in"), t.is("similar") && r.peek(k+1, "to"),
		t.is("not") && (r.peekAny(k+1, "like", "ilike", "between", "in") || r.peek(k+1, "similar") && r.peek(k+2, "to")):
		return levelPattern
	case t.is("is"), t.is("isnull"), t.is("notnull"):
		return levelIs
	}
	return levelNone
}

// operandRun follows the right operand that starts at token k of an
// operator of the given level, over the operators that bind tighter, and
// returns the token after it. ok is false where it meets what it does not
// follow (a prefix NOT, whose operand reaches over every level here, or
// syntax it does not know): no conflict is reported then.
func (r *rewriter) operandRun(k, level int) (stop int, ok bool) {
	return r.operandRunIn(k, level, nil)
}

// operandRunIn is operandRun. With nots (and level levelNone: a prefix
// NOT's operand, notoperand.go) it also steps over the prefix NOTs of the
// operands, whose own operands end where this one does, appending them to
// nots, and over the IS tests, which bind tighter than NOT.
func (r *rewriter) operandRunIn(k, level int, nots *[]int) (stop int, ok bool) {
	for {
		// An operand: prefix operators, then a primary expression.
		if k, ok = r.primaryRun(k, nots); !ok {
			return 0, false
		}
	after:
		if k >= len(r.toks) || r.levelOf(k) <= level {
			return k, true
		}
		t := r.toks[k]
		switch r.levelOf(k) {
		case levelTight:
			switch {
			case t.is("::"):
				_, _, next, err := r.parseTypeRef(k + 1)
				if err != nil || next <= k+1 {
					return 0, false
				}
				k = next
				goto after
			case t.is("["):
				if k = r.matching(k); k < 0 {
					return 0, false
				}
				k++
				goto after
			case t.is("."):
				k += 2
				goto after
			case t.is("collate"):
				if k = r.nameRun(k + 1); k < 0 {
					return 0, false
				}
				goto after
			case t.is("at"):
				k += 3
			case t.is("operator"):
				if k = r.matching(k + 1); k < 0 {
					return 0, false
				}
				k++
			default:
				k++ // a binary operator
			}
		case levelEscape:
			k++
		case levelPattern:
			if t.is("not") {
				k++
				t = r.toks[k]
			}
			switch {
			case t.is("in"):
				if !r.peek(k+1, "(") {
					return 0, false
				}
				k = r.matching(k + 1)
				if k < 0 {
					return 0, false
				}
				k++
				goto after
			case t.is("similar"):
				k += 2
			case t.is("between"):
				k++
				if r.peekAny(k, "symmetric", "asymmetric") {
					k++
				}
				and, ok := r.operandRun(k, levelEscape)
				if !ok || !r.peek(and, "and") {
					return 0, false
				}
				k = and + 1
			default: // LIKE, ILIKE
				k++
				if end, quantified, ok := r.skipQuantified(k); !ok {
					return 0, false
				} else if quantified {
					k = end
					goto after
				}
			}
		case levelIs:
			// Reached only for a NOT's operand (level levelNone).
			if nots == nil {
				return 0, false
			}
			if t.is("isnull") || t.is("notnull") {
				k++
				goto after
			}
			k++
			if r.peek(k, "not") {
				k++
			}
			switch {
			case r.peekAny(k, "null", "true", "false", "unknown"):
				k++
				goto after
			case r.peek(k, "distinct") && r.peek(k+1, "from"):
				k += 2 // its right operand follows
			default:
				return 0, false
			}
		case levelCmp:
			k++
			if end, quantified, ok := r.skipQuantified(k); !ok {
				return 0, false
			} else if quantified {
				k = end
				goto after
			}
		default:
			return 0, false
		}
	}
}

// primaryRun steps over the prefix operators and the primary expression
// at token k and returns the token after them. With nots, a prefix NOT is
// one of those operators (its operand is the rest of the operand being
// followed), and it is appended to nots.
func (r *rewriter) primaryRun(k int, nots *[]int) (int, bool) {
	for k < len(r.toks) {
		t := r.toks[k]
		if t.kind == tkOp && !comparisonOps[t.val] {
			k++
			continue
		}
		if nots != nil && t.is("not") && r.levelOf(k) == levelNone {
			*nots = append(*nots, k)
			k++
			continue
		}
		if t.is("operator") && r.peek(k+1, "(") {
			if k = r.matching(k + 1); k < 0 {
				return 0, false
			}
			k++
			continue
		}
		break
	}
	if k >= len(r.toks) {
		return 0, false
	}
	t := r.toks[k]
	switch {
	case t.kind == tkString || t.kind == tkNumber || t.kind == tkParam:
		return k + 1, true
	case t.is("("), (t.is("array") || t.is("cast") || t.is("row") || t.is("exists")) && r.peek(k+1, "(") || t.is("array") && r.peek(k+1, "["):
		if t.kind == tkIdent {
			k++
		}
		if k = r.matching(k); k < 0 {
			return 0, false
		}
		return k + 1, true
	case t.is("case"):
		depth := 0
		for ; k < len(r.toks); k++ {
			if r.toks[k].is("case") {
				depth++
			} else if r.toks[k].is("end") {
				if depth--; depth == 0 {
					return k + 1, true
				}
			}
		}
		return 0, false
	case t.kind == tkQIdent, t.kind == tkIdent && (!pgReserved[t.val] || valueKeywords[t.val]) && r.levelOf(k) == levelNone:
		if k = r.nameRun(k); k < 0 {
			return 0, false
		}
		if r.peek(k, "(") {
			// A call, with its FILTER, WITHIN GROUP and OVER clauses.
			if k = r.matching(k); k < 0 {
				return 0, false
			}
			k++
			for {
				switch {
				case r.peek(k, "filter") && r.peek(k+1, "("), r.peek(k, "over") && r.peek(k+1, "("):
					k = r.matching(k + 1)
				case r.peek(k, "within") && r.peek(k+1, "group") && r.peek(k+2, "("):
					k = r.matching(k + 2)
				case r.peek(k, "over") && k+1 < len(r.toks) && (r.toks[k+1].kind == tkIdent || r.toks[k+1].kind == tkQIdent):
					k++
				default:
					return k, true
				}
				if k < 0 {
					return 0, false
				}
				k++
			}
		}
		if k < len(r.toks) && r.toks[k].kind == tkString {
			k++ // a typed literal: date '2024-01-01'
		}
		return k, true
	}
	return 0, false
}

// nameRun steps over a possibly qualified name at token k, returning the
// token after it, or -1.
func (r *rewriter) nameRun(k int) int {
	ident := func(k int) bool { return k < len(r.toks) && (r.toks[k].kind == tkIdent || r.toks[k].kind == tkQIdent) }
	if !ident(k) {
		return -1
	}
	for k++; r.peek(k, ".") && ident(k+1); k += 2 {
	}
	return k
}

// insideOperatorForm reports whether the operator token at i is the name inside
// OPERATOR(op) or OPERATOR(schema.op), not an operator applied.
func (r *rewriter) insideOperatorForm(i int) bool {
	if !r.peek(i+1, ")") {
		return false
	}
	return i >= 2 && r.toks[i-1].is("(") && r.toks[i-2].is("operator") ||
		i >= 4 && r.toks[i-1].is(".") && r.toks[i-3].is("(") && r.toks[i-4].is("operator")
}

// setAssignments marks the = of each item of the SET lists from head on
// (UPDATE's, ON CONFLICT DO UPDATE's): SET a = b = c sets a to b = c, so
// that = is no comparison. One pass over the statement: each list's items
// are read forward, a target and its =, then the value up to the item's
// comma, so a statement of many comparisons costs no more than its length
// (looking back from each = to its SET made a WHERE of n ORed equalities
// cost n²). nil when the statement has no SET.
func (r *rewriter) setAssignments(head int) map[int]bool {
	var marks map[int]bool
	for i := head; i < len(r.toks); i++ {
		if !r.toks[i].is("set") {
			continue
		}
		for k := i + 1; k < len(r.toks); k++ {
			if k = r.setTargetEnd(k); k < 0 || k >= len(r.toks) || !(r.toks[k].kind == tkOp && r.toks[k].val == "=") {
				break
			}
			if marks == nil {
				marks = map[int]bool{}
			}
			marks[k] = true
			if k = r.setValueEnd(k + 1); k >= len(r.toks) || !r.toks[k].is(",") {
				break
			}
		}
	}
	return marks
}

// setTargetEnd returns the token after the SET item's target that starts
// at k: (a, b), or a column name with its qualifiers and subscripts; -1
// where the brackets do not close.
func (r *rewriter) setTargetEnd(k int) int {
	if k < len(r.toks) && r.toks[k].is("(") {
		if k = r.matching(k); k < 0 {
			return -1
		}
		return k + 1
	}
	for k < len(r.toks) && (r.toks[k].kind == tkIdent || r.toks[k].kind == tkQIdent) {
		k++
		for k < len(r.toks) && r.toks[k].is("[") {
			if k = r.matching(k); k < 0 {
				return -1
			}
			k++
		}
		if k < len(r.toks) && r.toks[k].is(".") {
			k++
			continue
		}
		break
	}
	return k
}

// setValueEnd returns the token that ends the SET item's value starting
// at k: its comma, the word of the clause after the list, or the end of
// the statement or of the brackets around it.
func (r *rewriter) setValueEnd(k int) int {
	for ; k < len(r.toks); k++ {
		t := r.toks[k]
		switch {
		case t.is("(") || t.is("["):
			if k = r.matching(k); k < 0 {
				return len(r.toks)
			}
		case t.is(",") || t.is(")") || t.is("]") || t.is(";") || t.kind == tkIdent && setListEnds[t.val]:
			return k
		}
	}
	return k
}

// setListEnds are words that cannot stand between a SET list's start and
// one of its items.
var setListEnds = map[string]bool{"select": true, "from": true, "where": true, "values": true, "returning": true,
	"on": true, "using": true, "having": true, "group": true, "order": true, "limit": true, "offset": true, "window": true}

// skipQuantified steps over an ANY/SOME/ALL (...) operand at token k:
// the token after its closing bracket and true, or (k, false) when k
// starts no quantifier; ok is false for an unbalanced bracket.
func (r *rewriter) skipQuantified(k int) (end int, quantified, ok bool) {
	if r.quantifier(k) == quantNone {
		return k, false, true
	}
	if end = r.matching(k + 1); end < 0 {
		return 0, false, false
	}
	return end + 1, true, true
}
