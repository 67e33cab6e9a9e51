package differential

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// typ is a column or expression type. The generator tracks types exactly
// enough to predict PostgreSQL's result types (smallint + smallint is
// smallint, sum(integer) is bigint, avg(integer) is numeric) and to keep
// every comparison, set operation and join between comparable types.
type typ uint8

const (
	tNull typ = iota // an untyped NULL literal
	tInt2
	tInt4
	tInt8
	tFloat8
	tText
	tVarchar
	tBool
	tDate
	tTimestamp
	tNumeric // only ever produced by an aggregate, and cast away at once
	tEnum    // the round's enum type, df_mood (features.go)
)

// class groups the types that compare with each other.
type class uint8

const (
	cNull class = iota
	cInt
	cFloat
	cText
	cBool
	cDate
	cTimestamp
	cEnum
)

func (t typ) class() class {
	switch t {
	case tInt2, tInt4, tInt8:
		return cInt
	case tFloat8, tNumeric:
		return cFloat
	case tText, tVarchar:
		return cText
	case tBool:
		return cBool
	case tDate:
		return cDate
	case tTimestamp:
		return cTimestamp
	case tEnum:
		return cEnum
	}
	return cNull
}

func (t typ) isInt() bool     { return t.class() == cInt }
func (t typ) isNumeric() bool { return t.class() == cInt || t.class() == cFloat }

// sql is the type's name in a cast or a column definition.
func (t typ) sql() string {
	switch t {
	case tInt2:
		return "smallint"
	case tInt4:
		return "integer"
	case tInt8:
		return "bigint"
	case tFloat8:
		return "double precision"
	case tText, tVarchar:
		return "text"
	case tBool:
		return "boolean"
	case tDate:
		return "date"
	case tTimestamp:
		return "timestamp"
	case tNumeric:
		return "numeric"
	case tEnum:
		return enumName
	}
	return "text"
}

// comparable reports whether values of a and b can meet in =, <, IN, a
// join condition or a set operation without a cast.
func comparable(a, b typ) bool {
	if a == tNull || b == tNull {
		return true
	}
	ca, cb := a.class(), b.class()
	if ca == cb {
		return true
	}
	num := func(c class) bool { return c == cInt || c == cFloat }
	time := func(c class) bool { return c == cDate || c == cTimestamp }
	return num(ca) && num(cb) || time(ca) && time(cb)
}

// unify is the type of a set operation's column, CASE or COALESCE over
// a and b, following PostgreSQL's resolution for the types generated here.
func unify(a, b typ) typ {
	switch {
	case a == tNull:
		return b
	case b == tNull, a == b:
		return a
	case a.isInt() && b.isInt():
		return max(a, b) // tInt2 < tInt4 < tInt8
	case a.isNumeric() && b.isNumeric():
		return tFloat8
	case a.class() == cText && b.class() == cText:
		return tText
	case a.class() == cDate || a.class() == cTimestamp:
		return tTimestamp
	}
	return a
}

// intResult is the type of an arithmetic operator on two integer types.
func intResult(a, b typ) typ {
	if a == tNull {
		return b
	}
	if b == tNull {
		return a
	}
	return max(a, b)
}

// column is a table's column.
type column struct {
	name    string
	typ     typ
	vlen    int // varchar(vlen)
	notNull bool
	// dom is the domain the column is declared with (its values are
	// typ's); notNull then says the domain's NOT NULL, the column has none
	// of its own.
	dom string
	// gen is the expression of a GENERATED ALWAYS AS (gen) STORED column,
	// which writes never name.
	gen string
}

func (c column) ddlType() string {
	if c.dom != "" {
		return c.dom
	}
	if c.typ == tVarchar {
		return fmt.Sprintf("varchar(%d)", c.vlen)
	}
	return c.typ.sql()
}

// index is a secondary index. A Z-order index exists in zproxy only;
// PostgreSQL gets a btree index on the same columns when pgBtree is set,
// else nothing.
type index struct {
	name    string
	cols    []string
	zorder  bool
	pgBtree bool
	// leads lay a Z-order index out (WITH (leads = ...)) when set: the
	// layout moves address bits, never a result.
	leads []int
	// keys, when set, are the key parts as written: cols with some made
	// expressions (lower(c), (c + 1)); where makes the index partial.
	keys  []string
	where string
	// unique makes it a unique index (features.go); the rows are made to
	// keep it. predCol and predGT describe where: predCol IS NOT NULL, or
	// predCol > predGT when predInt.
	unique  bool
	predCol string
	predInt bool
	predGT  int
}

