package differential

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// A transaction block (kTxn) runs DDL and writes between BEGIN and its
// end, one statement at a time on both servers: ROLLBACK; a statement
// that fails, more statements (25P02 on both) and then COMMIT, which
// rolls back; or COMMIT. Each statement's outcome is compared, then what
// the catalog shows of the round's schemas (information_schema.tables and
// columns, the session's temporary tables in pg_class) and every table's
// contents: a block that did not commit must leave no trace.

// txnBlock is a block's statements, and the table it creates, if any.
type txnBlock struct {
	steps    []string
	newTable *table
}

// catalogSQL reads what the catalog shows of the round's relations.
var catalogSQL = []string{
	"SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE table_schema IN ('public', '" + roundSchema + "', 'dfx')",
	"SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns WHERE table_schema IN ('public', '" + roundSchema + "', 'dfx') AND table_name LIKE 't%'",
	"SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind IN ('r', 'p')",
}

// freeTable is the number of the next table the round may create, or -1.
func (g *gen) freeTable() int {
	n := 0
	for _, t := range g.sch.tables {
		var k int
		if _, err := fmt.Sscanf(baseName(t.name), "t%d", &k); err == nil && k >= n {
			n = k + 1
		}
	}
	if n >= maxTables {
		return -1
	}
	return n
}

// txnTable draws a small table for a block to create: permanent (in the
// round's schema when it has one) or temporary with an ON COMMIT clause.
func (g *gen) txnTable(n, maxRows int) *table {
	t := &table{name: fmt.Sprintf("t%d", n)}
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	types := map[string]typ{}
	for _, old := range g.sch.tables {
		for _, c := range old.cols {
			types[c.name] = c.typ
		}
	}
	g.rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for _, name := range names[:2+g.n(3)] {
		ty, ok := types[name]
		switch {
		case !ok:
			ty = pick(g, []typ{tInt4, tText, tDate, tBool})
		case ty == tVarchar:
			ty = tText
		}
		t.cols = append(t.cols, column{name: name, typ: ty})
	}
	if g.chance(50) {
		t.pk = []int{0}
		t.pkDesc = []bool{false}
		t.cols[0].notNull = true
	}
	if g.chance(30) {
		t.cols[len(t.cols)-1].notNull = true
	}
	if g.chance(40) {
		t.indexes = append(t.indexes, index{name: t.name + "_i0", cols: []string{t.cols[len(t.cols)-1].name}})
	}
	switch {
	case g.chance(35):
		t.temp = true
		t.onCommit = pick(g, []string{"", "PRESERVE ROWS", "DELETE ROWS", "DELETE ROWS", "DROP"})
		g.tag("txn.temp-" + strings.ToLower(strings.ReplaceAll(cmp.Or(t.onCommit, "default"), " ", "-")))
	case g.sch.feat.qualified:
		t.name = g.sch.feat.nsp + "." + t.name
	}
	t.rows = genRows(g.rng, t, g.n(maxRows+1))
	return t
}

