package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// fetchClauses respells the SQL standard's row limiting clauses, which
// Hibernate and other ORMs write for PostgreSQL, as LIMIT and OFFSET
// before any other respelling, by taking their words out of the token
// list (the tokens left keep their places in the query for error
// positions):
//
//	OFFSET n {ROW | ROWS}                      → OFFSET n
//	FETCH {FIRST | NEXT} [n] {ROW | ROWS} ONLY → LIMIT n (n is 1 when omitted)
//
// The LIMIT and OFFSET respellings then see ordinary clauses (OFFSET a
// LIMIT b, expressions as counts). FETCH ... WITH TIES is 0A000.
func (r *rewriter) fetchClauses(head int) error {
	var drop []bool
	mark := func(k int) {
		if drop == nil {
			drop = make([]bool, len(r.toks))
		}
		drop[k] = true
	}
	for i := head + 1; i < len(r.toks); i++ {
		t := &r.toks[i]
		if t.kind != tkIdent {
			continue
		}
		switch {
		case t.val == "offset":
			if end := r.countEnd(i + 1); end > i+1 && (r.peek(end, "row") || r.peek(end, "rows")) {
				mark(end)
			}
		case t.val == "fetch" && (r.peek(i+1, "first") || r.peek(i+1, "next")):
			end := r.countEnd(i + 2)
			if !r.peek(end, "row") && !r.peek(end, "rows") {
				return r.syntaxErrorAt(end)
			}
			switch {
			case r.peek(end+1, "only"):
			case r.peek(end+1, "with") && r.peek(end+2, "ties"):
				return pgerr.New(pgerr.FeatureNotSupported, "FETCH ... WITH TIES is not supported").WithPosition(r.pos(i))
			default:
				return r.syntaxErrorAt(end + 1)
			}
			t.val = "limit"
			if end == i+2 {
				// FETCH FIRST ROW ONLY: the FIRST token stands for the 1.
				r.toks[i+1].kind, r.toks[i+1].val = tkNumber, "1"
			} else {
				mark(i + 1)
			}
			mark(end)
			mark(end + 1)
		}
	}
	if drop == nil {
		return nil
	}
	r.textEnd = r.toks[len(r.toks)-1].end
	toks, ed := r.toks[:0:0], r.ed[:0:0]
	for k := range r.toks {
		if !drop[k] {
			toks, ed = append(toks, r.toks[k]), append(ed, r.ed[k])
		}
	}
	r.toks, r.ed = toks, ed
	return nil
}
