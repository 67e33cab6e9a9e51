package parser

import (
	"strconv"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Declarative partitioning and inheritance (PostgreSQL's CREATE TABLE
// ... PARTITION BY, PARTITION OF ... FOR VALUES and INHERITS) have no
// TiDB spelling (MySQL's PARTITION BY is a different grammar): the
// clauses are lifted into Statement.Partition and left out of the text
// TiDB parses. A partition's columns are its parent's, so PARTITION OF
// is given to TiDB as a table of one placeholder column (as LIKE-only
// tables are) that the binder replaces with the parent's columns; the
// partition's own list of column options and table constraints follows
// it, each column given a placeholder type (its type is the parent's).

// OnlySchema qualifies a table named after ONLY in a SELECT's FROM
// (SELECT ... FROM ONLY t), for the binder: t without the tables that
// inherit from it (or, partitioned, without its partitions).
const OnlySchema = "zp_only"

// PartitionSyntax is what CREATE TABLE says about partitioning and
// inheritance.
type PartitionSyntax struct {
	// Strategy is PARTITION BY's "range", "list" or "hash" ("" without
	// the clause), KeyColumns its key, KeyPos the clause's position.
	// KeyExprs, by key part, hold the parts that are expressions ((a %
	// 4), lower(name)) as written, without the parentheses around them;
	// their KeyColumns entry is "" (and a column part's KeyExprs entry
	// has no SQL).
	Strategy   string
	KeyColumns []string
	KeyExprs   []IndexExpr
	KeyPos     int
	// Of is the parent of CREATE TABLE ... PARTITION OF (OfSchema its
	// qualifier), OfPos the parent name's position, and Bound the
	// partition's FOR VALUES or DEFAULT.
	OfSchema, Of string
	OfPos        int
	Bound        *BoundSyntax
	// Inherits are the parents INHERITS (...) names.
	Inherits []QualifiedName
}

// QualifiedName is a possibly schema-qualified name as written (folded
// unless quoted), with its position.
type QualifiedName struct {
	Schema, Name string
	Pos          int
}

// BoundSyntax is a partition bound: DEFAULT, FOR VALUES IN (...), FROM
// (...) TO (...) or WITH (MODULUS m, REMAINDER r).
type BoundSyntax struct {
	Default bool
	// Strategy is the bound's form: "list", "range" or "hash" ("" for
	// DEFAULT).
	Strategy string
	In       []BoundExpr
	From, To []BoundExpr
	// Modulus and Remainder are a hash partition's; ModPos and RemPos
	// their positions.
	Modulus, Remainder int
	ModPos, RemPos     int
	Pos                int
}

// BoundExpr is one value of a bound: an expression's text, or MINVALUE
// (Inf -1) or MAXVALUE (Inf 1) of a range bound.
type BoundExpr struct {
	Text string
	Inf  int
	Pos  int
}

// partitionOf reads CREATE TABLE name PARTITION OF parent {FOR VALUES
// ... | DEFAULT} at k (the token after the name) and gives TiDB a
// placeholder column list in its place; it returns the index after the
// bound.
func (r *rewriter) partitionOf(k int) (int, error) {
	ps := r.partitionSyntax()
	start := k
	k += 2
	next, err := r.skipName(k)
	if err != nil {
		return k, err
	}
	ps.OfPos = r.pos(k)
	if next-k == 3 {
		ps.OfSchema, ps.Of = r.toks[k].val, r.toks[k+2].val
	} else if next-k == 1 {
		ps.Of = r.toks[k].val
	} else {
		return k, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", r.sql[r.toks[k].start:r.toks[next-1].end]).WithPosition(r.pos(k))
	}
	k = next
	r.st.LikeOnly = true
	if !r.peek(k, "(") {
		if k, err = r.partitionBound(k, ps); err != nil {
			return k, err
		}
		r.drop(start, k)
		r.replace(start, "("+LikePlaceholder+" int)")
		return k, nil
	}
	// Column options and table constraints: the list stays for TiDB,
	// after the placeholder column that stands for the parent's.
	open, end := k, r.matching(k)
	if end < 0 {
		return k, r.syntaxErrorAt(len(r.toks))
	}
	if end == open+1 {
		return k, r.syntaxErrorAt(end)
	}
	if _, err := r.tableElements(open, end, true); err != nil {
		return k, err
	}
	if k, err = r.partitionBound(end+1, ps); err != nil {
		return k, err
	}
	r.drop(start, open)
	r.ed[open].post = LikePlaceholder + " int, " + r.ed[open].post
	r.drop(end+1, k)
	return k, nil
}

// partitionSyntax returns the statement's PartitionSyntax, made on first
// use.
func (r *rewriter) partitionSyntax() *PartitionSyntax {
	if r.st.Partition == nil {
		r.st.Partition = &PartitionSyntax{}
	}
	return r.st.Partition
}

// partitionBound reads FOR VALUES ... or DEFAULT at k.
func (r *rewriter) partitionBound(k int, ps *PartitionSyntax) (int, error) {
	b := &BoundSyntax{Pos: r.pos(k)}
	ps.Bound = b
	if r.peek(k, "default") {
		b.Default = true
		return k + 1, nil
	}
	if !r.peek(k, "for") {
		return k, r.syntaxErrorAt(k)
	}
	if !r.peek(k+1, "values") {
		return k, r.syntaxErrorAt(k + 1)
	}
	k += 2
	b.Pos = r.pos(k)
	var err error
	switch {
	case r.peek(k, "in"):
		b.Strategy = "list"
		b.In, k, err = r.boundList(k+1, false)
	case r.peek(k, "from"):
		b.Strategy = "range"
		if b.From, k, err = r.boundList(k+1, true); err != nil {
			return k, err
		}
		if !r.peek(k, "to") {
			return k, r.syntaxErrorAt(k)
		}
		b.To, k, err = r.boundList(k+1, true)
	case r.peek(k, "with"):
		b.Strategy = "hash"
		k, err = r.hashBound(k+1, b)
	default:
		return k, r.syntaxErrorAt(k)
	}
	return k, err
}

// boundList reads a parenthesized list of bound values at k; rng allows
// MINVALUE and MAXVALUE.
func (r *rewriter) boundList(k int, rng bool) ([]BoundExpr, int, error) {
	if !r.peek(k, "(") {
		return nil, k, r.syntaxErrorAt(k)
	}
	end := r.matching(k)
	if end < 0 {
		return nil, k, r.syntaxErrorAt(len(r.toks))
	}
	var out []BoundExpr
	from := k + 1
	for from <= end {
		to := from
		r.atDepth0(from, end, func(i int) bool {
			to = i
			return !r.peek(i, ",")
		})
		if to < end && !r.peek(to, ",") {
			to = end
		}
		if to == from {
			return nil, k, r.syntaxErrorAt(from)
		}
		e := BoundExpr{Text: r.sql[r.toks[from].start:r.toks[to-1].end], Pos: r.pos(from)}
		if to == from+1 && r.toks[from].kind == tkIdent {
			switch r.toks[from].val {
			case "minvalue":
				e.Inf = -1
			case "maxvalue":
				e.Inf = 1
			}
			if e.Inf != 0 && !rng {
				return nil, k, r.syntaxErrorAt(from)
			}
		}
		out = append(out, e)
		from = to + 1
	}
	return out, end + 1, nil
}

// hashBound reads (MODULUS m, REMAINDER r) at k.
func (r *rewriter) hashBound(k int, b *BoundSyntax) (int, error) {
	seen := map[string]bool{}
	next, err := r.parenList(k, func(k int) (int, error) {
		if k+1 >= len(r.toks) || r.toks[k].kind != tkIdent {
			return k, r.syntaxErrorAt(k)
		}
		name := r.toks[k].val
		if r.toks[k+1].kind != tkNumber {
			return k + 1, r.syntaxErrorAt(k + 1)
		}
		n, err := strconv.Atoi(r.toks[k+1].val)
		if err != nil {
			return k + 1, r.syntaxErrorAt(k + 1)
		}
		switch name {
		case "modulus":
			b.Modulus, b.ModPos = n, r.pos(k)
		case "remainder":
			b.Remainder, b.RemPos = n, r.pos(k)
		default:
			return k, pgerr.New(pgerr.SyntaxError, "unrecognized hash partition bound specification \"%s\"", name).WithPosition(r.pos(k))
		}
		if seen[name] {
			return k, pgerr.New(pgerr.SyntaxError, "%s for hash partition provided more than once", name).WithPosition(r.pos(k))
		}
		seen[name] = true
		return k + 2, nil
	})
	if err != nil {
		return next, err
	}
	if !seen["modulus"] {
		return next, pgerr.New(pgerr.SyntaxError, "modulus for hash partition must be specified").WithPosition(b.Pos)
	}
	if !seen["remainder"] {
		return next, pgerr.New(pgerr.SyntaxError, "remainder for hash partition must be specified").WithPosition(b.Pos)
	}
	return next, nil
}

// partitionKeyPart reads one part of PARTITION BY's key at k, as
// PostgreSQL's part_elem: a column name, a function call
// (date_trunc('day', ts)) or a parenthesized expression ((a % 4)). A
// COLLATE or operator class after it is refused (0A000).
func (r *rewriter) partitionKeyPart(k int) (int, error) {
	ps := r.partitionSyntax()
	end := func(next int) (int, error) {
		if !r.peek(next, ",") && !r.peek(next, ")") {
			return next, pgerr.New(pgerr.FeatureNotSupported, "a collation or operator class in a partition key is not supported").WithPosition(r.pos(next))
		}
		return next, nil
	}
	// expr takes tokens [from, to) as the part, next the token after it.
	expr := func(from, to, next int) (int, error) {
		for i := from + 1; i < to; i++ {
			// TiDB parses no window call in an expression of its own:
			// PostgreSQL's refusal, said here.
			if r.peek(i, "over") && r.peek(i-1, ")") {
				return i, pgerr.New(pgerr.WindowingError, "window functions are not allowed in partition key expressions").WithPosition(r.pos(i))
			}
		}
		ps.KeyColumns = append(ps.KeyColumns, "")
		ps.KeyExprs = append(ps.KeyExprs, IndexExpr{SQL: r.sql[r.toks[from].start:r.toks[to-1].end], Offset: r.toks[from].start})
		return end(next)
	}
	if r.peek(k, "(") {
		close := r.matching(k)
		if close < 0 {
			return k, r.syntaxErrorAt(len(r.toks))
		}
		if close == k+1 {
			return k, r.syntaxErrorAt(close)
		}
		return expr(k+1, close, close+1)
	}
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return k, r.syntaxErrorAt(k)
	}
	// A possibly qualified function name followed by its arguments.
	call := k
	for call+2 < len(r.toks) && r.peek(call+1, ".") && (r.toks[call+2].kind == tkIdent || r.toks[call+2].kind == tkQIdent) {
		call += 2
	}
	if r.peek(call+1, "(") {
		close := r.matching(call + 1)
		if close < 0 {
			return k, r.syntaxErrorAt(len(r.toks))
		}
		return expr(k, close+1, close+1)
	}
	if call != k {
		return k, r.syntaxErrorAt(call + 1)
	}
	ps.KeyColumns = append(ps.KeyColumns, r.toks[k].val)
	ps.KeyExprs = append(ps.KeyExprs, IndexExpr{})
	return end(k + 1)
}

// partitionClauses lifts INHERITS (...) and PARTITION BY ... at k, after
// CREATE TABLE's element list (or a partition's bound), and returns the
// index after them.
func (r *rewriter) partitionClauses(k int) (int, error) {
	if r.peek(k, "inherits") {
		ps := r.partitionSyntax()
		start := k
		next, err := r.parenList(k+1, func(k int) (int, error) {
			next, err := r.skipName(k)
			if err != nil {
				return next, err
			}
			q := QualifiedName{Name: r.toks[next-1].val, Pos: r.pos(k)}
			if next-k == 3 {
				q.Schema = r.toks[k].val
			}
			ps.Inherits = append(ps.Inherits, q)
			return next, nil
		})
		if err != nil {
			return next, err
		}
		r.drop(start, next)
		k = next
	}
	if r.peek(k, "partition") && r.peek(k+1, "by") {
		ps := r.partitionSyntax()
		start := k
		ps.KeyPos = r.pos(k)
		if k+2 >= len(r.toks) || r.toks[k+2].kind != tkIdent {
			return k, r.syntaxErrorAt(k + 2)
		}
		switch s := r.toks[k+2].val; s {
		case "range", "list", "hash":
			ps.Strategy = s
		default:
			return k, pgerr.New(pgerr.InvalidParameterValue, "unrecognized partitioning strategy \"%s\"", s).WithPosition(r.pos(k + 2))
		}
		next, err := r.parenList(k+3, r.partitionKeyPart)
		if err != nil {
			return next, err
		}
		r.drop(start, next)
		k = next
	}
	return k, nil
}
