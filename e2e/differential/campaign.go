package differential

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Options configure a campaign.
type Options struct {
	Seed       uint64
	Statements int           // stop after this many statements (0: no limit)
	Duration   time.Duration // stop after this long (0: no limit)

	RoundStatements int // statements per generated schema (default 40)
	MaxRows         int // rows per table at most (default 12)
	Depth           int // subquery nesting (default 2)
	Timeout         time.Duration

	// Minimize bounds the time spent shrinking each mismatch (0: none);
	// MaxMinimized bounds how many are shrunk (0: all), MaxPerSignature
	// how many of one signature (0: all), since one bug tends to show up
	// again and again.
	Minimize        time.Duration
	MaxMinimized    int
	MaxPerSignature int
	ReproDir        string // minimised repros are written here ("": nowhere)
	Verbose         bool   // log every statement with both servers' times
	// MaxCost skips statements PostgreSQL estimates to cost more than
	// this (EXPLAIN's total cost; 0: no limit): random nesting can make a
	// correlated subquery over a join of joins run for minutes.
	MaxCost float64

	Logf func(format string, args ...any)
	// Restart, when set, is called after zproxy stops answering (a crash
	// or a hang); it returns the DSN of a fresh zproxy and the end of the
	// old one's log (the panic, if it crashed).
	Restart func() (dsn, lastLog string, err error)
}

