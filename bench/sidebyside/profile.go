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
	done := fetchProfile(ctx, zp, seconds, path)
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		if _, err := runQuery(ctx, conn, c.zproxy, params[i%len(params)]); err != nil {
			return "", err
		}
	}
	return path, <-done
}

// fetchProfile takes a CPU profile of zproxy for seconds into path in the
// background; the channel yields the outcome.
func fetchProfile(ctx context.Context, zp *zproxyServer, seconds int, path string) <-chan error {
	done := make(chan error, 1)
	url := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", zp.MetricsAddr, seconds)
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			done <- err
			return
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- err
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: %s: %s", url, resp.Status, body)
		}
		if err == nil {
			err = os.WriteFile(path, body, 0o644)
		}
		done <- err
	}()
	return done
}
