package session_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	zdynamo "github.com/zproxy/zproxy/kv/dynamodb"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// The SQL script suite: files in testdata/sql, each a sequence of records
//
//	statement ok            the statement succeeds
//	statement error CODE [MESSAGE]
//	                        it fails with SQLSTATE CODE (and a message
//	                        containing MESSAGE, when given)
//	query [TYPES] [rowsort] it returns the rows after "----", one per
//	                        line, columns joined by "|", NULL as NULL
//	                        (rowsort: compared sorted; TYPES, as
//	                        sqllogictest's "TTI", is not checked)
//	query ... colnames      the first line after "----" is the result's
//	                        columns, "name:type" joined by "|"
//	notice SUBSTRING        the previous statement raised a NOTICE
//	                        containing SUBSTRING
//	columns A|B             the previous query's result columns are named
//	                        A, B (PostgreSQL's output names)
//	connection NAME         later records run in session NAME (opened on
//	                        first use; the first session is "default")
//	disconnect NAME         session NAME ends (a later "connection NAME"
//	                        opens a new one)
//	onlyif zproxy           the next record is zproxy's own (SHOW INDEXES,
//	                        CHECK TABLE, TTL, where zproxy differs on
//	                        purpose): the PostgreSQL oracle run skips it;
//	                        an EXPLAIN's expected rows are lines its plan
//	                        has, in order, without their indentation
//
// separated by blank lines. The same files run against every backend
// available (Pebble always; DynamoDB Local when DYNAMODB_ENDPOINT is set),
// through the session interface the wire server drives.

var backendFlag = flag.String("backend", "", "run the SQL suite only against this backend (pebble or dynamodb)")

// scriptsBackendFlag restricts TestSQLScripts alone, leaving the other
// tests every backend: scripts/test.sh runs the scripts' DynamoDB leg in a
// process of its own, from the start and beside the rest, instead of
// after the package's sequential tests.
var scriptsBackendFlag = flag.String("sql-scripts", "", "run TestSQLScripts only against this backend (pebble or dynamodb); other tests are unaffected")

// sltSlow finds where a script's time goes (the suite's wall time is
// bounded by its slowest scripts on DynamoDB Local).
var sltSlow = flag.Duration("slt-slow", 0, "log each script statement that takes longer than this (0: none)")

type backend struct {
	name string
	open func(t *testing.T) kv.Store
}