func (o *Options) defaults() {
	if o.RoundStatements == 0 {
		o.RoundStatements = 40
	}
	if o.MaxRows == 0 {
		o.MaxRows = 12
	}
	if o.Depth == 0 {
		o.Depth = 2
	}
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// Count is how many statements using a construct were compared and how
// many of them mismatched.
type Count struct{ Compared, Mismatched int }

// Finding is one mismatch.
type Finding struct {
	Kinds      []string
	SQL        string // the statement as generated
	Repro      string // the minimised repro (schema, data, statement, both results)
	Tags       []string
	Reproduced bool   // the repro mismatches when run from a fresh load
	Crash      string // how zproxy died, if it did
}

// Stats are a campaign's figures.
type Stats struct {
	Statements int
	Rounds     int
	Constructs map[string]*Count
	Kinds      map[string]int // mismatches by kind, informational ones included
	Findings   []Finding
	BothFailed int // statements both servers rejected alike
	// Time spent in each server, and the statements zproxy took long on.
	PGTime, ZPTime time.Duration
	Slow           []string
	Skipped        int // statements PostgreSQL gave up on (too slow), not compared
	Informational  []string
	Elapsed        time.Duration
}

// Summary is the figures as a table: compared and mismatched per
// construct, then the mismatches by kind.
func (s *Stats) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d statements compared in %d rounds (%s), %d mismatches, %d statements both servers rejected alike, %d too slow for PostgreSQL (skipped)\n",
		s.Statements, s.Rounds, s.Elapsed.Round(time.Second), len(s.Findings), s.BothFailed, s.Skipped)
	fmt.Fprintf(&b, "time in PostgreSQL %v, in zproxy %v; %d statements took zproxy over 5 s and 10 times PostgreSQL's time\n",
		s.PGTime.Round(time.Millisecond), s.ZPTime.Round(time.Millisecond), len(s.Slow))
	var tags []string
	for t := range s.Constructs {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	fmt.Fprintf(&b, "%-32s %9s %10s\n", "construct", "compared", "mismatched")
	for _, t := range tags {
		c := s.Constructs[t]
		fmt.Fprintf(&b, "%-32s %9d %10d\n", t, c.Compared, c.Mismatched)
	}
	if len(s.Kinds) > 0 {
		var kinds []string
		for k := range s.Kinds {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		b.WriteString("mismatches by kind:")
		for _, k := range kinds {
			fmt.Fprintf(&b, " %s=%d", k, s.Kinds[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// server is one side of the comparison.
type server struct {
	name string
	dsn  string
	init []string // run on every new connection
	conn *pgx.Conn
	// enumOID is the round's enum type's OID here, which results report
	// as enumOIDMark: the two servers number their types apart.
	enumOID uint32
}

// enumOIDMark stands for the round's enum type in a result's types.
const enumOIDMark = 0xfffffff0

func (s *server) connect(ctx context.Context) error {
	if s.conn != nil {
		s.conn.Close(context.Background())
		s.conn = nil
	}
	cfg, err := pgx.ParseConfig(s.dsn)
	if err != nil {
		return err
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, cfg)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", s.name, err)
	}
	s.conn = conn
	for _, sql := range s.init {
		if r := run(ctx, conn, sql, 30*time.Second); r.err != nil {
			return fmt.Errorf("%s: %s: %w", s.name, sql, r.err)
		}
	}
	return nil
}

func (s *server) run(ctx context.Context, sql string, timeout time.Duration) result {
	if s.conn == nil || s.conn.IsClosed() {
		if err := s.connect(ctx); err != nil {
			return result{err: err}
		}
	}
	r := run(ctx, s.conn, sql, timeout)
	for i, o := range r.oids {
		if o == s.enumOID && o != 0 {
			r.oids[i] = enumOIDMark
		}
	}
	return r
}

// userTypes learns each server's OID of the round's enum type.
func (c *campaign) userTypes(ctx context.Context) error {
	for _, s := range []*server{c.pg, c.zp} {
		s.enumOID = 0
		r := s.run(ctx, "SELECT CAST(oid AS bigint) FROM pg_type WHERE typname = '"+enumName+"'", c.opts.Timeout)
		if r.err != nil {
			return fmt.Errorf("%s: the enum's OID: %w", s.name, r.err)
		}
		if len(r.rows) == 1 && r.rows[0][0] != nil {
			n, _ := strconv.ParseUint(*r.rows[0][0], 10, 32)
			s.enumOID = uint32(n)
		}
	}
	return nil
}

// campaign is one run: a sequence of rounds, each on a new schema.
type campaign struct {
	opts      Options
	pg, zp    *server
	rng       *rand.Rand
	stats     *Stats
	zpViews   []string // views created on zproxy this round, to drop
	nextView  int
	round     int
	start     time.Time
	minimized int
	lastCrash string         // how the last zproxy that had to be restarted ended
	bySig     map[string]int // mismatches minimised, by signature

	roundInit *schema // the round's tables as loaded
	history   []*stmt // the writes and DDL the round has run
}

// crashSummary is the part of a dead zproxy's log that says why it died:
// from the first "fatal error" or "panic:" line, a few dozen lines.
func crashSummary(log string) string {
	i := strings.Index(log, "\nfatal error:")
	if j := strings.Index(log, "\npanic: "); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return ""
	}
	lines := strings.Split(log[i+1:], "\n")
	return strings.Join(lines[:min(len(lines), 40)], "\n")
}

// Run runs a campaign of random statements against PostgreSQL (pgDSN) and
// zproxy (zpDSN) and returns its figures. It stops after opts.Statements
// statements or opts.Duration, whichever comes first, or when ctx ends.
func Run(ctx context.Context, pgDSN, zpDSN string, opts Options) (*Stats, error) {
	opts.defaults()
	c := &campaign{
		opts: opts,
		// PostgreSQL gives up on a statement before the client does, so
		// that a statement too heavy for it is skipped cleanly (57014).
		pg: &server{name: "PostgreSQL", dsn: pgDSN,
			init: []string{fmt.Sprintf("SET statement_timeout = %d", opts.Timeout.Milliseconds()*2/3)}},
		zp:    &server{name: "zproxy", dsn: zpDSN},
		rng:   rand.New(rand.NewPCG(opts.Seed, 0x5eed)),
		stats: &Stats{Constructs: map[string]*Count{}, Kinds: map[string]int{}},
		start: time.Now(),
		bySig: map[string]int{},
	}
	for _, s := range []*server{c.pg, c.zp} {
		if err := s.connect(ctx); err != nil {
			return nil, err
		}
		defer func() {
			if s.conn != nil {
				s.conn.Close(context.Background())
			}
		}()
	}

	for !c.done(ctx) {
		if err := c.runRound(ctx); err != nil {
			return c.stats, err
		}
	}
	c.stats.Elapsed = time.Since(c.start)
	return c.stats, nil
}

func (c *campaign) done(ctx context.Context) bool {
	return ctx.Err() != nil ||
		c.opts.Statements > 0 && c.stats.Statements >= c.opts.Statements ||
		c.opts.Duration > 0 && time.Since(c.start) >= c.opts.Duration
}

// both runs sql on both servers.
func (c *campaign) both(ctx context.Context, sql string) (pg, zp result) {
	return c.pg.run(ctx, sql, c.opts.Timeout), c.zp.run(ctx, sql, c.opts.Timeout)
}

// reset drops everything the last round created: its schema, types,
// tables and views, and the search_path it set.
func (c *campaign) reset(ctx context.Context) error {
	// DROP SCHEMA public leaves the temporary tables (schema pg_temp_N).
	for _, sql := range []string{"DISCARD TEMP", "DROP SCHEMA public CASCADE", "DROP SCHEMA IF EXISTS " + roundSchema + ", dfx CASCADE",
		"CREATE SCHEMA public", "RESET search_path"} {
		if r := c.pg.run(ctx, sql, c.opts.Timeout); r.err != nil {
			return fmt.Errorf("PostgreSQL: %s: %w", sql, r.err)
		}
	}
	// zproxy refuses to drop a view others depend on: drop in passes.
	views := slices.Clone(c.zpViews)
	slices.Reverse(views)
	for pass := 0; pass < 5 && len(views) > 0; pass++ {
		var left []string
		for _, v := range views {
			if r := c.zp.run(ctx, "DROP VIEW IF EXISTS "+v, c.opts.Timeout); r.err != nil {
				left = append(left, v)
			}
		}
		views = left
	}
	c.zpViews = nil
	zpReset := []string{"DISCARD TEMP", "DROP SCHEMA IF EXISTS " + roundSchema + ", dfx CASCADE", "RESET search_path"}
	for i := 0; i < maxTables; i++ {
		zpReset = append(zpReset, fmt.Sprintf("DROP TABLE IF EXISTS t%d", i))
	}
	// zproxy's DROP TYPE ... CASCADE of a type a column has is 0A000: the
	// tables went first.
	zpReset = append(zpReset, "DROP TABLE IF EXISTS tx_e", "DROP DOMAIN IF EXISTS "+domPosInt+", "+domCode, "DROP TYPE IF EXISTS "+enumName)
	for _, sql := range zpReset {
		if r := c.zp.run(ctx, sql, c.opts.Timeout); r.err != nil {
			return fmt.Errorf("zproxy: %s: %w", sql, r.err)
		}
	}
	return nil
}

// maxTables bounds the tables a round creates (t0 .. t9): its initial
// ones, a shadowing one and those its transaction blocks create.
const maxTables = 10

// routinesSQL are the functions every round's statements may call (the
// generator's "expr.function"): SQL functions the planner inlines and
// PL/pgSQL ones it calls, with NULL, branches and a STRICT one.
var routinesSQL = []string{
	`CREATE OR REPLACE FUNCTION df_inc(x integer) RETURNS integer LANGUAGE sql IMMUTABLE RETURN x + 1`,
	`CREATE OR REPLACE FUNCTION df_clamp(x bigint, lo bigint, hi bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF x IS NULL THEN
		RETURN NULL;
	ELSIF x < lo THEN
		RETURN lo;
	ELSIF x > hi THEN
		RETURN hi;
	END IF;
	RETURN x;
END $$`,
	`CREATE OR REPLACE FUNCTION df_tag(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(upper(t), 'none') || '!' $$`,
	`CREATE OR REPLACE FUNCTION df_pos(x double precision) RETURNS boolean LANGUAGE plpgsql STRICT STABLE AS $$ BEGIN RETURN x > 0; END $$`,
}

// load creates a schema's routines, tables, indexes, rows and views on
// both servers.
func (c *campaign) load(ctx context.Context, sch *schema) error {
	for _, sql := range sch.feat.setupSQL() {
		if err := c.exec2(ctx, sql, sql); err != nil {
			return err
		}
	}
	if err := c.userTypes(ctx); err != nil {
		return err
	}
	for _, sql := range routinesSQL {
		if err := c.exec2(ctx, sql, sql); err != nil {
			return err
		}
	}
	for _, t := range sch.tables {
		if err := c.loadTable(ctx, t, true); err != nil {
			return err
		}
	}
	for _, v := range sch.views {
		sql := "CREATE VIEW " + v.name + " AS " + v.def
		if err := c.exec2(ctx, sql, sql); err != nil {
			return err
		}
		c.zpViews = append(c.zpViews, v.name)
	}
	return nil
}

// loadTable creates t (create) or empties it, and inserts its rows.
func (c *campaign) loadTable(ctx context.Context, t *table, create bool) error {
	if create {
		if err := c.exec2(ctx, t.createSQL(false), t.createSQL(true)); err != nil {
			return err
		}
		for _, sql := range t.partitionSQL() {
			if err := c.exec2(ctx, sql, sql); err != nil {
				return err
			}
		}
		pgIx, zpIx := t.indexSQL(false), t.indexSQL(true)
		for _, sql := range pgIx {
			if err := c.exec1(ctx, c.pg, sql); err != nil {
				return err
			}
		}
		for _, sql := range zpIx {
			if err := c.exec1(ctx, c.zp, sql); err != nil {
				return err
			}
		}
	} else {
		del := "DELETE FROM " + t.name
		if err := c.exec2(ctx, del, del); err != nil {
			return err
		}
	}
	for _, sql := range t.insertSQL(t.rows) {
		if err := c.exec2(ctx, sql, sql); err != nil {
			return err
		}
	}
	return nil
}

func (c *campaign) exec1(ctx context.Context, s *server, sql string) error {
	if r := s.run(ctx, sql, c.opts.Timeout); r.err != nil {
		return fmt.Errorf("%s: %s: %w", s.name, sql, r.err)
	}
	return nil
}

func (c *campaign) exec2(ctx context.Context, pgSQL, zpSQL string) error {
	if err := c.exec1(ctx, c.pg, pgSQL); err != nil {
		return err
	}
	return c.exec1(ctx, c.zp, zpSQL)
}

// outcome is a statement's results on both servers and how they differ.
type outcome struct {
	skipped          bool    // PostgreSQL gave up on it, or would have
	cost             float64 // PostgreSQL's estimate
	pg, zp           result
	pgTable, zpTable result // a write's target table afterwards
	ms               []mismatch
}

// failing are the mismatches that are not informational.
func (o outcome) failing() []mismatch {
	var out []mismatch
	for _, m := range o.ms {
		if !informational(m.kind) {
			out = append(out, m)
		}
	}
	return out
}

// signature identifies a mismatch while it is minimised: the kinds, and
// for an error which side failed with which SQLSTATE.
func (o outcome) signature() string {
	var parts []string
	for _, m := range o.failing() {
		switch m.kind {
		case mError:
			if o.zp.failed() {
				parts = append(parts, "error:zproxy:"+o.zp.code)
			} else {
				parts = append(parts, "error:postgres:"+o.pg.code)
			}
		case mSQLState:
			parts = append(parts, "sqlstate:"+o.pg.code+":"+o.zp.code)
		case mNames:
			// The first difference, so that minimising keeps this one.
			for i := range o.pg.cols {
				if o.pg.cols[i] != o.zp.cols[i] {
					parts = append(parts, "names:"+o.pg.cols[i]+"/"+o.zp.cols[i])
					break
				}
			}
		case mTypes:
			for i := range o.pg.oids {
				if o.pg.oids[i] != o.zp.oids[i] {
					parts = append(parts, "types:"+strings.Join(typeNames([]uint32{o.pg.oids[i], o.zp.oids[i]}), "/"))
					break
				}
			}
		default:
			parts = append(parts, m.kind)
		}
	}
	sort.Strings(parts)
	return strings.Join(slices.Compact(parts), ",")
}

// execute runs st on both servers and compares; sch follows the
// statement's effect (a write's table contents as PostgreSQL has them, a
// view created or dropped).
func (c *campaign) execute(ctx context.Context, sch *schema, st *stmt) outcome {
	if st.kind == kTxn {
		return c.executeTxn(ctx, sch, st)
	}
	var o outcome
	sql := st.sql()
	if c.opts.MaxCost > 0 && (st.kind != kDDL || st.view != nil) {
		if o.cost = c.cost(ctx, st); o.cost > c.opts.MaxCost {
			o.skipped = true
			return o
		}
	}
	o.pg, o.zp = c.both(ctx, sql)
	if o.pg.code == "57014" || o.pg.lost() && !o.zp.lost() {
		// Too heavy for PostgreSQL: nothing to compare with.
		o.skipped = true
		return o
	}
	if o.pg.lost() || o.zp.lost() {
		kind := mLost
		if errors.Is(o.zp.err, context.DeadlineExceeded) {
			kind = mTimeout
		}
		o.ms = []mismatch{{kind, fmt.Sprintf("PostgreSQL: %v; zproxy: %v", o.pg.err, o.zp.err)}}
		return o
	}
	switch st.kind {
	case kQuery:
		o.ms = compareResults(o.pg, o.zp, orderOf(st.q))
	case kWrite:
		o.ms = compareResults(o.pg, o.zp, orderSpec{})
		if !o.pg.failed() && !o.zp.failed() && o.pg.tag != o.zp.tag {
			o.ms = append(o.ms, mismatch{mTag, fmt.Sprintf("PostgreSQL %q, zproxy %q", o.pg.tag, o.zp.tag)})
		}
		// Whatever happened, the table must be the same on both sides
		// (a failed write must have changed nothing).
		o.pgTable, o.zpTable = c.both(ctx, "SELECT * FROM "+st.target)
		if o.pgTable.failed() || o.zpTable.failed() {
			o.ms = append(o.ms, mismatch{mLost, fmt.Sprintf("reading %s back: PostgreSQL: %v; zproxy: %v", st.target, o.pgTable.err, o.zpTable.err)})
			return o
		}
		if d := compareRows(o.pgTable.rows, o.zpTable.rows, floatCols(o.pgTable), orderSpec{}); d != "" {
			o.ms = append(o.ms, mismatch{mTable, st.target + ": " + d})
		}
		sch.table(st.target).rows = o.pgTable.rows
	case kDDL:
		o.ms = compareResults(o.pg, o.zp, orderSpec{})
		if !o.zp.failed() && st.view != nil {
			c.zpViews = append(c.zpViews, st.view.name)
		}
		if !o.pg.failed() && !o.zp.failed() {
			applyDDL(sch, st)
		}
	}
	return o
}

func floatCols(r result) []bool {
	out := make([]bool, len(r.oids))
	for i, o := range r.oids {
		out[i] = isFloatOID(o)
	}
	return out
}

func applyDDL(sch *schema, st *stmt) {
	if st.drop != "" {
		sch.views = slices.DeleteFunc(sch.views, func(v *view) bool { return v.name == st.drop })
		return
	}
	for i, v := range sch.views {
		if v.name == st.view.name {
			sch.views[i] = st.view
			return
		}
	}
	sch.views = append(sch.views, st.view)
}

// cost is PostgreSQL's estimated total cost of st (0 when it cannot tell,
// e.g. the statement is invalid, which then fails on both sides).
func (c *campaign) cost(ctx context.Context, st *stmt) float64 {
	sql := st.sql()
	if st.kind == kDDL {
		sql = st.view.def
	}
	r := c.pg.run(ctx, "EXPLAIN (FORMAT JSON) "+sql, c.opts.Timeout)
	if r.err != nil || len(r.rows) != 1 || r.rows[0][0] == nil {
		return 0
	}
	var plan []struct {
		Plan struct {
			TotalCost float64 `json:"Total Cost"`
		}
	}
	if json.Unmarshal([]byte(*r.rows[0][0]), &plan) != nil || len(plan) == 0 {
		return 0
	}
	return plan[0].Plan.TotalCost
}

// runRound generates a schema, loads it and runs statements on it until the
// round's budget is spent or a mismatch leaves the two servers' states
// apart.
func (c *campaign) runRound(ctx context.Context) error {
	c.round++
	c.stats.Rounds++
	if err := c.reset(ctx); err != nil {
		return c.recover(ctx, err)
	}
	// The features from a generator of their own, seeded by the round.
	feat := rand.New(rand.NewPCG(c.opts.Seed, uint64(c.round)<<8|0xfe))
	sch := genSchema(c.rng, feat, c.opts.MaxRows)
	if err := c.load(ctx, sch); err != nil {
		// The schema generator only makes what PostgreSQL accepts, so
		// this is zproxy refusing a table, an index or a row.
		c.opts.Logf("round %d: loading the schema: %v", c.round, err)
		c.stats.Kinds["setup"]++
		c.stats.Findings = append(c.stats.Findings, Finding{Kinds: []string{"setup"}, SQL: err.Error(), Repro: schemaSQL(sch, nil, true)})
		return c.recover(ctx, err)
	}
	g := &gen{rng: c.rng, sch: sch, opts: c.opts}
	c.roundInit, c.history = sch.clone(), nil
	for i := 0; i < c.opts.RoundStatements && !c.done(ctx); i++ {
		st := c.next(g)
		before := sch.clone()
		o := c.execute(ctx, sch, st)
		c.count(st, o)
		if st.kind != kQuery && len(o.failing()) == 0 {
			c.history = append(c.history, st)
		}
		if f := o.failing(); len(f) > 0 {
			if o.zp.lost() || o.zp.err != nil && c.zp.conn.IsClosed() {
				c.lastCrash = ""
				if err := c.recover(ctx, fmt.Errorf("zproxy lost: %v", o.zp.err)); err != nil {
					return err
				}
			}
			c.report(ctx, before, st, o)
			return nil // the states may differ now; start afresh
		}
		if st.kind != kQuery && o.pg.failed() != o.zp.failed() {
			return nil
		}
	}
	return nil
}

// recover restarts zproxy if it is gone, and reconnects.
func (c *campaign) recover(ctx context.Context, cause error) error {
	if err := c.zp.connect(ctx); err == nil {
		if r := c.zp.run(ctx, "SELECT 1", c.opts.Timeout); r.err == nil {
			return nil
		}
	}
	if c.opts.Restart == nil {
		return fmt.Errorf("zproxy does not answer after: %v", cause)
	}
	c.opts.Logf("restarting zproxy after: %v", cause)
	dsn, lastLog, err := c.opts.Restart()
	if err != nil {
		return fmt.Errorf("restarting zproxy: %w", err)
	}
	c.lastCrash = crashSummary(lastLog)
	c.zp.dsn = dsn
	c.zpViews = nil
	return c.zp.connect(ctx)
}

// next draws the next statement.
func (c *campaign) next(g *gen) *stmt {
	g.reset()
	var st *stmt
	switch r := g.n(100); {
	case r < 72:
		st = &stmt{kind: kQuery, q: g.query(nil, c.opts.Depth, shape{top: true})}
		g.tag("query")
	case r < 89:
		st = g.write(c.opts.Depth, c.opts.MaxRows)
		g.tag("write")
	case r < 94:
		st = g.txnStmt(c.opts.Depth, c.opts.MaxRows)
		g.tag("txn")
	default:
		st = g.viewDDL(c.opts.Depth, &c.nextView)
		g.tag("view")
	}
	for t := range g.tags {
		st.tags = append(st.tags, t)
	}
	sort.Strings(st.tags)
	return st
}

func (c *campaign) count(st *stmt, o outcome) {
	if o.skipped {
		c.stats.Skipped++
		if c.opts.Verbose {
			c.opts.Logf("skipped (PostgreSQL's cost estimate %.0f, error %v): %s", o.cost, o.pg.err, st.sql())
		}
		return
	}
	c.stats.Statements++
	if c.opts.Verbose {
		c.opts.Logf("[%v / %v, cost %.0f] %s", o.pg.dur.Round(time.Millisecond), o.zp.dur.Round(time.Millisecond), o.cost, st.sql())
	}
	c.stats.PGTime += o.pg.dur
	c.stats.ZPTime += o.zp.dur
	if o.pg.dur > 2*time.Second {
		c.opts.Logf("slow in PostgreSQL (%v; zproxy %v): %s", o.pg.dur.Round(time.Millisecond), o.zp.dur.Round(time.Millisecond), st.sql())
	}
	if o.zp.dur > 5*time.Second && o.zp.dur > 10*o.pg.dur {
		c.stats.Slow = append(c.stats.Slow, fmt.Sprintf("zproxy %v, PostgreSQL %v: %s", o.zp.dur.Round(time.Millisecond), o.pg.dur.Round(time.Millisecond), st.sql()))
	}
	failing := len(o.failing()) > 0
	for _, t := range st.tags {
		n := c.stats.Constructs[t]
		if n == nil {
			n = &Count{}
			c.stats.Constructs[t] = n
		}
		n.Compared++
		if failing {
			n.Mismatched++
		}
	}
	for _, m := range o.ms {
		c.stats.Kinds[m.kind]++
		if informational(m.kind) {
			c.stats.Informational = append(c.stats.Informational, m.kind+": "+m.detail+"\n  "+st.sql())
		}
	}
	if o.pg.failed() && o.zp.failed() {
		c.stats.BothFailed++
	}
}

// report minimises a mismatch (when allowed) and records it.
func (c *campaign) report(ctx context.Context, before *schema, st *stmt, o outcome) {
	f := Finding{Kinds: strings.Split(o.signature(), ","), SQL: st.sql(), Tags: st.tags, Crash: c.lastCrash}
	c.lastCrash = ""
	c.opts.Logf("MISMATCH %s (round %d, statement %d):\n  %s\n  %s", o.signature(), c.round, c.stats.Statements, f.SQL, mismatchDetails(o))
	if f.Crash != "" {
		c.opts.Logf("zproxy died:\n%s", indent(f.Crash))
	}
	var prefix []*stmt
	sch, final := before, o
	sig := o.signature()
	if c.opts.Minimize > 0 && (c.opts.MaxMinimized == 0 || c.minimized < c.opts.MaxMinimized) &&
		(c.opts.MaxPerSignature == 0 || c.bySig[sig] < c.opts.MaxPerSignature) {
		c.minimized++
		c.bySig[sig]++
		m := &minimizer{c: c, sch: before.clone(), st: st, sig: o.signature(), deadline: time.Now().Add(c.opts.Minimize),
			init: c.roundInit, history: c.history}
		m, final, f.Reproduced = m.run(ctx)
		sch, prefix = m.sch, m.prefix
		c.opts.Logf("minimised in %d checks:\n%s", m.checks, indent(st.sql()))
	}
	f.Repro = reproText(sch, prefix, st, final)
	if f.Crash != "" {
		f.Repro += "-- zproxy died:\n" + commentBlock(f.Crash)
	}
	c.stats.Findings = append(c.stats.Findings, f)
	if c.opts.ReproDir != "" {
		name := filepath.Join(c.opts.ReproDir, fmt.Sprintf("%04d-%s.sql", len(c.stats.Findings), fileSafe.ReplaceAllString(o.signature(), "_")))
		if err := os.MkdirAll(c.opts.ReproDir, 0o755); err == nil {
			_ = os.WriteFile(name, []byte(f.Repro), 0o644)
		}
	}
}

func mismatchDetails(o outcome) string {
	var parts []string
	for _, m := range o.ms {
		parts = append(parts, m.kind+": "+m.detail)
	}
	return strings.Join(parts, "; ")
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

var fileSafe = regexp.MustCompile(`[^A-Za-z0-9_+-]+`)

var objectName = regexp.MustCompile(`\b((?:` + roundSchema + `\.)?t\d|vw\d+)\b`)

// referenced is the tables and views sql uses, views expanded.
func referenced(sch *schema, sql string) map[string]bool {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(s string) {
		for _, n := range objectName.FindAllString(s, -1) {
			if seen[n] {
				continue
			}
			seen[n] = true
			// A qualified name may shadow, or be shadowed by, a
			// temporary table of the same bare name: a repro keeps both.
			seen[baseName(n)] = true
			for _, v := range sch.views {
				if v.name == n {
					visit(v.def)
				}
			}
		}
	}
	visit(sql)
	return seen
}

// schemaSQL is the script that sets up sch (the tables and views used, or
// all when used is nil), as zproxy gets it.
func schemaSQL(sch *schema, used map[string]bool, zp bool) string {
	var b strings.Builder
	for _, sql := range sch.feat.setupSQL() {
		b.WriteString(sql + ";\n")
	}
	for _, sql := range routinesSQL {
		b.WriteString(sql + ";\n")
	}
	for _, t := range sch.tables {
		if used != nil && !used[t.name] {
			continue
		}
		b.WriteString(t.createSQL(zp) + ";\n")
		for _, p := range t.partitionSQL() {
			b.WriteString(p + ";\n")
		}
		for _, ix := range t.indexSQL(zp) {
			b.WriteString(ix + ";\n")
		}
		for _, ins := range t.insertSQL(t.rows) {
			b.WriteString(ins + ";\n")
		}
	}
	for _, v := range sch.views {
		if used != nil && !used[v.name] {
			continue
		}
		b.WriteString("CREATE VIEW " + v.name + " AS " + v.def + ";\n")
	}
	return b.String()
}

// reproText is a finding as a self-contained script with both results.
func reproText(sch *schema, prefix []*stmt, st *stmt, o outcome) string {
	m := &minimizer{sch: sch, prefix: prefix, st: st}
	used := m.used()
	var b strings.Builder
	fmt.Fprintf(&b, "-- zproxy differential test: %s\n", o.signature())
	for _, m := range o.ms {
		fmt.Fprintf(&b, "-- %s: %s\n", m.kind, m.detail)
	}
	zpSchema, pgSchema := schemaSQL(sch, used, true), schemaSQL(sch, used, false)
	b.WriteString(zpSchema)
	if pgSchema != zpSchema {
		b.WriteString("-- PostgreSQL gets instead (no DESC key columns, no shards, Z-order indexes as btree or none):\n")
		for _, l := range strings.Split(strings.TrimSuffix(pgSchema, "\n"), "\n") {
			if !strings.HasPrefix(l, "INSERT") {
				b.WriteString("--   " + l + "\n")
			}
		}
	}
	if len(prefix) > 0 {
		b.WriteString("-- then, in order (the mismatch needs them):\n")
		for _, p := range prefix {
			b.WriteString(p.sql() + ";\n")
		}
	}
	b.WriteString("\n" + st.sql() + ";\n\n")
	b.WriteString("-- PostgreSQL 15:\n" + commentBlock(formatResult(o.pg, 30)))
	b.WriteString("-- zproxy:\n" + commentBlock(formatResult(o.zp, 30)))
	if st.kind == kWrite && o.pgTable.cols != nil {
		b.WriteString("-- " + st.target + " afterwards, PostgreSQL 15:\n" + commentBlock(formatResult(o.pgTable, 30)))
		b.WriteString("-- " + st.target + " afterwards, zproxy:\n" + commentBlock(formatResult(o.zpTable, 30)))
	}
	return b.String()
}

func commentBlock(s string) string {
	return "--   " + strings.ReplaceAll(s, "\n", "\n--   ") + "\n"
}
