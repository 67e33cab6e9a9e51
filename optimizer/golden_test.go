package optimizer_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

var update = flag.Bool("update", false, "rewrite the golden plan files in testdata/plans")

// schema is the catalog every golden plan is planned against. Plans need no
// rows: the rules read only the schema and the query's bounds.
var schema = []string{
	// The readings table of the README, on 4 shards.
	`CREATE TABLE readings (
	   sensor_id BIGINT NOT NULL,
	   ts        TIMESTAMP NOT NULL,
	   celsius   DOUBLE PRECISION,
	   lat       DOUBLE PRECISION,
	   lon       DOUBLE PRECISION,
	   note      TEXT,
	   PRIMARY KEY (sensor_id, ts DESC)
	 ) WITH (shards = 4, mutability = 'immutable_rows')`,
	`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`,
	`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`,
	// A single-column primary key, and btree indexes of different lengths
	// over the same leading column (longest prefix; declared-order tie).
	`CREATE TABLE sensors (
	   id        BIGINT PRIMARY KEY,
	   name      TEXT,
	   region    TEXT,
	   kind      TEXT,
	   installed DATE
	 )`,
	`CREATE INDEX by_region ON sensors (region)`,
	`CREATE INDEX by_region_kind ON sensors (region, kind)`,
	// Ties on prefix length broken by covering, then by ORDER BY.
	`CREATE TABLE events (
	   id BIGINT PRIMARY KEY,
	   a  BIGINT NOT NULL,
	   b  BIGINT NOT NULL,
	   c  TEXT
	 ) WITH (shards = 4)`,
	`CREATE INDEX ev_a ON events (a)`,
	`CREATE INDEX ev_a_cov ON events (a) INCLUDE (c)`,
	`CREATE INDEX ev_a_b ON events (a, b)`,
	`CREATE INDEX ev_a_c ON events (a, c) INCLUDE (b)`,
	// Ties broken by fewer shards.
	`CREATE TABLE logs (
	   id    BIGINT PRIMARY KEY,
	   host  TEXT NOT NULL,
	   level TEXT
	 ) WITH (shards = 8)`,
	`CREATE INDEX lg_host8 ON logs (host) INCLUDE (level)`,
	`CREATE INDEX lg_host2 ON logs (host) INCLUDE (level) WITH (shards = 2)`,
	// A table without a primary key (hidden row id) with an index: joins
	// look it up by the index, writes maintain it.
	`CREATE TABLE tags (sensor_id BIGINT, tag TEXT NOT NULL)`,
	`CREATE INDEX tags_by_sensor ON tags (sensor_id)`,
	// Time series keyed by an instant (timestamptz) and a numeric value.
	`CREATE TABLE metrics (
	   host  TEXT NOT NULL,
	   at    TIMESTAMPTZ NOT NULL,
	   value NUMERIC(12, 3),
	   PRIMARY KEY (host, at)
	 ) WITH (shards = 2)`,
	// Unique constraints: point gets through their indexes.
	`CREATE TABLE accounts (
	   id     BIGINT PRIMARY KEY,
	   email  TEXT NOT NULL UNIQUE,
	   org    BIGINT,
	   handle TEXT,
	   region TEXT,
	   UNIQUE (org, handle)
	 ) WITH (shards = 4)`,
	// Shard columns: rows and entries placed by a hash of their leading
	// key columns, so a read binding them reads one shard (shards.sql).
	`CREATE TABLE sensor_log (
	   site      TEXT NOT NULL,
	   sensor_id BIGINT NOT NULL,
	   ts        TIMESTAMP NOT NULL,
	   celsius   DOUBLE PRECISION,
	   kind      TEXT,
	   PRIMARY KEY (site, sensor_id, ts DESC)
	 ) WITH (shards = 4, shard_columns = (site, sensor_id))`,
	`CREATE INDEX sl_kind ON sensor_log (kind, ts) INCLUDE (celsius) WITH (shards = 8, shard_columns = (kind))`,
	// Foreign keys and checks: what writes enforce.
	// Expression and partial indexes (exprindex.sql).
	`CREATE TABLE members (
	   id         BIGINT PRIMARY KEY,
	   email      TEXT NOT NULL,
	   nick       VARCHAR(20),
	   score      BIGINT,
	   deleted_at TIMESTAMPTZ,
	   lat        DOUBLE PRECISION,
	   lon        DOUBLE PRECISION
	 )`,
	`CREATE UNIQUE INDEX members_email_live ON members (lower(email)) WHERE deleted_at IS NULL`,
	`CREATE INDEX members_score_live ON members (score) WHERE deleted_at IS NULL AND score > 0`,
	`CREATE INDEX members_nick ON members (lower(nick), score)`,
	`CREATE INDEX members_place ON members USING zorder (lower(nick), lat, lon)`,
	// Inverted (gin) indexes: jsonb of both operator classes, arrays, an
	// expression, a partial one (inverted.sql).
	`CREATE TABLE products (
	   id    BIGINT PRIMARY KEY,
	   sku   TEXT UNIQUE,
	   attrs JSONB,
	   tags  TEXT[],
	   sizes INT[],
	   live  BOOLEAN,
	   title TEXT
	 ) WITH (shards = 4)`,
	`CREATE INDEX products_attrs ON products USING gin (attrs)`,
	`CREATE INDEX products_attrs_path ON products USING gin (attrs jsonb_path_ops)`,
	`CREATE INDEX products_tags ON products USING gin (tags, sizes)`,
	`CREATE INDEX products_brand ON products USING gin ((attrs -> 'brand'))`,
	`CREATE INDEX products_live_tags ON products USING gin (tags) WHERE live`,
	`CREATE INDEX products_title ON products USING gin (title gin_trgm_ops)`,
	`CREATE TABLE orders (
	   id         BIGINT PRIMARY KEY,
	   account_id BIGINT NOT NULL REFERENCES accounts ON DELETE CASCADE,
	   amount     NUMERIC CHECK (amount > 0)
	 )`,
	// Network addresses: an inet key and a cidr index, which << and <<=
	// bound as key ranges (network.sql).
	`CREATE TABLE hosts (addr INET PRIMARY KEY, net CIDR, mac MACADDR, name TEXT)`,
	`CREATE INDEX hosts_net ON hosts (net)`,
	// Points with a gist index (a Z-order index over x and y): boxes and
	// nearest neighbours (gist.sql).
	`CREATE TABLE spots (id BIGINT PRIMARY KEY, p POINT, kind TEXT)`,
	`CREATE INDEX spots_p ON spots USING gist (p)`,
	`CREATE TABLE pois (id BIGINT PRIMARY KEY, geom geometry(Point, 4326), kind INT)`,
	`CREATE INDEX pois_geom ON pois USING gist (geom)`,
	// Polygons with a gist index (XZ-ordering: a btree over each box's
	// XZ2 code).
	`CREATE TABLE zones (id BIGINT PRIMARY KEY, geom geometry(Polygon, 4326), name TEXT)`,
	`CREATE INDEX zones_geom ON zones USING gist (geom)`,
	// Geography points: a Z-order index over longitude and latitude.
	`CREATE TABLE geoplaces (id BIGINT PRIMARY KEY, g geography(Point, 4326))`,
	`CREATE INDEX geoplaces_g ON geoplaces USING gist (g)`,
	// Ranges with a gist index (a Z-order index over the bounds): boxes
	// (gist.sql).
	`CREATE TABLE stays (id BIGINT PRIMARY KEY, guest INT, during TSTZRANGE)`,
	`CREATE INDEX stays_during ON stays USING gist (during)`,
}

