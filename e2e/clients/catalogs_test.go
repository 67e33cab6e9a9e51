package clients

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The introspection scenarios of issue 13: psql's \d family, pgJDBC's
// DatabaseMetaData and ResultSetMetaData, SQLAlchemy's inspector, ORM and
// pandas, and the queries Grafana, Metabase, DBeaver and pgx send to learn
// a schema. Each runs against a fresh zproxy, or, with E2E_POSTGRES set to
// a connection string, against that PostgreSQL (in a database of its own,
// created and dropped by the test), so every expectation is checked to be
// PostgreSQL's. Where zproxy differs on purpose (its index methods and
// shards, one database, its bootstrap role) the golden files say so: each
// psql command has a zproxy and a PostgreSQL golden file.

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the catalog scenarios")

// catalogTarget is where a catalog scenario runs.
type catalogTarget struct {
	host, port, db, user string
	postgres             bool
}

func (c *catalogTarget) connString() string {
	return fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=disable connect_timeout=10", c.host, c.port, c.user, c.db)
}

// newCatalogTarget starts zproxy, or makes a database of its own on the
// PostgreSQL of E2E_POSTGRES.
func newCatalogTarget(t *testing.T) *catalogTarget {
	t.Helper()
	pg := os.Getenv("E2E_POSTGRES")
	if pg == "" {
		s := startServer(t)
		// The user PostgreSQL's superuser has, so owners print alike: a
		// superuser role made by the bootstrap one.
		if _, err := connect(t, s.pgxConnString()).Exec(context.Background(), "CREATE ROLE postgres SUPERUSER LOGIN"); err != nil {
			t.Fatal(err)
		}
		return &catalogTarget{host: s.host, port: s.port, db: "zproxy", user: "postgres"}
	}
	cfg, err := pgx.ParseConfig(pg)
	if err != nil {
		t.Fatal(err)
	}
	db := "zp_" + strings.ToLower(strings.NewReplacer("/", "_", "-", "_").Replace(t.Name()))
	admin := connect(t, pg)
	ctx := context.Background()
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+db); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)") })
	return &catalogTarget{host: cfg.Host, port: fmt.Sprint(cfg.Port), db: db, user: cfg.User, postgres: true}
}

