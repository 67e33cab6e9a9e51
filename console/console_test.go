package console_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zproxy/zproxy/console"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// startSQL serves an engine over the wire with SCRAM authentication and
// the role admin:secret, filled with a table read through a Z-order
// index, and returns its address.
func startSQL(t *testing.T) string {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if _, err := eng.BootstrapUsers(ctx, map[string]string{"admin": "secret"}); err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(wire.Config{Auth: wire.AuthSCRAM}, eng)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	})
	conn, err := pgx.Connect(ctx, "postgres://admin:secret@"+ln.Addr().String()+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range []string{
		`CREATE TABLE pts (id INT PRIMARY KEY, x FLOAT8, y FLOAT8, tag TEXT)`,
		`INSERT INTO pts SELECT g, (g * 37 % 100) / 1.0, (g * 53 % 100) / 1.0, 'tag' || (g % 50) FROM generate_series(1, 2000) g`,
		`CREATE INDEX pts_xy ON pts USING zorder (x, y)`,
		`ANALYZE pts`,
		`SELECT count(*) FROM pts WHERE tag = 'tag7'`,
		`SELECT count(*) FROM pts WHERE tag = 'tag8'`,
		`SELECT count(*) FROM pts WHERE tag = 'tag9'`,
		`SELECT count(*) FROM pts WHERE x BETWEEN 10 AND 20 AND y BETWEEN 30 AND 50`,
		`CREATE ROLE viewer LOGIN PASSWORD 'viewpw'`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	return ln.Addr().String()
}

func newClient(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second}
}

func do(t *testing.T, c *http.Client, method, url, body string) (int, map[string]any, []any) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var obj map[string]any
	var arr []any
	if json.Unmarshal(data, &obj) != nil {
		_ = json.Unmarshal(data, &arr)
	}
	return resp.StatusCode, obj, arr
}

func TestConsoleAPI(t *testing.T) {
	addr := startSQL(t)
	cons := console.New(console.Config{SQLAddr: addr, Database: "postgres"})
	defer cons.Close()
	ts := httptest.NewServer(cons)
	defer ts.Close()
	api := ts.URL + "/console/api/"

	// Refusals, each with the SQLSTATE SQL gives.
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		sqlstate                 string
	}{
		{"no login", "GET", "statements", "", 401, "28000"},
		{"no login, explain", "POST", "explain", `{"query": "SELECT 1"}`, 401, "28000"},
		{"wrong password", "POST", "login", `{"user": "admin", "password": "nope"}`, 401, "28P01"},
		{"unknown role", "POST", "login", `{"user": "nobody", "password": "x"}`, 401, "28P01"},
		{"login as a form", "POST", "login", ``, 415, "08P01"},
		{"no user", "POST", "login", `{"password": "x"}`, 400, "08P01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t)
			req, _ := http.NewRequest(tc.method, api+tc.path, strings.NewReader(tc.body))
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/json")
			} else if tc.method == "POST" {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e map[string]string
			_ = json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != tc.status || e["sqlstate"] != tc.sqlstate {
				t.Errorf("%s %s: %d %v, want %d with SQLSTATE %s", tc.method, tc.path, resp.StatusCode, e, tc.status, tc.sqlstate)
			}
		})
	}

	c := newClient(t)
	if st, body, _ := do(t, c, "POST", api+"login", `{"user": "admin", "password": "secret"}`); st != 200 || body["user"] != "admin" {
		t.Fatalf("login: %d %v", st, body)
	}
	if st, body, _ := do(t, c, "GET", api+"me", ""); st != 200 || body["user"] != "admin" || body["superuser"] != true {
		t.Errorf("me: %d %v", st, body)
	}
	// The shapes the pages read.
	for _, tc := range []struct {
		path string
		keys []string
	}{
		{"statements", []string{"queryid", "query", "calls", "total_exec_time", "mean_exec_time", "items_read", "access_path", "full_scans", "plan"}},
		{"sessions", []string{"pid", "usename", "application_name", "state", "query", "console"}},
		{"advice", []string{"table_name", "kind", "recommendation", "items_before", "items_after", "requests_before", "requests_after", "reason", "statement_texts"}},
		{"tables", []string{"name", "reltuples", "indexes", "columns", "table_bytes", "index_bytes", "total_bytes"}},
	} {
		st, _, rows := do(t, c, "GET", api+tc.path, "")
		if st != 200 || len(rows) == 0 {
			t.Errorf("%s: %d, %d rows", tc.path, st, len(rows))
			continue
		}
		row := rows[0].(map[string]any)
		for _, k := range tc.keys {
			if _, ok := row[k]; !ok {
				t.Errorf("%s: no %q in %v", tc.path, k, row)
			}
		}
	}
	// Sizes: the store (Pebble here) measures the table and its index.
	_, _, tabs := do(t, c, "GET", api+"tables", "")
	for _, r := range tabs {
		m := r.(map[string]any)
		if m["name"] != "pts" {
			continue
		}
		tb, _ := m["table_bytes"].(float64)
		ib, _ := m["index_bytes"].(float64)
		if tb < 2000*8 || ib <= 0 || m["total_bytes"] != tb+ib {
			t.Errorf("pts sizes: table %v, indexes %v, total %v", m["table_bytes"], m["index_bytes"], m["total_bytes"])
		}
		ix := m["indexes"].([]any)
		for _, i := range ix {
			im := i.(map[string]any)
			if b, _ := im["bytes"].(float64); im["indexname"] == "pts_xy" && b != ib {
				t.Errorf("pts_xy's size %v, the table's indexes %v", im["bytes"], ib)
			}
		}
	}
	_, _, stmts := do(t, c, "GET", api+"statements", "")
	found := false
	for _, r := range stmts {
		m := r.(map[string]any)
		if strings.Contains(m["query"].(string), "x BETWEEN $1 AND $2") {
			found = true
			if plan, _ := json.Marshal(m["plan"]); !strings.Contains(string(plan), `"Index Name":"pts_xy"`) {
				t.Errorf("the Z-order statement's plan: %s", plan)
			}
		}
	}
	if !found {
		t.Errorf("no Z-order statement in %v", stmts)
	}

	st, body, _ := do(t, c, "POST", api+"explain", `{"query": "SELECT id FROM pts WHERE x BETWEEN 10 AND 20 AND y BETWEEN 30 AND 50;", "analyze": true}`)
	pics, _ := body["pictures"].([]any)
	if st != 200 || len(pics) != 1 {
		t.Fatalf("explain: %d %v", st, body)
	}
	pic := pics[0].(map[string]any)
	ranges := pic["ranges"].([]any)
	var items float64
	for _, r := range ranges {
		items += r.(map[string]any)["items"].(float64)
	}
	x := pic["x"].(map[string]any)
	if pic["index"] != "pts_xy" || x["name"] != "x" || x["boxLow"] != "10" || len(ranges) == 0 || items < pic["rows"].(float64) || items > pic["itemsRead"].(float64) {
		t.Errorf("picture: %v", pic)
	}
	// EXPLAIN ANALYZE runs read-only: a write is refused, not done.
	if st, body, _ := do(t, c, "POST", api+"explain", `{"query": "DELETE FROM pts", "analyze": true}`); st != 422 || body["sqlstate"] != "25006" {
		t.Errorf("EXPLAIN ANALYZE DELETE: %d %v", st, body)
	}
	if st, body, _ := do(t, c, "POST", api+"explain", `{"query": "SELECT 1; SELECT 2"}`); st != 422 {
		t.Errorf("two statements: %d %v", st, body)
	}
	if st, _, _ := do(t, c, "POST", api+"logout", `{}`); st != 200 {
		t.Errorf("logout: %d", st)
	}
	if st, _, _ := do(t, c, "GET", api+"me", ""); st != 401 {
		t.Errorf("after logout: %d, want 401", st)
	}

	// A role without pg_read_all_stats sees others' statements hidden,
	// as its SQL would.
	v := newClient(t)
	if st, body, _ := do(t, v, "POST", api+"login", `{"user": "viewer", "password": "viewpw"}`); st != 200 {
		t.Fatalf("viewer login: %d %v", st, body)
	}
	_, _, vs := do(t, v, "GET", api+"statements", "")
	for _, r := range vs {
		m := r.(map[string]any)
		if m["query"] != "<insufficient privilege>" && !strings.Contains(m["query"].(string), "pg_stat_statements") {
			t.Errorf("viewer sees %v", m["query"])
		}
		if m["query"] == "<insufficient privilege>" && m["plan"] != nil {
			t.Errorf("viewer sees another role's plan: %v", m["plan"])
		}
	}
	if _, me, _ := do(t, v, "GET", api+"me", ""); me["superuser"] != false {
		t.Errorf("viewer: %v", me)
	}
}

