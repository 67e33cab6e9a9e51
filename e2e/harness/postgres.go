package harness

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
)

// ErrNoPostgres is wrapped by FindPostgresBin when PostgreSQL's server
// binaries are not installed, so callers can tell "skip" from "broken".
var ErrNoPostgres = errors.New("PostgreSQL server binaries not found")

// Postgres is a throw-away PostgreSQL cluster in a temporary directory,
// started with initdb and pg_ctl. The benchmark harness and the
// differential test both use it: PostgreSQL is the oracle zproxy is
// compared with.
type Postgres struct {
	Bin  string // directory of initdb, pg_ctl
	Dir  string // the cluster's directory: data/, server.log, the socket
	Port int    // TCP port on 127.0.0.1, or 0 when it listens on the socket only

	asUser  string // run the server binaries as this user ("" = as ourselves)
	logFile string
}

// FindPostgresBin returns the directory holding PostgreSQL 15's server
// binaries (Debian puts them outside PATH): explicit if given, else
// /usr/lib/postgresql/15/bin, else where pg_ctl is on PATH.
func FindPostgresBin(explicit string) (string, error) {
	candidates := []string{explicit, "/usr/lib/postgresql/15/bin"}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		candidates = append(candidates, filepath.Dir(p))
	}
	for _, dir := range candidates {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("%w (apt-get install -y postgresql-15)", ErrNoPostgres)
}

// socketPort names the Unix socket (.s.PGSQL.<port>) of a cluster that has
// no TCP listener; nothing listens on this TCP port.
const socketPort = 5432

// StartPostgres runs initdb into a fresh temporary directory and starts the
// server. With port > 0 it listens on 127.0.0.1:port; with port 0 only on
// a Unix socket in its own directory, so parallel clusters never compete for
// a port. settings are extra "name=value" server settings (-c); without them
// the cluster runs with PostgreSQL's defaults. The locale is C, so text
// sorts bytewise. PostgreSQL refuses to run as root, so as root the cluster
// belongs to the "postgres" system user.
func StartPostgres(bin string, port int, settings ...string) (*Postgres, error) {
	pg := &Postgres{Bin: bin, Port: port}
	// Not t.TempDir: as root the postgres user must be able to reach it,
	// and the test's temporary directories are private to root.
	dir, err := os.MkdirTemp("", "zproxy-pg-")
	if err != nil {
		return nil, err
	}
	pg.Dir = dir
	pg.logFile = filepath.Join(dir, "server.log")
	if os.Geteuid() == 0 {
		pg.asUser = "postgres"
		u, err := user.Lookup(pg.asUser)
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root needs the postgres system user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := pg.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", port, dir)
	if port == 0 {
		opts = fmt.Sprintf("-p %d -k %s -c listen_addresses=''", socketPort, dir)
	}
	for _, s := range settings {
		opts += " -c " + s
	}
	if out, err := pg.run("pg_ctl", "-D", data, "-o", opts, "-l", pg.logFile, "-w", "-t", "60", "start"); err != nil {
		err = fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, pg.Log())
		os.RemoveAll(dir)
		return nil, err
	}
	return pg, nil
}

func (pg *Postgres) run(tool string, args ...string) ([]byte, error) {
	path := filepath.Join(pg.Bin, tool)
	var cmd *exec.Cmd
	if pg.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", pg.asUser, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = pg.Dir
	cmd.Env = CleanEnv()
	return cmd.CombinedOutput()
}

// DSN is a libpq/pgx connection string for the superuser postgres.
func (pg *Postgres) DSN() string {
	if pg.Port == 0 {
		return fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres sslmode=disable", pg.Dir, socketPort)
	}
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", pg.Port)
}

// Log returns the server's log so far.
func (pg *Postgres) Log() string {
	b, _ := os.ReadFile(pg.logFile)
	return string(b)
}

// Stop shuts the server down (fast mode) and removes the cluster unless
// keep is set.
func (pg *Postgres) Stop(keep bool) error {
	var err error
	if out, e := pg.run("pg_ctl", "-D", filepath.Join(pg.Dir, "data"), "-m", "fast", "-w", "stop"); e != nil {
		err = fmt.Errorf("pg_ctl stop: %v\n%s", e, out)
	}
	if !keep {
		os.RemoveAll(pg.Dir)
	}
	return err
}

// ThrowawayPostgres starts a PostgreSQL cluster for one test (the server
// binaries in bin, or found as FindPostgresBin finds them when bin is
// "") and returns its DSN; the cluster is removed when the test ends.
// fsync and friends are off: the test is about results, not durability.
// Without PostgreSQL the test is skipped, except under CI=true, where
// that is a failure: CI installs it.
func ThrowawayPostgres(tb testing.TB, bin string) string {
	tb.Helper()
	bin, err := FindPostgresBin(bin)
	if err != nil {
		if os.Getenv("CI") == "true" || !errors.Is(err, ErrNoPostgres) {
			tb.Fatal(err)
		}
		tb.Skip(err)
	}
	pg, err := StartPostgres(bin, 0, "fsync=off", "synchronous_commit=off", "full_page_writes=off")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := pg.Stop(false); err != nil {
			tb.Error(err)
		}
	})
	return pg.DSN()
}