func backends(t *testing.T) []backend {
	var out []backend
	if *backendFlag == "" || *backendFlag == "pebble" {
		out = append(out, backend{"pebble", func(t *testing.T) kv.Store {
			s, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}})
	}
	if ep := os.Getenv("DYNAMODB_ENDPOINT"); ep != "" && (*backendFlag == "" || *backendFlag == "dynamodb") {
		out = append(out, backend{"dynamodb", func(t *testing.T) kv.Store {
			table := fmt.Sprintf("sqltest_%d_%s", os.Getpid(), strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()))
			if len(table) > 250 {
				table = table[:250]
			}
			s, err := zdynamo.Open(context.Background(), zdynamo.Options{Table: table, Endpoint: ep, Region: "us-east-1",
				Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}})
	}
	return out
}

func TestSQLScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/sql/*.slt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	files = heaviestFirst(files)
	for _, be := range backends(t) {
		if *scriptsBackendFlag != "" && be.name != *scriptsBackendFlag {
			continue
		}
		t.Run(be.name, func(t *testing.T) {
			// The backends' scripts interleave: the DynamoDB ones mostly
			// wait on DynamoDB Local, the Pebble ones use the CPU.
			t.Parallel()
			for _, f := range files {
				t.Run(strings.TrimSuffix(filepath.Base(f), ".slt"), func(t *testing.T) {
					// Scripts run in parallel, each with an engine and a store
					// of its own: so they also show that engines in one
					// process share nothing (one process serves several
					// databases).
					t.Parallel()
					if only := scriptBackend(t, f); only != "" && only != be.name {
						t.Skipf("the script runs on %s only", only)
					}
					store := be.open(t)
					defer store.Close()
					RunScript(t, store, f)
				})
			}
		})
	}
}

// heavyScripts are the scripts that take longest (their DynamoDB legs
// most: tens of seconds each under -race against DynamoDB Local's
// hundreds of requests), slowest first. They start first, so the suite's
// wall time is not a heavy script begun last; order only, every script
// runs.
var heavyScripts = []string{
	"postgis_xz", "gist_points", "transactional_ddl", "zorder_align", "postgis_gist", "gist_ranges",
	"gist_xz_nearest", "gist_shapes", "index_expressions", "partition_alter_table", "partition_foreign_keys",
	"schema_objects", "block_bulk_load", "view_deparse_subqueries", "gin_indexes", "schemas", "bit_money",
	"foreign_keys", "spill", "add_column_constraints", "qualified_names",
}

// heaviestFirst orders script paths with heavyScripts first, in that
// list's order, then the others by name.
func heaviestFirst(files []string) []string {
	rank := func(f string) int {
		if i := slices.Index(heavyScripts, strings.TrimSuffix(filepath.Base(f), ".slt")); i >= 0 {
			return i
		}
		return len(heavyScripts)
	}
	out := slices.Clone(files)
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}

// scriptBackend is the backend a script's "# backend: NAME" line (among
// its leading comments) restricts it to, or "". A script needing what
// only an exclusive store gives a session harness without a cluster (the
// proxy's own advisory lock table) says pebble; package e2e covers the
// shared store.
func scriptBackend(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		if name, ok := strings.CutPrefix(line, "# backend: "); ok {
			return strings.TrimSpace(name)
		}
	}
	return ""
}

// record is one test step of a script.
type record struct {
	line    int
	kind    string // statement, query, connection, disconnect
	expect  string // ok, error CODE
	sorted  bool
	names   bool // the first expected row is the column header
	zproxy  bool // onlyif zproxy: not run against PostgreSQL
	sql     string
	rows    []string
	notices []string
	columns string
	// context are the lines an error's CONTEXT must have, innermost
	// first; errquery its internal query (psql's QUERY line).
	context  []string
	errquery string
}

// checkErrorFields compares an error's CONTEXT lines and internal query
// (where, query) with the record's context and errquery directives.
func (rec *record) checkErrorFields(where, query string) string {
	var msgs []string
	if rec.context != nil && where != strings.Join(rec.context, "\n") {
		msgs = append(msgs, fmt.Sprintf("CONTEXT\n  %s\n want\n  %s", strings.ReplaceAll(where, "\n", "\n  "), strings.Join(rec.context, "\n  ")))
	}
	if rec.errquery != "" && query != rec.errquery {
		msgs = append(msgs, fmt.Sprintf("internal query %q, want %q", query, rec.errquery))
	}
	return strings.Join(msgs, "; ")
}

func parseScript(t *testing.T, path string) []record {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	lineNo := 0
	var cur *record
	inRows, onlyZproxy := false, false
	flush := func() {
		if cur != nil {
			cur.sql = strings.TrimSpace(cur.sql)
			recs = append(recs, *cur)
		}
		cur, inRows = nil, false
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && (trimmed == "" || strings.HasPrefix(trimmed, "#")):
		case cur == nil && strings.HasPrefix(trimmed, "notice "):
			if len(recs) == 0 {
				t.Fatalf("%s:%d: notice before any statement", path, lineNo)
			}
			recs[len(recs)-1].notices = append(recs[len(recs)-1].notices, strings.TrimPrefix(trimmed, "notice "))
		case cur == nil && (strings.HasPrefix(trimmed, "context ") || strings.HasPrefix(trimmed, "errquery ")):
			if len(recs) == 0 || !strings.HasPrefix(recs[len(recs)-1].expect, "error") {
				t.Fatalf("%s:%d: %s after no error record", path, lineNo, trimmed)
			}
			last := &recs[len(recs)-1]
			if kw, text, _ := strings.Cut(trimmed, " "); kw == "context" {
				last.context = append(last.context, text)
			} else {
				last.errquery = text
			}
		case cur == nil && strings.HasPrefix(trimmed, "columns "):
			if len(recs) == 0 {
				t.Fatalf("%s:%d: columns before any query", path, lineNo)
			}
			recs[len(recs)-1].columns = strings.TrimPrefix(trimmed, "columns ")
		case cur == nil && trimmed == "onlyif zproxy":
			onlyZproxy = true
		case cur == nil && (strings.HasPrefix(trimmed, "connection ") || strings.HasPrefix(trimmed, "disconnect ")):
			kind, name, _ := strings.Cut(trimmed, " ")
			recs = append(recs, record{line: lineNo, kind: kind, sql: strings.TrimSpace(name), zproxy: onlyZproxy})
			onlyZproxy = false
		case cur == nil:
			fields := strings.Fields(trimmed)
			cur = &record{line: lineNo, kind: fields[0], zproxy: onlyZproxy}
			onlyZproxy = false
			switch fields[0] {
			case "statement":
				cur.expect = strings.Join(fields[1:], " ")
			case "query":
				if len(fields) > 1 && fields[1] == "error" {
					cur.expect = strings.Join(fields[1:], " ")
					break
				}
				// The options follow the usual sqllogictest form, in any
				// order: "query TTI rowsort", "query rowsort colnames".
				// A column-type word (letters from sqllogictest's T, I,
				// R, B) says nothing the harness checks.
				for _, opt := range fields[1:] {
					switch opt {
					case "rowsort":
						cur.sorted = true
					case "colnames":
						cur.names = true
					default:
						if strings.Trim(opt, "TIRB") != "" {
							t.Fatalf("%s:%d: unknown query option %q", path, lineNo, opt)
						}
					}
				}
			default:
				t.Fatalf("%s:%d: unknown record %q", path, lineNo, fields[0])
			}
		case trimmed == "":
			flush()
		case cur.kind == "query" && trimmed == "----":
			inRows = true
		case inRows:
			cur.rows = append(cur.rows, trimmed)
		default:
			cur.sql += line + "\n"
		}
	}
	flush()
	return recs
}

// planLines returns the lines of an EXPLAIN's output, without their
// indentation, that match the wanted lines in order; where one is missing
// it returns the whole plan, so the difference shows.
// planCost is the cost, rows and width EXPLAIN puts on a head line.
var planCost = regexp.MustCompile(`  \(cost=[0-9.]+\.\.[0-9.]+ rows=\d+ width=\d+\)`)

func planLines(got, want []string) []string {
	var out []string
	i := 0
	for _, g := range got {
		g = strings.TrimSpace(g)
		if i < len(want) && !strings.Contains(want[i], "(cost=") {
			// Costs follow the head line, as PostgreSQL's: a script names
			// them only where it checks them.
			g = planCost.ReplaceAllString(g, "")
		}
		if i < len(want) && g == want[i] {
			out = append(out, g)
			i++
		}
	}
	if i < len(want) {
		return got
	}
	return out
}

// RunScript runs one script file against a fresh engine over store.
func RunScript(t *testing.T, store kv.Store, path string) {
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close() // (its spill store)
	var notices []string
	sessions := map[string]wire.Session{}
	open := func(name string) wire.Session {
		if s, ok := sessions[name]; ok {
			return s
		}
		s, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(e *pgerr.Error) {
			notices = append(notices, e.Message)
		}})
		if err != nil {
			t.Fatal(err)
		}
		sessions[name] = s
		return s
	}
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	sess := open("default")
	for _, rec := range parseScript(t, path) {
		if rec.kind == "connection" {
			sess = open(rec.sql)
			continue
		}
		if rec.kind == "disconnect" {
			if s, ok := sessions[rec.sql]; ok {
				s.Close()
				delete(sessions, rec.sql)
				if s == sess {
					sess = nil
				}
			}
			continue
		}
		if sess == nil {
			t.Fatalf("%s:%d: no connection (after disconnect)", path, rec.line)
		}
		notices = notices[:0]
		began := time.Now()
		rows, names, err := runSQLColumns(ctx, sess, rec.sql)
		where := fmt.Sprintf("%s:%d: %s", path, rec.line, firstLine(rec.sql))
		if took := time.Since(began); *sltSlow > 0 && took > *sltSlow {
			t.Logf("%s: took %v", where, took.Round(time.Millisecond))
		}
		switch {
		case strings.HasPrefix(rec.expect, "error"):
			want, msg, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(rec.expect, "error")), " ")
			if err == nil {
				t.Errorf("%s: succeeded, want error %s", where, want)
			} else if got := pgerr.CodeOf(err).String(); want != "" && got != want || !strings.Contains(err.Error(), msg) {
				t.Errorf("%s: error %s (%v), want %s %s", where, got, err, want, msg)
			} else if pe := pgerr.As(err); pe != nil {
				if bad := rec.checkErrorFields(pe.Where, pe.InternalQuery); bad != "" {
					t.Errorf("%s: %s", where, bad)
				}
			}
			continue
		case err != nil:
			t.Errorf("%s: %v (SQLSTATE %s)", where, err, pgerr.CodeOf(err))
			continue
		}
		if rec.kind == "query" {
			if rec.sorted {
				sort.Strings(rows)
			}
			if rec.names {
				rows = append([]string{columnHeader(ctx, sess, rec.sql)}, rows...)
			}
			if rec.zproxy && strings.HasPrefix(strings.ToUpper(rec.sql), "EXPLAIN") {
				// A plan's costs and reasons differ by store (DynamoDB's
				// are by requests): the expected lines are the ones that
				// matter, found in order without their indentation.
				rows = planLines(rows, rec.rows)
			}
			if strings.Join(rows, "\n") != strings.Join(rec.rows, "\n") {
				t.Errorf("%s:\n got:\n  %s\n want:\n  %s", where, strings.Join(rows, "\n  "), strings.Join(rec.rows, "\n  "))
			}
			if rec.columns != "" && strings.Join(names, "|") != rec.columns {
				t.Errorf("%s: columns %s, want %s", where, strings.Join(names, "|"), rec.columns)
			}
		}
		for _, want := range rec.notices {
			found := false
			for _, n := range notices {
				found = found || strings.Contains(n, want)
			}
			if !found {
				t.Errorf("%s: no NOTICE containing %q (got %q)", where, want, notices)
			}
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// runSQL runs a query string through the session as the simple protocol
// would and returns the rows of the last statement as text.
func runSQL(ctx context.Context, sess wire.Session, sql string) ([]string, error) {
	rows, _, err := runSQLColumns(ctx, sess, sql)
	return rows, err
}

// runSQLColumns is runSQL that also returns the last statement's column
// names.
func runSQLColumns(ctx context.Context, sess wire.Session, sql string) ([]string, []string, error) {
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		return nil, nil, err
	}
	var out, names []string
	for _, st := range stmts {
		out, names = nil, nil
		if _, _, err := st.Describe(ctx); err != nil {
			return nil, nil, err
		}
		res, err := st.Execute(ctx, nil)
		if err != nil {
			return nil, nil, err
		}
		cols := res.Columns()
		for _, c := range cols {
			names = append(names, c.Name)
		}
		for {
			row, ok, err := res.Next(ctx)
			if err != nil {
				res.Close()
				return nil, nil, err
			}
			if !ok {
				break
			}
			parts := make([]string, len(row))
			// As the wire shows values: in the session's TimeZone and
			// output settings.
			style := sess.Style()
			style.Location = sess.TimeZone()
			for i, v := range row {
				if v.IsNull() {
					parts[i] = "NULL"
				} else {
					parts[i] = string(sqltypes.AppendTextStyled(nil, cols[i].Type, v, style))
				}
			}
			out = append(out, strings.Join(parts, "|"))
		}
		// As the wire does: an error of the result's end (a deferred
		// constraint failing the statement's commit) follows its rows.
		if err := res.Close(); err != nil {
			return nil, nil, err
		}
	}
	return out, names, nil
}