func connect(t *testing.T, connString string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connString)
	if err != nil {
		t.Fatalf("connecting to %s: %v", connString, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// exec runs statements, leaving out zproxy's own DDL clauses (USING zorder
// indexes, WITH (shards ...)) on PostgreSQL.
func (c *catalogTarget) exec(t *testing.T, stmts ...string) {
	t.Helper()
	conn := connect(t, c.connString())
	for _, s := range stmts {
		if c.postgres {
			if strings.Contains(s, "USING zorder") {
				continue
			}
			if i := strings.Index(s, " WITH (shards"); i >= 0 {
				s = s[:i]
			}
		}
		if _, err := conn.Exec(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// catalogSchema is the schema every catalog scenario introspects.
var catalogSchema = []string{
	`CREATE TABLE readings (sensor_id bigint NOT NULL, ts timestamp NOT NULL, celsius double precision,
		note varchar(40), tags text[], PRIMARY KEY (sensor_id, ts)) WITH (shards = 4)`,
	`CREATE INDEX readings_note ON readings (note) INCLUDE (celsius)`,
	`CREATE INDEX readings_z ON readings USING zorder (sensor_id, ts) WITH (shards = 2)`,
	`CREATE TABLE sensors (id bigint PRIMARY KEY, name varchar(20) NOT NULL, installed date)`,
	`CREATE VIEW warm AS SELECT sensor_id, ts FROM readings WHERE celsius > 20`,
	`CREATE MATERIALIZED VIEW sensor_counts AS SELECT sensor_id, count(*) AS n FROM readings GROUP BY sensor_id`,
	`CREATE UNIQUE INDEX sensor_counts_id ON sensor_counts (sensor_id)`,
}

// golden compares got with the golden file, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// psqlDescribe are the psql commands whose output is compared, each with
// the name of its golden file.
var psqlDescribe = []struct{ name, cmd string }{
	{"dt", `\dt`}, {"dt_plus", `\dt+`}, {"d", `\d`}, {"d_readings", `\d readings`}, {"d_plus_readings", `\d+ readings`},
	{"d_sensors", `\d sensors`}, {"di", `\di`}, {"dv", `\dv`}, {"dn", `\dn`}, {"du", `\du`}, {"l", `\l`}, {"df", `\df`}, {"dT", `\dT`}, {"dx", `\dx`},
	{"dT_plus_sensor_kind", `\dT+ sensor_kind`}, {"dD", `\dD`}, {"dD_plus", `\dD+`},
	{"dn_plus", `\dn+`}, {"dt_field", `\dt field.*`}, {"d_field_probes", `\d field.probes`}, {"di_field", `\di field.*`},
	{"dm", `\dm`}, {"d_sensor_counts", `\d sensor_counts`}, {"d_plus_sensor_counts", `\d+ sensor_counts`}, {"d_plus_warm", `\d+ warm`},
}

func TestCatalogPSQL(t *testing.T) {
	t.Parallel()
	psql := requireTool(t, "psql", "Debian package postgresql-client")
	c := newCatalogTarget(t)
	c.exec(t, catalogSchema...)
	c.exec(t, `CREATE TYPE sensor_kind AS ENUM ('thermo', 'hygro', 'baro')`,
		`CREATE DOMAIN sensor_serial AS bigint CONSTRAINT serial_positive CHECK (VALUE > 0) CHECK (VALUE < 1000000)`,
		`CREATE DOMAIN sensor_label AS varchar(20) NOT NULL DEFAULT 'none'`,
		`CREATE SCHEMA field`, `COMMENT ON SCHEMA field IS 'probes in the field'`,
		`CREATE TABLE field.probes (id bigserial PRIMARY KEY, sensor_id bigint REFERENCES sensors (id), label text)`,
		`CREATE INDEX probes_label ON field.probes (label)`)
	kind := "zproxy"
	if c.postgres {
		kind = "postgres"
	}
	for _, d := range psqlDescribe {
		if c.postgres && d.name == "l" {
			continue // PostgreSQL lists whatever databases the machine has
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, psql, "-X", "-v", "ON_ERROR_STOP=1", "-P", "pager=off",
			"-h", c.host, "-p", c.port, "-U", c.user, "-d", c.db, "-c", d.cmd)
		cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10", "COLUMNS=200", "PGTZ=UTC")
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("psql %s: %v\n%s", d.cmd, err, out)
			continue
		}
		golden(t, filepath.Join("testdata", "psql", d.name+"."+kind+".golden"), string(out))
	}
}

func TestCatalogJDBCMetadata(t *testing.T) {
	t.Parallel()
	java, classpath := compileJava(t, "JdbcMetadata.java")
	c := newCatalogTarget(t)
	c.exec(t, `CREATE TABLE jm_t (id bigint PRIMARY KEY, name varchar(20) NOT NULL, price numeric(10,2), tags text[], created timestamptz)`,
		`CREATE INDEX jm_t_name ON jm_t (name)`)
	out := runClient(t, ".", nil, java, "-cp", classpath, "JdbcMetadata", c.host, c.port, c.db, c.user, "jm_t")
	// The same answers from both: the golden file is PostgreSQL's.
	golden(t, "testdata/java/jdbc_metadata.golden", out)
}

func TestCatalogSQLAlchemy(t *testing.T) {
	t.Parallel()
	requireFile(t, debianPython, "Debian package python3")
	for _, mod := range []string{"psycopg2", "sqlalchemy", "pandas"} {
		if err := exec.Command(debianPython, "-c", "import "+mod).Run(); err != nil {
			missingClient(t, mod+" is not importable by "+debianPython+" (Debian package python3-"+mod+")")
		}
	}
	c := newCatalogTarget(t)
	c.exec(t, `CREATE TABLE sa_items (id bigint PRIMARY KEY, name varchar(20) NOT NULL, price double precision)`,
		`CREATE INDEX sa_items_name ON sa_items (name)`)
	out := runClient(t, "testdata/python", nil, debianPython, "sqlalchemy_client.py", c.host, c.port, c.db, c.user, "sa_items")
	golden(t, "testdata/python/sqlalchemy.golden", out)
}
