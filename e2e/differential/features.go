package differential

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The schema-language features a round may use besides plain tables: a
// schema of its own (named qualified, or found through search_path), a
// temporary table shadowing a permanent one of the same name, an enum
// type, domains, generated columns, unique and partial indexes, and
// partitioned tables. They are drawn from a generator of their own
// (seeded by the campaign's seed and the round), so that adding one does
// not move the draws of the others.

const (
	// roundSchema is the schema of a round's tables when it has one.
	roundSchema = "dfs"
	// enumName is the round's enum type; its labels are declared out of
	// alphabetical order, so ordering by declaration shows.
	enumName = "df_mood"
	// domPosInt and domCode are the round's domains: integers that are
	// not negative, and text that is never NULL nor 'abc'.
	domPosInt = "df_posint"
	domCode   = "df_code"
)

var enumLabels = []string{"sad", "ok", "happy", "calm"}

// features are the round's draws.
type features struct {
	nsp       string // roundSchema, or "" (public)
	qualified bool   // with nsp: tables are named nsp.tN; without, search_path finds them
	enum      bool
	domains   bool
	generated bool
	unique    bool
	partition bool
	shadowing bool // a permanent nsp.tN beside a temporary tN
}

func drawFeatures(r *rand.Rand) features {
	f := features{
		enum:      r.IntN(3) == 0,
		domains:   r.IntN(3) == 0,
		generated: r.IntN(3) == 0,
		unique:    r.IntN(3) == 0,
		partition: r.IntN(3) == 0,
	}
	switch r.IntN(4) {
	case 0:
		f.nsp = roundSchema
	case 1:
		f.nsp, f.qualified = roundSchema, true
	}
	f.shadowing = f.nsp != "" && r.IntN(2) == 0
	return f
}

// setupSQL creates the round's schema and types, before its tables.
func (f features) setupSQL() []string {
	var out []string
	if f.nsp != "" {
		out = append(out, "CREATE SCHEMA "+f.nsp)
		if !f.qualified {
			out = append(out, "SET search_path = "+f.nsp+", public")
		}
	}
	if f.enum {
		var labels []string
		for _, l := range enumLabels {
			labels = append(labels, "'"+l+"'")
		}
		out = append(out, fmt.Sprintf("CREATE TYPE %s AS ENUM (%s)", enumName, strings.Join(labels, ", ")))
	}
	if f.domains {
		out = append(out,
			"CREATE DOMAIN "+domPosInt+" AS integer CHECK (VALUE >= 0)",
			"CREATE DOMAIN "+domCode+" AS text NOT NULL CHECK (VALUE <> 'abc')")
	}
	return out
}

// domainColumn declares some integer and text columns with a domain.
func (f features) domainColumn(r *rand.Rand, c *column) {
	if !f.domains || r.IntN(3) != 0 {
		return
	}
	switch c.typ {
	case tInt4:
		c.dom = domPosInt
	case tText:
		c.dom, c.notNull = domCode, true
	}
}

// domainAllows says whether a value's text form is one domain d takes.
func domainAllows(d, v string) bool {
	switch d {
	case domPosInt:
		return !strings.HasPrefix(v, "-")
	case domCode:
		return v != "abc"
	}
	return true
}

// partitioning is PARTITION BY kind (col) with its partitions' bounds.
type partitioning struct {
	kind   string   // RANGE, LIST, HASH
	col    string   // the partition key
	bounds []string // FOR VALUES ... or DEFAULT, one per partition
}

