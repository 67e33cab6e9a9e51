package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"

	"github.com/zproxy/zproxy/bench/internal/zpserver"
)

// postgres is a throw-away PostgreSQL cluster in a temporary directory.
type postgres struct {
	bin     string // directory of initdb, pg_ctl
	dir     string
	port    int
	asUser  string // run the server binaries as this user ("" = as ourselves)
	logFile string
}

// findPostgresBin returns the directory holding PostgreSQL 15's server
// binaries (Debian puts them outside PATH).
func findPostgresBin(explicit string) (string, error) {
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
	return "", fmt.Errorf("PostgreSQL server binaries not found (apt-get install -y postgresql, or -pg-bin DIR)")
}

// startPostgres runs initdb into a fresh directory and starts the server on
// 127.0.0.1:port with PostgreSQL's default settings (fsync, shared_buffers,
// synchronous_commit all left alone). PostgreSQL refuses to run as root, so
// as root the cluster belongs to the "postgres" system user.
func startPostgres(bin string, port int) (*postgres, error) {
	pg := &postgres{bin: bin, port: port}
	dir, err := os.MkdirTemp("", "zproxy-bench-pg-")
	if err != nil {
		return nil, err
	}
	pg.dir = dir
	pg.logFile = filepath.Join(dir, "server.log")
	if os.Geteuid() == 0 {
		pg.asUser = "postgres"
		u, err := user.Lookup(pg.asUser)
		if err != nil {
			return nil, fmt.Errorf("running as root needs the postgres system user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := pg.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", port, dir)
	if out, err := pg.run("pg_ctl", "-D", data, "-o", opts, "-l", pg.logFile, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(pg.logFile)
		return nil, fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return pg, nil
}

func (pg *postgres) run(tool string, args ...string) ([]byte, error) {
	path := filepath.Join(pg.bin, tool)
	var cmd *exec.Cmd
	if pg.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", pg.asUser, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = pg.dir
	return cmd.CombinedOutput()
}

func (pg *postgres) dsn() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", pg.port)
}

// stop shuts the server down and removes the cluster unless keep is set.
func (pg *postgres) stop(keep bool) {
	if out, err := pg.run("pg_ctl", "-D", filepath.Join(pg.dir, "data"), "-m", "fast", "-w", "stop"); err != nil {
		fmt.Fprintf(os.Stderr, "pg_ctl stop: %v\n%s", err, out)
	}
	if !keep {
		os.RemoveAll(pg.dir)
	}
}

// zproxyServer is a zproxy process on the embedded store in its own
// temporary directory.
type zproxyServer struct {
	*zpserver.Server
	dir string
}

// buildZproxy builds cmd/zproxy from the module at root into dir.
func buildZproxy(root, dir string) (string, error) {
	bin := filepath.Join(dir, "zproxy")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/zproxy")
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return bin, cmd.Run()
}

func startZproxy(bin string, port, metricsPort int, extra []string, pprof bool) (*zproxyServer, error) {
	dir, err := os.MkdirTemp("", "zproxy-bench-data-")
	if err != nil {
		return nil, err
	}
	args := append([]string{"--data-dir", filepath.Join(dir, "data")}, extra...)
	if pprof {
		args = append(args, "--pprof")
	}
	s, err := zpserver.Start(bin, filepath.Join(dir, "zproxy.log"), port, metricsPort, args...)
	if err != nil {
		return nil, err
	}
	return &zproxyServer{Server: s, dir: dir}, nil
}

func (z *zproxyServer) dsn() string { return z.DSN() }

// dataSize is the size of zproxy's store directory in bytes.
func (z *zproxyServer) dataSize() int64 {
	var total int64
	filepath.Walk(filepath.Join(z.dir, "data"), func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			total += info.Size()
		}
		return nil
	})
	return total
}

func (z *zproxyServer) stop(keep bool) {
	z.Stop()
	if !keep {
		os.RemoveAll(z.dir)
	}
}

// counters are the zproxy metrics the harness turns into per-class ratios.
type counters struct {
	rowsRead, rowsReturned, storeRequests float64
}

func (c counters) minus(o counters) counters {
	return counters{c.rowsRead - o.rowsRead, c.rowsReturned - o.rowsReturned, c.storeRequests - o.storeRequests}
}

// scrape reads the counters from zproxy's /metrics.
func (z *zproxyServer) scrape(ctx context.Context) (counters, error) {
	m, err := z.Scrape(ctx)
	if err != nil {
		return counters{}, err
	}
	return counters{
		rowsRead:      m.Sum("zproxy_rows_read_total", nil),
		rowsReturned:  m.Sum("zproxy_rows_returned_total", nil),
		storeRequests: m.Sum("zproxy_store_requests_total", nil),
	}, nil
}
