package parser

import "github.com/zproxy/zproxy/internal/pgerr"

// TABLESAMPLE method(argument) [REPEATABLE (seed)]: TiDB's grammar knows
// the method names SYSTEM and BERNOULLI (and REGIONS, TiDB's own) and one
// argument; PostgreSQL's errors for another name or argument count are
// raised here, where the method's name is in view, at its position.
func (r *rewriter) tableSample(i int) error {
	m := r.toks[i+1]
	if m.is("(") {
		// No method: TiDB's grammar takes its own default, PostgreSQL's
		// has none.
		return r.syntaxErrorAt(i + 1)
	}
	if m.kind != tkIdent && m.kind != tkQIdent || !r.peek(i+2, "(") {
		return nil // TiDB's grammar reports the syntax error
	}
	if m.val != "system" && m.val != "bernoulli" {
		return pgerr.New(pgerr.UndefinedObject, "tablesample method %s does not exist", m.val).WithPosition(r.pos(i + 1))
	}
	close := r.matching(i + 2)
	if close < 0 {
		return nil
	}
	if last := close - 1; last > i+3 && (r.peek(last, "percent") || r.peek(last, "rows")) {
		return r.syntaxErrorAt(last) // TiDB's units, not PostgreSQL's syntax
	}
	if n := len(r.commaItems(i+3, close)); n != 1 {
		return pgerr.New(pgerr.InvalidTablesampleArgument, "tablesample method %s requires 1 argument, not %d", m.val, n).WithPosition(r.pos(i + 1))
	}
	return nil
}