// TestConsoleTLS: with RequireTLS, plain HTTP from elsewhere than
// loopback is redirected (pages) or refused (API); over TLS it is served.
func TestConsoleTLS(t *testing.T) {
	cons := console.New(console.Config{SQLAddr: "127.0.0.1:1", RequireTLS: true})
	for _, tc := range []struct {
		name, path, remote string
		tls                bool
		status             int
	}{
		{"page over plain HTTP from afar", "/console/", "192.0.2.1:5000", false, http.StatusMovedPermanently},
		{"API over plain HTTP from afar", "/console/api/me", "192.0.2.1:5000", false, http.StatusForbidden},
		{"page over plain HTTP from loopback", "/console/", "127.0.0.1:5000", false, http.StatusOK},
		{"page over TLS", "/console/", "192.0.2.1:5000", true, http.StatusOK},
		{"API over TLS without login", "/console/api/me", "192.0.2.1:5000", true, http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tc.path, nil)
			req.RemoteAddr = tc.remote
			if tc.tls {
				req.TLS = &tls.ConnectionState{}
			}
			w := httptest.NewRecorder()
			cons.ServeHTTP(w, req)
			if w.Code != tc.status {
				t.Errorf("%d, want %d", w.Code, tc.status)
			}
			if tc.status == http.StatusMovedPermanently && !strings.HasPrefix(w.Header().Get("Location"), "https://") {
				t.Errorf("redirected to %q", w.Header().Get("Location"))
			}
		})
	}
}

// TestConsolePages: the embedded pages are served with a policy that
// loads nothing from elsewhere.
func TestConsolePages(t *testing.T) {
	cons := console.New(console.Config{SQLAddr: "127.0.0.1:1"})
	for _, path := range []string{"/console/", "/console/console.js", "/console/console.css"} {
		w := httptest.NewRecorder()
		cons.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 || w.Body.Len() == 0 || !strings.Contains(w.Header().Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: %d, %d bytes, CSP %q", path, w.Code, w.Body.Len(), w.Header().Get("Content-Security-Policy"))
		}
	}
}
