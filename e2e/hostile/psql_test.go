package hostile

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// psql runs psql as user with password against s, with extra libpq
// settings in the connection string, feeding it script; errors show their
// SQLSTATE (VERBOSITY verbose) and stop it (ON_ERROR_STOP).
func psql(t *testing.T, s *server, user, password, extra, script string) (stdout, stderr string, err error) {
	t.Helper()
	bin := requireTool(t, "psql")
	host, port := s.hostPort()
	conninfo := fmt.Sprintf("host=%s port=%s user=%s dbname=zproxy connect_timeout=10 %s", host, port, user, extra)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=verbose", conninfo)
	cmd.Stdin = strings.NewReader(script)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Env = append(harness.CleanEnv(), "PGPASSWORD="+password, "PGCONNECT_TIMEOUT=10")
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// mustPsql is psql that fails the test on an error.
func mustPsql(t *testing.T, s *server, user, password, extra, script string) string {
	t.Helper()
	out, errOut, err := psql(t, s, user, password, extra, script)
	if err != nil {
		t.Fatalf("psql as %s: %v\n%s%s", user, err, out, errOut)
	}
	return out
}
