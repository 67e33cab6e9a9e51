package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
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

// zproxyServer is a zproxy process on the embedded store in a temporary
// data directory.
type zproxyServer struct {
	cmd         *exec.Cmd
	dir         string
	port        int
	metricsAddr string
	exited      chan error
}

// buildZproxy builds cmd/zproxy from the module at root into dir.
func buildZproxy(root, dir string) (string, error) {
	bin := filepath.Join(dir, "zproxy")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/zproxy")
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return bin, cmd.Run()
}

func startZproxy(bin string, port, metricsPort int) (*zproxyServer, error) {
	dir, err := os.MkdirTemp("", "zproxy-bench-data-")
	if err != nil {
		return nil, err
	}
	z := &zproxyServer{dir: dir, port: port, metricsAddr: fmt.Sprintf("127.0.0.1:%d", metricsPort), exited: make(chan error, 1)}
	logf, err := os.Create(filepath.Join(dir, "zproxy.log"))
	if err != nil {
		return nil, err
	}
	z.cmd = exec.Command(bin,
		"--data-dir", filepath.Join(dir, "data"),
		"--listen", fmt.Sprintf("127.0.0.1:%d", port),
		"--metrics-listen", z.metricsAddr,
		"--log-level", "warn")
	z.cmd.Stdout, z.cmd.Stderr = logf, logf
	if err := z.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { z.exited <- z.cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return z, nil
		}
		select {
		case err := <-z.exited:
			log, _ := os.ReadFile(filepath.Join(dir, "zproxy.log"))
			return nil, fmt.Errorf("zproxy exited: %v\n%s", err, log)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			z.stop(true)
			return nil, fmt.Errorf("zproxy did not accept connections on port %d", port)
		}
	}
}

func (z *zproxyServer) dsn() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=zproxy dbname=zproxy sslmode=disable", z.port)
}

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
	z.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-z.exited:
	case <-time.After(30 * time.Second):
		z.cmd.Process.Kill()
		<-z.exited
	}
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

// scrape reads the counters from zproxy's /metrics (Prometheus text format).
func (z *zproxyServer) scrape(ctx context.Context) (counters, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+z.metricsAddr+"/metrics", nil)
	if err != nil {
		return counters{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return counters{}, err
	}
	defer resp.Body.Close()
	var c counters
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		switch {
		case name == "zproxy_rows_read_total":
			c.rowsRead = v
		case name == "zproxy_rows_returned_total":
			c.rowsReturned = v
		case strings.HasPrefix(name, "zproxy_store_requests_total{"):
			c.storeRequests += v
		}
	}
	return c, sc.Err()
}