// remoteStore presents an in-memory Pebble store with the capabilities of a
// store where every key range is a request and seeks are round trips
// (DynamoDB's: kv/dynamodb's default RequestLatency and ScanFanout), so that the plan files
// named remote_*.sql show the Z-order range budgets chosen for such stores.
type remoteStore struct{ kv.Store }

func (s remoteStore) Capabilities() kv.Capabilities {
	c := s.Store.Capabilities()
	c.CheapSeek, c.RequestLatency, c.ScanFanout = false, 5*time.Millisecond, 8
	return c
}

// newEngine opens an in-memory engine with the golden schema, plus an index
// left in the building state (as an online build in progress leaves it);
// remote gives the store remoteStore's capabilities.
func newEngine(t *testing.T, remote bool) *session.Engine {
	t.Helper()
	ctx := context.Background()
	pstore, err := zpebble.Open("golden", zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pstore.Close() })
	var store kv.Store = pstore
	if remote {
		store = remoteStore{pstore}
	}
	// A fixed clock: plans that fold now() show the same bounds every run.
	// No automatic analysis: plans here depend on statistics only where a
	// plan file runs ANALYZE itself (stats.sql).
	clock := func() time.Time { return time.Date(2024, 3, 5, 12, 0, 0, 0, time.UTC) }
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true, Clock: clock, AutoAnalyzeNap: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, ddl := range schema {
		if _, err := run(ctx, eng, ddl); err != nil {
			t.Fatalf("%s: %v", ddl, err)
		}
	}
	_, err = eng.Catalog().Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		tb, err := s.Table("readings")
		if err != nil {
			return catalog.Change{}, err
		}
		tb = tb.Clone()
		tb.Indexes = append(tb.Indexes, &catalog.Index{ID: v, Name: "by_celsius", Kind: catalog.KindBTree,
			Columns: []catalog.KeyColumn{{Column: tb.ColumnIndex("celsius")}}, Shards: tb.Shards, State: catalog.StateBuilding})
		return catalog.Change{Put: []*catalog.Table{tb}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// run executes sql (one or more statements) in a fresh session and returns
// its output as lines: result rows (columns joined by " | "), notices as
// "NOTICE: ...", and a failing statement as "ERROR <code>: ..." (which ends
// the run; the error is also returned).
func run(ctx context.Context, eng *session.Engine, sql string) ([]string, error) {
	var out []string
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(e *pgerr.Error) {
		out = append(out, "NOTICE: "+e.Message)
	}})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		return append(out, errLine(err)), err
	}
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			return append(out, errLine(err)), err
		}
		for {
			row, ok, err := res.Next(ctx)
			if err != nil {
				res.Close()
				return append(out, errLine(err)), err
			}
			if !ok {
				break
			}
			cells := make([]string, len(row))
			for i, v := range row {
				if v.IsNull() {
					cells[i] = "NULL"
				} else {
					cells[i] = sqltypes.FormatText(v)
				}
			}
			out = append(out, strings.Join(cells, " | "))
		}
		res.Close()
	}
	return out, nil
}

