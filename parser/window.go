package parser

import "strings"

// Window calls. TiDB's grammar accepts OVER only after its own window
// function names and aggregates, takes literal offsets only (lead(x, -1),
// ROWS 2 + 1 PRECEDING fail) and has no frame exclusion, no FILTER before
// OVER. So every call with OVER is respelled as pseudo-functions TiDB
// parses as ordinary calls, which the planner reads back:
//
//	f(args) [FILTER (WHERE c)] OVER (w PARTITION BY a ORDER BY b DESC
//	    ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES)
//	→ zp_over(f'(args) [FILTER as zp_agg_filter], zp_window(zp_wref(w),
//	    zp_partition(a), zp_order(zp_desc(b)),
//	    zp_frame('rows', 'p', 1, 'c', NULL, 'ties')))
//
//	f(args) OVER w → zp_over(f'(args), zp_window(zp_wname(w)))
//
// f' is f, or zp_wf_f for the window functions TiDB reserves as keywords
// (rank(), lead(...) are no ordinary calls for it). Frame bound kinds are
// 'up' (UNBOUNDED PRECEDING), 'p' (offset PRECEDING), 'c' (CURRENT ROW),
// 'f' (offset FOLLOWING), 'uf' (UNBOUNDED FOLLOWING), and 'ci' the CURRENT
// ROW a frame of one bound (no BETWEEN) ends at; the exclusion is
// 'current row', 'group', 'ties' or empty (NO OTHERS). The WINDOW clause
// keeps TiDB's own syntax.
const (
	OverFunc         = "zp_over"
	WindowFunc       = "zp_window"
	WindowRefFunc    = "zp_wref"
	WindowNameFunc   = "zp_wname"
	PartitionFunc    = "zp_partition"
	WindowOrderFunc  = "zp_order"
	FrameFunc        = "zp_frame"
	WindowFuncPrefix = "zp_wf_"
)

// tidbWindowNames are the window functions TiDB's grammar parses only with
// OVER.
var tidbWindowNames = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true,
	"ntile": true, "lead": true, "lag": true, "first_value": true, "last_value": true, "nth_value": true,
}

// overCall respells the window call whose OVER keyword is token i.
func (r *rewriter) overCall(head, i int) error {
	callEnd := i - 1
	if open := r.matchingBack(callEnd); open-1 > head && r.toks[open-1].is("filter") {
		callEnd = open - 2 // f(args) FILTER (WHERE c) OVER ...
	}
	open := r.matchingBack(callEnd)
	if open-1 < head || !r.peek(callEnd, ")") {
		return r.syntaxErrorAt(i)
	}
	name := open - 1
	if f := r.toks[name]; f.kind != tkIdent && f.kind != tkQIdent || notFunctionNames[f.val] {
		return r.syntaxErrorAt(i)
	}
	start := r.qualifiedStart(name, head)
	if tidbWindowNames[r.toks[name].val] && start == name && !r.ed[name].done {
		r.replace(name, WindowFuncPrefix+r.toks[name].val)
	}
	r.ed[start].pre = OverFunc + "(" + r.ed[start].pre
	if !r.peek(i+1, "(") {
		// OVER w: the named window as it is.
		if i+1 >= len(r.toks) || r.toks[i+1].kind != tkIdent && r.toks[i+1].kind != tkQIdent {
			return r.syntaxErrorAt(i + 1)
		}
		r.replace(i, ", "+WindowFunc+"("+WindowNameFunc+"(")
		r.ed[i+1].post += ")))"
		r.primStart[i+1] = start // the whole call is one operand (of ::)
		return nil
	}
	close := r.matching(i + 1)
	if close < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	r.replace(i, ",")
	r.replace(i+1, WindowFunc+"(")
	if err := r.windowSpec(i+2, close); err != nil {
		return err
	}
	r.ed[close].pre += "))"
	r.replace(close, "")
	r.primStart[close] = start
	return nil
}

