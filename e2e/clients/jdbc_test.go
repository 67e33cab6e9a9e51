package clients

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// jdbcJar is where Debian's libpostgresql-jdbc-java puts pgjdbc.
const jdbcJar = "/usr/share/java/postgresql.jar"

func TestJDBC(t *testing.T) {
	t.Parallel()
	javac := requireTool(t, "javac", "Debian package default-jdk-headless")
	java := requireTool(t, "java", "Debian package default-jdk-headless")
	requireFile(t, jdbcJar, "Debian package libpostgresql-jdbc-java")

	classes := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	compile := exec.CommandContext(ctx, javac, "-d", classes, "-cp", jdbcJar, "testdata/java/JdbcClient.java")
	if out, err := compile.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}

	s := startServer(t)
	for _, tc := range []struct{ name, table, props string }{
		// Unnamed statements for the first four executions, then a named
		// server-side statement with binary results.
		{"default", "t_jdbc", ""},
		// A named statement and binary results from the first execution.
		// (preferQueryMode=simple is left out: pgjdbc cannot inline a bytea
		// parameter there and sends a bare '?', against PostgreSQL too.)
		{"prepareThreshold=-1", "t_jdbc_binary", "prepareThreshold=-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"-cp", classes + ":" + jdbcJar, "JdbcClient", s.host, s.port, tc.table}
			if tc.props != "" {
				args = append(args, tc.props)
			}
			runClient(t, ".", nil, java, args...)
			checkStoredRows(t, s, tc.table)
		})
	}
}

// TestJDBCStreams runs testdata/java/JdbcStreams.java: CopyManager's
// copyIn and copyOut, and setFetchSize's batches of a portal.
func TestJDBCStreams(t *testing.T) {
	t.Parallel()
	javac := requireTool(t, "javac", "Debian package default-jdk-headless")
	java := requireTool(t, "java", "Debian package default-jdk-headless")
	requireFile(t, jdbcJar, "Debian package libpostgresql-jdbc-java")
	classes := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, javac, "-d", classes, "-cp", jdbcJar, "testdata/java/JdbcStreams.java").CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	tg := newClientTarget(t)
	runClient(t, ".", nil, java, append([]string{"-cp", classes + ":" + jdbcJar, "JdbcStreams"}, tg.args()...)...)
}
