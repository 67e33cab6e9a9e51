package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// dynamoEndpoint returns the DynamoDB Local endpoint of the test run, or
// skips (fails under CI, where the test command always provides one).
func dynamoEndpoint(t *testing.T) string {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DYNAMODB_ENDPOINT is not set; the test command starts DynamoDB Local")
		}
		t.Skip("DYNAMODB_ENDPOINT not set (run scripts/dynamodb-local.sh start, or make test)")
	}
	return ep
}

// dynamoCreds gives the zproxy child the dummy credentials DynamoDB Local
// accepts (letters and digits only).
func dynamoCreds(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "zproxytest")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "zproxytest")
	t.Setenv("AWS_REGION", "us-east-1")
}

func dynamoArgs(endpoint, table string) []string {
	return []string{"--backend", "dynamodb", "--dynamodb-endpoint", endpoint, "--dynamodb-table", table}
}

// TestDynamoDBBackend runs the session through the real binary on
// DynamoDB Local: DDL, writes with index maintenance, every access path,
// EXPLAIN ANALYZE with consumed capacity, and the capacity metric.
func TestDynamoDBBackend(t *testing.T) {
	requireZproxy(t)
	ep := dynamoEndpoint(t)
	dynamoCreds(t)
	s := startServer(t, "", dynamoArgs(ep, fmt.Sprintf("e2e_backend_%d", os.Getpid()))...)
	conn := s.Connect(t)
	mustExec(t, conn, `CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
		lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts DESC)) WITH (shards = 4)`)
	mustExec(t, conn, `CREATE INDEX by_place ON readings USING zorder (lat, lon) INCLUDE (celsius)`)
	rng := rand.New(rand.NewSource(6))
	type row struct {
		id       int64
		lat, lon float64
	}
	var rows []row
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for batch := 0; batch < 10; batch++ {
		var sb strings.Builder
		var args []any
		sb.WriteString("INSERT INTO readings VALUES ")
		for i := 0; i < 40; i++ {
			r := row{id: int64(rng.Intn(50)), lat: 40 + rng.Float64(), lon: -74 + rng.Float64()}
			ts := base.Add(time.Duration(batch*40+i) * time.Minute)
			if i > 0 {
				sb.WriteString(", ")
			}
			n := len(args)
			fmt.Fprintf(&sb, "($%d, $%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5, n+6)
			args = append(args, r.id, ts, 20.0, r.lat, r.lon, "n")
			rows = append(rows, r)
		}
		if _, err := conn.Exec(testCtx(t), sb.String(), args...); err != nil {
			t.Fatal(err)
		}
	}
	want := 0
	for _, r := range rows {
		if r.lat >= 40.2 && r.lat <= 40.5 && r.lon >= -73.8 && r.lon <= -73.5 {
			want++
		}
	}
	var got int
	box := `SELECT count(*) FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -73.8 AND -73.5`
	if err := conn.QueryRow(testCtx(t), box).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("box count on DynamoDB: %d, want %d", got, want)
	}
	plan := explainLines(t, conn, "EXPLAIN ANALYZE "+box)
	for _, needle := range []string{"zorder index by_place: z-order ranges", "Capacity consumed", "store requests"} {
		if !strings.Contains(plan, needle) {
			t.Errorf("EXPLAIN ANALYZE on DynamoDB lacks %q:\n%s", needle, plan)
		}
	}
	var n int
	if err := conn.QueryRow(testCtx(t), `SELECT count(*) FROM readings WHERE sensor_id = 7`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	wantID := 0
	for _, r := range rows {
		if r.id == 7 {
			wantID++
		}
	}
	if n != wantID {
		t.Fatalf("prefix count: %d, want %d", n, wantID)
	}
	mustExec(t, conn, `INSERT INTO readings VALUES (7, '2023-06-01 00:00:00', 1, 1, 1, 'once')`)
	if _, err := conn.Exec(testCtx(t), `INSERT INTO readings VALUES (7, '2023-06-01 00:00:00', 1, 1, 1, 'dup')`); pgCode(err) != "23505" {
		t.Fatalf("duplicate key on DynamoDB: %v, want 23505", err)
	}
	check := explainLines(t, conn, "CHECK TABLE readings")
	if strings.Contains(check, "|f") || strings.Count(check, "|t") != 2 {
		t.Fatalf("consistency check on DynamoDB:\n%s", check)
	}
	body := httpGet(t, s.MetricsURL())
	if !strings.Contains(body, "zproxy_dynamodb_consumed_capacity_total") || !strings.Contains(body, `zproxy_store_requests_total{backend="dynamodb"`) {
		t.Errorf("metrics lack DynamoDB counters")
	}
}

// explainLines runs a statement and joins its rows' columns with "|".
func explainLines(t *testing.T, conn *pgx.Conn, sql string) string {
	t.Helper()
	rows, err := conn.Query(testCtx(t), sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, v := range vals {
			switch x := v.(type) {
			case bool:
				parts = append(parts, map[bool]string{true: "t", false: "f"}[x])
			default:
				parts = append(parts, fmt.Sprint(x))
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return strings.Join(out, "\n")
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestDynamoDBOutage stops DynamoDB Local under a running zproxy: statements
// fail with a clear, retryable error, the connection and the proxy stay up,
// and once DynamoDB is back the same connection works again.
func TestDynamoDBOutage(t *testing.T) {
	requireZproxy(t)
	dynamoEndpoint(t) // the script and Java are installed when this is set
	dynamoCreds(t)
	script, err := filepath.Abs("../scripts/dynamodb-local.sh")
	if err != nil {
		t.Fatal(err)
	}
	port := freeLowPort(t)
	env := append(os.Environ(), "DYNAMODB_LOCAL_PORT="+port, "DYNAMODB_LOCAL_DBPATH="+t.TempDir())
	ddb := func(verb string) {
		t.Helper()
		cmd := exec.Command(script, verb)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("dynamodb-local.sh %s: %v\n%s", verb, err, out)
		}
	}
	ddb("start")
	t.Cleanup(func() { ddb("stop") })

	s := startServer(t, "", dynamoArgs("http://127.0.0.1:"+port, "outage")...)
	conn := s.Connect(t)
	mustExec(t, conn, `CREATE TABLE o (id INT PRIMARY KEY, v TEXT)`)
	mustExec(t, conn, `INSERT INTO o VALUES (1, 'before')`)

	ddb("stop")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	_, err = conn.Exec(ctx, `INSERT INTO o VALUES (2, 'during')`)
	if code := pgCode(err); code != "08006" {
		t.Fatalf("write during the outage: %v (SQLSTATE %q), want 08006", err, code)
	}
	var v string
	err = conn.QueryRow(ctx, `SELECT v FROM o WHERE id = 1`).Scan(&v)
	if code := pgCode(err); code != "08006" {
		t.Fatalf("read during the outage: %v (SQLSTATE %q), want 08006", err, code)
	}
	t.Logf("statements failed within %v of the outage", time.Since(start).Round(time.Millisecond))

	ddb("start")
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err = conn.Exec(ctx, `INSERT INTO o VALUES (3, 'after')`)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("zproxy did not recover after DynamoDB came back: %v", err)
	}
	if err := conn.QueryRow(ctx, `SELECT v FROM o WHERE id = 1`).Scan(&v); err != nil || v != "before" {
		t.Fatalf("row written before the outage: %q, %v", v, err)
	}
}

// freeLowPort finds a free port below the ephemeral range, where a port
// chosen now is not taken by an outgoing connection before it is bound.
func freeLowPort(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for i := 0; i < 100; i++ {
		p := 20000 + rng.Intn(10000)
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err == nil {
			ln.Close()
			return fmt.Sprint(p)
		}
	}
	t.Fatal("no free port")
	return ""
}