// tableFeatures adds generated columns, unique indexes and a partitioning
// to t, before its rows are drawn.
func (f features) tableFeatures(r *rand.Rand, t *table) {
	if f.generated && r.IntN(2) == 0 {
		for _, c := range slices.Clone(t.cols) {
			switch {
			case c.typ.isInt() && !slices.ContainsFunc(t.cols, func(c column) bool { return c.name == "gi" }):
				t.cols = append(t.cols, column{name: "gi", typ: tInt8,
					gen: pick2(r, []string{"CAST(%s AS bigint) * 2 + 1", "CAST(%s AS bigint) - 3"}, c.name)})
			case c.typ.class() == cText && !slices.ContainsFunc(t.cols, func(c column) bool { return c.name == "gt" }):
				t.cols = append(t.cols, column{name: "gt", typ: tText,
					gen: pick2(r, []string{"lower(%s) || 'x'", "upper(%s)"}, c.name)})
			}
		}
	}
	if f.partition && r.IntN(2) == 0 {
		f.partitionTable(r, t)
	}
	if f.unique && t.part == nil && r.IntN(2) == 0 {
		var cands []column
		for _, c := range t.cols {
			if c.gen == "" && (c.typ.isInt() || c.typ.class() == cText || c.typ == tDate) {
				cands = append(cands, c)
			}
		}
		if len(cands) > 0 {
			c := cands[r.IntN(len(cands))]
			ix := index{name: fmt.Sprintf("%s_u0", t.name), cols: []string{c.name}, unique: true}
			if r.IntN(2) == 0 && (c.typ.isInt() || c.typ.class() == cText) {
				ix.keys = []string{exprKey(c)}
			}
			if r.IntN(3) != 0 {
				p := t.cols[r.IntN(len(t.cols))]
				if p.gen == "" {
					ix.predCol, ix.where = p.name, p.name+" IS NOT NULL"
					if p.typ.isInt() {
						ix.predInt, ix.predGT = true, r.IntN(4)-1
						ix.where = fmt.Sprintf("%s > %d", p.name, ix.predGT)
					}
				}
			}
			t.indexes = append(t.indexes, ix)
		}
	}
}

func pick2(r *rand.Rand, forms []string, arg string) string {
	return fmt.Sprintf(forms[r.IntN(len(forms))], arg)
}