// txnStmt draws a transaction block.
func (g *gen) txnStmt(depth, maxRows int) *stmt {
	b := &txnBlock{steps: []string{"BEGIN"}}
	mode := pick(g, []string{"rollback", "rollback", "fail", "commit", "commit"})
	g.tag("txn." + mode)
	if n := g.freeTable(); n >= 0 && g.chance(80) {
		t := g.txnTable(n, maxRows)
		b.newTable = t
		b.steps = append(b.steps, t.createSQL(false))
		b.steps = append(b.steps, t.indexSQL(false)...)
		b.steps = append(b.steps, t.insertSQL(t.rows)...)
		b.steps = append(b.steps, "SELECT * FROM "+t.name)
		g.tag("txn.create-table")
	}
	for i, n := 0, g.n(3); i < n; i++ {
		w := g.write(depth, maxRows)
		b.steps = append(b.steps, w.sql())
		g.tag("txn.write")
	}
	var perm []*table
	for _, t := range g.sch.tables {
		if !t.temp {
			perm = append(perm, t)
		}
	}
	if mode != "commit" && len(perm) > 0 && g.chance(70) {
		t := pick(g, perm)
		switch g.n(6) {
		case 0:
			if t.part == nil {
				b.steps = append(b.steps, "ALTER TABLE "+t.name+" ADD COLUMN zz integer DEFAULT 7", "SELECT * FROM "+t.name)
				g.tag("txn.alter-table")
			}
		case 1:
			// 2BP01 on both when a view reads it.
			b.steps = append(b.steps, "DROP TABLE "+t.name, "SELECT count(*) FROM "+t.name)
			g.tag("txn.drop-table")
		case 2:
			b.steps = append(b.steps, "TRUNCATE "+t.name, "SELECT * FROM "+t.name)
			g.tag("txn.truncate")
		case 3:
			c := pick(g, t.cols)
			b.steps = append(b.steps, fmt.Sprintf("CREATE INDEX tx_i ON %s (%s)", t.name, c.name))
			g.tag("txn.create-index")
		case 4:
			b.steps = append(b.steps, "CREATE SCHEMA dfx", "CREATE TABLE dfx.t9 (a integer PRIMARY KEY, b text)",
				"INSERT INTO dfx.t9 VALUES (1, 'x')", "SELECT * FROM dfx.t9")
			g.tag("txn.create-schema")
		default:
			if g.sch.feat.enum {
				b.steps = append(b.steps, "CREATE TABLE tx_e (m "+enumName+")", "INSERT INTO tx_e VALUES ('calm'), ('sad')",
					"SELECT m FROM tx_e ORDER BY m")
				g.tag("txn.enum-table")
			}
		}
	}
	switch mode {
	case "fail":
		b.steps = append(b.steps, pick(g, []string{"SELECT 1 / 0", "SELECT CAST('x' AS integer)", "INSERT INTO nosuchtable VALUES (1)"}))
		if b.newTable != nil {
			b.steps = append(b.steps, "SELECT * FROM "+b.newTable.name)
		}
		b.steps = append(b.steps, "COMMIT")
	case "commit":
		b.steps = append(b.steps, "COMMIT")
	default:
		b.steps = append(b.steps, "ROLLBACK")
	}
	return &stmt{kind: kTxn, txn: b}
}

// executeTxn runs a block and compares each statement, then the catalog
// and the tables; sch takes the tables as PostgreSQL has them afterwards,
// with the block's new table when it committed.
func (c *campaign) executeTxn(ctx context.Context, sch *schema, st *stmt) outcome {
	var o outcome
	note := func(step string, pg, zp result, ms []mismatch) {
		if o.ms != nil {
			return
		}
		for i := range ms {
			ms[i].detail = step + ": " + ms[i].detail
		}
		o.pg, o.zp, o.ms = pg, zp, ms
	}
	for _, step := range st.txn.steps {
		pg, zp := c.both(ctx, step)
		o.pg.dur += pg.dur
		o.zp.dur += zp.dur
		if pg.lost() || zp.lost() {
			note(step, pg, zp, []mismatch{{mLost, fmt.Sprintf("PostgreSQL: %v; zproxy: %v", pg.err, zp.err)}})
			c.both(ctx, "ROLLBACK")
			return o
		}
		ms := compareResults(pg, zp, orderSpec{})
		if !pg.failed() && !zp.failed() && pg.tag != zp.tag && (step == "COMMIT" || step == "ROLLBACK") {
			ms = append(ms, mismatch{mTag, fmt.Sprintf("PostgreSQL %q, zproxy %q", pg.tag, zp.tag)})
		}
		if len(ms) > 0 {
			note(step, pg, zp, ms)
		}
	}
	if o.ms != nil {
		c.both(ctx, "ROLLBACK")
		return o
	}
	for _, q := range catalogSQL {
		pg, zp := c.both(ctx, q)
		if ms := compareResults(pg, zp, orderSpec{}); len(ms) > 0 {
			note("the catalog afterwards ("+q+")", pg, zp, ms)
			return o
		}
	}
	tables := slices.Clone(sch.tables)
	if nt := st.txn.newTable; nt != nil {
		cp := *nt
		tables = append(tables, &cp)
	}
	for _, t := range tables {
		pg, zp := c.both(ctx, "SELECT * FROM "+t.name)
		if pg.failed() || zp.failed() {
			if ms := compareResults(pg, zp, orderSpec{}); len(ms) > 0 {
				note(t.name+" afterwards", pg, zp, ms)
				return o
			}
			continue // gone on both (the new table of a block that did not commit)
		}
		if d := compareRows(pg.rows, zp.rows, floatCols(pg), orderSpec{}); d != "" {
			note(t.name+" afterwards", pg, zp, []mismatch{{mTable, d}})
			o.pgTable, o.zpTable = pg, zp
			return o
		}
		t.rows = pg.rows
		if !slices.Contains(sch.tables, t) {
			sch.tables = append(sch.tables, t)
		} else {
			sch.table(t.name).rows = pg.rows
		}
	}
	return o
}