func errLine(err error) string {
	s := fmt.Sprintf("ERROR %s: %v", pgerr.CodeOf(err), err)
	if pe := pgerr.As(err); pe != nil && pe.Hint != "" {
		s += "\nHINT: " + pe.Hint
	}
	return s
}

// explained prefixes the statements that plan a scan with EXPLAIN.
func explained(stmt string) string {
	f := strings.Fields(stmt)
	if len(f) == 0 {
		return stmt
	}
	switch strings.ToUpper(f[0]) {
	case "SELECT", "UPDATE", "DELETE", "WITH":
		return "EXPLAIN " + stmt
	}
	return stmt
}

// blocks splits a plan file into blank-line-separated blocks; "--" lines
// are comments that document the block and are copied to the golden file.
func blocks(data string) [][]string {
	var out [][]string
	var cur []string
	for _, line := range strings.Split(data, "\n") {
		if strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, strings.TrimRight(line, " \t"))
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// TestGoldenPlans plans every query of testdata/plans/*.sql and compares
// its EXPLAIN output with the matching .golden file (rewritten by -update).
// Each block's statements run in a fresh session; SELECT, UPDATE and DELETE
// are explained, anything else (SET) just runs first.
func TestGoldenPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/plans/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no plan files: %v", err)
	}
	ctx := context.Background()
	local, remote := newEngine(t, false), newEngine(t, true)
	for _, f := range files {
		eng := local
		if strings.HasPrefix(filepath.Base(f), "remote_") {
			eng = remote
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".sql"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, blk := range blocks(string(data)) {
				var sql []string
				for _, l := range blk {
					got.WriteString(l + "\n")
					if !strings.HasPrefix(strings.TrimSpace(l), "--") {
						sql = append(sql, l)
					}
				}
				stmts := strings.Split(strings.Join(sql, "\n"), ";")
				for i := range stmts {
					stmts[i] = explained(strings.TrimSpace(stmts[i]))
				}
				lines, err := run(ctx, eng, strings.Join(stmts, ";\n"))
				got.WriteString("----\n")
				for _, l := range lines {
					got.WriteString(l + "\n")
				}
				if err == nil {
					// Run the statements themselves too (the tables are
					// empty): the NOTICEs a client gets are part of the plan.
					executed, _ := run(ctx, eng, strings.Join(sql, "\n"))
					for _, l := range executed {
						if strings.HasPrefix(l, "NOTICE: ") {
							got.WriteString("on execution: " + l + "\n")
						}
					}
				}
				got.WriteString("\n")
			}
			golden := strings.TrimSuffix(f, ".sql") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./optimizer -run TestGoldenPlans -update)", err)
			}
			if got.String() != string(want) {
				t.Errorf("%s differs from the plans now made (rerun with -update after checking):\n%s", golden, diff(string(want), got.String()))
			}
		})
	}
}

// diff shows the first differing lines of two texts.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want: %s\n  got:  %s\n", i+1, wl, gl)
			if shown++; shown == 10 {
				break
			}
		}
	}
	return b.String()
}