// keyList is the index's key parts as CREATE INDEX writes them.
func (ix index) keyList() string {
	if ix.keys != nil {
		return strings.Join(ix.keys, ", ")
	}
	return strings.Join(ix.cols, ", ")
}

// withWhere appends the predicate of a partial index.
func (ix index) withWhere(sql string) string {
	if ix.where != "" {
		return sql + " WHERE " + ix.where
	}
	return sql
}

// exprKey is an immutable expression of column c both servers index:
// what the optimizer then matches in the queries' predicates.
func exprKey(c column) string {
	switch c.typ.class() {
	case cInt:
		return "(" + c.name + " + 1)"
	case cFloat:
		return "(" + c.name + " * 2)"
	case cText:
		return "lower(" + c.name + ")"
	case cBool:
		return "(NOT " + c.name + ")"
	case cTimestamp:
		return "date_trunc('day', " + c.name + ")"
	}
	return c.name
}

// exprAndPartial makes some keys of ix expressions and some indexes
// partial, from a generator of its own so that the schemas, rows and
// statements of every seed stay as they were. A Z-order index keeps its
// columns when it has leads (they are fitted to the columns' widths).
func exprAndPartial(own *rand.Rand, t *table, ix *index) {
	if own.IntN(3) == 0 && ix.leads == nil {
		ix.keys = slices.Clone(ix.cols)
		for i, name := range ix.cols {
			if own.IntN(2) == 0 {
				ix.keys[i] = exprKey(t.column(name))
			}
		}
	}
	if own.IntN(4) == 0 {
		c := t.cols[own.IntN(len(t.cols))]
		ix.where = c.name + " IS NOT NULL"
		ix.predCol = c.name
		if c.typ.class() == cInt {
			ix.predInt, ix.predGT = true, own.IntN(5)-2
			ix.where = fmt.Sprintf("%s > %d", c.name, ix.predGT)
		}
	}
}

// table is a generated table with its rows. Rows hold each value's text
// form (nil is NULL), which both servers take as an untyped literal.
type table struct {
	name    string
	cols    []column
	pk      []int  // column positions; empty: no primary key
	pkDesc  []bool // per pk column, zproxy only (PostgreSQL has no DESC in a key)
	shards  int    // WITH (shards = N), zproxy only; 0: the default
	indexes []index
	rows    [][]*string

	// shardCols, with shards > 1, is how many leading key columns place
	// the rows (WITH (shard_columns = ...)), zproxy only; 0: the whole key.
	shardCols int
	// temp makes it a temporary table (CREATE TEMP TABLE) on both
	// servers: the campaign keeps one connection to each, so it lives as
	// long as the schema. onCommit is its ON COMMIT clause ("": none).
	temp     bool
	onCommit string
	// part, when set, partitions the table (features.go).
	part *partitioning
}

func (t *table) colIndex(name string) int {
	return slices.IndexFunc(t.cols, func(c column) bool { return c.name == name })
}

// createSQL is the CREATE TABLE statement for zproxy (zp) or PostgreSQL.
func (t *table) createSQL(zp bool) string {
	var b strings.Builder
	switch {
	case t.temp:
		fmt.Fprintf(&b, "CREATE TEMP TABLE %s (", t.name)
	default:
		fmt.Fprintf(&b, "CREATE TABLE %s (", t.name)
	}
	for i, c := range t.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", c.name, c.ddlType())
		if c.notNull && c.dom == "" {
			b.WriteString(" NOT NULL")
		}
		if c.gen != "" {
			fmt.Fprintf(&b, " GENERATED ALWAYS AS (%s) STORED", c.gen)
		}
	}
	if len(t.pk) > 0 {
		b.WriteString(", PRIMARY KEY (")
		for i, p := range t.pk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.cols[p].name)
			if zp && t.pkDesc[i] {
				b.WriteString(" DESC")
			}
		}
		b.WriteString(")")
	}
	b.WriteString(")")
	if t.part != nil {
		fmt.Fprintf(&b, " PARTITION BY %s (%s)", t.part.kind, t.part.col)
	}
	switch {
	case t.part != nil:
	case zp && t.shards > 1 && t.shardCols > 0:
		var cols []string
		for _, p := range t.pk[:t.shardCols] {
			cols = append(cols, t.cols[p].name)
		}
		fmt.Fprintf(&b, " WITH (shards = %d, shard_columns = (%s))", t.shards, strings.Join(cols, ", "))
	case zp && t.shards > 0:
		fmt.Fprintf(&b, " WITH (shards = %d)", t.shards)
	}
	if t.onCommit != "" {
		b.WriteString(" ON COMMIT " + t.onCommit)
	}
	return b.String()
}