// windowSpec respells the window specification in tokens [from, to) as
// the arguments of zp_window.
func (r *rewriter) windowSpec(from, to int) error {
	// The clauses start at depth-0 keywords; collect where each starts.
	type clause struct {
		kind  string
		start int
	}
	var clauses []clause
	k := from
	if k < to && (r.toks[k].kind == tkQIdent || r.toks[k].kind == tkIdent && !isSpecKeyword(r, k)) {
		clauses = append(clauses, clause{"ref", k})
		k++
	}
	r.atDepth0(k, to, func(k int) bool {
		if isSpecKeyword(r, k) {
			clauses = append(clauses, clause{r.toks[k].val, k})
		}
		return true
	})
	for n, c := range clauses {
		end := to
		if n+1 < len(clauses) {
			end = clauses[n+1].start
		}
		sep := ""
		if n > 0 {
			sep = ", "
		}
		switch c.kind {
		case "ref":
			r.ed[c.start].pre = sep + WindowRefFunc + "(" + r.ed[c.start].pre
			r.ed[c.start].post += ")"
			if c.start+1 != end {
				return r.syntaxErrorAt(c.start + 1)
			}
			continue
		case "partition", "order":
			fn := PartitionFunc
			if c.kind == "order" {
				fn = WindowOrderFunc
				r.descKeys(c.start+2, end)
			}
			r.replace(c.start, sep+fn+"(")
			r.drop(c.start+1, c.start+2)
		default:
			if err := r.frameClause(c.start, end, sep); err != nil {
				return err
			}
		}
		// Closes the clause after what the clause itself added there.
		r.ed[end].pre += ")"
	}
	return nil
}

// atDepth0 calls fn for each token in [from, to) outside brackets, until
// it returns false.
func (r *rewriter) atDepth0(from, to int, fn func(k int) bool) {
	depth := 0
	for k := from; k < to; k++ {
		switch t := r.toks[k]; {
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") || t.is("]"):
			depth--
		case depth == 0 && !fn(k):
			return
		}
	}
}

// isSpecKeyword reports whether token k starts a clause of a window
// specification: PARTITION BY, ORDER BY, or a frame (ROWS, RANGE, GROUPS
// followed by a bound, not a column of that name).
func isSpecKeyword(r *rewriter, k int) bool {
	t := r.toks[k]
	switch {
	case t.is("partition") || t.is("order"):
		return r.peek(k+1, "by")
	case t.is("rows") || t.is("range") || t.is("groups"):
		return r.peek(k+1, "between") || r.peek(k+1, "unbounded") || r.peek(k+1, "current") ||
			k+1 < len(r.toks) && !r.peek(k+1, ")") && !r.peek(k+1, ",")
	}
	return false
}

// frameClause respells "ROWS|RANGE|GROUPS [BETWEEN] bound [AND bound]
// [EXCLUDE ...]" in tokens [m, end) as zp_frame(mode, kind, offset, kind,
// offset, exclusion); a single bound ends at CURRENT ROW.
func (r *rewriter) frameClause(m, end int, sep string) error {
	r.replace(m, sep+FrameFunc+"('"+r.toks[m].val+"'")
	excl := end
	r.atDepth0(m+1, end, func(k int) bool {
		if r.toks[k].is("exclude") {
			excl = k
		}
		return true
	})
	first, last := m+1, excl
	second := -1
	if r.peek(first, "between") {
		r.drop(first, first+1)
		first++
		r.atDepth0(first, excl, func(k int) bool {
			if r.toks[k].is("and") {
				second = k
			}
			return second < 0
		})
		if second < 0 {
			return r.syntaxErrorAt(excl)
		}
		last = second
		r.drop(second, second+1)
	}
	if err := r.frameBound(first, last); err != nil {
		return err
	}
	if second >= 0 {
		if err := r.frameBound(second+1, excl); err != nil {
			return err
		}
	} else {
		r.ed[excl].pre += ", 'ci', NULL"
	}
	exclusion := "''"
	if excl < end {
		words := make([]string, 0, 2)
		for k := excl + 1; k < end; k++ {
			words = append(words, r.toks[k].val)
		}
		switch w := strings.Join(words, " "); w {
		case "current row", "group", "ties":
			exclusion = "'" + w + "'"
		case "no others":
		default:
			return r.syntaxErrorAt(excl + 1)
		}
		r.drop(excl, end)
	}
	r.ed[end].pre += ", " + exclusion
	return nil
}

// frameBound respells one frame bound in tokens [from, to) as its kind and
// offset.
func (r *rewriter) frameBound(from, to int) error {
	if to <= from {
		return r.syntaxErrorAt(from)
	}
	words := ""
	if to-from == 2 {
		words = r.toks[from].val + " " + r.toks[from+1].val
	}
	kinds := map[string]string{"unbounded preceding": "up", "unbounded following": "uf", "current row": "c"}
	if k, ok := kinds[words]; ok && r.toks[from].kind == tkIdent {
		r.replace(from, ", '"+k+"', NULL")
		r.drop(from+1, to)
		return nil
	}
	last := r.toks[to-1]
	if to-from < 2 || !last.is("preceding") && !last.is("following") {
		return r.syntaxErrorAt(to - 1)
	}
	kind := "'p'"
	if last.is("following") {
		kind = "'f'"
	}
	// After the (dropped or replaced) token before the bound, so that a
	// rewrite of the offset expression (a cast) wraps only the expression.
	r.ed[from-1].post += ", " + kind + ", "
	r.drop(to-1, to)
	return nil
}