// partitionTable partitions t by a column of its primary key (PostgreSQL's
// rule for a partitioned table's keys), or any when it has none: a table
// without a key has its partition key updated, so rows move between
// partitions. RANGE and LIST have a DEFAULT partition; HASH cannot.
func (f features) partitionTable(r *rand.Rand, t *table) {
	var cands []column
	for i, c := range t.cols {
		if c.gen != "" || c.dom != "" || !(c.typ.isInt() || c.typ.class() == cText || c.typ == tDate) {
			continue
		}
		if len(t.pk) > 0 && !slices.Contains(t.pk, i) {
			continue
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return
	}
	c := cands[r.IntN(len(cands))]
	p := &partitioning{col: c.name}
	switch {
	case c.typ.class() == cText && r.IntN(2) == 0, c.typ.isInt() && r.IntN(3) == 0:
		p.kind = "HASH"
		n := 2 + r.IntN(3)
		for i := 0; i < n; i++ {
			p.bounds = append(p.bounds, fmt.Sprintf("FOR VALUES WITH (MODULUS %d, REMAINDER %d)", n, i))
		}
	case c.typ.class() == cText:
		p.kind = "LIST"
		p.bounds = []string{"FOR VALUES IN ('a', 'ab')", "FOR VALUES IN ('', 'b', NULL)", "DEFAULT"}
	case c.typ.isInt() && r.IntN(2) == 0:
		p.kind = "LIST"
		p.bounds = []string{"FOR VALUES IN (0, 1)", "FOR VALUES IN (2, 3, 10)", "DEFAULT"}
	case c.typ.isInt():
		p.kind = "RANGE"
		p.bounds = []string{"FOR VALUES FROM (MINVALUE) TO (2)", "FOR VALUES FROM (2) TO (5)"}
		if r.IntN(2) == 0 {
			p.bounds = append(p.bounds, "DEFAULT")
		} else {
			p.bounds = append(p.bounds, "FOR VALUES FROM (5) TO (MAXVALUE)")
			if !c.notNull {
				return // a NULL key needs the DEFAULT partition
			}
		}
	default: // date
		p.kind = "RANGE"
		p.bounds = []string{"FOR VALUES FROM (MINVALUE) TO ('2024-01-01')", "FOR VALUES FROM ('2024-01-01') TO ('2024-02-01')", "DEFAULT"}
	}
	t.part = p
	// Options PostgreSQL lacks stay off a partitioned table.
	t.shards, t.shardCols = 0, 0
	for i := range t.indexes {
		t.indexes[i].zorder, t.indexes[i].leads = false, nil
	}
}

// partitionSQL creates t's partitions.
func (t *table) partitionSQL() []string {
	if t.part == nil {
		return nil
	}
	var out []string
	for i, b := range t.part.bounds {
		out = append(out, fmt.Sprintf("CREATE TABLE %s_p%d PARTITION OF %s %s", t.name, i, t.name, b))
	}
	return out
}

// keepUnique drops the rows that would break t's unique indexes.
func keepUnique(t *table) {
	for _, ix := range t.indexes {
		if !ix.unique {
			continue
		}
		seen := map[string]bool{}
		t.rows = slices.DeleteFunc(t.rows, func(row []*string) bool {
			if !ix.holds(t, row) {
				return false
			}
			var key []string
			for i, name := range ix.cols {
				v := row[t.colIndex(name)]
				if v == nil {
					return false // NULLs never conflict
				}
				if ix.keys != nil && strings.HasPrefix(ix.keys[i], "lower(") {
					key = append(key, strings.ToLower(*v))
				} else {
					key = append(key, *v)
				}
			}
			k := strings.Join(key, "\x00")
			if seen[k] {
				return true
			}
			seen[k] = true
			return false
		})
	}
}

// holds says whether a partial index's predicate holds for row.
func (ix index) holds(t *table, row []*string) bool {
	if ix.where == "" {
		return true
	}
	v := row[t.colIndex(ix.predCol)]
	if v == nil {
		return false
	}
	if ix.predInt {
		var n int64
		fmt.Sscan(*v, &n)
		return n > int64(ix.predGT)
	}
	return true
}

// uniqueCols are the columns t's unique indexes read (keys and
// predicates): an UPDATE leaves them alone, since PostgreSQL checks
// uniqueness row by row and a statement that swaps values would fail or
// not depending on the order it visits rows in.
func (t *table) uniqueCols() map[string]bool {
	out := map[string]bool{}
	for _, ix := range t.indexes {
		if ix.unique {
			for _, c := range ix.cols {
				out[c] = true
			}
			if ix.predCol != "" {
				out[ix.predCol] = true
			}
		}
	}
	return out
}

// placeTable names t in the round's schema and gives a temporary table
// its ON COMMIT clause; a partitioned table stays permanent.
func (f features) placeTable(r *rand.Rand, t *table) {
	if t.part != nil {
		t.temp = false
	}
	if t.temp {
		if r.IntN(2) == 0 {
			t.onCommit = "PRESERVE ROWS"
		}
		return
	}
	if f.qualified {
		t.name = f.nsp + "." + t.name
	}
}

// shadow adds a permanent table of the round's schema named as one of its
// temporary tables: statements name it qualified, and the bare name finds
// the temporary one (pg_temp comes first in search_path).
func (f features) shadow(r *rand.Rand, s *schema, maxRows int) {
	if !f.shadowing {
		return
	}
	var temps []*table
	for _, t := range s.tables {
		if t.temp {
			temps = append(temps, t)
		}
	}
	if len(temps) == 0 {
		return
	}
	tt := temps[r.IntN(len(temps))]
	t := &table{name: f.nsp + "." + tt.name}
	for _, c := range tt.cols {
		if c.gen != "" {
			continue // its column may be left out
		}
		if r.IntN(3) != 0 || len(t.cols) == 0 {
			if c.dom == "" {
				c.notNull = false // a domain's NOT NULL stays
			}
			t.cols = append(t.cols, c)
		}
	}
	t.rows = genRows(r, t, r.IntN(maxRows+1))
	s.tables = append(s.tables, t)
}

// baseName is a table's name without its schema.
func baseName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// dotted: a schema-qualified name, which statements always alias (a
// qualified column reference through it would be spelled s.t.c).
func dotted(name string) bool { return strings.Contains(name, ".") }

// indexHint is a table with partial or expression indexes in a FROM list,
// under its qualifier there.
type indexHint struct {
	qual string
	t    *table
}

func indexHintable(ix index) bool { return ix.where != "" || ix.keys != nil }

// indexPred is a conjunct over a partial or expression index of h's table:
// one that implies the index's predicate (c > k+n, c = v, c IS NOT NULL),
// one that nearly does (c >= k, c > k-1, c IS NULL), or a comparison of
// an indexed expression (lower(c) = 'a', (c + 1) > 2), so that the
// optimizer's implication test and expression matching are exercised and
// the answer checks them.
func (g *gen) indexPred(h indexHint) *expr {
	var ixs []index
	for _, ix := range h.t.indexes {
		if indexHintable(ix) {
			ixs = append(ixs, ix)
		}
	}
	ix := pick(g, ixs)
	var parts []*expr
	if ix.where != "" {
		col := h.t.column(ix.predCol)
		ref := leaf(col.typ, h.qual+"."+col.name)
		switch {
		case ix.predInt:
			k := ix.predGT
			form := pick(g, []string{
				fmt.Sprintf("($1 > %d)", k+g.n(3)),
				fmt.Sprintf("($1 = %d)", k+1+g.n(3)),
				fmt.Sprintf("($1 BETWEEN %d AND %d)", k+1, k+1+g.n(4)),
				fmt.Sprintf("($1 IN (%d, %d))", k+1, k+2+g.n(3)),
				fmt.Sprintf("($1 >= %d)", k),
				fmt.Sprintf("($1 > %d)", k-1),
			})
			parts = append(parts, mk(tBool, form, ref))
		case g.chance(50):
			parts = append(parts, mk(tBool, pick(g, []string{"($1 IS NOT NULL)", "($1 IS NULL)"}), ref))
		default:
			parts = append(parts, mk(tBool, pick(g, []string{"($1 = $2)", "($1 >= $2)", "($1 <> $2)"}), ref, g.literalNotNull(col.typ)))
		}
		g.tag("index.partial-predicate")
	}
	if ix.keys != nil && (len(parts) == 0 || g.chance(50)) {
		i := g.n(len(ix.cols))
		col := h.t.column(ix.cols[i])
		qc := col
		qc.name = h.qual + "." + col.name
		e := leaf(col.typ, exprKey(qc))
		switch ix.keys[i] {
		case col.name:
			parts = append(parts, mk(tBool, "($1 = $2)", e, g.literalNotNull(col.typ)))
		default:
			g.tag("index.expression-predicate")
			switch col.typ.class() {
			case cBool:
				parts = append(parts, mk(tBool, "$1", e))
			case cText:
				parts = append(parts, mk(tBool, pick(g, []string{"($1 = $2)", "($1 < $2)", "($1 IN ($2, $3))"}), e,
					g.literalNotNull(tText), g.literalNotNull(tText)))
			default:
				parts = append(parts, mk(tBool, pick(g, []string{"($1 = $2)", "($1 > $2)", "($1 <= $2)"}), e, g.literalNotNull(col.typ)))
			}
		}
	}
	if len(parts) == 0 {
		return leaf(tBool, "true")
	}
	p := parts[0]
	for _, q := range parts[1:] {
		p = mk(tBool, "($1 AND $2)", p, q)
	}
	return p
}

// tagTable tags the features of a table a statement reads or writes.
func (g *gen) tagTable(prefix string, t *table) {
	if t.temp {
		g.tag(prefix + ".temp")
	}
	if t.part != nil {
		g.tag(prefix + ".partitioned-" + strings.ToLower(t.part.kind))
	}
	for _, c := range t.cols {
		switch {
		case c.typ == tEnum:
			g.tag(prefix + ".enum")
		case c.dom != "":
			g.tag(prefix + ".domain")
		case c.gen != "":
			g.tag(prefix + ".generated")
		}
	}
	for _, ix := range t.indexes {
		if ix.unique {
			g.tag(prefix + ".unique-index")
		}
	}
}