// column returns t's column named name.
func (t *table) column(name string) column {
	for _, c := range t.cols {
		if c.name == name {
			return c
		}
	}
	panic("no column " + name)
}

// zWidth is a column's Z-order attribute width in bits, as zproxy gives it
// by default (catalog.Table.NewZSchema, zorder.DefaultWidth).
func zWidth(c column) int {
	switch c.typ {
	case tInt2:
		return 16
	case tInt4, tDate:
		return 32
	case tBool:
		if c.notNull {
			return 1
		}
		return 2
	}
	return 64
}

// indexSQL is the CREATE INDEX statements for zproxy or PostgreSQL.
func (t *table) indexSQL(zp bool) []string {
	var out []string
	for _, ix := range t.indexes {
		switch {
		case ix.zorder && zp:
			sql := fmt.Sprintf("CREATE INDEX %s ON %s USING zorder (%s)", ix.name, t.name, ix.keyList())
			if ix.leads != nil {
				leads := make([]string, len(ix.leads))
				for i, l := range ix.leads {
					leads[i] = fmt.Sprint(l)
				}
				sql += fmt.Sprintf(" WITH (leads = '%s')", strings.Join(leads, ","))
			}
			out = append(out, ix.withWhere(sql))
		case ix.zorder && !ix.pgBtree:
		case ix.unique:
			out = append(out, ix.withWhere(fmt.Sprintf("CREATE UNIQUE INDEX %s ON %s (%s)", ix.name, t.name, ix.keyList())))
		default:
			out = append(out, ix.withWhere(fmt.Sprintf("CREATE INDEX %s ON %s (%s)", ix.name, t.name, ix.keyList())))
		}
	}
	return out
}

// insertSQL is the INSERT statements loading rows (in batches), which
// leave the generated columns to their expressions.
func (t *table) insertSQL(rows [][]*string) []string {
	var out []string
	into := "INSERT INTO " + t.name + " VALUES "
	var keep []int
	for i, c := range t.cols {
		if c.gen == "" {
			keep = append(keep, i)
		}
	}
	if len(keep) < len(t.cols) {
		var names []string
		for _, i := range keep {
			names = append(names, t.cols[i].name)
		}
		into = "INSERT INTO " + t.name + " (" + strings.Join(names, ", ") + ") VALUES "
	}
	for start := 0; start < len(rows); start += 50 {
		end := min(start+50, len(rows))
		var b strings.Builder
		renderList(&b, into, rows[start:end], func(r []*string) {
			renderList(&b, "(", keep, func(i int) { b.WriteString(textLiteral(r[i])) })
			b.WriteString(")")
		})
		out = append(out, b.String())
	}
	return out
}

// textLiteral quotes a value's text form as an untyped SQL literal.
func textLiteral(v *string) string {
	if v == nil {
		return "NULL"
	}
	return "'" + strings.ReplaceAll(*v, "'", "''") + "'"
}

// view is a view the statements so far have created.
type view struct {
	name string
	cols []outCol
	def  string // the SELECT
}

// schema is the database state a round of the campaign works on.
type schema struct {
	tables []*table
	views  []*view
	feat   features // the round's schema-language features (features.go)
}

func (s *schema) table(name string) *table {
	for _, t := range s.tables {
		if t.name == name {
			return t
		}
	}
	return nil
}

func (s *schema) clone() *schema {
	c := &schema{feat: s.feat}
	for _, t := range s.tables {
		nt := *t
		nt.cols = slices.Clone(t.cols)
		nt.pk = slices.Clone(t.pk)
		nt.pkDesc = slices.Clone(t.pkDesc)
		nt.indexes = slices.Clone(t.indexes)
		nt.rows = slices.Clone(t.rows)
		c.tables = append(c.tables, &nt)
	}
	for _, v := range s.views {
		nv := *v
		c.views = append(c.views, &nv)
	}
	return c
}

