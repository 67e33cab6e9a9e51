package clients

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// jdbcJar is where Debian's libpostgresql-jdbc-java puts pgjdbc.
const jdbcJar = "/usr/share/java/postgresql.jar"

func TestJDBC(t *testing.T) {
	t.Parallel()
	java, classpath := compileJava(t, "JdbcClient.java")
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
			args := []string{"-cp", classpath, "JdbcClient", s.host, s.port, tc.table}
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
	java, classpath := compileJava(t, "JdbcStreams.java")
	tg := newClientTarget(t)
	runClient(t, ".", nil, java, append([]string{"-cp", classpath, "JdbcStreams"}, tg.args()...)...)
}

// compileJava compiles testdata/java/src against pgJDBC into a temporary
// directory (skipping, or failing in CI, when the JDK or the driver is
// missing) and returns the java binary and the class path to run it with.
func compileJava(t *testing.T, src string) (java, classpath string) {
	t.Helper()
	javac := requireTool(t, "javac", "Debian package default-jdk-headless")
	java = requireTool(t, "java", "Debian package default-jdk-headless")
	requireFile(t, jdbcJar, "Debian package libpostgresql-jdbc-java")
	classes := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, javac, "-d", classes, "-cp", jdbcJar, "testdata/java/"+src).CombinedOutput(); err != nil {
		t.Fatalf("javac %s: %v\n%s", src, err, out)
	}
	return java, classes + ":" + jdbcJar
}

// TestJDBCWrites runs testdata/java/JdbcWrites.java, with pgJDBC's defaults
// and with reWriteBatchedInserts=true: batch inserts, updates and deletes
// with autocommit off, committed and rolled back (and a batch failing on a
// duplicate key); getGeneratedKeys of a BIGSERIAL and an identity column,
// by RETURN_GENERATED_KEYS and by column names, also for a batch; the
// Savepoint API (named and unnamed savepoints, which pgJDBC sends quoted);
// and a write conflict of two REPEATABLE READ connections surfacing as a
// PSQLException with SQLState 40001.
func TestJDBCWrites(t *testing.T) {
	t.Parallel()
	java, classpath := compileJava(t, "JdbcWrites.java")
	tg := newClientTarget(t)
	runClient(t, ".", nil, java, append([]string{"-cp", classpath, "JdbcWrites"}, tg.args()...)...)
}

// TestJDBCCancelThroughAnotherProxy runs testdata/java/JdbcCancel.java
// against two proxies over one DynamoDB Local table behind a round-robin
// balancer: the session is on one proxy, Statement.cancel's CancelRequest
// lands on the other, which forwards it to the session's.
func TestJDBCCancelThroughAnotherProxy(t *testing.T) {
	t.Parallel()
	if os.Getenv("E2E_POSTGRES") != "" {
		t.Skip("needs two proxies over one DynamoDB table")
	}
	ep := dynamoEndpoint(t)
	java, classpath := compileJava(t, "JdbcCancel.java")
	table := fmt.Sprintf("clients_cancel_%d_%d", os.Getpid(), time.Now().UnixNano())
	a := startDynamoServer(t, ep, table)
	b := startDynamoServer(t, ep, table)
	lb, err := harness.NewRoundRobin(a.Addr(), b.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lb.Close() })
	host, port := lb.HostPort()
	runClient(t, ".", nil, java, "-cp", classpath, "JdbcCancel", host, port)
}
