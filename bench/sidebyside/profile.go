package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// profileClass runs class c's queries on zproxy, cycling through params,
// for seconds while fetching a CPU profile of the zproxy process from its
// /debug/pprof/profile (zproxy runs with --pprof), and writes the profile
// to dir/<class>.pprof. It runs after the timed queries so that profiling
// never skews the latencies reported.
func profileClass(ctx context.Context, zp *zproxyServer, conn *pgx.Conn, c queryClass, params [][]any, dir string, seconds int) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".pprof")
	url := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", zp.MetricsAddr, seconds)
	type fetched struct {
		body []byte
		err  error
	}
	done := make(chan fetched, 1)
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			done <- fetched{err: err}
			return
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- fetched{err: err}
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: %s: %s", url, resp.Status, body)
		}
		done <- fetched{body, err}
	}()
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		if _, err := runQuery(ctx, conn, c.zproxy, params[i%len(params)]); err != nil {
			return "", err
		}
	}
	f := <-done
	if f.err != nil {
		return "", f.err
	}
	return path, os.WriteFile(path, f.body, 0o644)
}