// The value domains are small so that joins, IN and EXISTS find matches,
// GROUP BY finds groups and DISTINCT finds duplicates. Floats are binary
// fractions, so sums are exact whatever order they are added in. Dates and
// timestamps have no time zone (timestamptz is left out for now).
var (
	intDomain   = []string{"0", "1", "2", "3", "4", "5", "6", "7", "-1", "10"}
	int8Extra   = []string{"3000000000", "-4000000000"}
	floatDomain = []string{"0", "0.5", "1", "1.5", "2", "-2.25", "3", "100.125", "-0.5"}
	textDomain  = []string{"", "a", "b", "c", "ab", "B", "a%", "b_c", "abc", "ba"}
	boolDomain  = []string{"t", "f"}
	dateDomain  = []string{"2024-01-01", "2024-01-02", "2024-01-03", "2024-02-29", "2023-12-31", "1999-01-01"}
	tsDomain    = []string{"2024-01-01 00:00:00", "2024-01-01 12:30:00", "2024-01-02 00:00:00", "2024-01-01 00:00:00.5", "2023-12-31 23:59:59", "2024-03-01 08:00:00"}
)

func domain(t typ) []string {
	switch t {
	case tInt2, tInt4:
		return intDomain
	case tInt8:
		return append(slices.Clone(intDomain), int8Extra...)
	case tFloat8:
		return floatDomain
	case tText, tVarchar:
		return textDomain
	case tBool:
		return boolDomain
	case tDate:
		return dateDomain
	case tTimestamp:
		return tsDomain
	case tEnum:
		return enumLabels
	}
	return []string{"0"}
}

// columnTypes are the types the generator uses for columns, with weights
// (real/float4 and timestamptz are left out for now).
var columnTypes = []typ{tInt4, tInt4, tInt4, tInt2, tInt8, tFloat8, tText, tText, tVarchar, tBool, tDate, tTimestamp}

