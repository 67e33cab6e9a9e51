package console_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zproxy/zproxy/e2e/harness"
)

var zproxyBin string

func TestMain(m *testing.M) {
	os.Exit(harness.RunTests(m, raceEnabled, &zproxyBin, "e2e/console"))
}

// The console's login: a superuser of --users, so the SQL listener asks
// for SCRAM as it would for any client.
const (
	adminUser     = "admin"
	adminPassword = "s3cret pass"
)

// startProxy runs zproxy with the console and fills it with readings
// (a Z-order index on lat, lon), then runs a small workload so that
// pg_stat_statements and the advisor have something to show.
func startProxy(t *testing.T, env []string, extra ...string) *harness.Proc {
	args := append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--console",
		"--users", adminUser + ":" + adminPassword, "--shutdown-timeout", "10s"}, extra...)
	p, err := harness.StartEnv(zproxyBin, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.Kill()
		if t.Failed() {
			t.Logf("zproxy log:\n%s", p.Log())
		}
	})
	host, port := p.HostPort()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=%s port=%s user=%s password='%s' dbname=zproxy sslmode=disable", host, port, adminUser, adminPassword))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	exec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec(`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
		lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts DESC)) WITH (shards = 4)`)
	rng := rand.New(rand.NewSource(32))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for batch := 0; batch < 6; batch++ {
		var vals []string
		for i := 0; i < 500; i++ {
			n := batch*500 + i
			vals = append(vals, fmt.Sprintf("(%d, '%s', %.1f, %.5f, %.5f, 'n%d')", n%40, base.Add(time.Duration(n)*time.Minute).Format(time.DateTime),
				15+rng.Float64()*10, 40+rng.Float64(), -74.5+rng.Float64(), n%7))
		}
		exec(`INSERT INTO readings VALUES ` + strings.Join(vals, ", "))
	}
	exec(`CREATE INDEX by_place ON readings USING zorder (lat, lon)`)
	exec(`CREATE TABLE sensors (id BIGINT PRIMARY KEY, name TEXT NOT NULL, region TEXT)`)
	exec(`INSERT INTO sensors SELECT g, 'sensor ' || g, CASE WHEN g % 2 = 0 THEN 'north' ELSE 'south' END FROM generate_series(0, 39) g`)
	exec(`ANALYZE readings`)
	exec(`ANALYZE sensors`)
	for i := 0; i < 5; i++ {
		exec(fmt.Sprintf(`SELECT count(*) FROM readings WHERE lat BETWEEN %.2f AND %.2f AND lon BETWEEN -74.3 AND -74.1`, 40.2+float64(i)/20, 40.5+float64(i)/20))
		exec(fmt.Sprintf(`SELECT ts, celsius FROM readings WHERE sensor_id = %d ORDER BY ts DESC LIMIT 5`, i))
		exec(fmt.Sprintf(`SELECT count(*) FROM readings WHERE note = 'n%d'`, i))
		exec(fmt.Sprintf(`SELECT s.name, r.celsius FROM readings r JOIN sensors s ON s.id = r.sensor_id WHERE r.sensor_id = %d LIMIT 3`, i))
	}
	return p
}

// consoleURL is the console's address on the metrics listener.
func consoleURL(p *harness.Proc) string {
	return strings.TrimSuffix(p.MetricsURL(), "/metrics") + "/console/"
}

func screenshotDir(t *testing.T) string {
	if d := os.Getenv("CONSOLE_SCREENSHOT_DIR"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// checkConsole logs in through the form and checks every page.
func checkConsole(t *testing.T, p *harness.Proc, backend string) {
	dir := screenshotDir(t)
	shot := func(b *browser, page string) { b.screenshot(filepath.Join(dir, backend+"-"+page+".png")) }
	b := startBrowser(t, 1280, 900)
	b.navigate(consoleURL(p))
	b.waitFor("the login form", `document.querySelector('#page').dataset.state === 'login'`)

	// A wrong password is refused as SQL refuses it (28P01).
	b.eval(`(() => { const f = document.getElementById('login'); f.user.value = 'admin'; f.password.value = 'wrong'; f.requestSubmit(); })()`, nil)
	b.waitFor("the refusal", `!document.getElementById('login-error').hidden`)
	var refusal string
	b.eval(`document.getElementById('login-error').textContent`, &refusal)
	if !strings.Contains(refusal, "28P01") {
		t.Errorf("a wrong password shows %q, want SQLSTATE 28P01", refusal)
	}
	shot(b, "login")

	b.eval(fmt.Sprintf(`(() => { const f = document.getElementById('login'); f.user.value = %q; f.password.value = %q; f.requestSubmit(); })()`, adminUser, adminPassword), nil)
	b.waitFor("the statements page", `document.querySelector('#page').dataset.page === 'statements' && document.querySelector('#page').dataset.state === 'loaded'`)
	var st struct {
		Who, First          string
		Rows, Trees, Zorder int
		Boxes               int
	}
	b.eval(`({Who: document.getElementById('who').textContent,
		Rows: document.querySelectorAll('#statements tr.stmt').length,
		Trees: document.querySelectorAll('#statements .plan svg').length,
		Boxes: document.querySelectorAll('#statements .plan svg g.node').length,
		Zorder: [...document.querySelectorAll('#statements tr.stmt')].filter(r => r.textContent.includes('z-order')).length,
		First: document.querySelector('#statements tr.stmt code').textContent})`, &st)
	if st.Who != "admin (superuser)" || st.Rows < 4 || st.Trees < 1 || st.Boxes < 2 || st.Zorder < 1 {
		t.Errorf("statements page: %+v; want the login, at least 4 statements, a z-order one and an open plan tree", st)
	}
	if strings.Contains(st.First, "40.2") {
		t.Errorf("a statement shows its constants: %s", st.First)
	}
	shot(b, "statements")

	open := func(page string) {
		t.Helper()
		b.eval(fmt.Sprintf(`location.hash = %q`, "#"+page), nil)
		b.waitFor(page, fmt.Sprintf(`document.querySelector('#page').dataset.page === %q && document.querySelector('#page').dataset.state === 'loaded'`, strings.SplitN(page, "?", 2)[0]))
	}

	open("sessions")
	var sess struct {
		Rows    int
		Console bool
	}
	b.eval(`({Rows: document.querySelectorAll('#sessions tbody tr').length,
		Console: document.querySelector('#sessions').textContent.includes('zproxy console')})`, &sess)
	if sess.Rows < 1 || !sess.Console {
		t.Errorf("sessions page: %+v; want the console's own session", sess)
	}
	shot(b, "sessions")

	open("advice")
	var adv struct {
		Cards int
		DDL   []string
	}
	b.eval(`({Cards: document.querySelectorAll('.advice').length,
		DDL: [...document.querySelectorAll('.advice pre.ddl')].map(p => p.textContent)})`, &adv)
	if adv.Cards < 1 || !strings.Contains(strings.Join(adv.DDL, "\n"), "CREATE INDEX readings_note_idx ON readings (note)") {
		t.Errorf("advice page: %+v; want the index on note", adv)
	}
	shot(b, "advice")

	open("tables")
	var tabs struct {
		Tables     []string
		Indexes    string
		Columns    int
		Sizes      []string
		IndexSizes []string
	}
	b.eval(`({Tables: [...document.querySelectorAll('.table-card')].map(c => c.dataset.table),
		Indexes: [...document.querySelectorAll('.table-card .indexes')].map(x => x.textContent).join(' '),
		Columns: document.querySelectorAll('.table-card .columns tbody tr').length,
		Sizes: [...document.querySelectorAll('.table-card .size-total')].map(x => x.textContent),
		IndexSizes: [...document.querySelectorAll('.table-card .index-size')].map(x => x.textContent)})`, &tabs)
	if strings.Join(tabs.Tables, ",") != "readings,sensors" || !strings.Contains(tabs.Indexes, "USING zorder (lat, lon)") || tabs.Columns < 9 {
		t.Errorf("tables page: %+v; want readings and sensors, by_place and their columns' statistics", tabs)
	}
	// Both tables are analyzed: every size is known (measured on Pebble,
	// estimated from the statistics on DynamoDB), none the "—" of NULL.
	if len(tabs.Sizes) != 2 || len(tabs.IndexSizes) < 1 || strings.Contains(strings.Join(append(tabs.Sizes, tabs.IndexSizes...), ","), "—") ||
		!strings.HasSuffix(tabs.Sizes[0], "kB") && !strings.HasSuffix(tabs.Sizes[0], "MB") {
		t.Errorf("tables page sizes: %v, index sizes %v", tabs.Sizes, tabs.IndexSizes)
	}
	shot(b, "tables")

	open("zorder?q=" + strings.ReplaceAll("SELECT * FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -74.3 AND -74.1", " ", "%20"))
	var z struct {
		Pictures, Ranges, Cells, Boxes int
		Items                          []string
		Title                          string
	}
	b.eval(`({Pictures: document.querySelectorAll('.zorder-picture').length,
		Title: (document.querySelector('.zorder-picture h2') || {}).textContent,
		Ranges: document.querySelectorAll('.zorder-picture svg g.range').length,
		Cells: document.querySelectorAll('.zorder-picture svg rect.cell').length,
		Boxes: document.querySelectorAll('.zorder-picture svg rect.qbox').length,
		Items: [...document.querySelectorAll('.zorder-picture .legend td.items')].map(td => td.textContent)})`, &z)
	if z.Pictures != 1 || z.Title != "readings via Z-order index by_place" || z.Ranges < 1 || z.Cells < z.Ranges || z.Boxes != 1 || len(z.Items) != z.Ranges {
		t.Errorf("Z-order page: %+v; want one picture with its box, ranges, cells and items per range", z)
	}
	read := 0
	for _, it := range z.Items {
		var n int
		fmt.Sscan(strings.ReplaceAll(it, ",", ""), &n)
		read += n
	}
	if read == 0 {
		t.Errorf("Z-order page: no items read in any range: %v", z.Items)
	}
	shot(b, "zorder")

	// EXPLAIN ANALYZE of a write runs read-only: refused, nothing written.
	b.eval(`(() => { document.getElementById('zquery').value = "DELETE FROM readings"; document.querySelector('#page form').requestSubmit(); })()`, nil)
	b.waitFor("the refusal", `document.querySelector('#page').dataset.state === 'error'`)
	var msg string
	b.eval(`document.querySelector('#zresult').textContent`, &msg)
	if !strings.Contains(msg, "25006") {
		t.Errorf("EXPLAIN ANALYZE of a DELETE shows %q, want 25006", msg)
	}
}

// TestConsolePebble runs the console against zproxy on Pebble.
func TestConsolePebble(t *testing.T) {
	p := startProxy(t, nil, "--data-dir", t.TempDir())
	checkConsole(t, p, "pebble")
}

// TestConsoleDynamoDB runs it against zproxy on DynamoDB Local.
func TestConsoleDynamoDB(t *testing.T) {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DYNAMODB_ENDPOINT is not set; the test command starts DynamoDB Local")
		}
		t.Skip("DYNAMODB_ENDPOINT not set (run scripts/dynamodb-local.sh start, or make test)")
	}
	chromiumPath(t) // skip before loading data when there is no browser
	env := []string{"AWS_ACCESS_KEY_ID=zproxytest", "AWS_SECRET_ACCESS_KEY=zproxytest", "AWS_REGION=us-east-1"}
	p := startProxy(t, env, "--backend", "dynamodb", "--dynamodb-endpoint", ep,
		"--dynamodb-table", fmt.Sprintf("e2e_console_%d", os.Getpid()))
	checkConsole(t, p, "dynamodb")
}
