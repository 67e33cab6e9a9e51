package parser

import "slices"

// catalogCalls takes the qualifier off calls of pg_catalog's functions,
// pg_catalog.f(...) → f(...), in the statement from head on.
//
// The built-in functions and aggregates live in pg_catalog, which
// PostgreSQL searches before the path's schemas unless the path names it,
// so the bare name means the same function; and every respelling of a
// call (count(*), f(DISTINCT x), f(ALL x), concat, mod, nextval, the
// window functions, FILTER and OVER, ...) is then made once, for the bare
// name, where TiDB's grammar would otherwise see pg_catalog.count(*),
// which it has no rule for. The names PostgreSQL's grammar reads as
// key-word syntax when bare (EXTRACT(f FROM x), TRIM(BOTH ...),
// COALESCE, ...) keep their qualifier: qualified, they are plain calls of
// the functions of that name (pg_catalog.extract('year', d)).
//
// A qualifier after another (db.pg_catalog.f) or a name being defined or
// referred to as a relation (INSERT INTO pg_catalog.t (a), CREATE TABLE,
// DROP FUNCTION pg_catalog.f(int), ...) is left as written.
func (r *rewriter) catalogCalls(head int) {
	for i := head; i+3 < len(r.toks); i++ {
		t := r.toks[i]
		if t.kind != tkIdent && t.kind != tkQIdent || t.val != "pg_catalog" || !r.toks[i+1].is(".") ||
			r.toks[i+2].kind != tkIdent && r.toks[i+2].kind != tkQIdent || !r.toks[i+3].is("(") {
			continue
		}
		if r.toks[i+2].kind == tkIdent && keywordSyntaxFuncs[r.toks[i+2].val] {
			continue
		}
		if i > head {
			p := r.toks[i-1]
			if p.is(".") || p.kind == tkIdent && nameDefiningWords[p.val] || p.is("on") && r.peek(head, "create") {
				continue
			}
		}
		// (New slices: the tokens may be a window onto the caller's.) The
		// name takes the qualifier's place, where PostgreSQL's errors about
		// the call point.
		r.toks = slices.Concat(r.toks[:i], r.toks[i+2:])
		r.ed = slices.Concat(r.ed[:i], r.ed[i+2:])
		r.toks[i].start = t.start
		if r.st != nil {
			r.st.catalogQualified = append(r.st.catalogQualified, t.start)
		}
	}
}

// keywordSyntaxFuncs are the functions PostgreSQL's grammar spells with
// key words (func_expr_common_subexpr) and the type names that TiDB's
// grammar or the front end reads otherwise when they are written bare;
// the qualified call keeps its qualifier, as it did before.
var keywordSyntaxFuncs = map[string]bool{
	"extract": true, "trim": true, "substring": true, "overlay": true, "position": true, "normalize": true,
	"coalesce": true, "nullif": true, "greatest": true, "least": true, "cast": true, "treat": true, "collation": true,
	"xmlconcat": true, "xmlelement": true, "xmlexists": true, "xmlforest": true, "xmlparse": true, "xmlpi": true,
	"xmlroot": true, "xmlserialize": true,
	// Type names of SQL's key-word syntax (char(n), interval(3) ...), whose
	// conversion functions a qualified call names (pg_catalog.char(65)).
	"char": true, "character": true, "varchar": true, "nchar": true, "national": true, "bit": true, "varbit": true,
	"interval": true, "time": true, "timestamp": true, "numeric": true, "decimal": true, "dec": true,
	"float": true, "real": true, "double": true, "int": true, "integer": true, "smallint": true, "bigint": true,
	"boolean": true, "binary": true, "date": true, "text": true,
}

// nameDefiningWords precede a name that a "(" may follow without a call:
// a relation's column list or a routine's signature.
var nameDefiningWords = map[string]bool{
	"into": true, "table": true, "references": true, "view": true, "index": true, "function": true,
	"procedure": true, "aggregate": true, "routine": true, "type": true, "sequence": true, "trigger": true,
}
