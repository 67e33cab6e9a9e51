package optimizer

import (
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Inverted (gin) index scans (catalog/inverted.go). An inverted index
// has no key order to bound: it serves containment and overlap operators
// by the posting lists of tokens. A conjunct such as doc @> '{"a": 1}'
// becomes an InvertedQuery, the tokens of the constant combined by AND
// (every token must be in the row) or OR (one must); the conjuncts of the
// filter combine by AND, the disjuncts of an OR by OR. The executor reads
// each token's entries, combines the primary keys they name, and gets the
// rows, which the scan's filter rechecks: tokens lose where in a value
// they were.
//
// The rules take an inverted index where no key prefix, Z-order attribute
// or point get binds anything (the scan would otherwise read the whole
// table), or where USE_INDEX names it.

// InvertedQuery is the posting-list expression an inverted scan reads: a
// token (Token set), or the AND or OR of its Kids. An OR of no kids
// matches no row (jsonb ?| '{}'); an AND has at least one.
type InvertedQuery struct {
	Token []byte // an entry sort-key prefix: catalog.PartToken
	Shown string // the token in SQL terms, for EXPLAIN
	// Prefix makes Token the start of many tokens' entries (a tsquery's
	// 'sup':*), their primary keys after each token's end
	// (catalog.PrefixTokenEnd): a union of lists, not one list
	// in primary-key order.
	Prefix bool
	And    bool
	Kids   []*InvertedQuery
}

// String prints the query for EXPLAIN.
func (q *InvertedQuery) String() string {
	if q.Token != nil {
		return q.Shown
	}
	if len(q.Kids) == 0 {
		return "nothing"
	}
	parts := make([]string, len(q.Kids))
	for i, k := range q.Kids {
		parts[i] = k.String()
		if k.Token == nil && len(k.Kids) > 1 {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	if q.And {
		return strings.Join(parts, " AND ")
	}
	return strings.Join(parts, " OR ")
}

// Tokens returns the distinct tokens q reads.
func (q *InvertedQuery) Tokens() [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	var walk func(*InvertedQuery)
	walk = func(x *InvertedQuery) {
		if x.Token != nil {
			if !seen[string(x.Token)] {
				seen[string(x.Token)] = true
				out = append(out, x.Token)
			}
			return
		}
		for _, k := range x.Kids {
			walk(k)
		}
	}
	walk(q)
	return out
}

func invAnd(qs []*InvertedQuery) *InvertedQuery {
	if len(qs) == 1 {
		return qs[0]
	}
	return &InvertedQuery{And: true, Kids: qs}
}

func invOr(qs []*InvertedQuery) *InvertedQuery {
	if len(qs) == 1 {
		return qs[0]
	}
	return &InvertedQuery{Kids: qs}
}

// invertedIndex is one inverted index the scan may read, with its bound
// key expressions (nil for a column key).
type invertedIndex struct {
	t    *catalog.Table
	ix   *catalog.Index
	keys []ir.Expr
	ctx  *ir.EvalContext
	// pred is a partial index's predicate, which the conjuncts must imply.
	pred ir.Expr
}

// invertedPath returns the best inverted index for the conjuncts and its
// query, with the conjuncts it serves printed for EXPLAIN, and why each
// other inverted index lost; a nil index when none serves any. A partial
// index counts only when the conjuncts imply its predicate; hints name
// indexes to skip (ignored) or to prefer (forced: only they count when any
// is named). The best serves the most conjuncts; then reads the fewest
// posting lists; then is partial (it holds only rows the query wants);
// then has the fewest key columns.
func invertedPath(t *catalog.Table, conj []ir.Expr, ctx *ir.EvalContext, ignored, forced map[string]bool) (*invertedIndex, *InvertedQuery, []string, map[int]bool, []Rejection) {
	type option struct {
		ii     *invertedIndex
		ix     *catalog.Index
		q      *InvertedQuery
		served []string
		exact  map[int]bool // conjuncts the posting lists decide exactly
		tokens int
	}
	better := func(a, b *option) bool {
		switch {
		case len(a.served) != len(b.served):
			return len(a.served) > len(b.served)
		case a.tokens != b.tokens:
			return a.tokens < b.tokens
		case a.ix.Partial() != b.ix.Partial():
			return a.ix.Partial()
		}
		return len(a.ix.Columns) < len(b.ix.Columns)
	}
	var best *option
	var options []*option
	var rejected []Rejection
	for _, ix := range t.Indexes {
		if !ix.Inverted() || ix.State != catalog.StatePublic || ignored[ix.Name] {
			continue
		}
		if len(forced) > 0 && !forced[ix.Name] {
			rejected = append(rejected, Rejection{Path: indexLabel(ix), Reason: "not named by USE_INDEX"})
			continue
		}
		ii := &invertedIndex{t: t, ix: ix, keys: make([]ir.Expr, len(ix.Columns)), ctx: ctx}
		if !ix.Plain() {
			bound, err := ir.BindIndex(t, ix)
			if err != nil {
				continue
			}
			if bound.Pred != nil && !ir.Implies(conj, bound.Pred, ctx) {
				continue // named among the rejected by indexView
			}
			copy(ii.keys, bound.Keys)
			ii.pred = bound.Pred
		}
		o := &option{ii: ii, ix: ix, exact: map[int]bool{}}
		var qs []*InvertedQuery
		for i, c := range conj {
			if q := ii.query(c); q != nil {
				qs = append(qs, q)
				o.served = append(o.served, c.String())
				if ii.exact(c) {
					o.exact[i] = true
				}
			}
		}
		if len(qs) == 0 {
			rejected = append(rejected, Rejection{Path: indexLabel(ix), Reason: "serves no conjunct"})
			continue
		}
		o.q = invAnd(qs)
		o.tokens = len(o.q.Tokens())
		options = append(options, o)
		if best == nil || better(o, best) {
			best = o
		}
	}
	if best == nil {
		return nil, nil, nil, nil, rejected
	}
	for _, o := range options {
		if o != best {
			rejected = append(rejected, Rejection{Path: indexLabel(o.ix), Reason: fmt.Sprintf("serves %d conjunct%s with %d posting list%s", len(o.served), plural(len(o.served)), o.tokens, plural(o.tokens))})
		}
	}
	return best.ii, best.q, best.served, best.exact, rejected
}

// exact reports whether the posting lists decide conjunct e exactly, so
// the rows they name need no recheck of it, as PostgreSQL's gin consistent
// functions report no recheck for them: tsvector @@ a tsquery of lexemes
// (prefix matches too) under AND and OR only (weights, phrases and
// negations need the document), and an array's @> and && (an element's
// token is its value's: the rows holding every, or any, of the constant's
// elements are exactly the ones that contain, or overlap, it; <@ and =
// need the row's other elements).
func (ii *invertedIndex) exact(e ir.Expr) bool {
	f, ok := e.(*ir.Func)
	if !ok || len(f.Args) != 2 {
		return false
	}
	op := f.Name
	part, v, ok := ii.operands(f.Args[0], f.Args[1])
	if !ok {
		part, v, ok = ii.operands(f.Args[1], f.Args[0])
		op = commutedOps[op] // the constant on the left: '{x}' <@ tags
	}
	if !ok {
		return false
	}
	switch opclass := ii.ix.Columns[part].Opclass; {
	case opclass == catalog.OpclassArray && (op == "@>" || op == "&&"):
		return v.IsNull() || v.Array() != nil
	case opclass != catalog.OpclassTSVector || op != "@@":
		return false
	}
	if v.K != sqltypes.KindTSQuery || v.TSQuery() == nil {
		return false
	}
	var plain func(n *sqltypes.TSQueryNode) bool
	plain = func(n *sqltypes.TSQueryNode) bool {
		switch n.Op {
		case sqltypes.TSVal:
			return n.Weight == 0
		case sqltypes.TSAnd, sqltypes.TSOr:
			return plain(n.Left) && plain(n.Right)
		}
		return false
	}
	return v.TSQuery().Root != nil && plain(v.TSQuery().Root)
}

// commutedOps maps an operator the index serves to the one it is with its
// operands swapped: '{x}' <@ tags is tags @> '{x}'.
var commutedOps = map[string]string{"<@": "@>", "@>": "<@", "&&": "&&", "@@": "@@"}

// query returns the posting-list query that finds every row e can be true
// for, or nil when the index cannot narrow e.
func (ii *invertedIndex) query(e ir.Expr) *InvertedQuery {
	switch x := e.(type) {
	case *ir.Binary:
		switch x.Op {
		case ir.OpAnd:
			var qs []*InvertedQuery
			for _, c := range ir.Conjuncts(x) {
				if q := ii.query(c); q != nil {
					qs = append(qs, q)
				}
			}
			if len(qs) == 0 {
				return nil
			}
			return invAnd(qs)
		case ir.OpOr:
			var qs []*InvertedQuery
			for _, d := range ir.Disjuncts(x) {
				q := ii.query(d)
				if q == nil {
					return nil // one disjunct the index cannot narrow: every row
				}
				qs = append(qs, q)
			}
			return invOr(qs)
		case ir.OpEq:
			if part, v, ok := ii.operands(x.L, x.R); ok {
				return ii.leaf(part, "=", v)
			}
			if part, v, ok := ii.operands(x.R, x.L); ok {
				return ii.leaf(part, "=", v)
			}
		}
	case *ir.Like:
		if x.Neg {
			return nil
		}
		if part, v, ok := ii.operands(x.E, x.Pattern); ok {
			return ii.likeLeaf(part, v, x.Escape)
		}
	case *ir.Func:
		// jsonb's operators are infix calls, the arrays' calls named by
		// their operator.
		if len(x.Args) != 2 {
			return nil
		}
		if part, v, ok := ii.operands(x.Args[0], x.Args[1]); ok {
			return ii.leaf(part, x.Name, v)
		}
		// The constant on the left: the commuted operator.
		if op, ok := commutedOps[x.Name]; ok {
			if part, v, ok := ii.operands(x.Args[1], x.Args[0]); ok {
				return ii.leaf(part, op, v)
			}
		}
	}
	return nil
}

// operands reports whether key is a key part of the index and other a
// value known when the statement starts, and returns them.
func (ii *invertedIndex) operands(key, other ir.Expr) (int, sqltypes.Value, bool) {
	part := -1
	for i, k := range ii.ix.Columns {
		if k.Column >= 0 {
			if cr, ok := key.(*ir.ColRef); ok && cr.Index == k.Column {
				part = i
			}
		} else if ii.keys[i] != nil && ir.ExprKey(key) == ir.ExprKey(ii.keys[i]) {
			part = i
		}
		if part >= 0 {
			break
		}
	}
	if part < 0 || !ir.IsStatementConstant(other) {
		return -1, sqltypes.Value{}, false
	}
	v, err := other.Eval(ii.ctx, nil)
	if err != nil {
		return -1, sqltypes.Value{}, false
	}
	if kt := ii.t.KeyType(ii.ix.Columns[part]); kt.ID == sqltypes.Array && !v.IsNull() {
		// Elements tokenize by their kind: an int4[] key is looked up by
		// int4 elements only (the binder coerces a typed constant).
		if a := v.Array(); a == nil || a.Elem.ID != kt.Elem {
			return -1, sqltypes.Value{}, false
		}
	}
	return part, v, true
}

// leaf is the query of key part op v, or nil when the operator class
// cannot narrow it (it is true of rows without any of v's tokens: jsonb
// @> '{}', arr @> '{}').
func (ii *invertedIndex) leaf(part int, op string, v sqltypes.Value) *InvertedQuery {
	nothing := &InvertedQuery{}
	if v.IsNull() {
		return nothing // a strict operator with NULL is never true
	}
	opclass := ii.ix.Columns[part].Opclass
	tok := func(raw []byte, shown string) *InvertedQuery {
		return &InvertedQuery{Token: catalog.PartToken(part, raw), Shown: shown}
	}
	all := func() []*InvertedQuery {
		raws, shown := catalog.DescribedTokens(opclass, v)
		out := make([]*InvertedQuery, len(raws))
		for i, raw := range raws {
			out[i] = tok(raw, shown[i])
		}
		return out
	}
	switch opclass {
	case catalog.OpclassTrigram:
		if op == "=" {
			if toks := all(); len(toks) > 0 {
				return invAnd(toks)
			}
		}
	case catalog.OpclassJSONB, catalog.OpclassJSONBPath:
		switch op {
		case "@>":
			if toks := all(); len(toks) > 0 {
				return invAnd(toks)
			}
		case "@@", "@?":
			return ii.jsonPathLeaf(part, op, v)
		case "?", "?|", "?&":
			if opclass != catalog.OpclassJSONB {
				return nil
			}
			var keys []string
			if op == "?" {
				keys = []string{v.S}
			} else if a := v.Array(); a != nil {
				for _, e := range a.Elems {
					if !e.IsNull() {
						keys = append(keys, e.S)
					}
				}
			}
			var toks []*InvertedQuery
			for _, k := range keys {
				toks = append(toks, tok(catalog.KeyToken(k), "key "+sqltypes.QuoteJSON(k)))
			}
			switch {
			case op == "?&" && len(toks) == 0:
				return nil // every row has all of no keys
			case op == "?&":
				return invAnd(toks)
			case len(toks) == 0:
				return nothing
			}
			return invOr(toks)
		}
	case catalog.OpclassTSVector:
		if op != "@@" || v.K != sqltypes.KindTSQuery {
			return nil
		}
		q := v.TSQuery()
		if q == nil || q.Root == nil {
			return nothing // the empty query matches no row
		}
		return tsqueryQuery(part, q.Root)
	case catalog.OpclassArray:
		a := v.Array()
		if a == nil {
			return nil
		}
		var elems []*InvertedQuery
		hasNull := false
		for _, e := range a.Elems {
			if t := catalog.ElementToken(e); t != nil {
				elems = append(elems, tok(t, "element "+sqltypes.QuoteLiteral(sqltypes.FormatText(e))))
			} else {
				hasNull = true
			}
		}
		elems = dedupe(elems)
		empty := tok(catalog.EmptyArrayToken(), "empty array")
		switch op {
		case "@>":
			switch {
			case hasNull:
				return nothing // NULL equals no element
			case len(elems) == 0:
				return nil // every array contains the empty one
			}
			return invAnd(elems)
		case "&&":
			if len(elems) == 0 {
				return nothing
			}
			return invOr(elems)
		case "<@":
			return invOr(append(elems, empty))
		case "=":
			switch {
			case hasNull:
				return nothing
			case len(a.Elems) == 0:
				return empty
			}
			return invAnd(elems)
		}
	}
	return nil
}

// tsqueryQuery is the posting-list query of the rows a tsquery node can
// match, or nil when the index cannot narrow them: a lexeme's list (every
// lexeme beginning with it for a prefix match; a weight restriction is
// left to the recheck), the AND of a conjunction's or a phrase's narrowable
// sides, the OR of a disjunction's when both narrow. A negation matches
// rows without its lexeme, which no list holds.
func tsqueryQuery(part int, n *sqltypes.TSQueryNode) *InvertedQuery {
	switch n.Op {
	case sqltypes.TSVal:
		if n.Prefix {
			return &InvertedQuery{Token: catalog.PartToken(part, catalog.LexemePrefixToken(n.Word)), Prefix: true,
				Shown: "lexemes " + sqltypes.QuoteLiteral(n.Word) + ":*"}
		}
		return &InvertedQuery{Token: catalog.PartToken(part, catalog.LexemeToken(n.Word)), Shown: "lexeme " + sqltypes.QuoteLiteral(n.Word)}
	case sqltypes.TSAnd, sqltypes.TSPhrase:
		l, r := tsqueryQuery(part, n.Left), tsqueryQuery(part, n.Right)
		switch {
		case l == nil:
			return r
		case r == nil:
			return l
		}
		return invAnd(flatten(true, l, r))
	case sqltypes.TSOr:
		l, r := tsqueryQuery(part, n.Left), tsqueryQuery(part, n.Right)
		if l == nil || r == nil {
			return nil
		}
		return invOr(flatten(false, l, r))
	}
	return nil
}

// flatten joins the kids of nested ANDs (or ORs) into one list.
func flatten(and bool, qs ...*InvertedQuery) []*InvertedQuery {
	var out []*InvertedQuery
	for _, q := range qs {
		if q.Token == nil && q.And == and && len(q.Kids) > 0 {
			out = append(out, q.Kids...)
			continue
		}
		out = append(out, q)
	}
	return dedupe(out)
}

// likeLeaf is the query of key part LIKE (or ILIKE) pattern v: the
// trigrams every match has (builtins.LikeTrigrams), or nil when the
// pattern names none ('%ab%' is shorter than a trigram).
func (ii *invertedIndex) likeLeaf(part int, v sqltypes.Value, escape byte) *InvertedQuery {
	if ii.ix.Columns[part].Opclass != catalog.OpclassTrigram {
		return nil
	}
	if v.IsNull() {
		return &InvertedQuery{}
	}
	if escape == 0 {
		escape = '\\'
	}
	var toks []*InvertedQuery
	for _, t := range builtins.LikeTrigrams(v.S, escape) {
		toks = append(toks, &InvertedQuery{Token: catalog.PartToken(part, catalog.TrigramToken(t)), Shown: catalog.DescribeTrigram(t)})
	}
	if len(toks) == 0 {
		return nil
	}
	return invAnd(toks)
}

// dedupe drops repeated tokens (ARRAY[1, 1]).
func dedupe(qs []*InvertedQuery) []*InvertedQuery {
	seen := map[string]bool{}
	out := qs[:0]
	for _, q := range qs {
		if q.Token == nil {
			out = append(out, q) // an AND or OR: kept as it is
			continue
		}
		key := string(q.Token)
		if q.Prefix {
			key += "*"
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, q)
		}
	}
	return out
}

// invertedScan returns the scan of an inverted index when the rules take
// one: USE_INDEX names it, or the path they chose binds nothing (a full
// scan) and index scans are not disabled. conj are the scan's conjuncts
// over the table's row; all of them stay the scan's filter (the recheck).
func invertedScan(s *scanSpec, conj []ir.Expr, ctx *ir.EvalContext, opts Options, d *decision, hint hintOutcome) (*Scan, []Rejection) {
	best := d.winner
	named := len(hint.inverted) > 0
	if !named && (hint.forced || best.prefix > 0 || opts.Disabled.Has(MethodIndexScan)) {
		return nil, nil
	}
	t := s.Table
	ii, q, served, exact, lost := invertedPath(t, conj, ctx, hint.ignored, hint.inverted)
	if ii == nil {
		return nil, lost
	}
	ix := ii.ix
	// The conjuncts the posting lists decide exactly are not rechecked
	// (a full-text match need not parse each row's document again).
	var recheck []ir.Expr
	for i, c := range conj {
		if !exact[i] {
			recheck = append(recheck, c)
		}
	}
	why := "binds nothing: full scan"
	if best.prefix > 0 {
		why = "not named by USE_INDEX"
	}
	rejected := append(append([]Rejection{{Path: best.label, Reason: why}}, d.rejected...), lost...)
	scan := &Scan{Table: t, Alias: s.Alias, Index: ix, Method: InvertedScan, Inverted: q, Needed: s.Needed, Lookup: true,
		Rejected: rejected, Hint: hint.note, cols: tableCols(t), Residual: andAll(recheck),
		Reason: "rule 5: no key bound; inverted index " + ix.Name + " serves " + strings.Join(served, " AND ")}
	if named {
		scan.Reason = "rule 1: chosen by USE_INDEX; inverted index " + ix.Name + " serves " + strings.Join(served, " AND ")
	}
	if s.outNeed != nil {
		// The rows are decoded for the output and the recheck only: an
		// array's tags need not be parsed for a tags @> the lists decide.
		scan.Needed = neededOf(s.outNeed, scan.Residual)
	}
	scan.Shards, scan.ShardNote = scanShards(t, &candidate{index: ix}, scan)
	// Its tokens follow from the values: a generic plan derives them
	// again on this index (rederiveInverted).
	inv := &invertedDerivation{ii: *ii, conj: conj, served: make([]bool, len(conj)), rechecked: make([]bool, len(conj)), outNeed: s.outNeed}
	inv.ii.ctx = nil
	for i, c := range conj {
		inv.served[i], inv.rechecked[i] = ii.query(c) != nil, !exact[i]
	}
	scan.inverted = inv
	return scan, nil
}

// invertedDerivation is what an inverted scan's posting-list query
// follows from: the index (with its bound key expressions and predicate)
// and the scan's conjuncts over the table's row, with which of them the
// index narrowed.
type invertedDerivation struct {
	ii     invertedIndex
	conj   []ir.Expr
	served []bool
	// rechecked marks the conjuncts the template's residual holds.
	rechecked []bool
	// outNeed is the scan's columns read above it (scanSpec.outNeed).
	outNeed []bool
}

// rederiveInverted is the inverted scan tmpl with its posting-list query
// and recheck derived from the values in ctx, on the same index; ok false
// when the values do not keep that path: the conjuncts no longer imply a
// partial index's predicate, or the index no longer narrows the same
// conjuncts (a containment of nothing, '{}', narrows none: every row is
// read, which the rules would plan another way). A conjunct the lists
// decide exactly for some values (a tsquery of lexemes) and not for others
// (a negation) is rechecked for those.
func (d *invertedDerivation) rederive(tmpl *Scan, ctx *ir.EvalContext) (*Scan, bool) {
	ii := d.ii
	ii.ctx = ctx
	if ii.pred != nil && !ir.Implies(d.conj, ii.pred, ctx) {
		return nil, false
	}
	var qs []*InvertedQuery
	var recheck []ir.Expr
	sameRecheck := true
	for i, c := range d.conj {
		q := ii.query(c)
		if (q != nil) != d.served[i] {
			return nil, false
		}
		if q != nil {
			qs = append(qs, q)
		}
		rechecked := q == nil || !ii.exact(c)
		if rechecked {
			recheck = append(recheck, c)
		}
		sameRecheck = sameRecheck && rechecked == d.rechecked[i]
	}
	out := *tmpl
	out.Inverted = invAnd(qs)
	out.Residual = andAll(recheck)
	if d.outNeed != nil && !sameRecheck {
		// These values recheck what the template's did not, or the
		// reverse: the rows are decoded for this recheck.
		out.Needed = neededOf(d.outNeed, out.Residual)
	}
	out.use.ctx = ctx
	return &out, true
}

// jsonPathLeaf narrows jsonb @@ '$.a.b == c' and jsonb @? '$.a ? (@.b ==
// c)' (lax or strict, c a JSON scalar) to the rows @> '{"a": {"b": c}}'
// would read: a row the path matches holds the keys and the scalar, with
// arrays anywhere between them (lax mode unwraps them), which jsonb_path_ops'
// tokens ignore; jsonb_ops tokenizes a string inside an array as a key, so
// a string constant also reads the rows of '{"a": {"b": [c]}}'. The
// operator stays the filter. Any other path: nil, every row.
func (ii *invertedIndex) jsonPathLeaf(part int, op string, v sqltypes.Value) *InvertedQuery {
	if v.K != sqltypes.KindJSONPath {
		return nil
	}
	path, err := v.JSONPath()
	if err != nil {
		return nil
	}
	keys, lit := jsonPathEquality(op, path.Expr)
	if lit == nil || len(keys) == 0 {
		return nil
	}
	doc := func(leaf sqltypes.JSONValue) sqltypes.Value {
		for i := len(keys) - 1; i >= 0; i-- {
			leaf = sqltypes.JSONValue{Kind: sqltypes.JSONObject, Keys: []string{keys[i]}, Elems: []sqltypes.JSONValue{leaf}}
		}
		return sqltypes.NewJSONB(&leaf)
	}
	opclass := ii.ix.Columns[part].Opclass
	and := func(d sqltypes.Value) *InvertedQuery {
		raws, shown := catalog.DescribedTokens(opclass, d)
		qs := make([]*InvertedQuery, len(raws))
		for i, raw := range raws {
			qs[i] = &InvertedQuery{Token: catalog.PartToken(part, raw), Shown: shown[i]}
		}
		return invAnd(qs)
	}
	q := and(doc(*lit))
	if opclass == catalog.OpclassJSONB && lit.Kind == sqltypes.JSONString {
		q = invOr([]*InvertedQuery{q, and(doc(sqltypes.JSONValue{Kind: sqltypes.JSONArray, Elems: []sqltypes.JSONValue{*lit}}))})
	}
	return q
}

// jsonPathEquality recognises the paths jsonPathLeaf narrows: for @@ an
// equality of a key chain from $ and a scalar literal; for @? a key chain
// from $ filtered by an equality of a key chain from @ (possibly none) and
// a scalar literal. It returns the keys from $ and the literal.
func jsonPathEquality(op string, e *sqltypes.JSONPathItem) ([]string, *sqltypes.JSONValue) {
	// keyChain reads start.k1.k2... up to the first item that is no key.
	keyChain := func(it *sqltypes.JSONPathItem, start sqltypes.JSONPathKind) ([]string, *sqltypes.JSONPathItem, bool) {
		if it == nil || it.Kind != start {
			return nil, nil, false
		}
		var keys []string
		it = it.Next
		for it != nil && it.Kind == sqltypes.JPKey {
			keys = append(keys, it.Str)
			it = it.Next
		}
		return keys, it, true
	}
	literal := func(it *sqltypes.JSONPathItem) *sqltypes.JSONValue {
		if it.Next != nil {
			return nil
		}
		switch it.Kind {
		case sqltypes.JPNumeric:
			return &sqltypes.JSONValue{Kind: sqltypes.JSONNumber, Num: it.Num}
		case sqltypes.JPString:
			return &sqltypes.JSONValue{Kind: sqltypes.JSONString, Str: it.Str}
		case sqltypes.JPBool:
			return &sqltypes.JSONValue{Kind: sqltypes.JSONBool, Bool: it.Bool}
		case sqltypes.JPNull:
			return &sqltypes.JSONValue{Kind: sqltypes.JSONNull}
		}
		return nil
	}
	// equality reads chain == literal or literal == chain.
	equality := func(it *sqltypes.JSONPathItem, start sqltypes.JSONPathKind) ([]string, *sqltypes.JSONValue) {
		if it == nil || it.Kind != sqltypes.JPEqual || it.Next != nil {
			return nil, nil
		}
		for _, pair := range [][2]*sqltypes.JSONPathItem{{it.Left, it.Right}, {it.Right, it.Left}} {
			if keys, rest, ok := keyChain(pair[0], start); ok && rest == nil {
				if lit := literal(pair[1]); lit != nil {
					return keys, lit
				}
			}
		}
		return nil, nil
	}
	switch op {
	case "@@":
		return equality(e, sqltypes.JPRoot)
	case "@?":
		keys, rest, ok := keyChain(e, sqltypes.JPRoot)
		if !ok || rest == nil || rest.Kind != sqltypes.JPFilter || rest.Next != nil {
			return nil, nil
		}
		inner, lit := equality(rest.Left, sqltypes.JPCurrent)
		if lit == nil {
			return nil, nil
		}
		return append(keys, inner...), lit
	}
	return nil, nil
}