// genSchema draws 2-5 tables. Column names come from one pool with one
// type class per name, so tables share names (NATURAL and USING joins have
// something to match) and same-named columns are always comparable.
//
// feat draws the round's schema-language features (features.go): a schema
// of its own, enum and domain columns, generated columns, unique and
// partial indexes, partitioned tables.
func genSchema(rng, feat *rand.Rand, maxRows int) *schema {
	pool := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	poolType := map[string]typ{}
	for _, n := range pool {
		poolType[n] = columnTypes[rng.IntN(len(columnTypes))]
	}
	s := &schema{feat: drawFeatures(feat)}
	if s.feat.enum {
		poolType[pool[feat.IntN(len(pool))]] = tEnum
	}
	ntables := 2 + rng.IntN(4)
	for ti := 0; ti < ntables; ti++ {
		t := &table{name: fmt.Sprintf("t%d", ti)}
		ncols := 2 + rng.IntN(4)
		names := slices.Clone(pool)
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for _, n := range names[:ncols] {
			ty := poolType[n]
			// Vary the width within the class: smallint/integer/bigint,
			// text/varchar.
			switch {
			case ty.isInt() && rng.IntN(3) == 0:
				ty = []typ{tInt2, tInt4, tInt8}[rng.IntN(3)]
			case ty.class() == cText && rng.IntN(3) == 0:
				ty = []typ{tText, tVarchar}[rng.IntN(2)]
			}
			c := column{name: n, typ: ty}
			if ty == tVarchar {
				c.vlen = 3 + rng.IntN(6)
			}
			s.feat.domainColumn(feat, &c)
			t.cols = append(t.cols, c)
		}
		// Most tables have a primary key of one or two columns, in any
		// order; some have none (zproxy keys those by a hidden row id).
		if rng.IntN(10) < 6 {
			nk := 1 + rng.IntN(min(2, ncols))
			perm := rng.Perm(ncols)[:nk]
			for _, p := range perm {
				t.pk = append(t.pk, p)
				t.pkDesc = append(t.pkDesc, rng.IntN(4) == 0)
				t.cols[p].notNull = true
			}
		}
		for i := range t.cols {
			if !t.cols[i].notNull && rng.IntN(8) == 0 {
				t.cols[i].notNull = true
			}
		}
		if rng.IntN(2) == 0 {
			t.shards = 1 + rng.IntN(4)
		}
		nix := rng.IntN(3)
		for k := 0; k < nix; k++ {
			n := 1 + rng.IntN(min(2, ncols))
			var cols []string
			for _, p := range rng.Perm(ncols)[:n] {
				cols = append(cols, t.cols[p].name)
			}
			ix := index{name: fmt.Sprintf("%s_i%d", t.name, k), cols: cols}
			if rng.IntN(3) == 0 && !slices.ContainsFunc(cols, func(n string) bool { return t.column(n).typ == tEnum }) {
				ix.zorder = true
				ix.pgBtree = rng.IntN(2) == 0
				// Leads from a generator of their own, so that the
				// schemas, rows and statements of every seed stay as they
				// were.
				own := rand.New(rand.NewPCG(uint64(ti)<<8|uint64(k), uint64(len(cols))))
				if own.IntN(2) == 0 {
					for _, name := range cols {
						ix.leads = append(ix.leads, own.IntN(zWidth(t.column(name))+1))
					}
				}
			}
			exprAndPartial(rand.New(rand.NewPCG(uint64(ti)<<8|uint64(k), 0x1d3)), t, &ix)
			t.indexes = append(t.indexes, ix)
		}
		s.feat.tableFeatures(feat, t)
		t.rows = genRows(rng, t, rng.IntN(maxRows+1))
		keepUnique(t)
		if t.shards > 1 && len(t.pk) > 0 {
			// Shard columns from a generator of their own, so that the
			// schemas, rows and statements of every seed stay as they were.
			own := rand.New(rand.NewPCG(uint64(t.shards), uint64(len(t.rows))<<8|uint64(ti)))
			t.shardCols = own.IntN(len(t.pk) + 1)
		}
		// A temporary table now and then, from a generator of its own for
		// the same reason.
		t.temp = rand.New(rand.NewPCG(uint64(ti)+7, uint64(len(t.rows)))).IntN(4) == 0
		s.feat.placeTable(feat, t)
		s.tables = append(s.tables, t)
	}
	s.feat.shadow(feat, s, maxRows)
	return s
}

// genRows draws n rows with NULLs, duplicates and skew: each column draws
// from its own small subset of the type's domain, with a column-specific
// NULL rate. Rows whose primary key is taken are dropped.
func genRows(rng *rand.Rand, t *table, n int) [][]*string {
	type colGen struct {
		vals     []string
		nullRate int // percent
	}
	gens := make([]colGen, len(t.cols))
	for i, c := range t.cols {
		d := slices.Clone(domain(c.typ))
		rng.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
		k := 2 + rng.IntN(len(d)-1)
		if c.typ == tVarchar {
			d = slices.DeleteFunc(d, func(v string) bool { return len(v) > c.vlen })
			k = min(k, len(d))
		}
		if c.dom != "" {
			d = slices.DeleteFunc(d, func(v string) bool { return !domainAllows(c.dom, v) })
			k = min(k, len(d))
		}
		g := colGen{vals: d[:k]}
		if !c.notNull {
			g.nullRate = []int{0, 10, 20, 40}[rng.IntN(4)]
		}
		gens[i] = g
	}
	seen := map[string]bool{}
	var rows [][]*string
	for len(rows) < n {
		r := make([]*string, len(t.cols))
		for i, g := range gens {
			if rng.IntN(100) < g.nullRate {
				continue
			}
			// Skew: the first value of the subset is drawn a third of
			// the time.
			v := g.vals[0]
			if rng.IntN(3) != 0 {
				v = g.vals[rng.IntN(len(g.vals))]
			}
			r[i] = &v
		}
		if len(t.pk) > 0 {
			var key []string
			for _, p := range t.pk {
				key = append(key, *r[p])
			}
			k := strings.Join(key, "\x00")
			if seen[k] {
				n-- // the key space may be smaller than n
				continue
			}
			seen[k] = true
		} else if len(rows) > 0 && rng.IntN(6) == 0 {
			r = slices.Clone(rows[rng.IntN(len(rows))]) // an exact duplicate
		}
		rows = append(rows, r)
	}
	return rows
}
