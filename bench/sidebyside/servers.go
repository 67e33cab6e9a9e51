package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/zproxy/zproxy/bench/internal/zpserver"
	"github.com/zproxy/zproxy/e2e/harness"
)

// postgres is the throw-away PostgreSQL cluster of the shared e2e harness.
type postgres struct{ *harness.Postgres }

// startPostgres starts a cluster on 127.0.0.1:port with PostgreSQL's
// default settings (fsync, shared_buffers, synchronous_commit all left
// alone).
func startPostgres(bin string, port int) (*postgres, error) {
	pg, err := harness.StartPostgres(bin, port)
	if err != nil {
		return nil, err
	}
	return &postgres{pg}, nil
}

func (pg *postgres) dsn() string { return pg.DSN() }

// stop shuts the server down and removes the cluster unless keep is set.
func (pg *postgres) stop(keep bool) {
	if err := pg.Stop(keep); err != nil {
		fmt.Fprintln(os.Stderr, err)
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

func startZproxy(bin string, port, metricsPort int) (*zproxyServer, error) {
	dir, err := os.MkdirTemp("", "zproxy-bench-data-")
	if err != nil {
		return nil, err
	}
	s, err := zpserver.Start(bin, filepath.Join(dir, "zproxy.log"), port, metricsPort,
		"--data-dir", filepath.Join(dir, "data"))
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
